"""The one replay loop: a record's replay, a rebuild and a journal's restore make their moves here.

A ``Move`` is what a record or a journal keeps of one change: a deal (its
deck orders), an action (seat and text) or a tick, with the table's game
time (``clock``) a journal wrote with it.  ``play(game, moves)`` makes each
move the way ``engine.table.owner.Table`` made it live — the time first (a clocked
game put on the clock, then told the time before an action or a tick), then
the change — and yields every ``engine.step.Step`` that changed something.

Who feeds it: ``engine.record`` (``record_moves``: ``replay``, ``rebuild``),
``tui.replay.frames`` (the same moves, a frame per step) and
``engine.store.base.replay_journal`` (a live table's journal; ``engine.table.keeper``
restores a table from the steps of the deal in play).  So a record, its
rebuild and a journal restore cannot drift apart: they are one loop.

A move that does not replay raises ``ReplayError`` with the source's label of
that move (``where``: a journal entry, a record's deal and line) and the
rules' reason (``cause``); a source that cannot even say what its next move
is raises ``ReplayError`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from engine.cards import CardError
from engine.game import DeckError, Game, GivenDecks, IllegalAction
from engine.step import ACTION, DEAL, TICK, Step

REPLAY_ERRORS = (IllegalAction, DeckError, CardError, KeyError, TypeError, ValueError, IndexError, OverflowError,
                 RecursionError)
"""What the rules (or a hostile record's numbers) raise for a move that cannot be made."""


@dataclass(frozen=True)
class Move:
    """One change as a record or a journal keeps it."""

    kind: str  # DEAL, ACTION or TICK
    seat: int | None = None  # an action's seat
    text: str = ""  # an action in notation ("play Q♠")
    decks: tuple = ()  # a deal's deck orders: the first, then its redeals
    clock: float | None = None  # the table's game time told with it (a journal's; a record has none)
    where: Any = None  # the source's label of this move, for its errors


class ReplayError(Exception):
    """A move that does not replay: ``where`` is the source's label, ``cause`` the reason."""

    def __init__(self, where: Any, cause: BaseException):
        super().__init__(str(cause))
        self.where = where
        self.cause = cause


def play(game: Game, moves: Iterable[Move]) -> Iterator[Step]:
    """Make ``moves`` on ``game`` as a table made them live; yield each step that changed something."""
    move: Move | None = None
    try:
        for move in moves:
            if move.clock is not None:
                _tell_clock(game, move.clock)
                if move.kind != DEAL and game.in_deal:
                    ticked = game.tick_step(move.clock)
                    if ticked is not None:
                        yield ticked
            if move.kind == DEAL:
                yield game.deal_step(GivenDecks(move.decks))
            elif move.kind == ACTION:
                yield game.apply_step(move.seat, move.text)  # type: ignore[arg-type]
            elif move.kind != TICK:
                raise ValueError(f"unknown move {move.kind!r}")
    except REPLAY_ERRORS as err:
        raise ReplayError(move.where if move is not None else None, err) from err


def _tell_clock(game: Game, clock: float) -> None:
    """What ``Table._clock`` does with its ``now``: a clocked game goes on the clock (its events, as live, untold)."""
    if game.clocked and not game.live_clock:
        game.start_clock(clock)


def replay_all(game: Game, moves: Iterable[Move]) -> Game:
    """Every move made; the rules' own exception (``IllegalAction``, ``DeckError``…) if one is refused."""
    try:
        for _ in play(game, moves):
            pass
    except ReplayError as err:
        raise err.cause from None
    return game


__all__ = ["ACTION", "DEAL", "TICK", "Move", "REPLAY_ERRORS", "ReplayError", "play", "replay_all"]
