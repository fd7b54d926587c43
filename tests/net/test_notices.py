"""net/cluster/notices.py: LISTEN/NOTIFY between nodes (issue 15), on the real PostgreSQL.

A journal entry is announced on ``sukno_journal`` only once its transaction commits (a rolled-back
write announces nothing), with the table id and seq and nothing else; callbacks run on the loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from engine.store.base import TableHeader

pytest.importorskip("psycopg")
HEADER = TableHeader("stukolka", {}, ["Anna", "Boris", "Vera", "Gleb"])


async def next_of(queue: asyncio.Queue, timeout: float = 10.0) -> str:
    return await asyncio.wait_for(queue.get(), timeout)


async def test_only_committed_journal_entries_are_announced_with_their_seq(pg_url: str) -> None:
    from engine.store.postgres import JOURNAL_CHANNEL, PgStore
    from net.cluster.notices import Notices

    store = PgStore(pg_url)
    notices = Notices(pg_url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    loop_thread: list[bool] = []

    def on_journal(payload: str) -> None:
        loop_thread.append(threading.current_thread() is threading.main_thread())
        heard.put_nowait(payload)

    notices.on(JOURNAL_CHANNEL, on_journal)
    try:
        await notices.start()
        store.open_table_journal(1, HEADER)
        assert store.append(1, "note", {"n": 1}) == 1
        assert await next_of(heard) == "1 1"
        with pytest.raises(RuntimeError):
            with store.batch():
                store.append(1, "note", {"n": "rolled back"})
                raise RuntimeError("the write fails before its commit")
        store.new_session(1, HEADER)  # a new session: its entries go, seq 0 says so
        assert await next_of(heard) == "1 0"  # nothing of the rolled-back entry came before it
        assert store.append(1, "note", {"n": 2}) == 1
        assert await next_of(heard) == "1 1"
        store.close_table_journal(1)
        assert await next_of(heard) == "1 -1"
        assert loop_thread and all(loop_thread)  # on the loop's thread, like everything of the club
    finally:
        await notices.stop()
        store.close()


async def test_notify_reaches_every_listener_and_thread_listeners_first(pg_url: str) -> None:
    from net.cluster.notices import MAX_PAYLOAD, NoticeError, Notices

    one, two = Notices(pg_url), Notices(pg_url)
    got_one: asyncio.Queue[str] = asyncio.Queue()
    got_two: asyncio.Queue[str] = asyncio.Queue()
    in_thread: list[tuple[str, bool]] = []
    one.on("sukno_test", got_one.put_nowait)
    two.on("sukno_test", got_two.put_nowait)
    two.on_thread("sukno_test",
                  lambda p: in_thread.append((p, threading.current_thread() is not threading.main_thread())))
    try:
        await one.start()
        await two.start()
        one.notify("sukno_test", "привет 1")
        assert await next_of(got_one) == "привет 1"  # the sender's own listener too
        assert await next_of(got_two) == "привет 1"
        assert in_thread == [("привет 1", True)]
        with pytest.raises(NoticeError, match="at most"):
            one.notify("sukno_test", "x" * (MAX_PAYLOAD + 1))
        with pytest.raises(ValueError):
            one.on("no spaces; DROP TABLE", got_one.put_nowait)
    finally:
        await one.stop()
        await two.stop()
