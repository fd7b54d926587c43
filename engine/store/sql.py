"""The SQL both stores share: one DB-API base, two small dialects.

``engine.store.sqlite.SqliteStore`` and ``engine.store.postgres.PgStore`` mean the
same thing by every method of ``engine.store.base.Store``; what they do with a
statement is the same too, so it is written once, here.  A backend keeps only
what truly differs: how it connects, begins, commits and times out
(``_tx``/``_read``, which also turn the driver's errors into ``StoreError``),
its migrations, and on PostgreSQL the lease/epoch fence, ``NOTIFY``, advisory
locks and the database's clock.

The SQL is written with ``?`` placeholders (``sqlite3``'s DB-API paramstyle);
``PgStore._x`` hands psycopg each text once rewritten to ``%s`` (kept in a
dict, so a journaled action costs a lookup, not a rewrite).  The rest of the
dialect is a few class attributes and hooks, each saying what differs:

* ``COLLATE``: text sorted by code point (SQLite's BINARY; PostgreSQL's
  ``"C"``), so both backends list names in one order;
* ``OPENED``: the column that orders live tables by opening;
* ``MUTE_BY``: SQLite's mute table calls its column ``by`` (a released
  migration: never renamed), PostgreSQL's ``by_whom``;
* ``_tid_in``/``_tid_out``: PostgreSQL keeps a table id as JSON text so that
  ``3`` and ``"3"`` come back as given (SQLite's untyped column does that);
* ``_amount_in``/``_amount_out``: money of any size exactly (SQLite: INTEGER,
  or decimal text past 64 bits; PostgreSQL: NUMERIC);
* ``_insert_id``: the id of a new row (``lastrowid``; ``RETURNING id``);
* ``_move``: one ledger entry and its purse's cached balance (SQLite adds in
  Python, since a sum past 64 bits would turn REAL; PostgreSQL in SQL);
* ``_clock``: the heartbeat's time (the process's clock; the database's, so
  nodes' clocks need not agree);
* ``_fence``/``_announce``: nothing on SQLite; on PostgreSQL the epoch check
  and the ``NOTIFY`` inside a journal write's own transaction;
* ``_entry``/``_ledger``: a journal entry and a movement of money once fenced
  (SQLite: the statements here; PostgreSQL: one function call each, nothing
  waited for before the COMMIT, so a journaled action is one round trip).

Upserts are ``INSERT … ON CONFLICT (…) DO UPDATE SET c = excluded.c`` on
both (SQLite ≥ 3.24), never ``INSERT OR REPLACE``, which deletes the row
first and with it, through a cascade, whatever refers to it.
"""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping, Self, Sequence

from engine.names import look_key
from engine.record import Record, RecordError, load_record
from engine.store import accounts as account_book
from engine.store import codes as code_book
from engine.store import moderation
from engine.store import ratings as rating_book
from engine.store.moderation import ChatLine, ChatQuery, Report
from engine.store.base import (
    GRANTS,
    ROLES,
    Account,
    AccountError,
    BanRow,
    JournalEntry,
    LedgerError,
    LiveTable,
    Movement,
    Presence,
    RecordInfo,
    StoreError,
    TableHeader,
    TableId,
    TableNumberTaken,
    ban_of,
    check_ban,
    check_presence,
    presence_of,
)

FORGET_NODE = 300.0
"""Seconds after its last heartbeat a dead node's presence rows are deleted (by any node's beat);
``presence(within)`` leaves them out much sooner."""

SETTING_MAX = 32

_ACCOUNT = "SELECT id, name, language, role, created, last_seen, state, free_at FROM account"
_BAN = "SELECT kind, target_key, target, until, reason, by_whom, at FROM ban"
_IN_BATCH = 500  # names in one ``IN (…)``: far under SQLite's 32,766 variables and PostgreSQL's 65,535


class WriteStats:
    """How this store's transactions went: counts by duration (a histogram's buckets) and refusals.

    Kept here, as plain numbers, so the metrics can report the store without the engine knowing
    how they are published."""

    BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

    def __init__(self) -> None:
        self.buckets = [0] * (len(self.BOUNDS) + 1)  # the last: longer than every bound
        self.seconds = 0.0
        self.writes = 0
        self.refused = 0

    def note(self, seconds: float, ok: bool) -> None:
        self.writes += 1
        self.seconds += seconds
        self.buckets[next((i for i, b in enumerate(self.BOUNDS) if seconds <= b), len(self.BOUNDS))] += 1
        if not ok:
            self.refused += 1


