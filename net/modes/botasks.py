"""A bot's asks at one table: which are open, which ended, what an ``act`` may still answer.

Decisions (why):

- An ask belongs to a *decision*: one turn of a turn-based game, or one trade
  window of Спекулянт (R64).  Another seat's move never ends a seat's
  decision; it gives a new ask only when it changes what this seat may do (a
  bid gives the holder an ``accept``), so a bot that answers at once is not
  overtaken by its neighbours' moves.  The seat's own accepted act ends the
  ask it answered and every older one; asks offered after it stay open.
- An older ask of the same decision stays answerable while what it allowed is
  still allowed: the bot that pressed ``ready`` before it saw a bid is where a
  person pressing the same key would be.  What it allowed and no longer is, or
  any ask of a decision that is over (the seat moved, the window closed, the
  deal ended), is ``bot.stale_ask`` — never the engine's refusal of a move
  that was legal when it was sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.game import Action
from engine.table.face import TableLike


def decision_of(game: Any) -> tuple:
    """What one decision is: a new value ends every ask of it (see the module docstring)."""
    deal = game.deals[-1] if game.deals else None
    actions = deal.actions if deal is not None else []
    if hasattr(game, "window_open"):  # Спекулянт: many seats act at once in a window (R64)
        reveals = sum(1 for _, action in actions if action.verb == "reveal")
        return id(game), game.deal_no, reveals, bool(game.window_open)
    return id(game), game.deal_no, len(actions)


@dataclass(slots=True)
class Asks:
    """The asks of one seat at one table."""

    decision: tuple | None = None
    open: dict[int, Sequence[Action]] = field(default_factory=dict)
    """Ask number → the legal actions it offered; the last one is the current ask."""
    shown: tuple[str, ...] = ()
    """The current ask's legal actions as text (a new ask only when these change)."""
    last_issued: int = 0
    seqs: dict[int, int] = field(default_factory=dict)
    """Ask number → the table's last event number when it was issued (an ``act`` may name that instead)."""

    @property
    def current(self) -> int | None:
        return next(reversed(self.open)) if self.open else None

    def needs(self, decision: tuple, shown: tuple[str, ...]) -> bool:
        """Whether the seat's state calls for a new ask; a new decision ends the old ones first."""
        if decision != self.decision:
            self.decision = decision
            self.open.clear()
            self.seqs.clear()
            self.shown = ()
        return not self.open or shown != self.shown

    def issue(self, number: int, legal: Sequence[Action], shown: tuple[str, ...], seq: int = 0) -> None:
        self.open[number] = legal
        self.seqs[number] = seq
        self.shown = shown
        self.last_issued = number

    def answered(self, ask: int) -> None:
        """The seat's act on ``ask`` was accepted: it and every older ask are over."""
        for number in [n for n in self.open if n <= ask]:
            del self.open[number]
            self.seqs.pop(number, None)
        if not self.open:
            self.shown = ()

    def end(self) -> None:
        """No move is open for the seat (not its turn, the window closed, the deal ended)."""
        self.decision = None
        self.open.clear()
        self.seqs.clear()
        self.shown = ()

    def at_seq(self, seq: int) -> int:
        """The ask an ``act`` naming ``seq`` answers: the newest open one issued by then (0: none; -1: none
        was ever issued here, so the table answers)."""
        if not self.last_issued:
            return -1
        return max((ask for ask, issued in self.seqs.items() if issued <= seq), default=0)

    def is_stale(self, ask: int, action: Action | None, legal_now: Sequence[Action]) -> bool:
        """Whether an ``act`` on ``ask`` is answered ``bot.stale_ask`` rather than handed to the table.

        A number never issued here while nothing is open is not stale: the table answers (not your turn,
        no deal)."""
        if ask not in self.open:
            return 0 < ask <= self.last_issued or bool(self.open)
        if ask == self.current or action is None:
            return False
        return _allows(self.open[ask], action) and not _allows(legal_now, action)


def _allows(legal: Sequence[Action], action: Action) -> bool:
    try:
        return action in legal
    except Exception:  # a legal list that cannot compare this action: the table will say
        return False


# --- what a turn offers ------------------------------------------------------------

CARDS = "CARDS"
"""The placeholder of a choice of cards in a ``turn``'s ``legal`` (described in its ``patterns``)."""


def legal_for(table: TableLike, name: str) -> Sequence[Action]:
    """The seat's legal actions as the game answers them without listing them (a French buy's 4096)."""
    game, seat = table.game, table.seat_of(name)
    if game is None or seat is None:
        return table.legal_actions(name)
    legal = game.legal_sequence(seat)
    return legal if legal else table.legal_actions(name)


def offered(legal: Sequence[Action]) -> tuple[tuple[str, ...], dict[str, Any] | None]:
    """The ``legal`` texts of a turn and its ``patterns``: a choice of cards is described, not listed.

    The French exchange (R19) lets a buyer discard any 0…k cards of his hand: ``buy`` alone and
    ``buy CARDS`` with the hand and the limits, instead of up to 4096 lines."""
    from engine.games.french3 import Buys

    if isinstance(legal, Buys):
        if legal.most == 0:
            return ("buy",), None
        cards = [card.text() for card in legal.hand]
        pattern = {CARDS: {"cards": cards, "min": 1, "max": legal.most, "distinct": True}}
        return ("buy", f"buy {CARDS}"), {f"buy {CARDS}": pattern}
    return tuple(action.text() for action in legal), None
