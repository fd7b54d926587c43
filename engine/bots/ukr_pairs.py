"""Rule-of-thumb Ukrainian pairs: ``TrickPlayer`` with the twelve trumps as one suit and a partner.

The partner sits opposite (R25).  Trumps are the jacks and the clubs, 6♣
highest (R26), so the player is told ``suit_of`` and ``power`` of the game.
A void player may play anything (no duty to trump), which ``legal`` already
says; the player trumps only when the opponents win the trick.

Default at the turn clock (``default``): the rule bot's card (every action is
a card here, and no card is "safer" than a sensible one).
"""

from __future__ import annotations

from typing import Sequence

from engine.bots.base import Bot, View
from engine.bots.trickplay import TrickPlayer
from engine.game import Action
from engine.games.ukr_pairs import TRUMP, power, suit_of


class UkrPairsBot(Bot):
    """The rule-of-thumb player (module docstring)."""

    kind = "rule"

    def __init__(self, game: str, seed: int | None = None):
        super().__init__(game, seed)
        self.player = TrickPlayer(36, suit_of, power)

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.player.observe(view, 36)  # before any shortcut: the memory must see every trick
        if len(legal) == 1:
            return legal[0]
        me = view["viewer"]
        trick = view["trick"]
        leader = trick[0][0] if trick else me
        order = [(leader + i) % 4 for i in range(4)]
        return self.player.choose(view, legal, TRUMP, order, partner=(me + 2) % 4)


def default(view: View, legal: Sequence[Action]) -> Action:
    """The turn clock's choice (module docstring)."""
    action = UkrPairsBot("ukr_pairs").choose(view, legal)
    assert action is not None
    return action
