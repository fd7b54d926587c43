"""The ratings book in each store: every finished record rated once, whichever node asks, and a
recompute from the records that equals what was kept."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

import pytest
from ratingkit import PEOPLE, accounts as _accounts, save_games as _save_games

from engine.store.ratings import bots_rated, rerate_kept

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



def test_ratings_kept_with_another_drift_are_made_again_by_the_migration(
        open_again: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.store import postgres, sqlite

    for backend in (sqlite, postgres):  # the schema before the step that rates the kept records again
        step = next(n for n, m in enumerate(backend.MIGRATIONS, 1) if rerate_kept in m)
        monkeypatch.setattr(backend, "MIGRATIONS", backend.MIGRATIONS[:step - 1])
        monkeypatch.setattr(backend, "SCHEMA_VERSION", step - 1)
    before = open_again()
    try:
        _accounts(before)
        _save_games(before, 4, seed=6)
        assert before.rate_new_records() == 4
        with before._tx():  # figures no recompute gives now, as a drift per deal of old left them
            before._x("UPDATE rating SET mu = mu + 0.5, sigma = sigma * 1.5")
        old = before.ratings_book()
        assert before.recompute_ratings()[0] != old
    finally:
        before.close()
    monkeypatch.undo()
    after = open_again()
    try:
        book = after.ratings_book()
        assert book != old and after.recompute_ratings()[0] == book  # the same floats as a recompute
        assert {n: r.deals for n, r in book["french3"].items()} == {n: r.deals for n, r in old["french3"].items()}
        assert bots_rated(after) == {"Bot Ivan"}
        _save_games(after, 1, seed=7, finished_at=5000.0)
        assert after.rate_new_records() == 1 and after.recompute_ratings()[0] == after.ratings_book()
    finally:
        after.close()
