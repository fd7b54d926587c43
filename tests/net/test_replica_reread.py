"""A replica never stops at a read that fails or a journal that does not replay: it reads the table
again from the journal's start every ``REREAD`` s, says so once, and catches up by itself.

In-process, as tests/net/test_replica_reads.py: the owner is a club on its own PostgreSQL connection
holding table 1's lease; node B keeps the table as a replica through a store whose journal reads fail
while the test says so (the store away, or a journal read that does not replay)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import pytest

from engine.store.base import StoreError
from engine.table.club import Club

pytest.importorskip("psycopg")


class FailingReads:
    """A store whose journal reads raise ``StoreError`` (with ``why``) while ``failing`` is set."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.failing = False
        self.why = "PostgreSQL cannot be reached"
        self.failed = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name not in ("live_tables", "journal"):
            return attr

        def read(*args: Any, **kwargs: Any) -> Any:
            if self.failing:
                self.failed += 1
                raise StoreError(self.why, 75)
            return attr(*args, **kwargs)

        return read


async def until(check: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("why", ["PostgreSQL cannot be reached",
                                 "table 1: journal entry 3 (action) does not replay: It is not your turn"])
async def test_a_replica_whose_read_fails_reads_again_until_it_catches_up(pg_url: str, why: str, caplog,
                                                                            monkeypatch) -> None:
    from engine.store.postgres import PgStore
    from net.cluster import follow as follow_module
    from net.cluster.node import Node

    monkeypatch.setattr(follow_module, "REREAD", 0.2)
    owner_store, reader = PgStore(pg_url), PgStore(pg_url)
    failing = FailingReads(reader)
    failing.why = why
    node = Node("B", failing, pg_url, call_timeout=60.0)
    node.notices.post = lambda channel, payload, failed=None: None  # type: ignore[method-assign]
    try:
        owner = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic())
        assert owner_store.acquire_lease(1, "A", 60.0) == 1  # node A owns table 1
        for name in ("Anna", "Boris"):
            owner_store.create_account(name, grant=10_000)
        node._loop = node.follow.loop = asyncio.get_running_loop()
        node.follow.reads.start()
        node.claim(Club([], store=failing, now=time.monotonic()), time.monotonic())
        table = node.club.tables[1]

        failing.failing = True
        caplog.set_level(logging.WARNING, "sukno.cluster")
        owner.sit("Anna", 1, 0)
        node.follow.journal_notice(f"1 {owner_store.journal(1)[-1].seq}")  # as LISTEN would hand it to the loop
        await until(lambda: failing.failed >= 3, "the replica did not try again")
        assert table.seats[0] is None  # nothing read: nothing shown
        owner.sit("Boris", 1, 1)  # no notice of this one reaches B: its rereads must find it anyway
        said = [r.getMessage() for r in caplog.records if "not read" in r.getMessage()]
        assert len(said) == 1 and why in said[0]  # said once, however many tries

        failing.failing = False
        await until(lambda: table.seats[:2] == ["Anna", "Boris"], "the replica never caught up")
        assert any("read again" in r.getMessage() for r in caplog.records)
        tries = failing.failed
        await asyncio.sleep(0.6)
        assert failing.failed == tries  # read: no more rereads
    finally:
        failing.failing = False
        await asyncio.get_running_loop().run_in_executor(None, node.follow.reads.stop, 5.0)
        owner_store.close()
        reader.close()
