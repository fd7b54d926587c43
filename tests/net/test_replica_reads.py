"""A replica's journal reads are made off the event loop (issue 15): the node's reader thread reads
(``Replica.fetch``, its own connection), the loop applies what it read (``Replica.apply``).

In-process: the owner is a club on its own PostgreSQL connection holding table 1's lease; node B
(``net.cluster.node.Node``, its bus notices recorded instead of sent) keeps the table as a replica
through a store whose journal reads wait at a gate the test holds closed.  While they wait, the
loop keeps its beat, a journal notice changes nothing yet, and the owner's "done" to B's call waits
for the read; once the gate opens, the replica shows the owner's change and then the call is done.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest

from engine.table.changes import Sit
from engine.table.club import Club
from net.cluster.wire import Reply, encode

pytest.importorskip("psycopg")
READS = ("live_tables", "journal")


class GatedReads:
    """A store whose journal reads wait while ``gate`` is closed (the rest goes straight through)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.gate = threading.Event()
        self.gate.set()
        self.waiting = 0
        self.threads: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name not in READS:
            return attr

        def gated(*args: Any, **kwargs: Any) -> Any:
            if not self.gate.is_set():
                self.threads.add(threading.current_thread().name)
                self.waiting += 1
                try:
                    self.gate.wait(60)
                finally:
                    self.waiting -= 1
            return attr(*args, **kwargs)

        return gated


async def until(check: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


async def test_a_replicas_reads_wait_off_the_loop_and_an_answer_waits_for_its_read(pg_url: str) -> None:
    from engine.store.postgres import PgStore
    from net.cluster.node import Node

    owner_store, reader = PgStore(pg_url), PgStore(pg_url)
    gated = GatedReads(reader)
    node = Node("B", gated, pg_url, call_timeout=60.0)
    sent: list[dict[str, Any]] = []
    node.notices.post = lambda channel, payload, failed=None: sent.append(json.loads(payload))  # type: ignore
    try:
        owner = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic())
        assert owner_store.acquire_lease(1, "A", 60.0) == 1  # node A owns table 1
        for name in ("Anna", "Boris"):
            owner_store.create_account(name, grant=10_000)
        node._loop = node.follow.loop = asyncio.get_running_loop()
        node.follow.reads.start()
        node.claim(Club([], store=gated, now=time.monotonic()), time.monotonic())
        assert list(node.replicas) == [1] and not node.owned
        replica = node.replicas[1]
        table = node.club.tables[1]

        gated.gate.clear()  # from now on the replica's reads hang
        owner.sit("Anna", 1, 0)
        seq = owner_store.journal(1)[-1].seq
        node.follow.journal_notice(f"1 {seq}")  # as LISTEN would hand it to the loop
        pending = node.calls.call(1, Sit("Boris", 1))
        assert pending is not None
        call = next(m for m in sent if m.get("t") == "call")
        owner.sit("Boris", 1, 1)  # the owner does it, then answers
        node._bus_notice(encode(Reply(call["id"], "B", 1, True, 1)))
        await until(lambda: gated.waiting >= 1, "the reader never began its read")
        beats: list[float] = []
        for _ in range(20):  # the loop keeps its beat while the read waits
            began = time.monotonic()
            await asyncio.sleep(0.01)
            beats.append(time.monotonic() - began)
        assert max(beats) < 0.5, beats
        assert table.seats[:2] == [None, None] and not pending.settled  # nothing read yet: nothing shown
        assert threading.main_thread().name not in gated.threads and gated.threads == {"sukno replicas"}

        heard: list[Any] = []
        pending.then(lambda value: heard.append((list(table.seats[:2]), value)))
        gated.gate.set()
        await until(lambda: pending.settled, "the call was never settled after the read")
        assert heard == [(["Anna", "Boris"], 1)]  # the replica had read the owner's sit before "done"
        assert replica.rebuilds == 1  # read on, not from the start
    finally:
        gated.gate.set()
        await asyncio.get_running_loop().run_in_executor(None, node.follow.reads.stop, 5.0)
        for waiting in node.calls.waiting.pending():
            waiting.timer.cancel()
        owner_store.close()
        reader.close()