class SqlStore:
    """What both backends do by the same SQL; a subclass gives the connection and the dialect.

    A subclass provides ``_db`` (the DB-API connection, whose ``execute`` returns a cursor),
    ``path`` (what messages name), ``_tx()`` (one transaction, nested calls joining it) and
    ``_read()`` (a read, errors translated)."""

    COLLATE: ClassVar[str] = ""
    OPENED: ClassVar[str] = "rowid"
    MUTE_BY: ClassVar[str] = '"by"'

    _db: Any
    path: Any
    _lock: Any  # a threading.RLock: one transaction at a time on the connection
    _depth: int  # how deep in nested ``_tx`` calls (0: no transaction)

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """One transaction; a call inside another joins it, so a batch is one commit, all or nothing.
        How one begins, commits and gives up is the backend's: ``_begin``, ``_commit``, ``_abort``."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._joined()
                finally:
                    self._depth -= 1
                return
            started = time.perf_counter()
            ok = False
            try:
                handle = self._begin()
                self._depth = 1
                yield handle
                self._commit()
                ok = True
            except BaseException as err:
                failure = self._abort(err) if self._depth else err
                if failure is err:
                    raise
                raise failure from None
            finally:
                self._depth = 0
                self.write_stats.note(time.perf_counter() - started, ok)

    @property
    def write_stats(self) -> WriteStats:
        """This connection's transactions so far (made on first use: the backends have their own ``__init__``)."""
        stats: WriteStats | None = self.__dict__.get("_write_stats")
        if stats is None:
            stats = self.__dict__["_write_stats"] = WriteStats()
        return stats

    def _begin(self) -> Any:  # pragma: no cover - every backend has its own
        """Begin a transaction (errors already the store's); what its statements are run on."""
        raise NotImplementedError

    def _joined(self) -> Any:  # pragma: no cover
        """What the statements of a call joining the transaction under way are run on."""
        raise NotImplementedError

    def _commit(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def _abort(self, err: BaseException) -> BaseException:  # pragma: no cover
        """Roll back after ``err``; what to raise (the driver's errors as ``StoreError``, others as they are)."""
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Any]:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover
        raise NotImplementedError

    # --- what every store does around its statements -------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several calls into one commit: all of them happen, or none."""
        with self._tx():
            yield

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def schema_version(self) -> int:
        """The highest migration applied to this store (0: none yet)."""
        row = self._x("SELECT max(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def _refuse_newer(self, version: int, known: int, elsewhere: str) -> None:
        """A store written by a newer sukno is refused, untouched (78)."""
        if version > known:
            raise StoreError(f"{self.path} was written by a newer sukno (schema version {version}; this sukno "
                             f"knows up to {known}); upgrade sukno or use another {elsewhere}", 78)

    # --- the dialect (SQLite's here; PgStore overrides) ------------------------------------

    def _x(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (``?`` placeholders) on the connection; its cursor."""
        return self._db.execute(sql, params)

    def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each of ``rows`` (DB-API ``executemany``)."""
        if rows:
            self._db.cursor().executemany(sql, rows)

    def _insert_id(self, sql: str, params: Sequence[Any]) -> int:
        """Insert one row; its new id."""
        return int(self._x(sql, params).lastrowid)

    @staticmethod
    def _tid_in(table_id: TableId | None) -> Any:
        return table_id

    @staticmethod
    def _tid_out(value: Any) -> TableId | None:
        return value

    @staticmethod
    def _tid_of(value: Any) -> TableId:
        """A table id read from a column that is never NULL."""
        if not isinstance(value, (int, str)):
            raise ValueError(f"not a table id: {value!r}")
        return value

    @staticmethod
    def _amount_in(value: int) -> Any:
        return value

    @staticmethod
    def _amount_out(value: Any) -> int:
        return int(value)

    def _clock(self) -> tuple[str, tuple[Any, ...]]:
        """The SQL and parameters of "now" for heartbeats (wall seconds)."""
        return "?", (time.time(),)

    def _fence(self, table_id: TableId) -> None:
        """Inside a write of ``table_id``'s journal or money: refuse it if the table is not ours."""

    def _announce(self, tid: Any, seq: int) -> None:
        """Inside a journal write: tell the other nodes once it commits (seq 0: new session, -1: closed)."""

    def _move(self, txn: int, purse: str, amount: int) -> None:  # pragma: no cover
        raise NotImplementedError

    # --- accounts -----------------------------------------------------------------

    def create_account(
        self,
        name: str,
        *,
        key: str | None = None,
        language: str = "ru",
        role: str = "player",
        grant: int = 0,
        now: float | None = None,
    ) -> Account:
        """A new account (its key bound, its starting grant posted from ``club:grants``)."""
        name = _check_name(name)
        if isinstance(grant, bool) or not isinstance(grant, int) or grant < 0:
            raise AccountError(f"a starting grant is a whole number of kopecks ≥ 0, not {grant!r}")
        _check_role(role)
        _check_language(language)
        when = _now(now)
        with self._tx():
            if self._account_id(name) is not None:
                raise AccountError(f"the name {name!r} is taken; choose another")
            account_book.refuse_lookalike(self, name)
            self._x("INSERT INTO account (name, name_key, look_key, language, role, created, last_seen) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", (name, _name_key(name), look_key(name), language, role, when, when))
            if key is not None:
                self.add_key(name, key, now=when)
            if grant:
                self.post([(GRANTS, -grant), (name, grant)], reason="starting grant", now=when)
        account = self.account(name)
        assert account is not None
        return account

    def account(self, name: str) -> Account | None:
        """The account of that name (case does not matter), or None."""
        with self._read():
            row = self._x(f"{_ACCOUNT} WHERE name_key = ?", (_name_key(name),)).fetchone()
            return None if row is None else self._account(row)

    def name_clashes(self) -> list[tuple[str, str]]:
        """Accounts made before names were compared by their looks whose name looks like an older
        account's: (this name, the older one), for ``sukno db upgrade`` to report."""
        with self._read():
            kept = dict(self._x("SELECT look_key, name FROM account WHERE look_key IS NOT NULL").fetchall())
            loose = [r[0] for r in self._x("SELECT name FROM account WHERE look_key IS NULL ORDER BY id").fetchall()]
        return [(name, kept.get(look_key(name), "?")) for name in loose]

    def account_by_key(self, fingerprint: str) -> Account | None:
        """The account a public key belongs to (how a returning player is recognised)."""
        with self._read():
            row = self._x(
                "SELECT a.id, a.name, a.language, a.role, a.created, a.last_seen, a.state, a.free_at FROM account a "
                "JOIN account_key k ON k.account_id = a.id WHERE k.fingerprint = ?", (fingerprint,)).fetchone()
            return None if row is None else self._account(row)

    def accounts(self) -> list[Account]:
        with self._read():
            rows = self._x(f"{_ACCOUNT} ORDER BY name_key{self.COLLATE}").fetchall()
            return [self._account(row) for row in rows]

    def _account(self, row: Sequence[Any]) -> Account:
        account_id, name, language, role, created, last_seen, state, free_at = row
        keys = tuple(k for (k,) in self._x(
            f"SELECT fingerprint FROM account_key WHERE account_id = ? ORDER BY added, fingerprint{self.COLLATE}",
            (account_id,)).fetchall())
        return Account(name, language, role, created, last_seen, keys, self.balance(name), str(state),
                       None if free_at is None else float(free_at))

    def _account_id(self, name: str) -> int | None:
        row = self._x("SELECT id FROM account WHERE name_key = ?", (_name_key(name),)).fetchone()
        return None if row is None else int(row[0])

    def _existing(self, name: str) -> int:
        account_id = self._account_id(name)
        if account_id is None:
            raise AccountError(f"there is no account named {name!r}")
        return account_id

    def add_key(self, name: str, fingerprint: str, *, now: float | None = None) -> None:
        """Bind one more public key to an account; a key belongs to one account only."""
        fingerprint = fingerprint.strip()
        if not fingerprint:
            raise AccountError("a key fingerprint cannot be empty")
        with self._tx():
            account_id = self._existing(name)
            owner = self._x("SELECT a.id, a.name FROM account_key k JOIN account a ON a.id = k.account_id "
                            "WHERE k.fingerprint = ?", (fingerprint,)).fetchone()
            if owner is not None and owner[0] != account_id:
                raise AccountError(f"this key already belongs to the account {owner[1]!r}")
            if owner is None:
                self._x("INSERT INTO account_key VALUES (?, ?, ?)", (fingerprint, account_id, _now(now)))

    def remove_key(self, fingerprint: str) -> None:
        with self._tx():
            self._x("DELETE FROM account_key WHERE fingerprint = ?", (fingerprint,))

    # --- one-time link codes, good on every node (``engine.store.codes``) --------------------------

    def put_link_code(self, name: str, word: str, *, life: float, keep: int, now: float | None = None) -> str:
        """Keep a one-time code (hashed) for the account ``name``: its own spelling."""
        return code_book.put(self, name, word, life, keep, now)

    def spend_link_code(self, word: str, fingerprint: str, *, now: float | None = None) -> str | None:
        """Bind ``fingerprint`` to the account of a live code and use it up, atomically: the name, or None."""
        return code_book.spend(self, word, fingerprint, now)

    def live_link_codes(self, name: str, *, now: float | None = None) -> int:
        return code_book.live(self, name, now)

    # --- the house's hold on accounts (``engine.store.accounts``) -----------------------------

    def set_account_state(self, name: str, state: str, *, free_at: float | None = None) -> str:
        """Disable, close (the name freed at ``free_at``) or enable the account; its own spelling."""
        return account_book.set_state(self, name, state, free_at)

    def rename_account(self, old: str, new: str) -> tuple[str, str]:
        """The account ``old`` is called ``new`` from now on (its id, records and ledger kept): both spelt."""
        return account_book.rename(self, old, new, _name_key, _check_name)

    def release_names(self, now: float | None = None) -> list[str]:
        """Free the names of closed accounts whose waiting is over; the names freed."""
        return account_book.release_names(self, now, _name_key)

    def shut_accounts(self) -> dict[str, str]:
        """The accounts that may not enter: name → ``disabled`` or ``closed``."""
        return account_book.shut(self)

    def account_list(self) -> list[tuple[str, str]]:
        """Every account's name and state, by name."""
        return account_book.listing(self)

    def set_language(self, name: str, language: str) -> None:
        _check_language(language)
        self._set(name, "language", language)

    def set_role(self, name: str, role: str) -> None:
        _check_role(role)
        self._set(name, "role", role)

    def touch(self, name: str, *, now: float | None = None) -> None:
        """The account was seen now (login, activity)."""
        self._set(name, "last_seen", _now(now))

    def _set(self, name: str, column: str, value: Any) -> None:
        assert column in ("language", "role", "last_seen")
        with self._tx():
            account_id = self._existing(name)
            self._x(f"UPDATE account SET {column} = ? WHERE id = ?", (value, account_id))

    def settings(self, name: str) -> dict[str, str]:
        """The account's own settings (``{}`` for none, or for no such account)."""
        with self._read():
            account_id = self._account_id(name)
            if account_id is None:
                return {}
            rows = self._x("SELECT key, value FROM account_setting WHERE account_id = ?", (account_id,))
            return {str(k): str(v) for k, v in rows.fetchall()}

    def set_setting(self, name: str, key: str, value: str) -> None:
        """Keep one setting of the account (an empty value forgets it); keys and values are short words."""
        _check_setting(key, value)
        with self._tx():
            account_id = self._existing(name)
            if value:
                self._x("INSERT INTO account_setting VALUES (?, ?, ?) "
                        "ON CONFLICT (account_id, key) DO UPDATE SET value = excluded.value",
                        (account_id, key, value))
            else:
                self._x("DELETE FROM account_setting WHERE account_id = ? AND key = ?", (account_id, key))

    def ignores(self, name: str) -> list[str]:
        """The names the account ignores (``[]`` for none, or for no such account)."""
        with self._read():
            account_id = self._account_id(name)
            if account_id is None:
                return []
            rows = self._x(f"SELECT other FROM account_ignore WHERE account_id = ? ORDER BY other_key{self.COLLATE}",
                           (account_id,))
            return [str(other) for (other,) in rows.fetchall()]

    def set_ignore(self, name: str, other: str, on: bool) -> None:
        """The account ignores ``other`` (``on``) or no longer does."""
        other = _check_name(other)
        with self._tx():
            account_id = self._existing(name)
            if on:
                self._x("INSERT INTO account_ignore VALUES (?, ?, ?) "
                        "ON CONFLICT (account_id, other_key) DO UPDATE SET other = excluded.other",
                        (account_id, _name_key(other), other))
            else:
                self._x("DELETE FROM account_ignore WHERE account_id = ? AND other_key = ?",
                        (account_id, _name_key(other)))

    def mutes(self) -> list[tuple[str, float | None, str, str]]:
        """The house's mutes: (name, until in wall-clock seconds or None, reason, by)."""
        with self._read():
            rows = self._x(f"SELECT name, until, reason, {self.MUTE_BY} FROM mute "
                           f"ORDER BY name_key{self.COLLATE}").fetchall()
            return [(str(n), None if u is None else float(u), str(r), str(b)) for n, u, r, b in rows]

    def set_mute(self, name: str, until: float | None, reason: str, by: str) -> None:
        name = _check_name(name)
        if len(reason) > 300 or len(by) > 64:
            raise AccountError("a mute's reason is at most 300 characters")
        by_col = self.MUTE_BY
        with self._tx():
            self._x(f"INSERT INTO mute VALUES (?, ?, ?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET "
                    f"name = excluded.name, until = excluded.until, reason = excluded.reason, "
                    f"{by_col} = excluded.{by_col}", (_name_key(name), name, until, reason, by))

    def clear_mute(self, name: str) -> None:
        with self._tx():
            self._x("DELETE FROM mute WHERE name_key = ?", (_name_key(name),))

    # --- the ledger -------------------------------------------------------------------

    def post(
        self,
        entries: Iterable[tuple[str, int]],
        *,
        table_id: TableId | None = None,
        deal_no: int | None = None,
        reason: str = "",
        now: float | None = None,
        returning: bool = True,
    ) -> int | None:
        """Record one movement of money; the entries must sum to zero.  Returns its id (None: nothing
        moved, or ``returning=False``: not asked, so PostgreSQL need not wait for it inside a batch)."""
        moves = _merge(entries)
        if not moves:
            return None
        with self._tx():
            if table_id is not None:
                self._fence(table_id)
            answer = self._ledger(moves, self._tid_in(table_id), deal_no, reason, _now(now))
        return answer() if returning else None

    def _ledger(self, moves: Mapping[str, int], tid: Any, deal_no: int | None, reason: str,
                at: float) -> Callable[[], int]:
        """Inside ``post``'s transaction, fenced: the movement written; what gives its id (asked after the
        transaction, so that PostgreSQL need not wait for it inside)."""
        merged: dict[str, int] = {}
        for name, amount in moves.items():  # "anna" and "Anna" are one purse
            purse = self._purse_name(name)
            merged[purse] = merged.get(purse, 0) + amount
        txn = self._insert_id("INSERT INTO ledger_txn (at, table_id, deal_no, reason) VALUES (?, ?, ?, ?)",
                              (at, tid, deal_no, reason))
        for purse in sorted(p for p, a in merged.items() if a):  # one order: no deadlock between nodes
            self._move(txn, purse, merged[purse])
        return lambda: txn

    def _purse_name(self, name: str) -> str:
        """The stored name of a purse: an account's own spelling, or the pool's name."""
        if ":" in name:
            return name
        row = self._x("SELECT name FROM account WHERE name_key = ?", (_name_key(name),)).fetchone()
        if row is None:
            raise LedgerError(f"there is no account named {name!r} to move money to or from")
        return str(row[0])

    def _known_name(self, purse: str) -> str:
        """Like ``_purse_name`` but an unknown name is just an empty purse."""
        try:
            return self._purse_name(purse)
        except LedgerError:
            return purse

    def balance(self, purse: str) -> int:
        """The money in a purse (an account's club balance, a table's pot), in kopecks."""
        with self._read():
            purse = self._known_name(purse)
            row = self._x("SELECT balance FROM purse WHERE name = ?", (purse,)).fetchone()
            return 0 if row is None else self._amount_out(row[0])

    def balances(self, names: Sequence[str]) -> dict[str, int | None]:
        """Each name's club balance, None for a name with no account: one read for a whole hall's doors
        (``balance`` per name was three statements each; 500 doors after a deal's end made 1,500)."""
        out: dict[str, int | None] = {name: None for name in names}
        keys: dict[str, list[str]] = {}
        for name in names:
            keys.setdefault(_name_key(name), []).append(name)
        wanted = list(keys)
        with self._read():
            for at in range(0, len(wanted), _IN_BATCH):
                batch = wanted[at:at + _IN_BATCH]
                rows = self._x(
                    "SELECT a.name_key, p.balance FROM account a LEFT JOIN purse p ON p.name = a.name "
                    f"WHERE a.name_key IN ({', '.join('?' * len(batch))})", batch).fetchall()
                for key, amount in rows:
                    for name in keys[str(key)]:
                        out[name] = 0 if amount is None else self._amount_out(amount)
        return out

    def statement(self, purse: str, limit: int = 20) -> list[Movement]:
        """The purse's latest movements, newest first."""
        with self._read():
            purse = self._known_name(purse)
            rows = self._x(
                "SELECT t.id, t.at, e.amount, t.reason, t.table_id, t.deal_no FROM ledger_entry e "
                "JOIN ledger_txn t ON t.id = e.txn_id WHERE e.purse = ? ORDER BY t.id DESC LIMIT ?",
                (purse, max(0, int(limit)))).fetchall()
            return [Movement(int(r[0]), r[1], self._amount_out(r[2]), r[3], self._tid_out(r[4]), r[5]) for r in rows]

    def purses(self) -> dict[str, int]:
        """Every purse and its balance (for the admin console and the checks)."""
        with self._read():
            rows = self._x(f"SELECT name, balance FROM purse ORDER BY name{self.COLLATE}").fetchall()
            return {name: self._amount_out(b) for name, b in rows}

    # --- bans and presence --------------------------------------------------

    def bans(self) -> list[BanRow]:
        """Every ban kept (expired ones too, until ``prune_bans``), oldest first."""
        with self._read():
            rows = self._x(f"{_BAN} ORDER BY at, kind, target_key").fetchall()
        return [ban_of(r) for r in rows]

    def put_ban(self, ban: BanRow) -> None:
        """Keep ``ban``, in place of a ban of the same kind and key."""
        b = check_ban(ban)
        with self._tx():
            self._x("INSERT INTO ban VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, target_key) DO UPDATE SET "
                    "target = excluded.target, until = excluded.until, reason = excluded.reason, "
                    "by_whom = excluded.by_whom, at = excluded.at",
                    (b.kind, b.key, b.target, b.until, b.reason, b.by, b.at))

    def drop_bans(self, kind: str, key: str) -> list[BanRow]:
        """Lift the ban of this kind and key; the bans lifted (none: ``[]``)."""
        with self._tx():
            rows = self._x(f"{_BAN} WHERE kind = ? AND target_key = ?", (kind, key)).fetchall()
            self._x("DELETE FROM ban WHERE kind = ? AND target_key = ?", (kind, key))
        return [ban_of(r) for r in rows]

    def prune_bans(self, now: float) -> int:
        """Delete the bans expired at ``now`` (wall time); how many."""
        with self._tx():
            return int(self._x("DELETE FROM ban WHERE until IS NOT NULL AND until <= ?", (now,)).rowcount)

    def beat(self, node: str, upserts: Sequence[Presence] = (), gone: Sequence[str] = ()) -> None:
        """``node`` is alive now; its sessions ``upserts`` are as given and ``gone`` have ended; nodes
        silent for ``FORGET_NODE`` lose their rows."""
        check_node(node)
        rows = [check_presence(r) for r in upserts]
        if any(r.node != node for r in rows):
            raise ValueError("a node beats for its own sessions only")
        now, at = self._clock()
        with self._tx():
            self._x(f"INSERT INTO node_beat VALUES (?, {now}) ON CONFLICT (node) DO UPDATE SET beat = excluded.beat",
                    (node, *at))  # not a replace: that would delete the node's rows (the cascade)
            self._many("DELETE FROM presence WHERE node = ? AND session = ?", [(node, g) for g in gone])
            self._many("INSERT INTO presence VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (node, session) "
                       "DO UPDATE SET name = excluded.name, guest = excluded.guest, address = excluded.address, "
                       "fingerprint = excluded.fingerprint, place = excluded.place, lang = excluded.lang, "
                       "since = excluded.since, active = excluded.active",
                       [(r.node, r.session, r.name, bool(r.guest), r.address, r.key, r.place, r.lang, r.since,
                         r.active) for r in rows])
            self._x(f"DELETE FROM node_beat WHERE beat < {now} - ?", (*at, FORGET_NODE))

    def presence(self, within: float) -> list[Presence]:
        """Every session of the nodes whose heartbeat came in the last ``within`` seconds."""
        now, at = self._clock()
        with self._read():
            rows = self._x(
                "SELECT p.node, session, name, guest, address, fingerprint, place, lang, since, active FROM presence p "
                f"JOIN node_beat b ON b.node = p.node WHERE b.beat >= {now} - ? "
                "ORDER BY since, p.node, session", (*at, within)).fetchall()
        return [presence_of(r) for r in rows]

    def leave_presence(self, node: str) -> None:
        """``node`` stops: its sessions are gone from the club at once."""
        with self._tx():
            self._x("DELETE FROM node_beat WHERE node = ?", (node,))

    # --- live tables ---------------------------------------------------------------------

    def open_table_journal(self, table_id: TableId, header: TableHeader, *, now: float | None = None) -> None:
        """Start the journal of a live table; refused if that table already has one."""
        _check_table_id(table_id)
        with self._tx():
            try:
                self._fence(table_id)
                done = self._x("INSERT INTO live_table (table_id, opened_at, header) VALUES (?, ?, ?) "
                               "ON CONFLICT (table_id) DO NOTHING",
                               (self._tid_in(table_id), _now(now), _dumps(header.to_json()))).rowcount
            except StoreError:  # another node leased that number (PostgreSQL: the fence answers with the insert)
                raise TableNumberTaken(table_id) from None
            if done != 1:  # the primary key: a table opened with it first (here, or on another node)
                raise TableNumberTaken(table_id)

    def new_session(self, table_id: TableId, header: TableHeader, *, now: float | None = None) -> None:
        """The table starts a new session: a new header, the old entries dropped."""
        tid = self._tid_in(table_id)
        with self._tx():
            self._fence(table_id)
            self._live(table_id)
            self._x("DELETE FROM journal WHERE table_id = ?", (tid,))
            self._x("UPDATE live_table SET header = ?, opened_at = ? WHERE table_id = ?",
                    (_dumps(header.to_json()), _now(now), tid))
            self._announce(tid, 0)

    def append(
        self, table_id: TableId, kind: str, payload: Mapping[str, Any], *, now: float | None = None
    ) -> int:
        """Append one entry to a table's journal and commit (unless inside ``batch``); returns its seq."""
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"a journal entry kind is a non-empty text, not {kind!r}")
        text = _dumps(payload)
        tid = self._tid_in(table_id)
        with self._tx():
            self._fence(table_id)
            return self._entry(table_id, tid, kind, text, _now(now))

    def _entry(self, table_id: TableId, tid: Any, kind: str, text: str, at: float) -> int:
        """Inside ``append``'s transaction, fenced: the table's next entry, announced; its seq (gapless)."""
        row = self._x("SELECT max(seq) FROM journal WHERE table_id = ?", (tid,)).fetchone()
        seq = int(row[0] or 0) + 1
        if seq == 1:
            self._live(table_id)
        self._x("INSERT INTO journal VALUES (?, ?, ?, ?, ?)", (tid, seq, at, kind, text))
        self._announce(tid, seq)
        return seq

    def _live(self, table_id: TableId) -> None:
        if not self._x("SELECT 1 FROM live_table WHERE table_id = ?", (self._tid_in(table_id),)).fetchone():
            raise StoreError(f"table {table_id!r} has no live journal (open_table_journal first)", 70)

    def journal(self, table_id: TableId, after: int = 0) -> list[JournalEntry]:
        """The table's entries in the order they were written (those after seq ``after``: a replica's
        next read)."""
        with self._reading_whole(not after), self._read():
            rows = self._x("SELECT seq, at, kind, payload FROM journal WHERE table_id = ? AND seq > ? ORDER BY seq",
                           (self._tid_in(table_id), int(after))).fetchall()
        if not after:
            self._read_whole(self._tid_in(table_id))
        return [JournalEntry(int(seq), at, kind, json.loads(payload)) for seq, at, kind, payload in rows]

    def _reading_whole(self, whole: bool) -> AbstractContextManager[None]:
        """Around a journal's read: PostgreSQL's store gives a whole read a longer wait on the loop."""
        return nullcontext()

    def _read_whole(self, tid: Any) -> None:
        """A table's whole journal was read (what its table in memory is rebuilt from); PostgreSQL's
        store lets the table be written again after a write whose outcome it could not know."""

    def live_tables(self) -> list[LiveTable]:
        """Every table whose journal is open, in the order they were opened."""
        with self._read():
            rows = self._x(f"SELECT table_id, opened_at, header FROM live_table ORDER BY {self.OPENED}").fetchall()
        return [LiveTable(self._tid_of(t), at, TableHeader.from_json(json.loads(h))) for t, at, h in rows]

    def close_table_journal(self, table_id: TableId) -> None:
        """The table is gone: drop its journal (save its record first)."""
        tid = self._tid_in(table_id)
        with self._tx():
            self._fence(table_id)
            self._x("DELETE FROM live_table WHERE table_id = ?", (tid,))
            self._announce(tid, -1)

    # --- finished records -------------------------------------------------------------------

    def save_record(
        self,
        record: Record,
        *,
        table_id: TableId | None = None,
        accounts: Mapping[str, str] | None = None,
        result: Sequence[int] | None = None,
        now: float | None = None,
        watchers: Sequence[str] = (),
    ) -> int:
        """Keep a finished record; ``accounts`` maps player names to account names (bots have none),
        ``result`` is each seat's net money over it (``game.result()``); ``watchers``: the accounts that
        watched it (a guest, who has none, is skipped), who may analyse it as its players may."""
        accounts = accounts if accounts is not None else {p: p for p in record.players}
        net = list(result) if result is not None else [0] * len(record.players)
        if len(net) != len(record.players):
            raise ValueError(f"{len(record.players)} players need {len(record.players)} results")
        with self._tx():
            record_id = self._insert_id(
                "INSERT INTO record (game, table_id, finished_at, body) VALUES (?, ?, ?, ?)",
                (record.game, self._tid_in(table_id), _now(now), _dumps(record.to_json())))
            for seat, name in enumerate(record.players):
                account = accounts.get(name)
                account_id = self._account_id(account) if account else None
                self._x("INSERT INTO record_player VALUES (?, ?, ?, ?, ?)",
                        (record_id, account_id, seat, name, self._amount_in(net[seat])))
            seen = sorted({a for a in (self._account_id(w) for w in watchers) if a is not None})
            self._many("INSERT INTO record_watcher VALUES (?, ?)", [(record_id, a) for a in seen])
            return record_id

    def history(self, account: str, limit: int = 20) -> list[RecordInfo]:
        """The account's finished records, newest first."""
        with self._read():
            account_id = self._account_id(account)
            if account_id is None:
                return []
            rows = self._x(
                "SELECT r.id, r.game, r.table_id, r.finished_at, p.net FROM record_player p "
                "JOIN record r ON r.id = p.record_id WHERE p.account_id = ? ORDER BY r.id DESC LIMIT ?",
                (account_id, max(0, int(limit)))).fetchall()
            infos = []
            for record_id, game, table_id, finished_at, net in rows:
                players = [n for (n,) in self._x(
                    "SELECT name FROM record_player WHERE record_id = ? ORDER BY seat", (record_id,)).fetchall()]
                infos.append(RecordInfo(int(record_id), game, players, self._tid_out(table_id), finished_at,
                                        self._amount_out(net)))
            return infos

    def get_record(self, record_id: int) -> Record:
        """A finished record; ``StoreError`` if there is none with that id."""
        if isinstance(record_id, bool) or not isinstance(record_id, int) or not 0 < record_id < 2**63:
            raise StoreError(f"there is no record number {record_id}", 65)
        with self._read():
            row = self._x("SELECT body FROM record WHERE id = ?", (record_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no record number {record_id}", 65)
        try:
            return load_record(json.loads(row[0]))
        except RecordError as err:
            raise StoreError(f"record number {record_id} cannot be read: {err}", 65) from None


    def writable(self) -> None:
        """Write something that changes nothing: ``StoreError`` if this store cannot take a write now
        (locked past its wait, read-only, unreachable).  The health check asks it."""
        with self._tx():
            self._x("UPDATE schema_version SET applied = applied "
                    "WHERE version = (SELECT max(version) FROM schema_version)")

    # --- analyses of finished records ------------------------------------------------------

    def played(self, record_id: int, name: str) -> bool:
        """Whether the account ``name`` sat at, or watched, the finished record ``record_id``."""
        key = _name_key(name)
        with self._read():
            row = self._x("SELECT 1 FROM record_player p JOIN account a ON a.id = p.account_id "
                          "WHERE p.record_id = ? AND a.name_key = ? UNION ALL "
                          "SELECT 1 FROM record_watcher w JOIN account a ON a.id = w.account_id "
                          "WHERE w.record_id = ? AND a.name_key = ?", (record_id, key, record_id, key)).fetchone()
        return row is not None

    def kept_analysis(self, record_id: int, budget: int, seed: int) -> str | None:
        with self._read():
            row = self._x("SELECT body FROM analysis WHERE record_id = ? AND budget = ? AND seed = ?",
                          (record_id, budget, seed)).fetchone()
        return None if row is None else str(row[0])

    def latest_analyses(self, record_ids: Sequence[int]) -> dict[int, str]:
        """The kept analysis of each of these records that has one: the one made with the most imagined deals."""
        ids = sorted({int(r) for r in record_ids})[:200]
        if not ids:
            return {}
        with self._read():
            rows = self._x(f"SELECT record_id, budget, seed, body FROM analysis WHERE record_id IN "
                           f"({', '.join('?' * len(ids))}) ORDER BY record_id, budget, seed", ids).fetchall()
        return {int(record_id): str(body) for record_id, _, _, body in rows}  # the last of each record wins

    def keep_analysis(self, record_id: int, budget: int, seed: int, body: str) -> None:
        with self._tx():
            self._x("INSERT INTO analysis VALUES (?, ?, ?, ?) ON CONFLICT (record_id, budget, seed) DO NOTHING",
                    (record_id, budget, seed, body))

    # --- skill ratings (engine.store.ratings) -----------------------------------------------

    def rate_new_records(self, limit: int = 50) -> int:
        """Rate the finished records no node has rated yet; how many this call rated."""
        return rating_book.rate_new(self, limit)

    def ratings_book(self, key: str | None = None) -> dict[str, dict[str, Any]]:
        """The kept ratings: key (game, or game/variant) → name → ``engine.ratings.Rating``."""
        return rating_book.book(self, key)

    def recompute_ratings(self) -> tuple[dict[str, dict[str, Any]], int]:
        """Every rating again from the records rated so far: (the figures, records read)."""
        return rating_book.recompute(self)

    def league(self, game: str, since: float, limit: int = 10) -> list[tuple[str, int]]:
        """Money won at ``game`` since ``since`` by account, most first."""
        return rating_book.league(self, game, since, limit)

    # --- the chat log and the reports (engine.store.moderation) ---------------------------

    def log_chat(self, lines: Sequence[ChatLine]) -> None:
        """Keep lines that passed the speech gate."""
        moderation.log_chat(self, lines)

    def chat_lines(self, query: ChatQuery) -> list[ChatLine]:
        """The chat log's lines of one person or one table since a time, oldest first."""
        return moderation.chat_lines(self, query)

    def prune_chat(self, before: float) -> int:
        """Forget the chat log's lines said before ``before``; how many went."""
        return moderation.prune_chat(self, before)

    def add_report(self, report: Report) -> int:
        """Keep a new report; its number."""
        return moderation.add_report(self, report)

    def reports(self, every: bool = False, limit: int = moderation.LIST_MAX) -> list[Report]:
        """The open reports (``every``: the closed ones too), oldest first."""
        return moderation.reports(self, every, limit)

    def close_report(self, report_id: int, by: str, at: float) -> bool:
        """Close an open report; False when no open report has that number."""
        return moderation.close_report(self, report_id, by, at)

    def house_setting(self, key: str) -> tuple[str, float] | None:
        """A setting the house made (the message of the day) and when, or None."""
        return moderation.house_setting(self, key)

    def set_house_setting(self, key: str, value: str, at: float) -> None:
        """Keep a setting of the house's for every node and the next start."""
        moderation.set_house_setting(self, key, value, at)


# --- checks both backends make -----------------------------------------------------------


def _now(now: float | None) -> float:
    return time.time() if now is None else now


WATCHER_SQL = ("CREATE TABLE record_watcher (record_id BIGINT NOT NULL REFERENCES record (id) ON DELETE CASCADE, "
               "account_id BIGINT NOT NULL REFERENCES account (id), PRIMARY KEY (record_id, account_id))",)
"""Both stores' migration: who watched each finished record (they may analyse it as its players may)."""

Migration = str | Callable[[Any], None]
"""One step of a schema migration: a statement, or a function of the store run in the same transaction."""

LOOK_KEY_SQL = ("ALTER TABLE account ADD COLUMN look_key TEXT",
                "CREATE UNIQUE INDEX account_look_key ON account (look_key)")
"""Both stores' migration: the look-alike key (``engine.names.look_key``) unique in the store itself."""


def fill_look_keys(store: Any) -> None:
    """Inside the migration's transaction: each account's look-alike key, the older account first.  A
    later account whose name looks like an older one's keeps no key (both still enter; ``name_clashes``
    names them for the house), so nothing is merged and no migration fails on old data."""
    taken: set[str] = set()
    for account_id, name in store._x("SELECT id, name FROM account ORDER BY id").fetchall():
        key = look_key(name)
        if key not in taken:
            taken.add(key)
            store._x("UPDATE account SET look_key = ? WHERE id = ?", (key, account_id))


def _name_key(name: str) -> str:
    """Names are unique whatever their case ("Анна" is "анна")."""
    return str(name).strip().casefold()


def _check_name(name: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise AccountError("a name cannot be empty")
    if len(name) > 32:
        raise AccountError(f"a name has at most 32 characters, not {len(name)}")
    if ":" in name or any(not ch.isprintable() for ch in name):
        raise AccountError("a name cannot contain ':' or control characters")
    return name


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise AccountError(f"a role is one of {', '.join(ROLES)}, not {role!r}")


def _check_language(language: str) -> None:
    if not (isinstance(language, str) and 2 <= len(language) <= 8 and language.isalpha()):
        raise AccountError(f"a language is a code such as 'ru' or 'en', not {language!r}")


def _check_setting(key: str, value: str) -> None:
    """Settings are a person's choices, not storage: a short word for a key, a short text for a value."""
    if not (isinstance(key, str) and 1 <= len(key) <= SETTING_MAX and key.replace("_", "").isalnum()):
        raise AccountError(f"a setting's name is a short word, not {key!r}")
    if not (isinstance(value, str) and len(value) <= SETTING_MAX and value.isprintable()):
        raise AccountError(f"a setting's value is a short text, not {value!r}")


def _check_table_id(table_id: TableId) -> None:
    if isinstance(table_id, bool) or not isinstance(table_id, (int, str)):
        raise ValueError(f"a table id is a number or a text, not {table_id!r}")


def check_node(node: str) -> None:
    """A node's name: short printable text (it keys presence rows and, on PostgreSQL, a lock)."""
    if not (isinstance(node, str) and 1 <= len(node) <= 64 and node.isprintable()):
        raise ValueError(f"a node's name is a short printable text, not {node!r}")


def _merge(entries: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Sum the entries per purse, dropping zeros; refuse anything that does not balance."""
    moves: dict[str, int] = {}
    for entry in entries:
        try:
            name, amount = entry
        except (TypeError, ValueError):
            raise LedgerError(f"a ledger entry is (purse, kopecks), not {entry!r}") from None
        if not isinstance(name, str) or not name.strip():
            raise LedgerError(f"a purse is a non-empty name, not {name!r}")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise LedgerError(f"money is a whole number of kopecks, not {amount!r}")
        moves[name] = moves.get(name, 0) + amount
    total = sum(moves.values())
    if total:
        raise LedgerError(f"the entries must sum to zero, not {total}: {sorted(moves.items())}")
    return {name: amount for name, amount in moves.items() if amount}


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
