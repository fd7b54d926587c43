"""The shared ``Store``: one PostgreSQL database (psycopg 3, its synchronous API).

The second backend, for several nodes of one club, with the methods and
the meaning of ``engine.store.sqlite.SqliteStore``: what is said there about
the ledger, the journals and the order "apply, commit, show" holds here word
for word, and the statements are the same (``engine.store.sql``: written once with
``?``, handed to psycopg as ``%s``).  Only the engine underneath differs; why these settings:

* **one journaled action = one transaction = one round trip**: ``TableJournal``
  writes the entry and the money it moved inside ``batch()``, one ``BEGIN …
  COMMIT``, and the store sends a transaction as one psycopg pipeline: ``BEGIN``,
  the fence (``sukno_fence``), the entry and its notice (``sukno_append``), the
  money (``sukno_post``), ``COMMIT``, one Sync, one wait (it was 6 waits, 17
  with money, each a context switch to the backend that may wait a scheduler
  slice on a loaded machine).  For that nothing is read back before the
  ``COMMIT``: migration 11's functions make the checks in SQL and raise (the
  fence, 75; no such account; no live journal), and the store knows the seq
  that follows (asked once per table, then kept).  ``sukno_append`` refuses any
  other, so the seq stays gapless even if that guess is stale (another store
  wrote the table: that one write is refused, 75, and the next asks again).
  Every other statement inside a transaction is waited for with a Sync of its
  own, as before, so a session paused there sits "idle in transaction"
  (``idle_timeout`` below).
* **synchronous_commit = on** (the default; ``synchronous_commit="off"`` may be
  given).  With ``on`` a ``COMMIT`` returns after PostgreSQL flushed its WAL
  to disk, so nothing acknowledged is lost when PostgreSQL itself, or its
  machine, crashes.  With ``off`` a commit returns before that flush: a crash
  of PostgreSQL (not of sukno: a sukno kill -9 loses nothing either way) can
  lose the last ~0.6 s of acknowledged commits (3 × ``wal_writer_delay``),
  whole transactions only, so the ledger still sums to zero.
  ``tests/bench/nodes_bench.py`` measures both: on this machine (2 shared
  CPUs) p99 ≈ 1.5 ms with either when it is quiet (load < 1); at load 6–8
  ≈ 12–13 ms with ``on`` (one flush of its disk alone: p99 ≈ 8–16 ms then) and
  ≈ 8 ms with ``off`` (9–14 ms at load 9–14, where the CPUs limit it).
* **bounded waits**: the server calls the store on its event loop, so a write
  may wait at most ``lock_timeout`` (50 ms for the server's store,
  ``exclusive=True``; 5 s otherwise) for a row lock someone else holds, and a
  statement at most ``statement_timeout`` (5 s); past them the write is
  refused (``StoreError``, 75) and the table rebuilds itself from its journal,
  as with SQLite.  Connecting waits at most ``connect_timeout`` (5 s).
* **a lost connection** (PostgreSQL restarted, the network cut) fails the
  write under way (refused, not shown); a later write connects again, so the
  club goes on once the database is back.  A failed connect is not tried
  again for a while (1 s, doubling to 30 s: writes meanwhile are refused at
  once), so an unreachable database costs the loop one ``connect_timeout``
  now and then, not one per action; over TCP, ``tcp_user_timeout`` and
  keepalives (unless the URL sets them) make a cut network fail a write in
  ~2 s instead of TCP's minutes.  ``check()`` (the vanished-file probe of the
  SQLite store) has nothing permanent to report here and says None;
  ``reachable()`` says why the database cannot be reached now, if it cannot.
* **exclusive=True** holds a session advisory lock for the store's lifetime,
  so a second ``sukno serve`` on the same database stops with a clear message;
  with ``node=NAME`` (``sukno serve --node NAME``) that lock is shared by every
  node and the node's own name is locked instead: several nodes of distinct
  names serve one club, a lone server and nodes exclude each other.
* **notices**: every journal write sends ``NOTIFY sukno_journal`` (table id and
  seq, never a card) in its own transaction, so only committed entries are
  announced, and just before it ``NOTIFY sukno_entry`` with the entry itself (not a deal's, whose
  decks are hidden; ``ENTRY_CHANNEL``); ``net/cluster/notices.py`` listens.
* **schema**: ``schema_version`` lists applied migrations, each applied in one
  transaction under an advisory lock (two servers starting at once do not
  both migrate); a database from a newer sukno is refused, untouched (78),
  and a schema holding some other program's tables is refused (65).
  The store lives in the connection's ``current_schema()`` (``public``, or
  what ``options=-csearch_path=…`` in the URL says).

**Table leases** (the first piece of several nodes on one club): ``acquire_lease(table, node,
ttl)`` makes a node the table's one owner under an epoch (a takeover always makes a new epoch, and
epochs never repeat), ``renew_lease`` keeps it, ``release_lease`` lets it go.  Every write of a
leased table's journal or money (``append``, ``post(table_id=…)``, ``new_session``, opening and
closing the journal) checks the epoch in its own transaction, holding the lease row ``FOR SHARE``
until the commit: a node that lost its lease (paused past it, partitioned) has every write refused
(``StoreError``, 75), and a takeover waits for the write in flight, so the new owner's replay
contains it.  A node paused *inside* a write's transaction would hold that row lock for as long as
it sleeps, so the database ends a session idle in a transaction after ``idle_timeout`` (5 s:
our transactions are a few statements sent back to back), rolling its write back, and
``acquire_lease`` never waits on the row: held by a write in flight, the table is "not free yet"
(None), asked again by the caller.  Lease times are the database's clock.  A table never leased is written freely (one
``sukno serve`` alone, as before).  ``sukno serve --node`` takes them (``net/cluster/node.py``).

**The host key**: ``shared_host_key(make)`` keeps the club's one SSH host key (``host_key``, one
row), made by the first node under an advisory lock, so every node presents the same key
(``net/ssh/hostkey.py``; SQLite keeps it as a file of the data folder).

Amounts are ``NUMERIC`` (exact at any size: Стуколка's pot can pass 2**63);
table ids are kept as JSON text so that ``3`` and ``"3"`` come back as given,
like SQLite's untyped columns.  Payloads are JSON text, read back as written.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, Callable, Iterator, Mapping, Sequence

from engine.store.accounts import migration as accounts_migration
from engine.store.codes import migration as codes_migration
from engine.store.moderation import migration as moderation_migration, settings_migration
from engine.store.base import DEAL, AccountError, JournalEntry, LedgerError, StoreError, TableId
from engine.store.outage import outage_of
from engine.store.ratings import migration as ratings_migration, rerate_kept
from engine.store.sql import (LOOK_KEY_SQL, WATCHER_SQL, Migration, SqlStore, _check_table_id, _name_key, check_node,
                              fill_look_keys)

psycopg: Any = None  # imported by ``_load`` when a PgStore is made: psycopg's package imports asyncio
_conninfo: Any = None  # (its async API) at import, and importing ``engine`` must not (test_layering);
_pgerrors: Any = None  # the store itself uses only the synchronous API


def _load() -> bool:
    """Import psycopg 3 on first use; False if it is not installed (the ``pg`` extra)."""
    global psycopg, _conninfo, _pgerrors
    if psycopg is None:
        try:
            import psycopg as module
            from psycopg import conninfo, errors
        except ImportError:
            return False
        psycopg, _conninfo, _pgerrors = module, conninfo, errors
    return True


def application_name(role: str) -> str:
    """What ``pg_stat_activity`` shows for a sukno connection: ``sukno/NODE/ROLE`` (an operator sees
    which node and which of its threads holds a lock or sits idle in a transaction)."""
    return f"sukno/{NODE_LABEL}/{role}"[:63]


NODE_LABEL = "main"
"""This process's node in ``application_name`` (``sukno serve --node NAME`` sets it; one server: main)."""


