"""Two nodes opening a table at the same moment never share its number (issue 15).

Real nodes (``sukno serve --node``, tests/net/nodekit.py) on the real PostgreSQL.  Each node chooses
a new table's number from what it knows (its tables, every lease); two choosing at once choose the
same.  The store's unique table id decides: the second one's journal is refused
(``TableNumberTaken``) and it takes the next number.  To make "at the same moment" certain, the test
holds ``live_table`` locked (SHARE: reads go on, inserts wait) while both ``sukno admin open`` run,
until PostgreSQL shows both nodes' inserts waiting for it; before, the second was refused ("already
has a live journal").  The nodes' writes may wait 10 s for that lock (``[store] write_wait``; 50 ms by
default), so a busy machine's late second node or slow poll is not a refusal by timeout.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from nodekit import Node
from test_clubwide_nodes import admin, until_admin

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


def inserts_waiting(db) -> int:
    """How many backends wait for a lock while inserting a table's journal."""
    row = db.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                     "AND query LIKE 'INSERT INTO live_table%%'").fetchone()
    return int(row[0])


async def test_two_nodes_opening_at_once_take_two_numbers(tmp_path: Path, pg_url: str) -> None:
    import psycopg

    from engine.store.postgres import PgStore

    nodes: list[Node] = []
    store = PgStore(pg_url)  # the test's own reader
    lock = psycopg.connect(pg_url)  # holds live_table while both nodes choose
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url, write_wait=10))
            await nodes[-1].ready()
        assert [t.table_id for t in store.live_tables()] == [1]
        lock.execute("LOCK TABLE live_table IN SHARE MODE")  # in a transaction until commit
        opening = [asyncio.create_task(admin(tmp_path / f"data-{name}", "open", "stukolka")) for name in "AB"]
        deadline = time.monotonic() + 30
        with psycopg.connect(pg_url, autocommit=True) as watch:
            while inserts_waiting(watch) < 2:
                assert time.monotonic() < deadline, "the two nodes never both waited to open their table"
                assert not any(task.done() for task in opening), [t.result() for t in opening if t.done()]
                await asyncio.sleep(0.02)
        lock.commit()  # both go on at once, with the number each chose: the same one
        replies = await asyncio.gather(*opening)
        for status, reply in replies:
            assert status == 0, reply
        numbers = [reply["data"]["table"] for _status, reply in replies]
        assert sorted(numbers) == [2, 3], numbers
        for name, number in zip("AB", numbers):
            assert store.lease(number)[0] == name  # each node owns the table it opened
        assert sorted(t.table_id for t in store.live_tables()) == [1, 2, 3]
        for name in "AB":
            await until_admin(tmp_path / f"data-{name}", lambda d: [t["id"] for t in d["tables"]] == [1, 2, 3],
                              "tables")
    finally:
        lock.close()
        for node in nodes:
            node.kill()
        store.close()
