"""Table leases on PostgreSQL (issue 15): one owner node per table, and every journal or money write
fenced by the lease's epoch in the same transaction, so a node that lost its lease (paused,
partitioned) can never append or move money."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.store.base import StoreError, TableHeader
from engine.store.postgres import PG_ONLY_TABLES, PgStore
from engine.store.sqlite import SqliteStore

psycopg = pytest.importorskip("psycopg")
HEADER = TableHeader("stukolka", {}, ["Anna", "Boris", "Vera", "Gleb"])


def expire(url: str, table_id: int = 1) -> None:
    """The lease's time runs out (without sleeping through it)."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE table_lease SET expires = 0 WHERE table_id = %s", (str(table_id),))


def state(store: PgStore) -> tuple[list[int], dict[str, int]]:
    return [e.seq for e in store.journal(1)], store.purses()


def test_one_owner_at_a_time_and_a_takeover_fences_the_old_owner(pg_url: str) -> None:
    a, b = PgStore(pg_url), PgStore(pg_url)
    try:
        a.open_table_journal(1, HEADER)  # nobody leases it yet: one server alone writes freely
        assert a.acquire_lease(1, "A", 30) == 1
        assert b.acquire_lease(1, "B", 30) is None  # A's lease is live
        assert a.acquire_lease(1, "A", 30) == 1  # A again: renewed, same epoch
        a.append(1, "note", {"n": 1})
        a.post([("club:a", -5), ("table:1:pot", 5)], table_id=1)
        with pytest.raises(StoreError, match="holds no lease") as err:
            b.append(1, "note", {"n": "B without a lease"})
        assert err.value.exit_status == 75
        expire(pg_url)  # A paused past its lease
        assert b.acquire_lease(1, "B", 30) == 2
        before = state(b)
        with pytest.raises(StoreError, match=r"epoch 1\) was taken over; node 'B' holds it \(epoch 2\)"):
            with a.batch():
                a.append(1, "note", {"n": "A after losing it"})
                a.post([("club:a", -5), ("table:1:pot", 5)], table_id=1)
        with pytest.raises(StoreError, match="not this node's"):
            a.post([("club:a", -1), ("table:1:pot", 1)], table_id=1)  # money of the table alone, too
        with pytest.raises(StoreError, match="not this node's"):
            a.new_session(1, HEADER)
        with pytest.raises(StoreError, match="not this node's"):
            a.close_table_journal(1)
        assert state(b) == before and b.ledger_sum() == 0
        assert a.renew_lease(1, 30) is False
        assert b.renew_lease(1, 30) is True
        assert b.append(1, "note", {"n": 2}) == 2
        a.post([("club:a", -1), ("club:b", 1)])  # money of no table is not any node's lease
        assert b.lease(1)[:2] == ("B", 2)
    finally:
        a.close()
        b.close()


def test_a_released_lease_is_taken_with_a_new_epoch(pg_url: str) -> None:
    a, b = PgStore(pg_url), PgStore(pg_url)
    try:
        a.open_table_journal(1, HEADER)
        assert a.acquire_lease(1, "A", 30) == 1
        a.release_lease(1)
        assert b.acquire_lease(1, "B", 30) == 2  # never 1 again: A's epoch stays refused
        with pytest.raises(StoreError, match="not this node's"):
            a.append(1, "note", {})
        b.release_lease(1)
        assert a.acquire_lease(1, "A", 30) == 3
        assert a.append(1, "note", {}) == 1
    finally:
        a.close()
        b.close()


def test_a_takeover_waits_for_the_write_in_flight_and_then_sees_it(pg_url: str) -> None:
    a, b = PgStore(pg_url), PgStore(pg_url)
    try:
        a.open_table_journal(1, HEADER)
        a.acquire_lease(1, "A", 30)
        expire(pg_url)
        with a.batch():
            a.append(1, "note", {"n": "in flight"})
            started = time.monotonic()
            assert b.acquire_lease(1, "B", 30) is None  # not in the middle of A's write: "not free yet"
            assert time.monotonic() - started < 1.0  # at once (NOWAIT), not after B's 5 s lock_timeout
        assert b.acquire_lease(1, "B", 30) == 2
        assert [e.payload for e in b.journal(1)] == [{"n": "in flight"}]  # committed before the takeover
    finally:
        a.close()
        b.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_node_paused_inside_a_write_is_cut_off_and_its_write_rolled_back(pg_url: str) -> None:
    """A node stopped mid-transaction holds the lease row locked; the database ends its session after
    idle_timeout, so the takeover goes on and the paused write never lands."""
    a, b = PgStore(pg_url, idle_timeout=0.5), PgStore(pg_url)
    try:
        a.open_table_journal(1, HEADER)
        a.acquire_lease(1, "A", 30)
        expire(pg_url)
        with pytest.raises(StoreError, match="sat inside a write .* paused"):
            with a.batch():
                a.append(1, "note", {"n": "paused in flight"})
                a.post([("club:a", -1), ("club:b", 1)], table_id=1)
                assert b.acquire_lease(1, "B", 30) is None  # A's write holds the row
                deadline = time.monotonic() + 10
                while (epoch := b.acquire_lease(1, "B", 30)) is None:  # A sleeps past idle_timeout
                    assert time.monotonic() < deadline, "the paused session was never ended"
                    time.sleep(0.05)
                assert epoch == 2
        assert [e.payload for e in b.journal(1)] == []  # A's write was rolled back with its session
        assert b.ledger_sum() == 0 and b.purses().get("club:b", 0) == 0
        with pytest.raises(StoreError, match="read the journal again"):
            a.append(1, "note", {})  # A's commit failed unseen: it may not write on from memory
        assert [e.payload for e in a.journal(1)] == []  # A reads the truth again (A connects again)
        with pytest.raises(StoreError, match="not this node's"):
            a.append(1, "note", {})  # and is fenced: B holds the table now
    finally:
        a.close()
        b.close()


