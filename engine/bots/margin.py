"""The decision margin of the search bots: leave the rule bot's choice only for a clear gain.

Why: the search bot is measured paired against the rule bot in its seat on the
same deals, so the difference is made only where it leaves the rule bot's
choice.  With a few noisy imagined worlds most such departures chase noise:
they add variance and little mean.  So the rule bot's choice is the anchor, and
another candidate is taken only if, over the same worlds (and the same rule-bot
playout seeds: common random numbers), its mean difference to the anchor is
more than ``k`` standard errors above 0, over ``min_worlds`` worlds at least.
Every searched game decides through ``choose`` (``engine.bots.search`` for the
replayed games, ``engine.bots.speculator_search`` for Спекулянт's windows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence, TypeVar

K = TypeVar("K", bound=Hashable)

MARGIN = 1.5
"""Standard errors by which a candidate must beat the anchor (tuned: tests/bench/bot_bench.py --margin)."""
MIN_WORLDS = 4
"""Worlds that weighed both the candidate and the anchor, at least, before the anchor is left."""
MIN_EFFECTIVE = 1.5
"""Fewer effective worlds than this (Kish's size of uneven weights) leave the anchor's choice."""


@dataclass(frozen=True)
class Margin:
    """How clear a gain must be: ``k`` standard errors over ``min_worlds`` worlds at least."""

    k: float = MARGIN
    min_worlds: int = MIN_WORLDS
    min_effective: float = MIN_EFFECTIVE

    def __post_init__(self) -> None:
        if not self.k >= 0 or self.min_worlds < 2:  # k = inf: never leave (the rules at a search's cost)
            raise ValueError(f"a margin needs k ≥ 0 and at least 2 worlds, not k={self.k}, n={self.min_worlds}")

    def score(self, diffs: Sequence[float], weights: Sequence[float] | None = None,
              floor: float = 0.0) -> float:
        """The lower bound ``mean − k·SE`` of a candidate's weighted differences to the anchor
        (``-inf``: too few worlds to say); ``floor`` is the least variance of one difference."""
        if len(diffs) < self.min_worlds:
            return -math.inf
        w = list(weights) if weights is not None else [1.0] * len(diffs)
        total = sum(w)
        if total <= 0:
            return -math.inf
        n_eff = total * total / max(1e-300, sum(x * x for x in w))
        if n_eff < self.min_effective:
            return -math.inf
        mean = sum(x * d for x, d in zip(w, diffs)) / total
        var = sum(x * (d - mean) ** 2 for x, d in zip(w, diffs)) / total * n_eff / (n_eff - 1)
        se = math.sqrt(max(floor, var) / n_eff)
        if math.isinf(self.k):
            return -math.inf
        return mean - self.k * se  # a gain the same in every world (se 0) is taken at any finite k

    def choose(self, rows: Sequence[Mapping[K, float]], anchor: K,
               candidates: Iterable[K], weights: Sequence[float] | None = None,
               floor: float = 0.0) -> K:
        """The candidate whose lower bound over the rows (one a world: candidate → result) is highest
        and above 0; else ``anchor``.  A candidate within the margin is never taken."""
        w = list(weights) if weights is not None else [1.0] * len(rows)
        chosen, best = anchor, 0.0
        for action in candidates:
            if action == anchor:
                continue
            pairs = [(x, r[action] - r[anchor]) for x, r in zip(w, rows) if action in r and anchor in r]
            score = self.score([d for _, d in pairs], [x for x, _ in pairs], floor)
            if score > best:
                chosen, best = action, score
        return chosen
