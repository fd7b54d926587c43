"""The ratings book in each store: every finished record rated once, whichever node asks, and a
recompute from the records that equals what was kept."""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

from engine.bots import make_bot
from engine.bots.arena import Arena
from engine.game import ShuffledDecks
from engine.games import get_game
from engine.record import record_of

PEOPLE = ("Anna", "Boris", "Vera")


def _save_games(store: Any, count: int, seed: int, finished_at: float = 1000.0) -> int:
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


def _accounts(store: Any) -> None:
    for name in PEOPLE:
        if store.account(name) is None:
            store.create_account(name, grant=10_000)


def test_records_are_rated_once_and_the_recompute_equals_the_book(store: Any) -> None:
    _accounts(store)
    deals = _save_games(store, 6, seed=1)
    assert store.rate_new_records(limit=4) == 4  # a backlog in short transactions
    assert store.rate_new_records() == 2
    assert store.rate_new_records() == 0  # nothing twice
    book = store.ratings_book()
    assert set(book) == {"french3"} and set(book["french3"]) == {"Anna", "Boris", "Vera", "Bot Ivan"}
    assert sum(r.deals for r in book["french3"].values()) <= deals * 3
    again, read = store.recompute_ratings()
    assert read == 6 and again == book  # the same floats
    _save_games(store, 2, seed=2, finished_at=5000.0)
    assert store.rate_new_records() == 2
    assert store.recompute_ratings()[0] == store.ratings_book()


def test_two_nodes_rating_at_once_count_each_record_once(open_again: Callable[..., Any]) -> None:
    first, second = open_again(), open_again()
    try:
        _accounts(first)
        _save_games(first, 10, seed=3)
        counted: list[int] = []

        def node(store: Any) -> None:
            for _ in range(30):
                counted.append(store.rate_new_records(limit=2))
                time.sleep(0.001)

        threads = [threading.Thread(target=node, args=(s,)) for s in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sum(counted) == 10
        assert first.recompute_ratings()[0] == second.ratings_book()
    finally:
        first.close()
        second.close()


def test_the_league_is_money_won_since_its_start_by_account(store: Any) -> None:
    _accounts(store)
    _save_games(store, 4, seed=4, finished_at=1000.0)
    _save_games(store, 4, seed=5, finished_at=9000.0)
    week = store.league("french3", since=9000.0)
    everyone = store.league("french3", since=0.0)
    assert {name for name, _ in everyone} <= set(PEOPLE) and "Bot Ivan" not in dict(everyone)
    assert [m for _, m in week] == sorted((m for _, m in week), reverse=True)
    assert store.league("kopilka", since=0.0) == []