class WaitDeadline(Exception):
    """Inside the store: PostgreSQL did not answer a wait within its deadline (the connection is closed)."""


_bounded_class: Any = None


def _bounded() -> Any:
    """psycopg's ``Connection`` whose every wait may have a deadline (``deadline`` seconds, None: none).

    PostgreSQL's own timeouts need a PostgreSQL that runs: a stopped (SIGSTOP), crashed-but-listening or
    black-holed server never answers, and the thread waiting for it waits for ever.  This wait polls the
    socket itself and, past the deadline, closes the connection and raises ``OperationalError`` (its
    transaction is lost with it: PostgreSQL rolls back an open one when it sees the socket closed)."""
    global _bounded_class
    if _bounded_class is not None:
        return _bounded_class
    import select

    from psycopg.waiting import Ready, Wait

    masks = {Wait.R: select.POLLIN, Wait.W: select.POLLOUT, Wait.RW: select.POLLIN | select.POLLOUT}

    class BoundedConnection(psycopg.Connection):
        deadline: float | None = None

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            limit = self.deadline
            if limit is None:
                return super().wait(gen, interval) if timeout is None else super().wait(gen, interval, timeout)
            end = time.monotonic() + limit
            fileno = self.pgconn.socket
            poller = select.poll()
            try:
                state = next(gen)
                poller.register(fileno, masks[state])
                while True:
                    left = end - time.monotonic()
                    if left <= 0:
                        self.pgconn.finish()
                        raise _pgerrors.OperationalError(
                            f"PostgreSQL did not answer within {limit * 1000:.0f} ms; the connection was closed")
                    events = poller.poll(max(1, int(left * 1000)))
                    if not events:
                        continue
                    mask = events[0][1]
                    ready = (Ready.R if mask & select.POLLIN else 0) | (Ready.W if mask & select.POLLOUT else 0)
                    if mask & ~(select.POLLIN | select.POLLOUT):
                        ready = Ready.RW  # an error or a hang-up: libpq reads it
                    state = gen.send(Ready(ready))
                    poller.modify(fileno, masks[state])
            except StopIteration as done:
                return done.value

    _bounded_class = BoundedConnection
    return BoundedConnection

log = logging.getLogger("sukno.store")

WRITE_WAIT = 0.05
"""How long the server's store (``exclusive=True``) lets a write wait for a row lock (s)."""

SCHEMES = ("postgresql://", "postgres://")
SERVER_LOCK_WAIT = 3.0
"""How long a starting server waits for the one-server lock: a server killed a moment ago holds it
until PostgreSQL notices its connection closed."""
IDLE_IN_TRANSACTION = 5.0
"""Seconds PostgreSQL lets a session sit idle inside a transaction before ending it (a paused node)."""
RETRY_FIRST, RETRY_MAX = 0.25, 1.0
"""After a failed connect, writes are refused at once for this long (doubling up to the max): a
database back from a restart is found within ``RETRY_MAX`` s."""
SLACK = 2.0
"""Seconds a wait off the loop may last past the longest wait PostgreSQL itself is asked to bound
(``statement_timeout``, the start's lock waits): the client's own deadline for a silent server."""
LOOP_SLACK = 0.05
"""Seconds a wait on the event loop may last past ``write_wait`` (one round trip on a loaded machine)."""
WHOLE_JOURNAL_WAIT = 1.0
"""Seconds a wait of a whole journal's read may last on the event loop (a table rebuilt after a failed
write reads its session from the start).  A long session's journal takes PostgreSQL longer than a
write's bound on a busy machine, and a read cut short drops the connection, which makes every table
read its journal again: the rebuild would start over for ever and the table never play on."""
TCP_DEFAULTS = {"tcp_user_timeout": 2000, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                "keepalives_count": 2}
"""libpq options for TCP (ignored on a Unix socket) unless the URL sets them: a cut network fails fast."""
_LOCK_SERVER = 0x5375_6B6E_6F00_0001  # "Sukno" + 1: one sukno serve per database (shared by nodes)
_LOCK_MIGRATE = 0x5375_6B6E_6F00_0002
_LOCK_HOST_KEY = 0x5375_6B6E_6F00_0003
NODES_STARTING_WAIT = 60.0
"""How long a starting node waits for another one opening its tables (``nodes_starting``)."""
HOST_KEY_WAIT = 10.0
"""How long a starting node waits for another one making the club's host key (s)."""
_LOCK_NODES = 0x5375_6B6E_6F00_0004  # held while a node opens its tables (two starting at once)
JOURNAL_CHANNEL = "sukno_journal"
"""``NOTIFY`` channel of committed journal entries: payload ``"<table id JSON> <seq>"`` (seq 0: a new
session began, its entries were dropped; -1: the journal was closed).  Never a card."""
ENTRY_CHANNEL = "sukno_entry"
"""``NOTIFY`` channel of each committed entry itself, sent just before its ``sukno_journal`` notice in the
same transaction (a replica plays it at once, no read): payload ``"<table id JSON> <seq>
<at> <kind>\n<payload JSON>"``.  Not for a deal's entry (its decks are hidden cards) nor one past
``ENTRY_MAX`` bytes: the replica reads those from the journal, as it does after any gap.  It carries
only what the journal holds, to the nodes, which can read the journal anyway."""
ENTRY_MAX = 7000
"""The longest entry notice sent (PostgreSQL's limit is 8000 bytes); a longer entry is read instead."""

