"""Finished records: kept as ``sukno-record/1``, listed per account, read back whole."""

from __future__ import annotations

import random

import pytest
from store_play import open_table, step

from engine.record import record_of, replay
from engine.store.base import StoreError
from engine.store.sqlite import SqliteStore


def test_a_finished_session_is_kept_and_replays(store: SqliteStore) -> None:
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        store.create_account(name)
    rng = random.Random(1)
    table = open_table(store, 3, "stukolka", ["Anna", "Boris", "Vera", "Gleb"], 2, {"variant": "b", "rounds": 1})
    while not table.sessions:
        step(store, table, rng)
    record = store.get_record(table.sessions[0])
    status, out = replay(record)
    assert status == 0 and out["over"] is True
    (info,) = store.history("vera")
    assert (info.id, info.game, info.players, info.table_id) == (
        table.sessions[0], "stukolka", ["Anna", "Boris", "Vera", "Gleb"], 3
    )
    assert info.net == out["balances"]["Vera"]


def test_history_is_per_account_newest_first_and_skips_bots(store: SqliteStore) -> None:
    store.create_account("Anna")
    game = _short_game()
    record = record_of(game)
    first = store.save_record(record, accounts={"Anna": "Anna"}, result=[5, -5, 0], now=1.0)
    second = store.save_record(record, accounts={"Anna": "anna"}, result=[-3, 3, 0], now=2.0)
    assert [(r.id, r.net, r.finished_at) for r in store.history("Anna")] == [(second, -3, 2.0), (first, 5, 1.0)]
    assert [r.id for r in store.history("Anna", limit=1)] == [second]
    assert store.history("Boris") == []  # a bot, or nobody: no account, no history
    assert store.get_record(first).to_json() == record.to_json()


def test_a_missing_record_says_so(store: SqliteStore) -> None:
    with pytest.raises(StoreError, match="no record number 12"):
        store.get_record(12)


def test_results_must_match_the_players(store: SqliteStore) -> None:
    with pytest.raises(ValueError, match="3 players need 3 results"):
        store.save_record(record_of(_short_game()), result=[1, -1])


def _short_game():  # type: ignore[no-untyped-def]
    from engine.games import get_game

    return get_game("french3")(["Anna", "Bot Mitya", "Vera"])


def test_the_latest_analysis_of_each_record_is_the_one_with_most_imagined_deals(store: SqliteStore) -> None:
    record = record_of(_short_game())
    first = store.save_record(record, accounts={"Anna": "Anna"}, result=[5, -5, 0], now=1.0)
    second = store.save_record(record, accounts={"Anna": "Anna"}, result=[-3, 3, 0], now=2.0)
    assert store.latest_analyses([first, second]) == {} and store.latest_analyses([]) == {}
    store.keep_analysis(first, 8, 1, '{"budget": 8}')
    store.keep_analysis(first, 24, 1, '{"budget": 24}')
    store.keep_analysis(first, 4, 2, '{"budget": 4}')
    assert store.latest_analyses([first, second, 999]) == {first: '{"budget": 24}'}
