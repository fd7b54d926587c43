"""The embedded ``Store``: one SQLite file in the data folder (stdlib ``sqlite3``).

The statements are ``engine.store.sql``'s, shared with PostgreSQL; this module
keeps the file, its connection, transactions, lock waits and migrations.

Why these settings:

* **WAL**: readers never block the writer, and a commit is one append to the
  ``-wal`` file instead of a rewrite of pages in place.
* **synchronous=NORMAL** (the default here; ``durability="power"`` picks
  FULL).  In WAL mode a commit with NORMAL is handed to the operating system
  before ``commit()`` returns, so it survives the *process* dying at any point,
  kill -9 included: that is the promise "written before anyone sees it" needs,
  and a test kills a writer with SIGKILL to hold us to it.  What NORMAL does not
  survive is the *machine* losing power before the OS flushes (a few seconds
  at most): the last commits can roll back, though the file stays consistent.
  FULL fsyncs the WAL on every commit and survives that too, at the price of a
  disk flush per action.  ``tests/bench/journal_bench.py`` measures both; on
  this machine (2 shared CPUs, a virtual disk) NORMAL gives p50 ≈ 0.02–0.04 ms
  and p99 ≈ 0.1–0.3 ms per journaled action, while FULL gives p50 ≈ 0.5–4 ms
  and p99 ≈ 8–16 ms, past the 5 ms target.  A card club losing the last second
  of play on a power cut, with the file consistent and the money balanced, is
  an acceptable trade; choose ``durability="power"`` where it is not.
* **busy_timeout**: a second process briefly holding the lock (a backup, the
  ``sqlite3`` shell) makes us wait instead of fail; past the timeout the
  database counts as locked and ``StoreError`` says so.  Opening waits up to
  ``busy_timeout`` (5 s); after that a write waits at most ``write_wait``,
  which for the server's store (``exclusive=True``) is 50 ms (``WRITE_WAIT``).
  Why so short: the server calls the store on its event loop, between the
  rules and the broadcast (an action is committed before anyone sees it, and
  the commit itself is a fraction of a millisecond), so whatever a write waits
  every session waits.  Readers never wait in WAL mode, even while another
  process holds ``BEGIN EXCLUSIVE``; only writes do, and a write that cannot
  get the lock in 50 ms is refused (the table says "could not write that
  down" and rebuilds itself from its journal) instead of freezing the club.
  After one such refusal the next writes do not wait at all until one
  succeeds, so a 15 s lock costs the loop one 50 ms wait, not one per action.
  ``tests/bench/store_lock_bench.py`` measures it; see ``engine.store.base``.
* **files 0600, whatever the umask**: the database holds every hidden card,
  so ``sukno.db`` is created 0600 before SQLite opens it (SQLite gives its
  ``-wal`` and ``-shm`` the database file's own mode), and loose modes of the
  three files and the lock file are tightened at open.
* **checked at open**: ``PRAGMA quick_check`` (a damaged page is refused at
  start with the reason, not discovered by every later write), and the file's
  identity (device, inode) is kept: before each write the path must still name
  the same file, so a data folder deleted or replaced under a running server
  stops every write, loudly, instead of acknowledging actions into an
  unlinked file that a restart would not see.
* **foreign keys on**; one connection guarded by a lock, so the asyncio loop
  and a helper thread may share the store.
* **exclusive=True** additionally holds an ``flock`` on ``<file>.lock`` for the
  store's lifetime, so a second ``sukno serve`` on the same data folder stops
  with a clear message instead of writing the same journals.

Schema: ``schema_version`` lists applied migrations; ``MIGRATIONS`` is the
ordered list of what each version adds.  Never edit a released migration:
append a new one.  A database from a newer sukno (a version beyond the list)
is refused, not touched.

Amounts are stored as INTEGER when they fit in 64 bits and as decimal TEXT
otherwise, in columns without type affinity so SQLite keeps each as given;
they are summed in Python.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from engine.store.base import StoreError
from engine.store.accounts import migration as accounts_migration
from engine.store.codes import migration as codes_migration
from engine.store.moderation import migration as moderation_migration, settings_migration
from engine.store.ratings import migration as ratings_migration, rerate_kept
from engine.store.sql import LOOK_KEY_SQL, WATCHER_SQL, FORGET_NODE, Migration, SqlStore, fill_look_keys  # noqa: F401 - FORGET_NODE: defined here first

try:  # Unix only; without it ``exclusive`` is refused
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("sukno.store")

WRITE_WAIT = 0.05
"""How long the server's store (``exclusive=True``) lets a write wait for another process's lock (s)."""

PRIVATE = 0o600
SIDE_FILES = ("-wal", "-shm", ".lock")

MIGRATIONS: tuple[tuple[Migration, ...], ...] = (
    # 1: accounts and their SSH keys
    (
        """CREATE TABLE account (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            language TEXT NOT NULL,
            role TEXT NOT NULL,
            created REAL NOT NULL,
            last_seen REAL)""",
        """CREATE TABLE account_key (
            fingerprint TEXT PRIMARY KEY,
            account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            added REAL NOT NULL)""",
        "CREATE INDEX account_key_account ON account_key(account_id)",
    ),
    # 2: the double-entry ledger; purse.balance caches the sum of its entries
    (
        "CREATE TABLE purse (name TEXT PRIMARY KEY, balance NOT NULL)",
        """CREATE TABLE ledger_txn (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            table_id,
            deal_no INTEGER,
            reason TEXT NOT NULL)""",
        """CREATE TABLE ledger_entry (
            txn_id INTEGER NOT NULL REFERENCES ledger_txn(id),
            purse TEXT NOT NULL REFERENCES purse(name),
            amount NOT NULL)""",
        "CREATE INDEX ledger_entry_purse ON ledger_entry(purse, txn_id)",
        "CREATE INDEX ledger_entry_txn ON ledger_entry(txn_id)",
    ),
    # 3: journals of live tables
    (
        """CREATE TABLE live_table (
            table_id PRIMARY KEY,
            opened_at REAL NOT NULL,
            header TEXT NOT NULL)""",
        """CREATE TABLE journal (
            table_id NOT NULL REFERENCES live_table(table_id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            PRIMARY KEY (table_id, seq)) WITHOUT ROWID""",
    ),
    # 4: finished records and who played them
    (
        """CREATE TABLE record (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            table_id,
            finished_at REAL NOT NULL,
            body TEXT NOT NULL)""",
        """CREATE TABLE record_player (
            record_id INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
            account_id INTEGER REFERENCES account(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            net NOT NULL,
            PRIMARY KEY (record_id, seat))""",
        "CREATE INDEX record_player_account ON record_player(account_id, record_id)",
    ),
    # 5: an account's own settings (the text mode, the bell, cards in words…): short words by name
    (
        """CREATE TABLE account_setting (
            account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (account_id, key)) WITHOUT ROWID""",
    ),
    # 6: the social club: whom an account ignores, and the house's mutes
    (
        """CREATE TABLE account_ignore (
            account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            other_key TEXT NOT NULL,
            other TEXT NOT NULL,
            PRIMARY KEY (account_id, other_key)) WITHOUT ROWID""",
        """CREATE TABLE mute (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            until REAL,
            reason TEXT NOT NULL,
            by TEXT NOT NULL)""",
    ),
    # 7: bans (were bans.json) and who is online on which node, with each node's heartbeat
    (
        """CREATE TABLE ban (
            kind TEXT NOT NULL,
            target_key TEXT NOT NULL,
            target TEXT NOT NULL,
            until REAL,
            reason TEXT NOT NULL,
            by_whom TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (kind, target_key)) WITHOUT ROWID""",
        """CREATE TABLE node_beat (
            node TEXT PRIMARY KEY,
            beat REAL NOT NULL)""",
        """CREATE TABLE presence (
            node TEXT NOT NULL REFERENCES node_beat(node) ON DELETE CASCADE,
            session TEXT NOT NULL,
            name TEXT NOT NULL,
            guest INTEGER NOT NULL,
            address TEXT NOT NULL,
            fingerprint TEXT,
            place TEXT NOT NULL,
            lang TEXT NOT NULL,
            since REAL NOT NULL,
            PRIMARY KEY (node, session)) WITHOUT ROWID""",
    ),
    # 8: when each session last typed, so every node's ``sessions`` shows its idle time
    ("ALTER TABLE presence ADD COLUMN active REAL",),
    # 9: skill ratings per game, the last record they count, and the analyses kept of records
    ratings_migration("REAL", "INTEGER"),
    # 10: the house's hold on an account: active, disabled or closed (its name freed at free_at)
    accounts_migration("REAL"),
    # 11: the chat log and the reports (engine.store.moderation)
    moderation_migration("REAL", "INTEGER PRIMARY KEY"),
    # names unique by their looks in the store itself ("Anna" and "Аnna" are one), old clashes kept apart
    (*LOOK_KEY_SQL, fill_look_keys),
    # 13: the house's settings kept for every node and the next start (the message of the day)
    settings_migration("REAL"),
    # who watched each finished record: they may analyse it
    WATCHER_SQL,
    # the kept ratings made again with the smaller drift per deal (engine.ratings.TAU: MU/3000, not MU/300)
    (rerate_kept,),
    # one-time link codes (hashed), good on every node of the club (engine.store.codes)
    codes_migration("REAL", "INTEGER"),
)
SCHEMA_VERSION = len(MIGRATIONS)
_INT64 = 2**63


def _amount_in(value: int) -> int | str:
    """An amount as SQLite can keep it exactly: INTEGER if it fits 64 bits, decimal text if not."""
    return value if -_INT64 <= value < _INT64 else str(value)


def _amount_out(value: int | str) -> int:
    return int(value)


class SqliteStore(SqlStore):
    """``Store`` on one SQLite file: the shared SQL (``engine.store.sql``) on ``sqlite3``; see the module
    docstring for the choices."""

    _amount_in = staticmethod(_amount_in)

    def __init__(
        self,
        path: str | Path,
        *,
        durability: str = "process",
        busy_timeout: float = 5.0,
        exclusive: bool = False,
        write_wait: float | None = None,
    ):
        if durability not in ("process", "power"):
            raise ValueError("durability is 'process' (synchronous=NORMAL) or 'power' (FULL)")
        self.path = Path(path)
        self._db = None  # a sqlite3.Connection once open (the base types it for both stores)
        self._lock = threading.RLock()
        self._depth = 0
        self._lockfile: int | None = None
        self._identity: tuple[int, int] | None = None
        self._wait_ms = int(busy_timeout * 1000)
        self._held_off = False  # another process held the lock at the last try: writes do not wait
        self.gone: str | None = None
        """Why nothing more is written (the file vanished), or None."""
        _check_file(self.path)
        _private_files(self.path)
        if exclusive:
            self._take_lockfile()
        try:
            self._db = self._connect(busy_timeout, "NORMAL" if durability == "process" else "FULL")
            self._check_integrity()
            self._migrate()
            _private_files(self.path)
            wait = (WRITE_WAIT if exclusive else busy_timeout) if write_wait is None else write_wait
            self._wait_ms = max(0, int(wait * 1000))
            self._db.execute(f"PRAGMA busy_timeout = {self._wait_ms}")
            stat = os.stat(self.path)
            self._identity = (stat.st_dev, stat.st_ino)
        except OSError as err:
            self.close()
            raise StoreError(f"{self.path} cannot be used: {err.strerror or err}", 74) from None
        except sqlite3.Error as err:
            self.close()
            raise _translate(err, self.path) from None
        except StoreError:
            self.close()
            raise

    # --- opening --------------------------------------------------------------

    def _take_lockfile(self) -> None:
        if fcntl is None:  # pragma: no cover
            raise StoreError("exclusive use of the store needs a Unix system", 78)
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise StoreError(f"cannot create {lock_path}: {err.strerror}", 74) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"{self.path} is in use by another sukno process (is another 'sukno serve' "
                "running on this data folder?)",
                75,
            ) from None
        self._lockfile = fd

    def _connect(self, busy_timeout: float, synchronous: str) -> sqlite3.Connection:
        db = sqlite3.connect(
            self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        self._db = db
        self._x = db.execute  # type: ignore[method-assign, assignment]  # the shared SQL runs on sqlite3 without a wrapper's call
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: SQLite refused WAL mode (got {mode!r})", 74)
        db.execute(f"PRAGMA synchronous = {synchronous}")
        db.execute("PRAGMA foreign_keys = ON")
        return db

    def _check_integrity(self) -> None:
        """``PRAGMA quick_check``: refuse a damaged file at start, with SQLite's first complaints."""
        rows = [str(r[0]) for r in self._db.execute("PRAGMA quick_check(5)").fetchall()]
        if rows != ["ok"]:
            raise StoreError(
                f"{self.path} is damaged (SQLite's check says: {'; '.join(rows)[:300]}); "
                "restore it from a backup or move it away", 65)

    def _still_there(self) -> None:
        """Before a write: the path must still be the file we opened (not deleted, not replaced)."""
        if self.gone is None and self._identity is not None:
            try:
                stat = os.stat(self.path)
                same = (stat.st_dev, stat.st_ino) == self._identity
            except OSError:
                same = False
            if not same:
                self.gone = (f"{self.path} was deleted or replaced while the club ran; nothing more is "
                             "written (restart the server on a data folder that exists)")
                log.error("THE STORE IS GONE: %s", self.gone)
        if self.gone is not None:
            raise StoreError(self.gone, 74)

    def check(self) -> str | None:
        """A probe between writes: why nothing can be written any more (the file vanished), or None."""
        with self._lock:
            try:
                self._still_there()
            except StoreError as err:
                return err.message
        return None

    def _migrate(self) -> None:
        with self._tx():
            self._check_ours()
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied REAL NOT NULL)"
            )
            version = self.schema_version()
        self._refuse_newer(version, SCHEMA_VERSION, "data folder")
        for number in range(version + 1, SCHEMA_VERSION + 1):
            self._apply_migration(number)

    def _check_ours(self) -> None:
        """Refuse an SQLite file that some other program made."""
        names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "schema_version" not in names:
            raise StoreError(
                f"{self.path} is an SQLite database of some other program, not sukno's "
                f"(it has tables {', '.join(sorted(names)[:5])}); choose another data folder",
                65,
            )

    def _apply_migration(self, number: int) -> None:
        with self._tx():
            if self.schema_version() >= number:  # another process migrated meanwhile
                return
            for statement in MIGRATIONS[number - 1]:
                if isinstance(statement, str):
                    self._db.execute(statement)
                else:
                    statement(self)
            self._db.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))

    def close(self) -> None:
        """Close the connection (committed data is already safe) and release the lock file."""
        db = getattr(self, "_db", None)
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:  # pragma: no cover
                pass
            self._db = None
        if self._lockfile is not None:
            os.close(self._lockfile)
            self._lockfile = None

    # --- transactions -----------------------------------------------------------

    def _joined(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed", 70)
        return self._db

    def _begin(self) -> sqlite3.Connection:
        db = self._joined()
        self._still_there()
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            failure = _translate(err, self.path)
            if failure.exit_status == 75:
                self._contended(True)
            raise failure from None
        if self._held_off:
            self._contended(False)
        return db

    def _commit(self) -> None:
        self._db.execute("COMMIT")

    def _abort(self, err: BaseException) -> BaseException:
        self._rollback()
        return _translate(err, self.path) if isinstance(err, sqlite3.Error) else err

    def _contended(self, locked: bool) -> None:
        """Another process holds the lock: after one write waited ``write_wait`` for it in vain, the next
        ones do not wait at all (refused at once while it is held, done at once when it is free), so a
        long lock costs the loop one wait, not one per action; the first write that succeeds restores it."""
        if locked and not self._held_off:
            self._db.execute("PRAGMA busy_timeout = 0")
            self._held_off = True
            log.warning("%s is locked by another process: writes are refused until it lets go", self.path)
        elif not locked and self._held_off:
            self._db.execute(f"PRAGMA busy_timeout = {self._wait_ms}")
            self._held_off = False
            log.info("%s is free again: writes go on", self.path)

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite already rolled back (e.g. after a full disk)

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._db is None:
                raise StoreError("the store is closed", 70)
            try:
                yield self._db
            except sqlite3.Error as err:
                raise _translate(err, self.path) from None

    # --- the ledger -------------------------------------------------------------------

    def _move(self, txn: int, purse: str, amount: int) -> None:
        """One entry, and the purse's cached balance with it (the purse is made on first use)."""
        row = self._db.execute("SELECT balance FROM purse WHERE name = ?", (purse,)).fetchone()
        if row is None:
            self._db.execute("INSERT INTO purse VALUES (?, ?)", (purse, _amount_in(amount)))
        else:
            balance = _amount_out(row[0]) + amount
            self._db.execute("UPDATE purse SET balance = ? WHERE name = ?", (_amount_in(balance), purse))
        self._db.execute("INSERT INTO ledger_entry VALUES (?, ?, ?)", (txn, purse, _amount_in(amount)))

    def ledger_sum(self) -> int:
        """The sum of every entry ever posted: zero, always."""
        with self._read() as db:
            return sum(_amount_out(a) for (a,) in db.execute("SELECT amount FROM ledger_entry"))

    def check_ledger(self) -> None:
        """Raise ``StoreError`` unless every transaction sums to zero and every cached balance is right."""
        with self._read() as db:
            per_txn: dict[int, int] = {}
            per_purse: dict[str, int] = {}
            for txn, purse, amount in db.execute("SELECT txn_id, purse, amount FROM ledger_entry"):
                per_txn[txn] = per_txn.get(txn, 0) + _amount_out(amount)
                per_purse[purse] = per_purse.get(purse, 0) + _amount_out(amount)
            cached = {name: _amount_out(b) for name, b in db.execute("SELECT name, balance FROM purse")}
        unbalanced = [t for t, total in per_txn.items() if total]
        if unbalanced:
            raise StoreError(f"{self.path}: ledger transactions {unbalanced[:5]} do not sum to zero", 65)
        wrong = [p for p in cached.keys() | per_purse.keys() if cached.get(p, 0) != per_purse.get(p, 0)]
        if wrong:
            raise StoreError(f"{self.path}: the balances of {sorted(wrong)[:5]} disagree with the ledger", 65)

# --- checks and translations ---------------------------------------------------------------


def _private_files(path: Path) -> None:
    """The database 0600 from its first byte (created here, before SQLite, whatever the umask), and
    loose modes of it and its side files tightened; SQLite makes ``-wal``/``-shm`` with the file's mode."""
    if not path.exists():
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE)
        except FileExistsError:
            pass
        else:
            try:
                os.fchmod(fd, PRIVATE)
            finally:
                os.close(fd)
    for file in (path, *(path.with_name(path.name + side) for side in SIDE_FILES)):
        try:
            if file.stat().st_mode & 0o077:
                os.chmod(file, PRIVATE)
                log.warning("%s could be read by other users; made it 0600", file)
        except OSError:
            pass  # absent, or not ours to change (SQLite then says what it can and cannot do)