MIGRATIONS: tuple[tuple[Migration, ...], ...] = (
    # 1: accounts and their SSH keys
    (
        """CREATE TABLE account (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            language TEXT NOT NULL,
            role TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION)""",
        """CREATE TABLE account_key (
            fingerprint TEXT PRIMARY KEY,
            account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            added DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX account_key_account ON account_key(account_id)",
    ),
    # 2: the double-entry ledger; purse.balance caches the sum of its entries
    (
        "CREATE TABLE purse (name TEXT PRIMARY KEY, balance NUMERIC NOT NULL)",
        """CREATE TABLE ledger_txn (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL,
            table_id TEXT,
            deal_no BIGINT,
            reason TEXT NOT NULL)""",
        """CREATE TABLE ledger_entry (
            txn_id BIGINT NOT NULL REFERENCES ledger_txn(id),
            purse TEXT NOT NULL REFERENCES purse(name),
            amount NUMERIC NOT NULL)""",
        "CREATE INDEX ledger_entry_purse ON ledger_entry(purse, txn_id)",
        "CREATE INDEX ledger_entry_txn ON ledger_entry(txn_id)",
    ),
    # 3: journals of live tables (table_id: the club's id as JSON text)
    (
        """CREATE TABLE live_table (
            table_id TEXT PRIMARY KEY,
            opened BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            opened_at DOUBLE PRECISION NOT NULL,
            header TEXT NOT NULL)""",
        """CREATE TABLE journal (
            table_id TEXT NOT NULL REFERENCES live_table(table_id) ON DELETE CASCADE,
            seq BIGINT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            PRIMARY KEY (table_id, seq))""",
    ),
    # 4: finished records and who played them
    (
        """CREATE TABLE record (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game TEXT NOT NULL,
            table_id TEXT,
            finished_at DOUBLE PRECISION NOT NULL,
            body TEXT NOT NULL)""",
        """CREATE TABLE record_player (
            record_id BIGINT NOT NULL REFERENCES record(id) ON DELETE CASCADE,
            account_id BIGINT REFERENCES account(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            net NUMERIC NOT NULL,
            PRIMARY KEY (record_id, seat))""",
        "CREATE INDEX record_player_account ON record_player(account_id, record_id)",
    ),
    # 5: an account's own settings (the text mode, the bell, cards in words…): short words by name
    (
        """CREATE TABLE account_setting (
            account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (account_id, key))""",
    ),
    # 6 (PostgreSQL only: several nodes): who owns each live table, under which epoch, until when
    (
        """CREATE TABLE table_lease (
            table_id TEXT PRIMARY KEY,
            node TEXT NOT NULL,
            epoch BIGINT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
    ),
    # 7: the social club (SQLite's 6): whom an account ignores, and the house's mutes
    (
        """CREATE TABLE account_ignore (
            account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            other_key TEXT NOT NULL,
            other TEXT NOT NULL,
            PRIMARY KEY (account_id, other_key))""",
        """CREATE TABLE mute (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            until DOUBLE PRECISION,
            reason TEXT NOT NULL,
            by_whom TEXT NOT NULL)""",
    ),
    # 8 (PostgreSQL only: several nodes): the club's one SSH host key, made by the first node
    (
        """CREATE TABLE host_key (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            private TEXT NOT NULL,
            made DOUBLE PRECISION NOT NULL)""",
    ),
    # 9 (SQLite's 7): bans (were bans.json) and who is online on which node, with each node's heartbeat
    (
        """CREATE TABLE ban (
            kind TEXT NOT NULL,
            target_key TEXT NOT NULL,
            target TEXT NOT NULL,
            until DOUBLE PRECISION,
            reason TEXT NOT NULL,
            by_whom TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (kind, target_key))""",
        """CREATE TABLE node_beat (
            node TEXT PRIMARY KEY,
            beat DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE presence (
            node TEXT NOT NULL REFERENCES node_beat(node) ON DELETE CASCADE,
            session TEXT NOT NULL,
            name TEXT NOT NULL,
            guest BOOLEAN NOT NULL,
            address TEXT NOT NULL,
            fingerprint TEXT,
            place TEXT NOT NULL,
            lang TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (node, session))""",
    ),
    # 10 (SQLite's 8): when each session last typed (``sessions`` shows every node's idle time)
    ("ALTER TABLE presence ADD COLUMN active DOUBLE PRECISION",),
    # 11 (PostgreSQL only): a journaled action's checks made inside SQL, so that its statements go in
    # one pipeline, one round trip: each raises (SQLSTATE class SK, read by ``PgStore._refusal``)
    # instead of handing a row back for sukno to judge before the COMMIT
    (
        """CREATE FUNCTION sukno_fence(p_table TEXT, p_node TEXT, p_epoch BIGINT) RETURNS void
        LANGUAGE plpgsql AS $$
        DECLARE holder TEXT; held BIGINT;
        BEGIN
            -- FOR SHARE until the commit: a takeover waits for this write, then replays it
            SELECT node, epoch INTO holder, held FROM table_lease WHERE table_id = p_table FOR SHARE;
            IF NOT FOUND THEN
                IF p_node IS NULL THEN RETURN; END IF;  -- never leased, not held: one server alone
            ELSIF holder = p_node AND held = p_epoch THEN
                RETURN;
            END IF;
            RAISE EXCEPTION USING ERRCODE = 'SK075', MESSAGE = 'not this node''s table to write',
                DETAIL = json_build_object('table', p_table, 'node', holder, 'epoch', held, 'mine', p_epoch)::text;
        END $$""",
        """CREATE FUNCTION sukno_append(p_table TEXT, p_seq BIGINT, p_at DOUBLE PRECISION, p_kind TEXT,
                                        p_payload TEXT, p_channel TEXT) RETURNS void
        LANGUAGE plpgsql AS $$
        DECLARE last BIGINT;
        BEGIN
            -- the seq sukno expects must follow the last one: gapless, and never a stale guess
            SELECT coalesce(max(seq), 0) INTO last FROM journal WHERE table_id = p_table;
            IF last <> p_seq - 1 THEN
                RAISE EXCEPTION USING ERRCODE = 'SK076', MESSAGE = 'the journal moved on',
                    DETAIL = json_build_object('table', p_table, 'last', last)::text;
            END IF;
            IF p_seq = 1 AND NOT EXISTS (SELECT 1 FROM live_table WHERE table_id = p_table) THEN
                RAISE EXCEPTION USING ERRCODE = 'SK070', MESSAGE = 'no live journal',
                    DETAIL = json_build_object('table', p_table)::text;
            END IF;
            INSERT INTO journal VALUES (p_table, p_seq, p_at, p_kind, p_payload);
            PERFORM pg_notify(p_channel, p_table || ' ' || p_seq);  -- delivered only if this commits
        END $$""",
        """CREATE FUNCTION sukno_post(p_table TEXT, p_deal BIGINT, p_reason TEXT, p_at DOUBLE PRECISION,
                                      p_names TEXT[], p_keys TEXT[], p_amounts NUMERIC[]) RETURNS BIGINT
        LANGUAGE plpgsql AS $$
        DECLARE txn BIGINT; missing TEXT;
        BEGIN
            -- p_keys: an account's name key (its purse is spelt as the account is), NULL for a pool
            SELECT u.name INTO missing FROM unnest(p_names, p_keys) WITH ORDINALITY AS u(name, key, i)
                WHERE u.key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM account a WHERE a.name_key = u.key)
                ORDER BY u.i LIMIT 1;
            IF missing IS NOT NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'SK065', MESSAGE = 'no such account',
                    DETAIL = json_build_object('table', p_table, 'name', missing)::text;
            END IF;
            INSERT INTO ledger_txn (at, table_id, deal_no, reason) VALUES (p_at, p_table, p_deal, p_reason)
                RETURNING id INTO txn;
            -- purses in one order (code points), as every node does: no deadlock between nodes
            INSERT INTO purse AS p (name, balance)
                SELECT coalesce(a.name, u.name), u.amount
                FROM unnest(p_names, p_keys, p_amounts) AS u(name, key, amount)
                LEFT JOIN account a ON a.name_key = u.key WHERE u.amount <> 0
                ORDER BY coalesce(a.name, u.name) COLLATE "C"
                ON CONFLICT (name) DO UPDATE SET balance = p.balance + EXCLUDED.balance;
            INSERT INTO ledger_entry (txn_id, purse, amount)
                SELECT txn, coalesce(a.name, u.name), u.amount
                FROM unnest(p_names, p_keys, p_amounts) AS u(name, key, amount)
                LEFT JOIN account a ON a.name_key = u.key WHERE u.amount <> 0;
            RETURN txn;
        END $$""",
    ),
    # skill ratings per game, the last record they count, and the analyses kept of records
    ratings_migration("DOUBLE PRECISION", "BIGINT"),
    # the house's hold on an account: active, disabled or closed (its name freed at free_at)
    accounts_migration("DOUBLE PRECISION"),
    # the chat log and the reports (engine.store.moderation)
    moderation_migration("DOUBLE PRECISION", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"),
    # names unique by their looks in the store itself ("Anna" and "Аnna" are one), old clashes kept apart
    (*LOOK_KEY_SQL, fill_look_keys),
    # the house's settings kept for every node and the next start (the message of the day)
    settings_migration("DOUBLE PRECISION"),
    # who watched each finished record: they may analyse it
    WATCHER_SQL,
    # the kept ratings made again with the smaller drift per deal (engine.ratings.TAU: MU/3000, not MU/300)
    (rerate_kept,),
    # one-time link codes (hashed), good on every node of the club (engine.store.codes)
    codes_migration("DOUBLE PRECISION", "BIGINT"),
)
SCHEMA_VERSION = len(MIGRATIONS)
PG_ONLY_TABLES = ("table_lease", "host_key")
"""Tables the SQLite store has no need of (one process owns every table there; its host key is a file
of the data folder)."""

_DB_NOW = "extract(epoch from clock_timestamp())::double precision"
"""Lease times are the database's clock: the nodes' own clocks never have to agree."""


def is_url(text: str | None) -> bool:
    """Whether a ``--store`` value names a PostgreSQL database (else it is not ours to open here)."""
    return isinstance(text, str) and text.startswith(SCHEMES)


def shown_url(url: str) -> str:
    """The URL as a message may show it: user, host, port and database, never a password."""
    try:
        if not _load():
            raise ValueError("no psycopg")
        info = _conninfo.conninfo_to_dict(url)
    except Exception:
        return "postgresql://…"
    user = f"{info['user']}@" if info.get("user") else ""
    host = str(info.get("host") or "")
    port = f":{info['port']}" if info.get("port") else ""
    return f"postgresql://{user}{host}{port}/{info.get('dbname') or ''}"


_check_node = check_node


def _tid_key(table_id: TableId) -> str:
    """A table id as the JSON text PostgreSQL keeps (``7`` and ``"7"`` stay two tables)."""
    return json.dumps(table_id, ensure_ascii=False)


def _tid_of(value: Any) -> TableId:
    """The table id a ``_tid_key`` text (a column's value) stands for."""
    table_id = json.loads(value)
    if not isinstance(table_id, (int, str)):
        raise ValueError(f"not a table id: {value!r}")
    return table_id


def _tid_in(table_id: TableId | None) -> str | None:
    return None if table_id is None else _tid_key(table_id)


def _tid_out(value: Any) -> TableId | None:
    return None if value is None else _tid_of(value)


def _amount(value: Decimal | int) -> int:
    return int(value)


_PG_SQL: dict[str, str] = {}
"""The shared SQL texts (``?`` placeholders) rewritten for psycopg (``%s``)."""


def _pg_sql(sql: str) -> str:
    """``?`` → ``%s`` (the shared SQL has no ``?`` or ``%`` of its own), kept for next time."""
    text = _PG_SQL[sql] = sql.replace("%", "%%").replace("?", "%s")
    return text


_LOGIN_REFUSED = ("role \"", "password authentication failed", "no pg_hba.conf entry", "permission denied",
                  "is not permitted to log in", "authentication failed", "no password supplied")
"""libpq's words for a login PostgreSQL refuses for good (with ``FATAL``): a configuration to mend (78),
not a database to wait for (75, which a supervisor answers by starting sukno again and again)."""


class _RowBusy(Exception):
    """Inside the store only: a row another session holds locked (``NOWAIT``)."""


class _Waited:
    """The connection as a transaction's ordinary statements (and reads) use it: each one waited for
    (``PgStore._wait``), as without a pipeline; a journaled action's own go through ``_db`` unanswered."""

    __slots__ = ("_store",)

    def __init__(self, store: PgStore) -> None:
        self._store = store

    def execute(self, sql: Any, params: Sequence[Any] | None = None) -> Any:
        return self._store._wait(self._store._send(sql, params))


class PgStore(SqlStore):
    """``Store`` on one PostgreSQL database: the shared SQL (``engine.store.sql``) on psycopg, with the
    lease fence and the notices; see the module docstring for the choices."""

    COLLATE = ' COLLATE "C"'
    OPENED = "opened"
    MUTE_BY = "by_whom"
    _tid_in = staticmethod(_tid_in)
    _tid_out = staticmethod(_tid_out)
    _tid_of = staticmethod(_tid_of)
    _amount_in = staticmethod(Decimal)
    _amount_out = staticmethod(_amount)

    def _x(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The shared SQL (``?`` placeholders) as psycopg takes it (``%s``), each text rewritten once;
        waited for (``_wait``): only a journaled action's own statements are sent unanswered."""
        return self._wait(self._send(_PG_SQL.get(sql) or _pg_sql(sql), params))

    def _send(self, sql: Any, params: Sequence[Any] | None) -> Any:
        """Send one statement.  Inside the pipeline psycopg reads the answers already in while it
        sends, so an earlier statement's refusal made in SQL (``_fence``'s) may be raised here rather
        than at the next Sync: it is sukno's own error wherever it comes up."""
        try:
            return self._open().execute(sql, params)
        except psycopg.Error as err:
            if not (getattr(err, "sqlstate", None) or "").startswith("SK"):
                raise
            raise self._error(err) from None

    def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self._open().cursor() as cur:
                cur.executemany(_PG_SQL.get(sql) or _pg_sql(sql), rows)
                self._wait(cur)

    def _insert_id(self, sql: str, params: Sequence[Any]) -> int:
        return int(self._x(sql + " RETURNING id", params).fetchone()[0])

    def _clock(self) -> tuple[str, tuple[Any, ...]]:
        return _DB_NOW, ()

    def __init__(
        self,
        url: str,
        *,
        exclusive: bool = False,
        synchronous_commit: str = "on",
        connect_timeout: float = 5.0,
        lock_timeout: float | None = None,
        statement_timeout: float = 5.0,
        idle_timeout: float = IDLE_IN_TRANSACTION,
        node: str | None = None,
        role: str | None = None,
    ):
        if not _load():
            raise StoreError("a PostgreSQL store needs psycopg 3: pip install 'sukno[pg]'", 78)
        if synchronous_commit not in ("on", "off", "local", "remote_write", "remote_apply"):
            raise ValueError(f"synchronous_commit is on, off, local, remote_write or remote_apply, "
                             f"not {synchronous_commit!r}")
        self.url = url
        self.path = shown_url(url)  # what messages name (like SqliteStore.path)
        self.role = role or ("serve" if exclusive else "store")
        """This connection's part in ``application_name`` (``sukno/NODE/ROLE``)."""
        self.outage = outage_of(url, f"PostgreSQL {self.path}")
        self.synchronous_commit = synchronous_commit
        self.exclusive = exclusive
        if node is not None:
            _check_node(node)
        self.node = node
        """With ``exclusive``: this server is one node of several (its name locked, the server lock shared)."""
        self._connect_timeout = connect_timeout
        wait = (WRITE_WAIT if exclusive else 5.0) if lock_timeout is None else lock_timeout
        self._lock_ms = max(1, int(wait * 1000))
        self._statement_ms = max(1, int(statement_timeout * 1000))
        self._idle_ms = max(1, int(idle_timeout * 1000))
        self._db: Any = None
        self._closed = False
        self._backoff = 0.0  # seconds until the next connect after a failed one (0: at once)
        self._retry_at = 0.0
        self._unreachable = ""
        self._leases: dict[str, tuple[str, int]] = {}  # table (JSON id) → (node, epoch) this store holds
        self._lock = threading.RLock()
        self._depth = 0
        self._piping: Any = None  # the psycopg pipeline's context of the transaction under way
        self._began = False  # its BEGIN sent (at its first statement)
        self._pipe: Any = None  # … and the pipeline itself, until it is left
        self._fenced: set[str] = set()  # tables whose lease row this transaction holds FOR SHARE
        self._seqs: dict[str, int] = {}  # table (JSON id) → its journal's last seq, as committed here
        self._tx_seqs: dict[str, int | None] = {}  # … as this transaction leaves it (None: forget it)
        self._unsure: set[str] = set()  # tables a journal write of failed: not written until read again
        self._waited = _Waited(self)
        self._answered = 0.0  # when the database last answered inside the transaction (monotonic s)
        self._made_at = 0.0  # when the connection in use was made (monotonic s)
        self._loop_thread: int | None = None  # the event loop's thread, once ``bound_on_loop`` is called
        self._loop_deadline: float | None = None
        self._reconnecting = False
        self._whole = False  # a whole journal is being read (its own bound on the loop)
        self._far_deadline = max(statement_timeout, HOST_KEY_WAIT, SERVER_LOCK_WAIT) + SLACK
        self.gone: str | None = None
        """Never set here: a database that cannot be reached is tried again at the next write."""
        try:
            self._db = self._connect()
            self._migrate()
        except StoreError:
            self.close()
            raise
        except psycopg.Error as err:
            self.close()
            raise self._translate(err) from None

    # --- opening ------------------------------------------------------------

    def _connect(self) -> Any:
        now = time.monotonic()
        if now < self._retry_at:
            raise StoreError(self._unreachable, 75)
        options: dict[str, Any] = {"connect_timeout": max(2, int(self._connect_timeout)),
                                   "application_name": application_name(self.role)}
        given = _conninfo.conninfo_to_dict(self.url)
        options.update({key: value for key, value in TCP_DEFAULTS.items() if key not in given})
        try:
            db = _bounded().connect(self.url, autocommit=True, **options)
        except psycopg.Error as err:
            failure = self._translate(err)
            if failure.exit_status == 78:
                raise failure from None  # no such role or database, no permission: no retry will mend it
            self._backoff = min(RETRY_MAX, self._backoff * 2) if self._backoff else RETRY_FIRST
            self._retry_at = time.monotonic() + self._backoff
            self._unreachable = f"{failure.message} (tried again in {self._backoff:g} s)"
            self.outage.failed(failure.message)
            raise failure from None
        self._backoff, self._retry_at = 0.0, 0.0
        db.deadline = self._far_deadline
        try:
            db.execute(f"SET synchronous_commit = {self.synchronous_commit}")
            db.execute(f"SET lock_timeout = {self._lock_ms}")
            db.execute(f"SET statement_timeout = {self._statement_ms}")
            db.execute(f"SET idle_in_transaction_session_timeout = {self._idle_ms}")
            if self.exclusive:
                self._lock_server(db)
        except BaseException:
            db.close()
            raise
        self.outage.back()
        self._made_at = time.monotonic()  # after the return: a connection made since is not stale
        return db

    def bound_on_loop(self, write_wait: float) -> None:
        """From now on, a call made on this thread (the server's event loop) waits for PostgreSQL at
        most ``write_wait`` (+ ``LOOP_SLACK``) at each wait, whatever the database does (stopped,
        paused, a silent network): past it the connection is closed and the call refused
        (``StoreError``, 75).  A lost connection is then made again in a thread of its own, never on
        the loop: calls made meanwhile are refused at once.  (Called once the server has started: its
        restore reads whole journals, which may take longer.)"""
        self._loop_thread = threading.get_ident()
        self._loop_deadline = write_wait + LOOP_SLACK

    def _on_loop(self) -> bool:
        return self._loop_thread is not None and threading.get_ident() == self._loop_thread

    def _reconnect_soon(self) -> None:
        """Make the connection again in a thread (the loop must not wait for a connect)."""
        if self._reconnecting or self._closed:
            return
        self._reconnecting = True
        threading.Thread(target=self._reconnect, name="sukno store reconnect", daemon=True).start()

    def _reconnect(self) -> None:
        try:
            while not self._closed:
                wait = self._retry_at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    db = self._connect()
                except StoreError:
                    continue  # counted by the outage; tried again after the backoff
                except Exception:  # pragma: no cover - a bug must not end the reconnecting for good
                    log.exception("%s: connecting again failed", self.path)
                    time.sleep(RETRY_MAX)
                    continue
                with self._lock:
                    if self._closed:
                        db.close()
                    elif self._db is None or self._db.closed or self._db.broken:
                        self._drop()
                        self._db = db
                    else:
                        db.close()  # another thread connected meanwhile
                return
        finally:
            self._reconnecting = False

    def _lock_server(self, db: Any) -> None:
        """One ``sukno serve`` per database, or several nodes of distinct names (``node``): a node
        shares the server lock (so a lone server and nodes exclude each other) and holds its name's."""
        locks = [("pg_try_advisory_lock", _LOCK_SERVER)]
        if self.node is not None:
            locks = [("pg_try_advisory_lock_shared", _LOCK_SERVER), ("pg_try_advisory_lock", self._node_key())]
        for function, key in locks:
            deadline = time.monotonic() + SERVER_LOCK_WAIT
            while not (got := db.execute(f"SELECT {function}(%s)", (key,)).fetchone()[0]):
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
            if got:
                continue
            if key != _LOCK_SERVER:
                raise StoreError(f"{self.path}: a node named {self.node!r} is running on this database already "
                                 "(each node needs its own --node name)", 75)
            if self.node is not None:
                raise StoreError(f"{self.path} is in use by a 'sukno serve' without --node; nodes share a "
                                 "database only with other nodes", 75)
            raise StoreError(
                f"{self.path} is in use by another sukno process (is another 'sukno serve' running on this "
                "database? several servers on one database each need --node NAME)", 75)

    def _node_key(self) -> int:
        """The advisory lock key of this node's name (a stable 63-bit hash)."""
        import hashlib

        digest = hashlib.sha256(f"sukno node {self.node}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    @contextmanager
    def nodes_starting(self) -> Iterator[None]:
        """Held while a node opens or restores its tables and takes their leases: two nodes started at
        once do not both open table 1's journal."""
        with self._lock:
            db = self._ready()
            # Not pg_advisory_lock: the server's lock_timeout (50 ms) would end the wait for a node
            # starting beside this one (``--workers N`` start them at once) with a traceback.
            deadline = time.monotonic() + NODES_STARTING_WAIT
            try:
                while not db.execute("SELECT pg_try_advisory_lock(%s)", (_LOCK_NODES,)).fetchone()[0]:
                    if time.monotonic() >= deadline:
                        raise StoreError(f"{self.path}: another node has been starting for "
                                         f"{NODES_STARTING_WAIT:g} s; try again", 75)
                    time.sleep(0.05)
            except psycopg.Error as err:
                raise self._translate(err) from None
            try:
                yield
            finally:
                try:
                    db.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_NODES,))
                except psycopg.Error:
                    self._drop()  # the connection is gone, and its lock with it

    def _migrate(self) -> None:
        with self._tx() as db:
            # Nodes starting at once (``--workers N``) wait for the one migrating, not only 50 ms.
            db.execute(f"SET LOCAL lock_timeout = {int(HOST_KEY_WAIT * 1000)}")
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_MIGRATE,))
            self._check_ours()
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version "
                "(version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
            version = self.schema_version()
            self._refuse_newer(version, SCHEMA_VERSION, "database")
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    if isinstance(statement, str):
                        db.execute(statement)
                    else:
                        statement(self)
                db.execute("INSERT INTO schema_version VALUES (%s, %s)", (number, time.time()))
                log.info("%s: schema migrated to version %d", self.path, number)

    def _check_ours(self) -> None:
        """Refuse a schema that some other program filled."""
        names = {r[0] for r in self._db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        if names and "schema_version" not in names:
            raise StoreError(
                f"{self.path} holds tables of some other program, not sukno's "
                f"(it has tables {', '.join(sorted(names)[:5])}); choose another database or schema",
                65,
            )

    def check(self) -> str | None:
        """Nothing is ever lost for good here (a refused write is tried again later): None.

        The server's probe (``net.house.commands``) tells everyone the book is gone and stops when this
        says anything: right for a deleted SQLite file, wrong for a database that is restarting."""
        return None

    def reachable(self) -> str | None:
        """Why PostgreSQL cannot be reached now (one ``SELECT 1``), or None."""
        with self._lock:
            if self._closed:
                return "the store is closed"
            if self._depth:
                return None
            try:
                self._ready().execute("SELECT 1")
            except StoreError as err:
                return err.message
            except psycopg.Error as err:
                self._drop()
                return self._translate(err).message
        return None

    def close(self) -> None:
        """Close the connection (committed data is already safe); the advisory lock goes with it."""
        self._closed = True
        self._drop()

    def _drop(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            # Lost with its connection: whether a commit under way landed, and whether a table played on
            # in memory past a write refused meanwhile.  Each table reads its journal before it writes.
            self._unsure.update(self._seqs, self._leases)
            try:
                db.close()
            except Exception:  # pragma: no cover
                pass

    # --- transactions ----------------------------------------------------------

    def _ready(self) -> Any:
        """The connection, made again if PostgreSQL dropped it (a restart, a cut network)."""
        if self._closed:
            raise StoreError("the store is closed", 70)
        on_loop = self._on_loop()
        if self._db is None or self._db.closed or self._db.broken:
            self._drop()
            if on_loop:
                self._reconnect_soon()
                self.outage.refuse()
                raise StoreError(f"{self.path} cannot be reached just now (connecting again); nothing was "
                                 "written", 75)
            self._db = self._connect()
        if on_loop and self._loop_deadline:
            self._db.deadline = max(self._loop_deadline, WHOLE_JOURNAL_WAIT) if self._whole else self._loop_deadline
        else:
            self._db.deadline = self._far_deadline
        return self._db

    # A transaction (``SqlStore._tx``) is sent as one psycopg pipeline: its statements go out as they
    # are made and the COMMIT's answer is the one wait, unless a statement's rows are read before (a
    # journaled action reads none: ``_entry``, ``_fence``, ``post(returning=False)``).  A check that
    # fails inside SQL aborts the rest, the COMMIT with it, and ``_error`` reads it.

    def _joined(self) -> Any:
        return self._waited

    def _begin(self) -> Any:
        self._ready()  # connected (or the store's error) now; BEGIN waits for the first statement
        self._began = False
        self._fenced.clear()
        self._tx_seqs.clear()
        return self._waited

    def _open(self) -> Any:
        """The connection for a statement; inside a transaction its first one enters the pipeline and
        sends BEGIN, so a transaction that writes nothing (a batch with nothing to say) costs no trip."""
        db = self._db
        if self._depth and self._pipe is None:
            self._piping = db.pipeline()
            try:
                self._pipe = self._piping.__enter__()
            except BaseException:
                self._piping = None
                raise
            self._answered = time.monotonic()
            self._began = True
            db.execute("BEGIN")
        return db

    def _commit(self) -> None:
        if self._pipe is not None:
            self._db.execute("COMMIT")
            self._pipe, self._piping, piping = None, None, self._piping
            piping.__exit__(None, None, None)  # the Sync: every answer, the COMMIT's last
        for tid, seq in self._tx_seqs.items():
            if seq is None:
                self._seqs.pop(tid, None)
            else:
                self._seqs[tid] = seq
            if seq is None or seq == 0:
                self._unsure.discard(tid)  # closed, or a new session: nothing before it counts

    def _abort(self, err: BaseException) -> BaseException:
        db = self._db
        began, self._began = self._began, False  # a transaction that sent nothing has none to end
        if self._piping is not None:
            self._pipe, self._piping, piping = None, None, self._piping
            try:
                piping.__exit__(None, None, None)  # the answers queued (a failed one's error again)
            except psycopg.Error:
                pass
        if isinstance(err, psycopg.OperationalError) and db is not None and (db.closed or db.broken) and \
                time.monotonic() - self._answered > self._idle_ms / 1000:
            err = _pgerrors.IdleInTransactionSessionTimeout(str(err))  # its message lost in the pipeline
        if began:
            self._rollback()
        for tid in (*self._tx_seqs, *self._fenced):  # perhaps a stale guess: asked again next time
            self._seqs.pop(tid, None)
        state = getattr(err, "sqlstate", None) or ""
        if state == "SK076" or (isinstance(err, psycopg.OperationalError) and (db is None or db.closed or db.broken)):
            self._unsure.update(self._tx_seqs)  # its commit may have landed, or the journal is ahead of us
        return self._error(err) if isinstance(err, psycopg.Error) else err

    def _wait(self, cursor: Any) -> Any:
        """Inside the pipeline: wait for the statements sent so far with a Sync, so their answers (and
        ``cursor``'s rows and row count) are in, and a session paused now sits "idle in transaction",
        which ``idle_timeout`` ends.  (A read's flush alone would leave the database waiting for the
        rest of the transaction, holding its locks, the lease row's too, for as long as we sleep.)"""
        if self._pipe is not None:
            try:
                self._pipe.sync()
            except psycopg.Error as err:
                if not (getattr(err, "sqlstate", None) or "").startswith("SK"):
                    raise
                raise self._error(err) from None  # a check made in SQL refused: sukno's own error, here
            self._answered = time.monotonic()
        return cursor

    def _rollback(self) -> None:
        db = self._db
        if db is None or db.closed or db.broken:
            self._drop()
            return
        try:
            db.execute("ROLLBACK")
        except psycopg.Error:
            self._drop()

    @contextmanager
    def _read(self) -> Iterator[Any]:
        with self._lock:
            db = self._ready() if not self._depth else self._db
            try:
                yield self._waited
            except psycopg.Error as err:
                if not self._depth and (db.closed or db.broken):
                    self._drop()
                raise self._error(err) from None

    def _error(self, err: Exception) -> Exception:
        """A psycopg error as sukno's: a check made inside SQL (SQLSTATE class SK, migration 11) as the
        refusal sukno itself would have raised, anything else through ``_translate``."""
        state = getattr(err, "sqlstate", None) or ""
        if isinstance(err, _pgerrors.UniqueViolation) and \
                getattr(err.diag, "constraint_name", "") in ("account_look_key", "account_name_key_key"):
            return AccountError("that name, or one that looks like it, was taken meanwhile; choose another")
        if not state.startswith("SK"):
            failure = self._translate(err)
            if isinstance(err, psycopg.OperationalError) and failure.exit_status == 75 and \
                    (self._db is None or self._db.closed or self._db.broken):
                self.outage.failed(failure.message, self._made_at)  # told once per outage, counted after
            return failure
        try:
            info = json.loads(err.diag.message_detail or "{}")  # type: ignore[attr-defined]
            table = _tid_out(info.get("table"))
        except (ValueError, AttributeError):
            return self._translate(err)
        if state == "SK075":
            owner = (f"node {info['node']!r} holds it (epoch {info['epoch']})" if info.get("node") is not None
                     else "nobody holds it")
            mine = (f"this store's lease (epoch {info['mine']}) was taken over" if info.get("mine") is not None
                    else "this store holds no lease")
            return StoreError(f"table {table!r} is not this node's to write: {mine}; {owner}", 75)
        if state == "SK076":
            if isinstance(info.get("table"), str):
                self._unsure.add(info["table"])  # the journal is ahead of this store: read it before writing
            return StoreError(f"table {table!r}'s journal was written by another store meanwhile (it is at entry "
                              f"{info.get('last')}); nothing of this write was kept, try again", 75)
        if state == "SK070":
            return StoreError(f"table {table!r} has no live journal (open_table_journal first)", 70)
        if state == "SK065":
            return LedgerError(f"there is no account named {info.get('name')!r} to move money to or from")
        return self._translate(err)

    def _translate(self, err: Exception) -> StoreError:
        """A psycopg error as a message for a person and an exit status (never the password)."""
        where = self.path
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:300]
        first = first.replace(self.url, where)
        if isinstance(err, _pgerrors.LockNotAvailable):
            return StoreError(f"{where} is locked by another session (waited {self._lock_ms} ms); try again", 75)
        if isinstance(err, _pgerrors.QueryCanceled):
            return StoreError(f"{where} took too long to answer (past {self._statement_ms} ms); try again", 75)
        if isinstance(err, _pgerrors.IdleInTransactionSessionTimeout):
            return StoreError(f"{where} ended this session: it sat inside a write for more than "
                              f"{self._idle_ms} ms (was this node paused?); nothing of that write was kept", 75)
        if isinstance(err, _pgerrors.DiskFull):
            return StoreError(f"{where} cannot be written: PostgreSQL's disk is full", 74)
        if isinstance(err, (_pgerrors.InsufficientPrivilege, _pgerrors.InvalidAuthorizationSpecification,
                            _pgerrors.InvalidPassword)):
            return StoreError(f"{where} refused sukno: {first}", 78)
        if isinstance(err, _pgerrors.InvalidCatalogName):
            return StoreError(f"{where}: there is no such database (create it: createdb): {first}", 78)
        if isinstance(err, psycopg.OperationalError) and not getattr(err, "sqlstate", None):
            said = str(err)  # a refused login has no SQLSTATE in psycopg: libpq's words say which
            if "database \"" in said and "does not exist" in said:
                return StoreError(f"{where}: there is no such database (create it: createdb): {first}", 78)
            if any(words in said for words in _LOGIN_REFUSED):
                return StoreError(f"{where} refused sukno: {first}", 78)
        if isinstance(err, psycopg.OperationalError):
            return StoreError(f"{where} cannot be reached: {first}", 75)
        if isinstance(err, psycopg.DataError):
            return StoreError(f"{where} refused the data: {first}", 65)
        return StoreError(f"{where}: the database failed: {first}", 74)

    # --- the ledger (sums in SQL: NUMERIC is exact) -----------------------------------

    def _ledger(self, moves: Mapping[str, int], tid: Any, deal_no: int | None, reason: str,
                at: float) -> Callable[[], int]:
        """The movement in one statement, ``sukno_post``: the purses' spelling, an unknown account
        refused, the entries and the balances, all in SQL, nothing waited for; its id is read from the
        answer once it is in (after the COMMIT; inside a batch, it waits: ``returning=False``)."""
        merged: dict[str, list[Any]] = {}  # "anna" and "Anna" are one purse: [name as given, key, amount]
        for name, amount in moves.items():
            key = None if ":" in name else _name_key(name)
            merged.setdefault(name if key is None else key, [name, key, 0])[2] += amount
        rows = list(merged.values())
        cursor = self._send(
            "SELECT sukno_post(%s::text, %s::bigint, %s::text, %s::float8, %s::text[], %s::text[], %s::numeric[])",
            (tid, deal_no, reason, at, [r[0] for r in rows], [r[1] for r in rows], [Decimal(r[2]) for r in rows]))
        return lambda: int(self._wait(cursor).fetchone()[0])

    def ledger_sum(self) -> int:
        """The sum of every entry ever posted: zero, always (NUMERIC sums exactly)."""
        with self._read() as db:
            return _amount(db.execute("SELECT coalesce(sum(amount), 0) FROM ledger_entry").fetchone()[0])

    def check_ledger(self) -> None:
        """Raise ``StoreError`` unless every transaction sums to zero and every cached balance is right."""
        with self._read() as db:
            unbalanced = [r[0] for r in db.execute(
                "SELECT txn_id FROM ledger_entry GROUP BY txn_id HAVING sum(amount) <> 0 ORDER BY txn_id LIMIT 5")]
            wrong = [r[0] for r in db.execute(
                "SELECT coalesce(p.name, e.purse) FROM purse p FULL JOIN "
                "(SELECT purse, sum(amount) AS total FROM ledger_entry GROUP BY purse) e ON e.purse = p.name "
                "WHERE coalesce(p.balance, 0) <> coalesce(e.total, 0) ORDER BY 1 LIMIT 5")]
        if unbalanced:
            raise StoreError(f"{self.path}: ledger transactions {unbalanced} do not sum to zero", 65)
        if wrong:
            raise StoreError(f"{self.path}: the balances of {wrong} disagree with the ledger", 65)

    # --- what a journal write does besides the shared SQL ------------------------------------

    def _announce(self, tid: str, seq: int) -> None:
        """Inside the write's transaction: PostgreSQL delivers the notice only if it commits.  A new
        session (0) starts the journal's seqs again; a closed one (-1) is forgotten."""
        self._tx_seqs[tid] = None if seq < 0 else 0
        self._send("SELECT pg_notify(%s, %s)", (JOURNAL_CHANNEL, f"{tid} {seq}"))

    def _entry(self, table_id: TableId, tid: str, kind: str, text: str, at: float) -> int:
        """The next entry by ``sukno_append``, nothing read back: the seq is the one this store knows
        follows (asked once per table, then kept), and the function refuses it unless it does follow
        (another store wrote meanwhile: this write is refused and the next one asks again), refuses a
        table with no live journal, and notifies the other nodes in the same transaction."""
        if tid in self._unsure and tid not in self._tx_seqs and self._seqs.get(tid) is not None:
            # only the connection was lost, not a write of this table: its journal ends where this
            # store last committed, so the table in memory is the journal's (no whole read needed)
            last_seq = int(self._x("SELECT coalesce(max(seq), 0) FROM journal WHERE table_id = ?", (tid,)).fetchone()[0])
            if last_seq == self._seqs[tid]:
                self._unsure.discard(tid)
        if tid in self._unsure and tid not in self._tx_seqs:
            raise StoreError(f"table {table_id!r}: a write of its journal failed (and may have been kept: "
                             "PostgreSQL went away during its commit); read the journal again before writing on", 75)
        last = self._tx_seqs[tid] if tid in self._tx_seqs else self._seqs.get(tid)
        if last is None:
            last = int(self._x("SELECT coalesce(max(seq), 0) FROM journal WHERE table_id = ?", (tid,)).fetchone()[0])
        seq = last + 1
        if kind != DEAL:
            notice = f"{tid} {seq} {at!r} {kind}\n{text}"
            if len(notice) <= ENTRY_MAX // 4 or len(notice.encode()) <= ENTRY_MAX:  # (no encode for most)
                self._send("SELECT pg_notify(%s, %s)", (ENTRY_CHANNEL, notice))  # same pipeline: no round trip
        self._send("SELECT sukno_append(%s::text, %s::bigint, %s::float8, %s::text, %s::text, %s::text)",
                         (tid, seq, at, kind, text, JOURNAL_CHANNEL))
        self._tx_seqs[tid] = seq
        return seq

    @contextmanager
    def _reading_whole(self, whole: bool) -> Iterator[None]:
        """A whole journal read on the loop (a table rebuilt) waits up to ``WHOLE_JOURNAL_WAIT``."""
        self._whole = whole and self._on_loop()  # set on the loop's thread only: never another's call
        try:
            yield
        finally:
            self._whole = False

    def _read_whole(self, tid: Any) -> None:
        """The table's whole journal was read: what the table in memory is rebuilt from, so it may be
        written again after a failed write (``_unsure``): a write whose commit may or may not have
        landed, or a table that played on in memory past what was committed, is never continued from
        memory, only from the journal (its next seq, its state)."""
        with self._lock:
            if not self._depth:
                self._unsure.discard(tid)
                self._seqs.pop(tid, None)  # asked again at the next write: what was read is the truth

    # --- table leases (several nodes) ------------------------------------------------------------

    def acquire_lease(self, table_id: TableId, node: str, ttl: float) -> int | None:
        """Become the owner of ``table_id`` for ``ttl`` seconds: the lease's epoch, or None if another
        node holds a lease that has not expired.  Taking a lease over always makes a new epoch, and
        epochs never repeat (releasing keeps the row), so the old owner's writes are refused.
        Held by this node already: renewed, same epoch.  The lease row locked by a write in flight
        (perhaps of a node paused mid-transaction): None at once, never a wait."""
        _check_table_id(table_id)
        _check_node(node)
        tid = _tid_key(table_id)
        try:
            return self._acquire(tid, node, ttl)
        except _RowBusy:
            return None

    def _acquire(self, tid: str, node: str, ttl: float) -> int | None:
        with self._tx() as db:
            try:
                row = db.execute(f"SELECT node, epoch, expires > {_DB_NOW} FROM table_lease "
                                 "WHERE table_id = %s FOR UPDATE NOWAIT", (tid,)).fetchone()
            except _pgerrors.LockNotAvailable:
                raise _RowBusy from None  # rolled back by _tx, as any exception
            if row is None:
                epoch = 1
                db.execute(f"INSERT INTO table_lease VALUES (%s, %s, 1, {_DB_NOW} + %s)", (tid, node, ttl))
            else:
                holder, held, live = row
                if live and holder != node:
                    return None
                mine = live and holder == node and self._leases.get(tid) == (node, int(held))
                epoch = int(held) if mine else int(held) + 1
                db.execute(f"UPDATE table_lease SET node = %s, epoch = %s, expires = {_DB_NOW} + %s "
                           "WHERE table_id = %s", (node, epoch, ttl, tid))
        with self._lock:
            if self._leases.get(tid) != (node, epoch):
                self._seqs.pop(tid, None)  # another owner may have written meanwhile: its seq asked again
            self._leases[tid] = (node, epoch)
        return epoch

    def hold_lease(self, table_id: TableId, node: str, epoch: int) -> None:
        """Write ``table_id`` under ``node``'s lease ``epoch``, taken on another of the node's connections
        (its takeover is made off the event loop).  No database call: the database still refuses any
        write whose epoch is not the lease's."""
        tid = _tid_key(table_id)
        with self._lock:
            if self._leases.get(tid) != (node, epoch):
                self._seqs.pop(tid, None)  # another owner wrote meanwhile: its seq asked again
            self._leases[tid] = (node, epoch)

    def renew_lease(self, table_id: TableId, ttl: float) -> bool:
        """Keep this store's lease of ``table_id`` ``ttl`` seconds more; False if it was taken over
        (or never held): the table is no longer ours to write."""
        tid = _tid_key(table_id)
        held = self._leases.get(tid)
        if held is None:
            return False
        with self._tx() as db:
            done = db.execute(f"UPDATE table_lease SET expires = {_DB_NOW} + %s WHERE table_id = %s "
                              "AND node = %s AND epoch = %s RETURNING 1", (ttl, tid, *held)).fetchone()
        return done is not None  # a lost lease stays noted: the next write says it was taken over

    def renew_for(self, table_id: TableId, node: str, epoch: int, ttl: float) -> bool:
        """Keep ``node``'s lease of ``table_id`` under ``epoch`` ``ttl`` seconds more, from any store
        (a node renews on its own connection off the event loop); False if it was taken over."""
        with self._tx() as db:
            done = db.execute(f"UPDATE table_lease SET expires = {_DB_NOW} + %s WHERE table_id = %s "
                              "AND node = %s AND epoch = %s RETURNING 1",
                              (ttl, _tid_key(table_id), node, epoch)).fetchone()
        return done is not None

    def leases(self) -> dict[TableId, tuple[str, int, float]]:
        """Every table's lease: table → (node, epoch, seconds left, ≤ 0 if expired)."""
        with self._read() as db:
            rows = db.execute(f"SELECT table_id, node, epoch, expires - {_DB_NOW} FROM table_lease").fetchall()
        return {_tid_of(t): (str(n), int(e), float(left)) for t, n, e, left in rows}

    def held(self, table_id: TableId) -> tuple[str, int] | None:
        """The (node, epoch) this store holds for ``table_id``, as far as it knows."""
        return self._leases.get(_tid_key(table_id))

    def release_lease(self, table_id: TableId) -> None:
        """Let another node take the table at once (the row stays, so the next epoch is new)."""
        tid = _tid_key(table_id)
        held = self._leases.pop(tid, None)
        if held is None:
            return
        with self._tx() as db:
            db.execute("UPDATE table_lease SET expires = 0 WHERE table_id = %s AND node = %s AND epoch = %s",
                       (tid, *held))

    def lease(self, table_id: TableId) -> tuple[str, int, float] | None:
        """Who holds ``table_id``'s lease: (node, epoch, seconds left, ≤ 0 if expired), or None."""
        with self._read() as db:
            row = db.execute(f"SELECT node, epoch, expires - {_DB_NOW} FROM table_lease WHERE table_id = %s",
                             (_tid_key(table_id),)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), float(row[2]))

    def _fence(self, table_id: TableId) -> None:
        """Inside a write's transaction: refuse it unless this store holds the table's current epoch
        (a table nobody ever leased is written freely: one server alone).  ``sukno_fence`` checks it
        in SQL, holding the lease row ``FOR SHARE`` until the commit, so a takeover waits for this
        write and then replays it; it raises (``_error`` says why), so nothing waits for an answer.
        Once per table and transaction: the row stays held."""
        tid = _tid_key(table_id)
        if tid in self._fenced:
            return
        node, epoch = self._leases.get(tid) or (None, None)
        self._send("SELECT sukno_fence(%s::text, %s::text, %s::bigint)", (tid, node, epoch))
        self._fenced.add(tid)

    # --- the club's one host key (several nodes) ---------------------------------------------

    def shared_host_key(self, make: Callable[[], str]) -> tuple[str, bool]:
        """The club's SSH host key (its private key as text) and whether it was made just now.

        Every node presents this one key, so a client reaching any node sees the same host.  The
        first node makes it with ``make`` (the engine knows no SSH) under an advisory lock, so two
        nodes starting at once agree on one key; the others read it.  Nobody logs the text."""
        with self._tx() as db:
            db.execute(f"SET LOCAL lock_timeout = {int(HOST_KEY_WAIT * 1000)}")
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_HOST_KEY,))
            row = db.execute("SELECT private FROM host_key WHERE id = 1").fetchone()
            if row is not None:
                return str(row[0]), False
            text = make()
            if not isinstance(text, str) or not text.strip():
                raise ValueError("a host key is the private key's text")
            db.execute("INSERT INTO host_key VALUES (1, %s, %s)", (text, time.time()))
        return text, True
