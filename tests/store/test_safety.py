"""The store keeps its secrets and notices faults (issue 12, items 3, 8 and 9).

Files are 0600 whatever the umask; a damaged, emptied or vanished database is
refused or stops writes with the reason; another process's lock makes a write
fail fast instead of stalling the server's loop.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from engine.store.base import StoreError, make_data_folder
from engine.store.opening import open_store
from engine.store.sqlite import SqliteStore


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def test_files_are_private_whatever_the_umask(tmp_path: Path, open_umask) -> None:
    data = tmp_path / "club"
    assert make_data_folder(data) is True
    store = open_store(data, exclusive=True)
    try:
        store.create_account("Anna", key="SHA256:a", grant=100)
        files = sorted(p.name for p in data.iterdir())
        assert {"sukno.db", "sukno.db-wal", "sukno.db-shm", "sukno.db.lock"} <= set(files)
        assert {p.name: mode(p) for p in data.iterdir()} == {name: 0o600 for name in files}
        assert mode(data) == 0o700
    finally:
        store.close()


def test_loose_modes_are_tightened_at_open(tmp_path: Path) -> None:
    """A club from before: the folder 0755, its files 0644; the next start makes them private."""
    data = tmp_path / "club"
    data.mkdir()
    SqliteStore(data / "sukno.db").close()
    for name in ("bans.json", "audit.log", "ssh_host_ed25519_key"):
        (data / name).write_text("{}")
        os.chmod(data / name, 0o644)
    (data / "notes.txt").write_text("someone else's file in a shared folder")
    os.chmod(data / "notes.txt", 0o644)
    os.chmod(data, 0o755)
    os.chmod(data / "sukno.db", 0o644)
    assert make_data_folder(data) is False
    store = open_store(data)
    try:
        assert mode(data) == 0o700
        modes = {p.name: mode(p) for p in data.iterdir()}
        assert modes.pop("notes.txt") == 0o644  # not sukno's: left alone
        assert modes == {name: 0o600 for name in modes}
    finally:
        store.close()


def test_a_damaged_file_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "sukno.db"
    with SqliteStore(path) as store:
        for i in range(300):
            store.create_account(f"Player{i}", key=f"SHA256:{i}", grant=i)
    page = 4096
    with open(path, "r+b") as f:  # page 3 onwards: spoil the middle of the file, keep the header
        size = f.seek(0, 2)
        assert size > 6 * page
        f.seek(3 * page)
        f.write(b"\xa5" * (size - 4 * page))
    with pytest.raises(StoreError) as caught:
        SqliteStore(path)
    assert caught.value.exit_status == 65
    assert "damaged" in str(caught.value) or "malformed" in str(caught.value)


def test_an_empty_database_starts_a_club_only_when_asked(tmp_path: Path) -> None:
    data = tmp_path / "club"
    data.mkdir()
    (data / "sukno.db").write_bytes(b"")
    with pytest.raises(StoreError) as caught:
        open_store(data)
    assert caught.value.exit_status == 65 and "empty (0 bytes)" in str(caught.value) and "--new" in str(caught.value)
    assert (data / "sukno.db").stat().st_size == 0  # untouched
    open_store(data, new=True).close()
    open_store(data).close()  # no longer empty: a club


@pytest.mark.parametrize("how", ["folder", "file", "replaced"])
def test_a_vanished_store_stops_every_write(tmp_path: Path, how: str, caplog) -> None:
    data = tmp_path / "club"
    make_data_folder(data)
    store = open_store(data, exclusive=True)
    try:
        store.create_account("Anna", key="SHA256:a", grant=100)
        if how == "folder":
            shutil.rmtree(data)
        elif how == "file":
            os.unlink(data / "sukno.db")
        else:
            os.rename(data / "sukno.db", data / "old.db")
            SqliteStore(data / "sukno.db").close()
        with pytest.raises(StoreError) as caught:
            store.create_account("Boris", key="SHA256:b", grant=100)
        assert "deleted or replaced" in str(caught.value)
        with pytest.raises(StoreError):
            store.touch("Anna")
        assert any("THE STORE IS GONE" in r.getMessage() for r in caplog.records)
        if how != "replaced":
            assert store.account("Anna") is not None  # what was written can still be read
    finally:
        store.close()


HOLD = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT INTO schema_version VALUES (999, 0)")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


def hold_lock(path: Path, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_locked_store_refuses_a_write_fast_and_still_reads(tmp_path: Path) -> None:
    data = tmp_path / "club"
    make_data_folder(data)
    store = open_store(data, exclusive=True)
    store.create_account("Anna", key="SHA256:a", grant=100)
    holder = hold_lock(data / "sukno.db", 15)
    try:
        with pytest.raises(StoreError) as caught:
            store.touch("Anna")
        assert caught.value.exit_status == 75 and "locked" in str(caught.value)
        assert holder.poll() is None  # refused while the 15 s lock is still held: it did not wait it out
        assert store._held_off  # the next writes do not wait for it at all
        with pytest.raises(StoreError):
            store.create_account("Boris", key="SHA256:b")
        assert store.balance("Anna") == 100  # readers do not wait in WAL mode
    finally:
        holder.kill()
        holder.wait()
    store.touch("Anna")  # the lock is gone: writing works again, and waits as before
    assert not store._held_off and store.account("Boris") is None
    store.close()
