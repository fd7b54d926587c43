"""Opening a store: migrations, reopening, and the files it must refuse with a clear message."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from engine.store.base import StoreError
from engine.store.opening import open_store
from engine.store.sqlite import MIGRATIONS, SCHEMA_VERSION, SqliteStore


def tables_of(path: Path) -> dict[str, str]:
    """The schema of a database file: object name → its SQL."""
    with sqlite3.connect(path) as db:
        return {name: sql for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")}


def test_empty_file_is_migrated_to_the_latest_schema(db_path: Path) -> None:
    db_path.touch()
    with SqliteStore(db_path) as store:
        assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    with sqlite3.connect(db_path) as db:
        versions = [v for (v,) in db.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"account", "account_key", "purse", "ledger_txn", "ledger_entry", "live_table", "journal",
            "record", "record_player"} <= set(tables_of(db_path))


@pytest.mark.parametrize("done", range(1, SCHEMA_VERSION))
def test_an_older_schema_is_migrated_step_by_step(tmp_path: Path, done: int) -> None:
    """A file left at any earlier version ends with exactly the schema of a fresh one."""
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied REAL NOT NULL)")
        for number in range(1, done + 1):
            for statement in MIGRATIONS[number - 1]:
                if isinstance(statement, str):
                    db.execute(statement)
                else:  # a step in Python (the look-alike keys filled in), on this connection
                    statement(type("Old", (), {"_x": staticmethod(db.execute)})())
            db.execute("INSERT INTO schema_version VALUES (?, 0)", (number,))
    SqliteStore(old).close()
    SqliteStore(tmp_path / "fresh.db").close()
    assert tables_of(old) == tables_of(tmp_path / "fresh.db")


def test_reopening_keeps_everything(db_path: Path) -> None:
    with SqliteStore(db_path) as store:
        store.create_account("Anna", key="SHA256:anna", grant=500, now=10.0)
        store.post([("Anna", -30), ("table:1:pot", 30)], table_id=1, deal_no=1, reason="ante")
    with SqliteStore(db_path) as store:
        anna = store.account_by_key("SHA256:anna")
        assert anna is not None and anna.name == "Anna" and anna.balance == 470 and anna.created == 10.0
        assert store.balance("table:1:pot") == 30
        assert store.schema_version() == SCHEMA_VERSION


def test_a_newer_schema_is_refused_untouched(db_path: Path) -> None:
    SqliteStore(db_path).close()
    with sqlite3.connect(db_path) as db:
        db.execute("INSERT INTO schema_version VALUES (?, 0)", (SCHEMA_VERSION + 3,))
    before = db_path.read_bytes()
    with pytest.raises(StoreError) as err:
        SqliteStore(db_path)
    assert "newer sukno" in str(err.value) and f"version {SCHEMA_VERSION + 3}" in str(err.value)
    assert err.value.exit_status == 78
    assert db_path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_refused(db_path: Path) -> None:
    db_path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(StoreError) as err:
        SqliteStore(db_path)
    assert "is not an SQLite database" in str(err.value) and str(db_path) in str(err.value)
    assert err.value.exit_status == 65
    assert db_path.read_bytes().startswith(b"these are my notes")


def test_another_programs_database_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="some other program"):
        SqliteStore(db_path)


def test_a_locked_database_is_refused_after_the_busy_timeout(db_path: Path) -> None:
    SqliteStore(db_path).close()
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError) as err:
            SqliteStore(db_path, busy_timeout=0.05)
        assert "locked by another process" in str(err.value)
        assert err.value.exit_status == 75
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_write_while_locked_says_locked_and_keeps_the_store_usable(db_path: Path) -> None:
    store = SqliteStore(db_path)  # SQLite's own lock; PostgreSQL's row locks: tests/store/test_pg.py
    store.create_account("Anna")
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    store._db.execute("PRAGMA busy_timeout = 20")  # noqa: SLF001 - keep the test fast
    try:
        with pytest.raises(StoreError, match="locked"):
            store.touch("Anna")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.touch("Anna", now=5.0)
    assert store.account("Anna").last_seen == 5.0  # type: ignore[union-attr]
    store.close()


def test_exclusive_use_stops_a_second_server(db_path: Path) -> None:
    with SqliteStore(db_path, exclusive=True):
        with pytest.raises(StoreError) as err:
            SqliteStore(db_path, exclusive=True)
        assert "another 'sukno serve'" in str(err.value) and err.value.exit_status == 75
    SqliteStore(db_path, exclusive=True).close()  # released on close


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_refused(db_path: Path) -> None:
    SqliteStore(db_path).close()
    db_path.chmod(0o000)
    try:
        with pytest.raises(StoreError, match="cannot be read and written"):
            SqliteStore(db_path)
    finally:
        db_path.chmod(0o600)


def test_paths_that_cannot_be_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        SqliteStore(tmp_path)
    with pytest.raises(StoreError, match="does not exist"):
        SqliteStore(tmp_path / "missing" / "sukno.db")
    with pytest.raises(StoreError, match="data folder .* does not exist"):
        open_store(tmp_path / "nowhere")


def test_open_store_uses_the_data_folder(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        store.create_account("Anna")
    finally:
        store.close()
    assert (tmp_path / "sukno.db").is_file()


def test_a_closed_store_says_so(store: SqliteStore) -> None:
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.account("Anna")
