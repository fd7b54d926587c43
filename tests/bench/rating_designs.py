"""Ways to rate one deal, for the arena to compare on identical deals.

``places``: OpenSkill's Plackett–Luce on the deal's places (who won more money), every deal alike.
``stake``: the same update, scaled by what the deal moved (the money won and lost over two, in the
game's stakes, 1 … ``CAP``): a big pot counts more.  OpenSkill's own ``weights`` cannot do this: they
are a player's share of a team's result, rescaled within each team (a one-player team always gets the
upper bound), and they raise a gain but shrink a loss.  So the update is tempered by hand: the change
of mean times w, the variance's shrink factor 1 − w·(1 − f), as if the deal were seen w times.
``margin``: every pair of players at the deal is a result of its own, its update tempered by the money
between the two (in stakes, ≤ ``CAP``, over the n − 1 pairs a player has): who wins big pots gains
more than who wins small ones, and the ratings follow money, not only places.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from openskill.models import PlackettLuce

from engine.ratings import MU, SIGMA, TAU, RatedDeal, Rating

CAP = 10.0
"""The most stakes one deal (or one pair) counts for: a freak pot cannot decide a rating alone."""

Design = Callable[[Mapping[str, Rating], Mapping[str, int], float, int], dict[str, Rating]]


@lru_cache(maxsize=8)
def _model(tau: float) -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, tau=tau)


def _says_nothing(money: Mapping[str, int]) -> bool:
    return len(money) < 2 or len(set(money.values())) < 2


def _ranks(money: Mapping[str, int], names: list[str]) -> list[float]:
    order = sorted({money[n] for n in names}, reverse=True)
    return [float(order.index(money[n]) + 1) for n in names]


def _tempered(old: Rating, new_mu: float, new_sigma: float, tau: float, weight: float) -> tuple[float, float]:
    """The change from ``old`` to (new_mu, new_sigma), as if its evidence were seen ``weight`` times."""
    variance = old.sigma ** 2 + tau ** 2
    shrink = new_sigma ** 2 / variance
    return old.mu + weight * (new_mu - old.mu), variance * max(1 - weight * (1 - shrink), _model(tau).kappa)


def places(current: Mapping[str, Rating], money: Mapping[str, int], tau: float = TAU,
           unit: int = 1) -> dict[str, Rating]:
    if _says_nothing(money):
        return {}
    names = sorted(money)
    olds = [current.get(n, Rating()) for n in names]
    model = _model(tau)
    rated = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in olds], ranks=_ranks(money, names))
    return {n: Rating(t[0].mu, t[0].sigma, o.deals + 1) for n, t, o in zip(names, rated, olds)}


def stake(current: Mapping[str, Rating], money: Mapping[str, int], tau: float = TAU,
          unit: int = 1) -> dict[str, Rating]:
    if _says_nothing(money):
        return {}
    names = sorted(money)
    olds = [current.get(n, Rating()) for n in names]
    weight = min(CAP, max(1.0, sum(abs(m) for m in money.values()) / 2 / max(1, unit)))
    model = _model(tau)
    rated = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in olds], ranks=_ranks(money, names))
    out = {}
    for name, team, old in zip(names, rated, olds):
        mu, variance = _tempered(old, team[0].mu, team[0].sigma, tau, weight)
        out[name] = Rating(mu, math.sqrt(variance), old.deals + 1)
    return out


def margin(current: Mapping[str, Rating], money: Mapping[str, int], tau: float = TAU,
           unit: int = 1) -> dict[str, Rating]:
    if _says_nothing(money):
        return {}
    names = sorted(money)
    olds = {n: current.get(n, Rating()) for n in names}
    drifted = {n: Rating(r.mu, math.sqrt(r.sigma ** 2 + tau ** 2), r.deals) for n, r in olds.items()}
    model = _model(0.0)  # the drift is added once a deal above, not once a pair
    moved = {n: 0.0 for n in names}
    shrink = {n: 1.0 for n in names}
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            gap = money[first] - money[second]
            if not gap:
                continue
            weight = min(CAP, abs(gap) / max(1, unit)) / (len(names) - 1)
            a, b = drifted[first], drifted[second]
            rated = model.rate([[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]],
                               ranks=[1.0, 2.0] if gap > 0 else [2.0, 1.0])
            for name, old, new in ((first, a, rated[0][0]), (second, b, rated[1][0])):
                moved[name] += weight * (new.mu - old.mu)
                shrink[name] *= max(1 - weight * (1 - new.sigma ** 2 / old.sigma ** 2), model.kappa)
    return {n: Rating(olds[n].mu + moved[n], drifted[n].sigma * math.sqrt(max(shrink[n], model.kappa)),
                      olds[n].deals + 1) for n in names}


DESIGNS: dict[str, Design] = {"places": places, "stake": stake, "margin": margin}


def replay(deals: Iterable[RatedDeal], design: Design, tau: float = TAU, unit: int = 1) -> dict[str, dict[str, Rating]]:
    book: dict[str, dict[str, Rating]] = {}
    for deal in deals:
        ratings = book.setdefault(deal.key, {})
        ratings.update(design(ratings, deal.money, tau, unit))
    return book
