"""Rule-of-thumb Спекулянт: price the best card by its chance to hold, buy below it, sell above it.

The current best card takes the pot if none of the reveals still to come
beats it and the K♠ does not come first (it redeals, and the card is gone).
The reveals to come are a uniform draw from the cards the seat has not seen,
so the chance is hypergeometric:

    hold = C(U − B − 1, R) / C(U, R)

with U unseen cards (the K♠ among them: it is never on the board), B of them
beating the best card, R reveals to come.  The card is worth ``hold × pot``
to whoever holds it (the rest of the deal is the same for everybody).

* A bidder raises the highest standing bid by ``RAISE`` of the worth (one
  kopeck at least) while that stays under ``BUY_SHARE`` of the worth, then
  says ``ready``.
* The holder accepts the highest bid at or above ``SELL_SHARE`` of the worth,
  else says ``ready``.
* A seat with nothing to add waits (``None``): the window closes when all
  are ready or by its clock.  Without a live clock (a record) a ready
  revealer turns the next card, which closes the window.

Default at the turn clock (``default``): ``reveal`` on one's turn, ``ready``
in a window; ``None`` (nothing to do) for a seat that is ready already.
"""

from __future__ import annotations

from math import comb
from typing import Sequence

from engine.bots.base import Bot, View, seat_of
from engine.cards import deck
from engine.game import Action
from engine.games.speculator import SPECULATOR, Speculator, beats  # R62's order, as the game states it

DECK = deck(Speculator.deck_size)
BUY_SHARE = 0.8
SELL_SHARE = 1.0
RAISE = 0.05
"""A raise over the highest bid, as a share of the worth (a bidding war ends in a few rounds)."""
REVEAL, READY = Action("reveal"), Action("ready")


def hold_chance(view: View) -> float:
    """The chance that the current best card takes the pot (module docstring)."""
    best = view["best"]
    if best is None:
        return 0.0
    board = {c for _, c in view["trick"]}
    pool = [c for c in DECK if c not in board]
    to_come = view["reveals_total"] - view["reveals"]
    beaters = sum(1 for c in pool if c != SPECULATOR and beats(c, best))
    safe = len(pool) - beaters - 1
    if to_come > safe:
        return 0.0
    return comb(safe, to_come) / comb(len(pool), to_come)


class SpeculatorBot(Bot):
    """The rule-of-thumb trader (module docstring)."""

    kind = "rule"
    may_wait = True

    def _choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        if not view["window"]:
            return legal[0]  # the revealer's reveal: the one thing to do
        me = seat_of(view)
        worth = hold_chance(view) * view["pot"]
        bids: dict[int, int] = view["bids"]
        ready = me in view["ready"]
        if me == view["holder"]:
            if bids:
                buyer, price = max(bids.items(), key=lambda b: (b[1], -b[0]))
                if price >= SELL_SHARE * worth:
                    action = Action("accept", (view["names"][buyer],))
                    if action in legal:
                        return action
        else:
            top = max(bids.values(), default=0)
            mine = bids.get(me, 0)
            price = max(view["options"]["minPrice"], top + max(1, int(worth * RAISE)))
            if mine < top or mine == 0:
                if price <= BUY_SHARE * worth:
                    return Action("bid", (price,))
        if not ready and READY in legal:
            return READY
        if REVEAL in legal:
            return REVEAL  # a record's window: the ready revealer closes it (§9.2)
        return None


def default(view: View, legal: Sequence[Action]) -> Action | None:
    """The turn clock's choice (module docstring)."""
    if not view["window"] and REVEAL in legal:
        return REVEAL
    if READY in legal:
        return READY
    return None
