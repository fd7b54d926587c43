"""Rule-of-thumb French three-hander: keep the hand, play the tricks with ``TrickPlayer``.

Every card exchanged is a point above the line for certain (R22), and a new
card is worth at most a trick; so the bot exchanges only cards that cannot
take a trick when it holds trumps to ruff with: its low singletons of side
suits (the new card may be better and the void lets it trump), never more
than two.  In the no-trump deal it keeps all.

Defaults at the turn clock (``default``): ``buy`` alone (keep all, nothing
written above the line); cards by the rule bot.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.bots.base import Bot, View, hand_of
from engine.bots.trickplay import TrickPlayer
from engine.game import Action

KEEP_ALL = Action("buy")
LOW = 9
"""Side cards up to this rank count as unable to take a trick."""


class French3Bot(Bot):
    """The rule-of-thumb player (module docstring)."""

    kind = "rule"

    def __init__(self, game: str, seed: int | None = None):
        super().__init__(game, seed)
        self.player = TrickPlayer(48)

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        if view["phase"] == "exchange":
            return legal[0] if len(legal) == 1 else self._exchange(view)
        self.player.observe(view, 36)  # before any shortcut: the memory must see every trick
        if len(legal) == 1:
            return legal[0]
        trick = view["trick"]
        leader = trick[0][0] if trick else view["viewer"]
        order = [(leader + i) % 3 for i in range(3)]
        return self.player.choose(view, legal, view["trump"], order)

    def _exchange(self, view: View) -> Action:
        trump = view["trump"]
        hand = hand_of(view)
        if trump is None or sum(1 for c in hand if c.suit == trump) < 3:
            return KEEP_ALL
        counts = Counter(c.suit for c in hand)
        drop = [c for c in hand if c.suit != trump and counts[c.suit] == 1 and c.rank <= LOW]
        drop = sorted(drop, key=lambda c: c.rank)[:min(2, view["widow_count"])]
        return Action("buy", tuple(sorted(drop)))


def default(view: View, legal: Sequence[Action]) -> Action:
    """The turn clock's choice (module docstring)."""
    if KEEP_ALL in legal:
        return KEEP_ALL
    action = French3Bot("french3").choose(view, legal)
    assert action is not None
    return action
