"""The random bot: the baseline every rule-of-thumb bot is measured against.

It picks uniformly among the legal actions (seeded, so a run repeats).  Two
places need a word on what "uniform" means:

* Спекулянт lists ``bid P`` / ``sell P`` once, at ``minPrice``, for every whole
  price; the random bot names a price uniformly from ``minPrice`` to the pot.
  In a trade window it may also wait (``None``), one more choice among the rest.
* french3's ``buy`` lists every subset of the hand up to the widow's size, so a
  random eldest usually exchanges about six cards: that is random play.
"""

from __future__ import annotations

from typing import Sequence

from engine.bots.base import Bot, View
from engine.game import Action
from engine.games import registry


class RandomBot(Bot):
    """Uniform over ``legal`` (see the module docstring)."""

    kind = "random"

    def __init__(self, game: str, seed: int | None = None):
        super().__init__(game, seed)
        cls = registry().get(game)
        self.may_wait = cls is not None and cls.clocked  # a clocked game's window passes without him

    def _choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        rng = self.rng
        if self.may_wait and view.get("window"):
            pick = rng.randrange(len(legal) + 1)
            if pick == len(legal):
                return None
            action = legal[pick]
        else:
            action = legal[rng.randrange(len(legal))]
        if action.verb in ("bid", "sell") and action.args:
            low = action.args[0]
            return Action(action.verb, (rng.randint(low, max(low, view.get("pot", low))),))
        return action
