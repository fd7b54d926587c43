"""The ratings book in each store: every finished record rated once, whichever node asks, and a
recompute from the records that equals what was kept."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ratingkit import PEOPLE, accounts as _accounts, save_games as _save_games

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
