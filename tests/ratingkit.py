"""Rated arenas: bots of known strength in rotating seats, each deal rated as the club rates it.

Used by the ratings tests and ``tests/bench/rating_arena.py``: random, rule and search bots sit in
every seat in turn (a new seating each session), every deal's money goes through
``engine.ratings.rate_deal``, and the ratings should then order the bots as their strength does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.bots import make_bot
from engine.bots.arena import Arena
from engine.game import Game, ShuffledDecks
from engine.games import get_game
from engine.ratings import RatedDeal, Rating, rate_deal, rating_key
from engine.record import record_of

MAX_SESSION = 12
LONGEST_SESSION = 400
"""A game that has not reached its natural end after this many deals is cut (a safety bound only)."""


@dataclass(frozen=True)
class Case:
    label: str
    game: str
    players: int
    options: dict[str, Any]


CASES = [
    Case("stukolka a", "stukolka", 4, {"variant": "a", "rounds": 1, "remiz_cap": 90}),
    Case("stukolka b", "stukolka", 4, {"variant": "b", "rounds": 1, "remiz_cap": 90}),
    Case("stukolka v", "stukolka", 5, {"variant": "v", "rounds": 1, "remiz_cap": 90, "dark": True}),
    Case("stukolka g", "stukolka", 4, {"variant": "g", "rounds": 1, "remiz_cap": 90}),
    Case("kopilka", "kopilka", 4, {}),
    Case("french3", "french3", 3, {}),
    Case("ukr_pairs", "ukr_pairs", 4, {}),
    Case("speculator", "speculator", 4, {}),
]


def identities(players: int, kinds: tuple[str, ...]) -> list[str]:
    """The bots at the table: the kinds in turn until every seat has one (``search1``, ``rule1``, …)."""
    count: dict[str, int] = {}
    out = []
    for seat in range(players):
        kind = kinds[seat % len(kinds)]
        count[kind] = count.get(kind, 0) + 1
        out.append(f"{kind}{count[kind]}")
    return out


def _bot(game: str, who: str, seed: int, budget: float | None, iterations: int | None) -> Any:
    kind = who.rstrip("0123456789")
    if kind == "search":
        from engine.bots.search import SearchBot

        return SearchBot(game, seed, budget=budget, iterations=iterations)
    return make_bot(game, kind, seed)


def _session_over(game: Game, deals: int) -> bool:
    """Стуколка's session is cut after ``MAX_SESSION`` deals (it may go on for ever); the others play to
    their natural end, for the French game and the pairs game pay only when their game or match ends."""
    if game.name == "stukolka":
        return game.is_over() or deals >= MAX_SESSION
    if game.name == "speculator":
        return True
    return game.natural_end() or deals >= LONGEST_SESSION


@dataclass
class RatedArena:
    """The deals played and the ratings they made, for one case."""

    case: Case
    deals: list[RatedDeal] = field(default_factory=list)
    sessions: list[int] = field(default_factory=list)
    """The session each deal was played in: a session's deals share a pot and a seating, so are not independent."""
    ratings: dict[str, Rating] = field(default_factory=dict)


def play_rated(case: Case, kinds: tuple[str, ...], deals: int, seed: int, *, budget: float | None = None,
               iterations: int | None = 8, stop: Callable[[], bool] | None = None) -> RatedArena:
    """``deals`` deals of ``case`` between bots of ``kinds``, a new seating each session; fewer when
    ``stop`` says so between two sessions (a bench's deadline)."""
    cls = get_game(case.game)
    key = rating_key(case.game, case.options)
    who = identities(case.players, kinds)
    names = [f"P{i}" for i in range(case.players)]
    rng = random.Random(seed)
    arena_out = RatedArena(case)
    session = 0
    while len(arena_out.deals) < deals and not (stop and session and stop()):
        seating = rng.sample(who, len(who))  # every bot in every seat and beside every partner, in the long run
        bots = [_bot(case.game, w, rng.randrange(2**32), budget, iterations) for w in seating]
        game = cls(names, case.options, dealer=rng.randrange(case.players))
        arena = Arena(game, bots, rng=random.Random(rng.randrange(2**32)))
        decks = ShuffledDecks(cls.deck_size, rng.randrange(2**63))
        played = 0
        while len(arena_out.deals) < deals:
            money = arena.play_deal(decks)
            played += 1
            deal = RatedDeal(key, dict(zip(seating, money)))
            arena_out.deals.append(deal)
            arena_out.sessions.append(session)
            arena_out.ratings.update(rate_deal(arena_out.ratings, deal.money))
            if _session_over(game, played):
                break
        session += 1
    return arena_out


PEOPLE = ("Anna", "Boris", "Vera")


def save_games(store: Any, count: int, seed: int, finished_at: float = 1000.0) -> int:
    """``count`` whole French games of two people and a house bot ("Bot Ivan"); the deals saved."""
    rng = random.Random(seed)
    cls = get_game("french3")
    deals = 0
    for n in range(count):
        names = ["Anna", "Boris", "Bot Ivan"] if n % 2 else ["Vera", "Bot Ivan", "Anna"]
        game = cls(names, {}, dealer=rng.randrange(3))
        arena = Arena(game, [make_bot("french3", "rule", rng.randrange(99)) for _ in names], rng=rng)
        decks = ShuffledDecks(cls.deck_size, rng.randrange(2**62))
        while not game.deals or not game.natural_end():  # a whole game: the French game pays at its end
            arena.play_deal(decks)
            deals += 1
        accounts = {p: p for p in names if p in PEOPLE}
        store.save_record(record_of(game), accounts=accounts, result=game.result(), now=finished_at + n)
    return deals


def accounts(store: Any) -> None:
    for name in PEOPLE:
        if store.account(name) is None:
            store.create_account(name, grant=10_000)
