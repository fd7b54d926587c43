"""``sukno db backup FILE`` and ``sukno db restore FILE``: the embedded club in one file and back.

A backup is a consistent copy of ``sukno.db`` taken with SQLite's online backup while the club
runs, with the data folder's host key inside (a table of its own), so one 0600 file is all an
operator keeps: the club comes back with its accounts, money, finished games and live tables, and
clients see the same host key.  A PostgreSQL club is backed up with ``pg_dump`` instead.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Callable

from engine.store.base import DEFAULT_FILENAME
from net.ssh.hostkey import HOST_KEY_NAME

BACKUP_TABLE = "sukno_backup"
FORMAT = "sukno-backup/1"


class BackupError(Exception):
    """A backup or restore that cannot be done; ``exit_status`` is what the command exits with."""

    def __init__(self, text: str, exit_status: int = 1) -> None:
        super().__init__(text)
        self.exit_status = exit_status


def _create_private(path: Path, *, replace: bool) -> None:
    """Make ``path`` an empty 0600 file whatever the umask: it holds every hidden card."""
    if path.exists() and not replace:
        raise BackupError(f"{path} exists; give --force to write over it", 73)
    path.unlink(missing_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def backup(data: Path, target: Path, *, replace: bool = False) -> dict[str, str]:
    """Copy the data folder's club into ``target`` (0600); what was written, for the operator."""
    source_path = data / DEFAULT_FILENAME
    if not source_path.is_file() or source_path.stat().st_size == 0:
        raise BackupError(f"{source_path}: no club to back up here", 66)
    _create_private(target, replace=replace)
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=5.0)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)  # one consistent snapshot, even while the server writes
        copy.execute(f"CREATE TABLE {BACKUP_TABLE} (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
        facts = {"format": FORMAT, "taken": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        key_path = data / HOST_KEY_NAME
        if key_path.is_file():
            facts["host_key"] = key_path.read_text(encoding="ascii")
        copy.executemany(f"INSERT INTO {BACKUP_TABLE} VALUES (?, ?)", list(facts.items()))
        copy.commit()
        if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError(f"{target}: the copy does not pass SQLite's integrity check", 74)
    except sqlite3.Error as err:
        target.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source_path}: {err}", 74) from None
    finally:
        copy.close()
        source.close()
    os.chmod(target, 0o600)
    return {"file": str(target), "taken": facts["taken"], "host_key": "yes" if "host_key" in facts else "no"}


def _read_facts(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(f"SELECT key, value FROM {BACKUP_TABLE}").fetchall()
    except sqlite3.Error:
        raise BackupError(f"{path} is not a sukno backup (made by sukno db backup)", 65) from None
    finally:
        conn.close()
    facts = {str(key): value if isinstance(value, str) else bytes(value).decode("ascii") for key, value in rows}
    if facts.get("format") != FORMAT:
        raise BackupError(f"{path} is not a {FORMAT} backup", 65)
    return facts


def restore(source: Path, data: Path, *, replace: bool = False) -> dict[str, str]:
    """Put a backup into the data folder: ``sukno.db`` and the host key, both 0600."""
    if not source.is_file():
        raise BackupError(f"{source}: no such file", 66)
    facts = _read_facts(source)
    data.mkdir(parents=True, exist_ok=True)
    os.chmod(data, 0o700)
    target = data / DEFAULT_FILENAME
    if target.exists() and target.stat().st_size and not replace:
        raise BackupError(f"{target} holds a club already; stop its server and give --force to replace it", 73)
    partial = data / (DEFAULT_FILENAME + ".restoring")
    _create_private(partial, replace=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(partial)
    try:
        src.backup(dst)
        dst.execute(f"DROP TABLE {BACKUP_TABLE}")
        dst.commit()
        dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as err:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot restore {source}: {err}", 74) from None
    finally:
        dst.close()
        src.close()
    for log_file in (data / (DEFAULT_FILENAME + ".restoring-wal"), data / (DEFAULT_FILENAME + ".restoring-shm")):
        log_file.unlink(missing_ok=True)
    for stale in (data / (DEFAULT_FILENAME + "-wal"), data / (DEFAULT_FILENAME + "-shm")):
        stale.unlink(missing_ok=True)  # the old file's log would be replayed into the restored one
    os.replace(partial, target)
    if "host_key" in facts:
        key_path = data / HOST_KEY_NAME
        _create_private(key_path, replace=True)
        key_path.write_text(facts["host_key"], encoding="ascii")
    return {"file": str(target), "taken": facts.get("taken", "?"), "host_key": "yes" if "host_key" in facts else "no"}


def _cmd_backup(args: argparse.Namespace) -> int:
    if args.store:
        print("sukno db backup: a PostgreSQL club is backed up with pg_dump (README, Backups): "
              "pg_dump --format=custom --file=FILE DATABASE", file=sys.stderr)
        return 64
    return _told("backup", lambda: backup(Path(args.data), Path(args.file), replace=args.force),
                 "{file} (taken {taken}, host key inside: {host_key})")


def _cmd_restore(args: argparse.Namespace) -> int:
    return _told("restore", lambda: restore(Path(args.file), Path(args.data), replace=args.force),
                 "{file} as it was at {taken} (host key: {host_key})")


def _told(verb: str, work: Callable[[], dict[str, str]], done: str) -> int:
    """Run a backup or restore; one line saying what was done, or why not (its exit status)."""
    try:
        facts = work()
    except BackupError as err:
        print(f"sukno db {verb}: {err}", file=sys.stderr)
        return err.exit_status
    print(f"sukno db {verb}: " + done.format(**facts))
    return 0


def add_parsers(db_sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """``db backup`` and ``db restore`` under ``sukno db``."""
    made = db_sub.add_parser("backup", help="a consistent copy of the running club, host key inside (0600)")
    made.add_argument("file", help="the backup file to write")
    made.add_argument("--data", metavar="DIR", default="data", help="the club's data folder (default ./data)")
    made.add_argument("--store", metavar="URL", help="a PostgreSQL club: use pg_dump (this says how)")
    made.add_argument("--force", action="store_true", help="write over an existing file")
    made.set_defaults(func=_cmd_backup)
    back = db_sub.add_parser("restore", help="put a backup into a data folder (the server stopped)")
    back.add_argument("file", help="a file made by sukno db backup")
    back.add_argument("--data", metavar="DIR", default="data", help="the data folder to restore into (default ./data)")
    back.add_argument("--force", action="store_true", help="replace a club already in the data folder")
    back.set_defaults(func=_cmd_restore)
