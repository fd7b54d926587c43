"""A journaled action on PostgreSQL in one round trip (issue 15 (a)), every guarantee kept.

``PgStore`` sends a transaction as one psycopg pipeline and makes the checks of a journaled action
inside SQL (migration 11: ``sukno_fence``, ``sukno_append``, ``sukno_post``), so nothing waits for an
answer before the COMMIT.  These tests count the round trips (libpq's trace of the Sync messages) and
prove that what the separate statements guaranteed still holds: the epoch fence in the same
transaction (75), seq gapless per table (also after a refused write, and when another store wrote
meanwhile), only committed entries announced, the ledger summing to zero.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

from engine.store.base import LedgerError, StoreError, TableHeader, pot_purse
from engine.store.postgres import JOURNAL_CHANNEL, PgStore
from pgkit import round_trips

psycopg = pytest.importorskip("psycopg")
PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
HEADER = TableHeader("stukolka", {}, PLAYERS, seats=PLAYERS)


@pytest.fixture
def pg(pg_url: str) -> Iterator[PgStore]:
    store = PgStore(pg_url)
    for name in PLAYERS:
        store.create_account(name, grant=1000)
    store.open_table_journal(1, HEADER)
    try:
        yield store
    finally:
        store.close()


def action(store: PgStore, i: int) -> int:
    """One journaled action as ``TableJournal.write`` makes it: the entry and its money, one batch."""
    with store.batch():
        seq = store.append(1, "action", {"seat": i % 4, "action": "play Q♠"})
        store.post([(PLAYERS[i % 4], -3), (pot_purse(1), 3)], table_id=1, deal_no=1, returning=False)
    return seq


def syncs(store: PgStore, work: Any) -> int:
    """How many round trips ``work()`` made (libpq's trace: ``pgkit.round_trips``)."""
    return round_trips(store._db, work)[0]


def seqs(store: PgStore) -> list[int]:
    return [e.seq for e in store.journal(1)]


def test_a_journaled_action_is_one_round_trip(pg: PgStore) -> None:
    action(pg, 0)  # the table's last seq is asked once, then kept
    assert syncs(pg, lambda: action(pg, 1)) == 1
    assert syncs(pg, lambda: pg.append(1, "note", {"n": 1})) == 1
    assert seqs(pg) == [1, 2, 3]
    assert pg.balance("Anna") == 997 and pg.balance("Boris") == 997 and pg.balance(pot_purse(1)) == 6
    pg.check_ledger()
    assert pg.ledger_sum() == 0


def test_money_asked_for_its_id_still_gets_it(pg: PgStore) -> None:
    txn = pg.post([("anna", -5), ("Anna", -5), (pot_purse(1), 10)], table_id=1, deal_no=2, reason="ante")
    assert txn is not None
    moved = pg.statement("Anna", limit=1)[0]
    assert (moved.txn, moved.amount, moved.reason, moved.table_id, moved.deal_no) == (txn, -10, "ante", 1, 2)
    assert pg.post([("Anna", -1), (pot_purse(1), 1)], returning=False) is None
    with pytest.raises(LedgerError, match="no account named 'Nobody'"):
        with pg.batch():
            pg.append(1, "note", {"n": "with money of nobody"})
            pg.post([("Nobody", -1), (pot_purse(1), 1)], table_id=1, returning=False)
    assert seqs(pg) == [] and pg.balance("Anna") == 989 and pg.ledger_sum() == 0


def test_a_fenced_write_is_refused_and_the_seqs_stay_gapless(pg: PgStore, pg_url: str) -> None:
    other = PgStore(pg_url)
    try:
        assert pg.acquire_lease(1, "A", 30) == 1
        assert [action(pg, i) for i in range(3)] == [1, 2, 3]
        with psycopg.connect(pg_url, autocommit=True) as db:
            db.execute("UPDATE table_lease SET expires = 0")  # A paused past its lease
        assert other.acquire_lease(1, "B", 30) == 2
        before = (seqs(other), other.purses())
        with pytest.raises(StoreError, match=r"epoch 1\) was taken over; node 'B' holds it \(epoch 2\)") as err:
            action(pg, 3)
        assert err.value.exit_status == 75
        assert (seqs(other), other.purses()) == before
        assert other.append(1, "note", {"n": "B goes on"}) == 4
        other.release_lease(1)
        assert pg.acquire_lease(1, "A", 30) == 3  # back to A: what B wrote is asked, not guessed
        assert action(pg, 4) == 5
        assert seqs(pg) == [1, 2, 3, 4, 5]
        pg.check_ledger()
        assert pg.ledger_sum() == 0
    finally:
        other.close()


def test_another_store_writing_the_table_refuses_its_writes_until_the_journal_is_read(
        pg: PgStore, pg_url: str) -> None:
    other = PgStore(pg_url)
    try:
        assert action(pg, 0) == 1
        assert other.append(1, "note", {"n": "another writer"}) == 2
        purses = pg.purses()
        with pytest.raises(StoreError, match="written by another store meanwhile") as err:
            action(pg, 1)  # this store thought the journal ended at 1
        assert err.value.exit_status == 75 and pg.purses() == purses  # nothing of it kept
        with pytest.raises(StoreError, match="read the journal again"):
            action(pg, 1)  # never written on from memory: the table is behind its journal
        assert [e.seq for e in pg.journal(1)] == [1, 2]  # the table reads it again (its rebuild) ...
        assert action(pg, 1) == 3  # ... and goes on from there
        assert seqs(pg) == [1, 2, 3]
    finally:
        other.close()


def test_a_rolled_back_batch_leaves_no_gap(pg: PgStore) -> None:
    assert action(pg, 0) == 1
    with pytest.raises(RuntimeError):
        with pg.batch():
            assert pg.append(1, "note", {"n": "dropped"}) == 2
            raise RuntimeError("the table failed")
    assert action(pg, 1) == 2
    pg.new_session(1, HEADER)  # a new session starts its seqs again
    assert action(pg, 2) == 1
    pg.close_table_journal(1)
    with pytest.raises(StoreError, match="has no live journal") as err:
        pg.append(1, "note", {"n": "closed"})
    assert err.value.exit_status == 70


def notices(listener: Any, timeout: float) -> Iterator[str]:
    """The payloads heard on ``listener`` until ``timeout`` passes without one."""
    for notice in listener.notifies(timeout=timeout):
        yield notice.payload


def wait_for(listener: Any, payload: str, deadline: float = 10.0) -> list[str]:
    """Every payload heard up to and including ``payload`` (failing after ``deadline`` seconds)."""
    heard: list[str] = []
    end = time.monotonic() + deadline
    while payload not in heard:
        assert time.monotonic() < end, f"never heard {payload!r}; heard {heard}"
        heard.extend(notices(listener, 0.5))
    return heard[:heard.index(payload) + 1]


def test_only_committed_entries_are_announced_and_only_after_the_commit(pg: PgStore, pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as listener, psycopg.connect(pg_url, autocommit=True) as marker:
        listener.execute(f"LISTEN {JOURNAL_CHANNEL}")
        with pytest.raises(RuntimeError):
            with pg.batch():
                pg.append(1, "note", {"n": "never committed"})
                raise RuntimeError("rolled back")
        with pg.batch():
            seq = pg.append(1, "note", {"n": "committed"})
            pg.balance("Anna")  # a read inside the batch: everything so far has reached the database
            marker.execute(f"NOTIFY {JOURNAL_CHANNEL}, 'marker'")  # committed while the batch is open
            assert wait_for(listener, "marker") == ["marker"]  # nothing of the batch before its commit
        assert seq == 1
        assert wait_for(listener, "1 1") == ["1 1"]  # the committed one; the rolled-back one never
        with psycopg.connect(pg_url, autocommit=True) as db:
            db.execute("INSERT INTO table_lease VALUES ('1', 'B', 1, 1e12)")  # B owns it: pg's write fenced
        with pytest.raises(StoreError, match="not this node's"):
            action(pg, 0)
        marker.execute(f"NOTIFY {JOURNAL_CHANNEL}, 'marker 2'")
        assert wait_for(listener, "marker 2") == ["marker 2"]


def test_a_batch_that_writes_nothing_costs_no_round_trip(pg: PgStore) -> None:
    def nothing() -> None:
        with pg.batch():
            pass

    assert syncs(pg, nothing) == 0  # BEGIN waits for a first statement; none came
    with pytest.raises(RuntimeError):
        with pg.batch():
            raise RuntimeError("the table failed before writing")
    assert action(pg, 0) == 1 and seqs(pg) == [1]