def _check_file(path: Path) -> None:
    """Say plainly what is wrong with the path before SQLite says it cryptically."""
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file", 78)
    if not path.parent.is_dir():
        raise StoreError(f"cannot create {path}: the folder {path.parent} does not exist", 78)
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(f"{path} cannot be read and written by this user (check its permissions)", 74)
    if not path.exists() and not os.access(path.parent, os.W_OK):
        raise StoreError(f"cannot create {path}: the folder {path.parent} is not writable", 74)


_MESSAGES = (
    ("not a database", "is not an SQLite database (wrong file, or damaged); choose another data folder", 65),
    ("file is encrypted", "is not an SQLite database (wrong file, or damaged); choose another data folder", 65),
    ("malformed", "is damaged (SQLite says the disk image is malformed); restore it from a backup", 65),
    ("locked", "is locked by another process (is another 'sukno serve' running on this data folder?)", 75),
    ("busy", "is locked by another process (is another 'sukno serve' running on this data folder?)", 75),
    ("readonly", "is read-only; sukno needs to write to it (check permissions and the disk)", 74),
    ("unable to open", "cannot be opened (check that its folder exists and is writable)", 74),
    ("disk is full", "cannot be written: the disk is full", 74),
    ("disk i/o error", "cannot be written: a disk I/O error", 74),
)


def _translate(err: sqlite3.Error, path: Path) -> StoreError:
    """An SQLite error as a message for a person and an exit status."""
    text = str(err).lower()
    for needle, message, status in _MESSAGES:
        if needle in text:
            return StoreError(f"{path} {message}", status)
    return StoreError(f"{path}: the database failed: {err}", 74)