def test_a_restarted_node_of_the_same_name_gets_a_new_epoch(pg_url: str) -> None:
    old = PgStore(pg_url)
    old.open_table_journal(1, HEADER)
    assert old.acquire_lease(1, "A", 30) == 1
    new = PgStore(pg_url)  # node A again, after a restart: its zombie must not write on
    try:
        assert new.acquire_lease(1, "A", 30) == 2
        with pytest.raises(StoreError, match="not this node's"):
            old.append(1, "note", {})
        assert new.append(1, "note", {}) == 1
    finally:
        old.close()
        new.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_node_stopped_past_its_lease_is_refused_when_it_wakes(pg_url: str) -> None:
    """SIGSTOP the owner past its lease, another node takes over, SIGCONT: its writes are refused."""
    with PgStore(pg_url) as setup:
        setup.open_table_journal(1, HEADER)
    writer = Path(__file__).with_name("lease_writer.py")
    proc = subprocess.Popen([sys.executable, str(writer), pg_url, "1.0"], stdout=subprocess.PIPE, text=True)
    b = PgStore(pg_url)
    try:
        assert proc.stdout.readline().strip() == "lease 1"  # type: ignore[union-attr]
        for _ in range(3):
            assert proc.stdout.readline().startswith("ok ")  # type: ignore[union-attr]
        proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 20
        while (epoch := b.acquire_lease(1, "B", 30)) is None:  # free once A's last renewal runs out
            assert time.monotonic() < deadline, "the paused node's lease never ran out"
            time.sleep(0.1)
        assert epoch == 2
        taken = state(b)
        proc.send_signal(signal.SIGCONT)
        out, _ = proc.communicate(timeout=30)
        lines = out.splitlines()
        assert lines and lines[-1].startswith("refused "), lines[-3:]
        # paused between writes: fenced by the epoch; paused inside one: the database ended its session
        # (the client, waking, reads either that reason or only the closed connection)
        assert any(why in lines[-1] for why in ("taken over", "sat inside a write", "cannot be reached")), lines[-1]
        assert all(line.startswith("ok ") for line in lines[:-1])  # at most what it wrote before the takeover
        assert state(b) == taken  # nothing after the takeover: no entry, no kopeck
        assert b.ledger_sum() == 0
        b.check_ledger()
        assert b.append(1, "note", {"n": "B goes on"}) == len(taken[0]) + 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        b.close()


def test_both_backends_keep_the_same_tables(pg_url: str, tmp_path: Path) -> None:
    """A migration added to one backend and not the other would leave a feature on one of them."""
    SqliteStore(tmp_path / "sukno.db").close()
    import sqlite3

    with sqlite3.connect(tmp_path / "sukno.db") as db:
        lite = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    PgStore(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as db:
        pg = {r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
    assert pg - set(PG_ONLY_TABLES) == lite


def test_a_lost_connection_alone_leaves_a_table_writable_without_a_whole_read(pg_url: str) -> None:
    """Only a write whose commit may have landed makes the table read its journal again; a table that
    wrote nothing while its connection was lost ends where this store last committed."""
    a = PgStore(pg_url)
    try:
        a.open_table_journal(1, HEADER)
        a.append(1, "note", {"n": 1})
        a._db.pgconn.finish()  # PostgreSQL restarted, say: the connection is gone, no write was under way
        a.append(1, "note", {"n": 2})  # no whole read asked for: the journal's end is where it was
        assert [e.payload["n"] for e in a.journal(1, after=0)] == [1, 2]
    finally:
        a.close()
