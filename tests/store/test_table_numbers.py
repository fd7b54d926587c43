"""A new table's number is the store's to give (issue 15): a number another node took first is refused
as ``TableNumberTaken`` and ``Club.open_table`` takes the next one; both backends."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from engine.table.club import Club
from engine.store.base import StoreError, TableHeader, TableNumberTaken

HEADER = TableHeader("stukolka", {}, [], extra={"session": False, "table": {"seats": [None] * 4}})


def test_a_number_opened_elsewhere_first_is_refused_and_the_club_takes_the_next(
        store: Any, open_again: Callable[..., Any]) -> None:
    other = open_again()  # another node's connection, opening its table 1 unknown to this club
    try:
        club = Club([], store=store)
        other.open_table_journal(1, HEADER)
        with pytest.raises(TableNumberTaken):
            store.open_table_journal(1, HEADER)
        assert isinstance(TableNumberTaken(1), StoreError)  # callers that knew only StoreError still catch it
        table = club.open_table("stukolka")
        assert table.id == 2
        assert sorted(t.table_id for t in store.live_tables()) == [1, 2]
        assert club.open_table("stukolka").id == 3
    finally:
        other.close()


def test_a_number_leased_by_another_node_is_taken_even_without_its_journal(pg_url: str) -> None:
    from engine.store.postgres import PgStore

    here, there = PgStore(pg_url), PgStore(pg_url)
    try:
        assert there.acquire_lease(1, "B", 30.0) == 1  # node B holds number 1 (its table not journaled yet)
        club = Club([], store=here)  # this node has not heard of it (numbers_taken told nothing)
        with pytest.raises(TableNumberTaken):
            here.open_table_journal(1, HEADER)
        assert club.open_table("stukolka").id == 2
        assert [t.table_id for t in here.live_tables()] == [2]
    finally:
        here.close()
        there.close()


def test_the_fences_refusal_is_the_number_taken_however_early_its_answer_comes(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside the pipeline psycopg reads the answers already in while it sends the next statement, so
    the fence's refusal may come up from the insert's send instead of its Sync: still TableNumberTaken."""
    import time

    from engine.store.postgres import PgStore

    here, there = PgStore(pg_url), PgStore(pg_url)
    fence = here._fence

    def fence_then_wait(table_id: Any) -> None:
        fence(table_id)
        here._db.pgconn.flush()  # the fence's statement is out …
        time.sleep(0.2)  # … and its refusal in before the insert is sent
    try:
        assert there.acquire_lease(1, "B", 30.0) == 1
        monkeypatch.setattr(here, "_fence", fence_then_wait)
        with pytest.raises(TableNumberTaken):
            here.open_table_journal(1, HEADER)
        monkeypatch.undo()
        assert Club([], store=here).open_table("stukolka").id == 2
    finally:
        here.close()
        there.close()
