"""Skill ratings per game: who plays each game well, not who was lucky tonight.

Every finished deal is a small tournament of the seats at it, ranked by the money each won (equal
money, equal place). OpenSkill's Plackett–Luce model rates such many-player results directly
(TrueSkill's published algorithm is patented and its Python ports rate only in pairs of teams), and
its updates are plain arithmetic: the same deals in the same order give the same figures to the
last bit, so a recompute from the records equals what was kept as it went.

A deal where everyone won the same says nothing about skill and moves nobody.  Ratings are per game
and, where its variants are different games (Стуколка а–г), per variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Protocol, Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
PROVISIONAL_DEALS = 20
"""Fewer deals than this and a rating is shown as provisional (``?``): its uncertainty is still large."""

TAU = MU / 3000
"""How much a rating may drift between two deals: it keeps a rating able to follow a player who improves,
and so bounds how sure it ever gets.  A card deal is mostly luck, so OpenSkill's default (MU/300) let
the last few hundred deals' luck decide: two equally strong bots stood as far apart as a search bot and
a rule bot.  A tenth of it remembers some thousands of deals and still follows a player who changes
over weeks of play.  Changing it needs the kept ratings made again (``engine.store.ratings.rerate_kept``)."""



@lru_cache(maxsize=8)
def _model(tau: float) -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, tau=tau)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill in one game: a mean, its uncertainty, and how many deals made it."""

    mu: float = MU
    sigma: float = SIGMA
    deals: int = 0

    @property
    def shown(self) -> int:
        """The figure people see: a cautious estimate (mean less three deviations), 1500 to begin with."""
        return round(1500 + 60 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS

    def label(self) -> str:
        return f"{self.shown}{'?' if self.provisional else ''}"


def rating_key(game: str, options: Mapping[str, object] | None = None) -> str:
    """The rating a game's deal counts for: the game, and its variant where that changes the game."""
    from engine.games import get_game

    cls = get_game(game)
    variant = (options or {}).get("variant") if cls.variant_labels else None
    if variant is None and cls.variant_labels:
        variant = next(o.default for o in cls.options_spec if o.name == "variant")
    return f"{game}/{variant}" if variant else game


def rate_deal(current: Mapping[str, Rating], money: Mapping[str, int], tau: float = TAU) -> dict[str, Rating]:
    """The new ratings of the players of one deal, ranked by the money each won in it.

    ``current`` holds what is known of them (a player missing starts at the prior); the answer has
    one entry per player of the deal, or none when the deal says nothing (all won the same).  ``tau`` is
    the drift allowed per deal (the arena compares others)."""
    names = sorted(money)
    if len(names) < 2 or len({money[n] for n in names}) < 2:
        return {}
    olds = [current.get(n, Rating()) for n in names]
    model = _model(tau)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in olds]
    order = sorted({money[n] for n in names}, reverse=True)
    ranks: list[float] = [float(order.index(money[n]) + 1) for n in names]
    rated = model.rate(teams, ranks=ranks)
    return {n: Rating(team[0].mu, team[0].sigma, old.deals + 1) for n, team, old in zip(names, rated, olds)}


class RatingsView(Protocol):
    """What a club's sessions read of the ratings: a copy kept up to date off the loop."""

    book: dict[str, dict[str, Rating]]

    def of(self, name: str) -> dict[str, Rating]: ...


def game_of(key: str) -> tuple[str, str]:
    """A rating key's game and variant (``stukolka/v`` → ``("stukolka", "v")``)."""
    game, _, variant = key.partition("/")
    return game, variant


@dataclass(frozen=True, slots=True)
class RatedDeal:
    """One deal's money per player, for the rating its game counts in."""

    key: str
    money: Mapping[str, int]


def replay_all(deals: Iterable[RatedDeal], tau: float = TAU) -> dict[str, dict[str, Rating]]:
    """Every rating from nothing, deal by deal in the order given (the recompute)."""
    book: dict[str, dict[str, Rating]] = {}
    for deal in deals:
        ratings = book.setdefault(deal.key, {})
        ratings.update(rate_deal(ratings, deal.money, tau))
    return book


def table_of(ratings: Mapping[str, Rating], limit: int = 10) -> list[tuple[str, Rating]]:
    """The best first: by the shown figure, then more deals, then name (so equal figures keep an order)."""
    ranked = sorted(ratings.items(), key=lambda item: (-item[1].shown, -item[1].deals, item[0]))
    return ranked[:limit]


def deals_of(game: str, options: Mapping[str, object], players: Sequence[str],
             per_deal_money: Sequence[Mapping[str, int]], identities: Mapping[str, str]) -> list[RatedDeal]:
    """A record's deals as rated deals: each seat's money under the identity it is rated as."""
    key = rating_key(game, options)
    return [RatedDeal(key, {identities.get(p, p): int(m.get(p, 0)) for p in players}) for m in per_deal_money]
