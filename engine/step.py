"""One change a game made, as a value: what a journal writes and a replay repeats.

``Game.deal_step``, ``Game.apply_step`` and ``Game.tick_step`` (``engine.game``)
return a ``Step``: the seat and the normalized action (for an action), the
events told, the money the change moved (per seat, and into the pot) and the
deck orders it drew (a deal's first, a redeal's); ``tick_step`` gives None
when the time changed nothing.  Nothing else is needed to
write the change down, so a journal never reads the live game back (which
action did it log? which balances changed since the last write?).

Why a value: a ``Step`` holds no reference into the live game, so a journal
may keep it and write it after the game has moved on — from another thread,
or batched into one commit with the next ones — which a PostgreSQL commit of
5–10 ms asks for (``engine.table.journal``).

Why beside ``apply`` rather than instead of it: ``Game.apply``/``start_deal``/
``tick`` keep returning the events, for the rule tests and for the bots'
rollouts (``engine.bots.search`` applies thousands of moves a decision and
needs no money or decks); building a ``Step`` costs a copy of the deal's
money, which only the table's one real change pays.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.cards import Card

DEAL = "deal"
ACTION = "action"
TICK = "tick"
KINDS = (DEAL, ACTION, TICK)


class Step(NamedTuple):
    """One change of a deal: its start (``deal``), an action, or a tick that the time caused.

    Immutable, like ``Event`` and ``Action``; a named tuple rather than a frozen dataclass because the
    table makes one per action: a third of the cost (1 µs against 2.7 µs here, measured; a frozen dataclass sets each
    of its eight fields through ``object.__setattr__``).
    """

    kind: str  # DEAL, ACTION or TICK
    deal_no: int  # the deal it belongs to (a deal step: the new deal)
    seat: int | None  # who acted (None: a deal or a tick)
    action: Any  # the ``engine.game.Action`` as the game logged it (normalized); None for a deal or a tick
    events: tuple  # the events told, in order (public, ``engine.game.Event``)
    money: tuple[int, ...]  # each seat's gain from this change (negative: paid), kopecks
    pot: int  # what went into the pot (negative: taken from it)
    decks: tuple[tuple[Card, ...], ...]  # the deck orders this change drew, in order

    def moved(self) -> list[tuple[int | None, int]]:
        """The money as (seat, amount) pairs, the pot as seat None; only what is not zero."""
        out: list[tuple[int | None, int]] = [(seat, amount) for seat, amount in enumerate(self.money) if amount]
        if self.pot:
            out.append((None, self.pot))
        return out
