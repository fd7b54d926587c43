"""Storage: accounts, the money ledger, finished records and live-table journals.

The club keeps everything in memory; this layer is what survives a restart.
``Store`` is the small interface every backend implements: the
embedded backend is SQLite (``engine.store.sqlite.SqliteStore``), and the
PostgreSQL backend (``engine.store.postgres.PgStore``, ``sukno serve --store
postgresql://…``) is a second class with the same methods, not a rewrite: both
run the same SQL (``engine.store.sql.SqlStore``, a DB-API base with a small
dialect) and keep only their connections, transactions and migrations, and on
PostgreSQL the lease fence, notices and advisory locks.  Nothing here imports
asyncio; every call is synchronous and short (an append + commit is well
under a millisecond with SQLite on this machine: ``tests/bench/journal_bench.py``)
and never waits long for a lock (below).

The event loop and the store
---------------------------------------
The server calls the store on its asyncio loop, on purpose: an action is
applied, committed and only then broadcast, all in one turn of the loop, so
nobody ever sees a change that is not on disk (kill -9 loses nothing,
``tests/net/test_crash_recovery.py``).  A store thread would have to hold the
broadcast until its commit returned, and every table's order of events with
it, for a commit that takes a fraction of a millisecond.  What made that
dangerous is waiting: another process holding the database's lock (a backup,
the ``sqlite3`` shell with ``BEGIN EXCLUSIVE``) made every write wait up to
SQLite's busy timeout, and every session with it.  So the server's store
(``exclusive=True``) lets a write wait at most ``WRITE_WAIT`` (50 ms) for
such a lock and then refuses it: the table says "could not write that down",
rebuilds itself from its journal and everyone else goes on; reads never wait
in WAL mode.  The calls that are not per action are bounded too: history and
statements take a ``limit``, a record is read by its id.  A vanished file
(the data folder deleted) stops every write (``StoreError``, the table says
the book is gone).  ``tests/bench/store_lock_bench.py`` prints the figures.

How the server uses it
----------------------
Open the data folder's store once at start (``open_store(data_dir)``); a
``StoreError`` carries a message and an ``exit_status`` for the CLI::

    try:
        store = open_store(data_dir, exclusive=True)
    except StoreError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return err.exit_status

Accounts: ``account_by_key(fp)`` on login, ``create_account(name, key=fp,
grant=config_grant)`` for a new key (the grant is posted from ``club:grants``
so the ledger still sums to zero), ``touch(name)`` on every login.

A live table, through ``TableJournal`` (one per table, it keeps the journal
and the ledger in step with the ``Game``); ``clock`` is the table's game time
(``time.monotonic()``, what ``engine.table.owner.Table`` passes as ``now``), given
for games that run on a clock (Спекулянт) so their timers replay exactly::

    journal = TableJournal.open(store, table_id, game, purses=["Anna", "Boris", "bot:Mitya"])
    step = game.deal_step(decks)
    journal.write(step, clock=now)            # deck orders + antes, committed
    step = game.apply_step(seat, action)      # IllegalAction: nothing is written
    journal.write(step, clock=now)            # committed ...
    broadcast(step.events)                    # ... before anyone sees it

The order matters: apply, then record (the commit), then show.  A journal
written from a table subscriber must therefore run before every other
subscriber, and its failure must stop the broadcast.  If a record call raises
``StoreError`` (disk full), the change is not durable: do not show it, and
rebuild the table with ``restore_table`` (the game in memory is one change
ahead of the journal).  ``write`` takes the ``engine.step.Step`` of the
change (``Game.deal_step``, ``apply_step``, ``tick_step``): the action as the
game logged it (normalised), the money it moved and the decks it drew, and
refuses a step that does not follow the last one written.  A
``game.tick_step(now)`` that changed something (a trade window closed by
time) is written like any step; a tick inside an action (``Table.act`` ticks
before it applies) is replayed from the action's ``clock``.  Seat changes go through
``record_seat(seat, purse)``; anything
else the server wants back after a crash (the table's own settings are in
the header's ``extra``) through ``note(kind, payload)``.

Money: each journal write also posts, in the same transaction, the money its
step moved: every seat's share to that seat's purse and the pot's to the
table's pot purse ``table:<id>:pot``.  So the ledger never disagrees with the journal, even
after kill -9.  Purses are account names (no ``:``) or pools (with ``:``:
``table:3:pot``, ``club:grants``, ``bot:Mitya``); every posting sums to zero.
A session that starts on a carried pot finds it already in the pot purse.

At the end of a session: ``store.save_record(record_of(game), table_id=...,
accounts=..., result=game.result())`` (for ``history``/``replay``), then
``journal.new_session(next_game)`` (the journal restarts from the new header)
or ``store.close_table_journal(table_id)``, both inside ``with store.batch():``
so that either all of it happens or none.

On start: ``for live in store.live_tables(): restored = restore_table(store,
live.table_id, clock=time.monotonic())`` gives the ``Game`` in the exact
state of the last commit (hands, turn, pot, balances, open trade windows),
the seats' purses (``restored.purses``), the server's notes, and ``last_at``
(wall time of the last entry).  Deadlines are recomputed: the journal's game
times are shifted so that its last moment is the restart's ``clock``, so a
timer gets back the time it had left, whatever the downtime (a turn clock the
server keeps outside the game restarts as it likes).  ``restored.journal(store)``
resumes writing.  A journal that no longer replays (the rules changed under
it) raises ``StoreError`` naming the entry: report it and skip that table.

Sitting down: ``check_funds(store.balance(name), needed, allow_debt)`` raises
``NotEnoughMoney`` with a reason (and ``key``/``params`` for the i18n
catalogue) when a table refuses players at zero.

Money amounts are Python ints of any size: Стуколка's pot can pass 2**63, so
the SQLite backend stores an amount that does not fit in 64 bits as decimal
text and sums in Python, never in SQL.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator, Mapping, Protocol, Sequence

from engine.cards import CardError, parse_card
from engine.game import Event, Game, OptionError
from engine.playback import REPLAY_ERRORS, Move, ReplayError, play
from engine.record import Record, RecordDeal
from engine.step import Step

log = logging.getLogger("sukno.store")

TableId = int | str
"""The club's id of a table (the store keeps whatever the club uses)."""

GRANTS = "club:grants"
"""The pool starting grants and admin top-ups are paid from (its balance goes negative)."""

ROLES = ("player", "admin", "bot")
"""``bot``: an account a program plays through the bot protocol (``net.modes.bot``), marked as a bot."""
DEFAULT_FILENAME = "sukno.db"
CLUB_FILES = ("ssh_host_ed25519_key", "bans.json", "audit.log", "admin.sock")
"""The other files sukno keeps in its data folder (``net``): tightened to 0600 at start like the store's."""

# Journal entry kinds the restore understands; any other kind is a server note.
DEAL = "deal"  # {"deal": n, "decks": [[card, …], …]}
ACTION = "action"  # {"seat": s, "action": "play Q♠", "decks"?: [...] redeals drawn}
TICK = "tick"  # {"clock": t, "decks"?: [...]}
# "clock" (optional in deal and action entries) is the table's game time (monotonic
# seconds) that was given to the game with that change; "decks" are deck orders the
# change drew (a redeal); the journal's own "at" is wall time.
SEAT = "seat"  # {"seat": s, "purse": name}
FAIR = "fair"  # {"deal": n, "protocol", "seal", "seed", "cut"}: a sealed deal ended (engine.table.keeper writes it)


class StoreError(Exception):
    """The store cannot be used (locked, unreadable, newer schema, disk full…).

    ``str(err)`` is a message for a person; ``exit_status`` is what the CLI
    should exit with (sysexits: 65 bad data, 74 I/O, 75 try again later,
    78 configuration).
    """

    def __init__(self, message: str, exit_status: int = 74):
        super().__init__(message)
        self.message = message
        self.exit_status = exit_status


class TableNumberTaken(StoreError):
    """``open_table_journal``: that number is another table's (live, or leased by another node):
    the store's unique table id decides, so two nodes opening at once never share one."""

    def __init__(self, table_id: Any):
        super().__init__(f"table {table_id!r} already has a live journal", 70)
        self.table_id = table_id


class AccountError(ValueError):
    """A refused account operation (bad or taken name, key of another account, unknown name)."""


class LedgerError(ValueError):
    """A posting that is not a balanced set of whole-kopeck movements between known purses."""


class NotEnoughMoney(Exception):
    """A table that refuses players at zero said no; ``key``/``params`` feed the i18n catalogue."""

    def __init__(self, message: str, *, key: str, params: Mapping[str, Any]):
        super().__init__(message)
        self.message = message
        self.key = key
        self.params = dict(params)


# --- what the store returns ----------------------------------------------------


@dataclass(frozen=True)
class Account:
    name: str
    language: str
    role: str
    created: float
    last_seen: float | None
    keys: tuple[str, ...]
    balance: int
    state: str = "active"
    """``active``; ``disabled`` or ``closed``: he may not enter (``engine.store.accounts``)."""
    free_at: float | None = None
    """A closed account's name is freed at this wall time."""


@dataclass(frozen=True)
class Movement:
    """One entry of a purse's statement."""

    txn: int
    at: float
    amount: int
    reason: str
    table_id: TableId | None
    deal_no: int | None


@dataclass(frozen=True)
class TableHeader:
    """What a live table's session starts from: enough to construct its ``Game``."""

    game: str
    options: dict[str, Any]
    players: list[str]
    dealer: int = 0
    pot: int = 0
    seats: list[str] = field(default_factory=list)  # the purse of each seat
    extra: dict[str, Any] = field(default_factory=dict)  # the server's own table settings

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "dealer": self.dealer,
            "pot": self.pot,
            "seats": self.seats,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableHeader:
        return cls(
            game=data["game"],
            options=dict(data.get("options", {})),
            players=list(data["players"]),
            dealer=int(data.get("dealer", 0)),
            pot=int(data.get("pot", 0)),
            seats=list(data.get("seats", [])),
            extra=dict(data.get("extra", {})),
        )


@dataclass(frozen=True)
class JournalEntry:
    seq: int
    at: float
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class LiveTable:
    table_id: TableId
    opened_at: float
    header: TableHeader


@dataclass(frozen=True)
class RecordInfo:
    """A line of an account's history; ``get_record(id)`` gives the record itself."""

    id: int
    game: str
    players: list[str]
    table_id: TableId | None
    finished_at: float
    net: int  # the account's money over the record (kopecks)


@dataclass(frozen=True)
class BanRow:
    """A ban as the store keeps it (``net.house.bans`` gives it meaning): ``key`` is the target as compared
    (a name folded by ``net.ssh.identity.fold``), ``until`` wall time or None (for ever)."""

    kind: str  # "key" | "address" | "name"
    key: str
    target: str
    until: float | None
    reason: str
    by: str
    at: float


@dataclass(frozen=True)
class Presence:
    """One session of one node, as every node of the club sees it (``who``, ``sessions``).

    ``place`` is where it is ("hall", "table 3 seat 2", "watching 3"); ``since`` wall time."""

    node: str
    session: str
    name: str
    guest: bool
    address: str
    key: str | None
    place: str
    lang: str
    since: float
    active: float | None = None
    """Wall time of the session's last keystroke (``sessions`` shows how long it is idle); None: unknown."""


BAN_KINDS = ("key", "address", "name")
PRESENCE_LIMITS = {"node": 64, "session": 64, "name": 64, "address": 64, "key": 128, "place": 64, "lang": 8}
"""The longest text of each presence field (a row is bounded whatever a client sends)."""
PRESENCE_FIELDS = ("node", "session", "name", "guest", "address", "key", "place", "lang", "since", "active")
BAN_FIELDS = ("kind", "key", "target", "until", "reason", "by", "at")


def _text_ok(value: Any, limit: int, empty: bool = False) -> bool:
    return isinstance(value, str) and len(value) <= limit and value.isprintable() and (empty or bool(value))


def check_ban(ban: BanRow) -> BanRow:
    """A ban the store may keep (bounded, printable), or ``ValueError``."""
    if ban.kind not in BAN_KINDS:
        raise ValueError(f"a ban's kind is one of {', '.join(BAN_KINDS)}, not {ban.kind!r}")
    if not (_text_ok(ban.target, 128) and _text_ok(ban.key, 128) and _text_ok(ban.reason, 300, True)
            and _text_ok(ban.by, 64, True)):
        raise ValueError("a ban's target is printable text of at most 128 characters, its reason of 300")
    return ban


def check_presence(row: Presence) -> Presence:
    """A presence row the store may keep (every text bounded and printable), or ``ValueError``."""
    for name, limit in PRESENCE_LIMITS.items():
        value = getattr(row, name)
        if not (value is None and name == "key") and not _text_ok(value, limit, name not in ("node", "session")):
            raise ValueError(f"a presence row's {name} is printable text of at most {limit} characters")
    return row


def presence_of(row: Sequence[Any]) -> Presence:
    """A presence row read back (columns in ``PRESENCE_FIELDS`` order)."""
    node, session, name, guest, address, key, place, lang, since, active = row
    return Presence(str(node), str(session), str(name), bool(guest), str(address),
                    None if key is None else str(key), str(place), str(lang), float(since),
                    None if active is None else float(active))


def ban_of(row: Sequence[Any]) -> BanRow:
    """A ban read back (columns in ``BAN_FIELDS`` order)."""
    kind, key, target, until, reason, by, at = row
    return BanRow(str(kind), str(key), str(target), None if until is None else float(until), str(reason),
                  str(by), float(at))


# --- the interface ---------------------------------------------------------------


class Store(Protocol):
    """The small interface every backend implements (see the module docstring)."""

    # accounts
    def create_account(
        self,
        name: str,
        *,
        key: str | None = None,
        language: str = "ru",
        role: str = "player",
        grant: int = 0,
        now: float | None = None,
    ) -> Account: ...
    def account(self, name: str) -> Account | None: ...
    def name_clashes(self) -> list[tuple[str, str]]: ...
    def schema_version(self) -> int: ...
    def account_by_key(self, fingerprint: str) -> Account | None: ...
    def accounts(self) -> list[Account]: ...
    def add_key(self, name: str, fingerprint: str, *, now: float | None = None) -> None: ...
    def remove_key(self, fingerprint: str) -> None: ...
    def put_link_code(self, name: str, word: str, *, life: float, keep: int, now: float | None = None) -> str: ...
    def spend_link_code(self, word: str, fingerprint: str, *, now: float | None = None) -> str | None: ...
    def set_language(self, name: str, language: str) -> None: ...
    def set_role(self, name: str, role: str) -> None: ...
    def settings(self, name: str) -> dict[str, str]: ...
    def set_setting(self, name: str, key: str, value: str) -> None: ...
    def ignores(self, name: str) -> list[str]: ...
    def set_ignore(self, name: str, other: str, on: bool) -> None: ...
    def mutes(self) -> list[tuple[str, float | None, str, str]]: ...
    def set_mute(self, name: str, until: float | None, reason: str, by: str) -> None: ...
    def clear_mute(self, name: str) -> None: ...
    def touch(self, name: str, *, now: float | None = None) -> None: ...

    # the ledger
    def post(
        self,
        entries: Iterable[tuple[str, int]],
        *,
        table_id: TableId | None = None,
        deal_no: int | None = None,
        reason: str = "",
        now: float | None = None,
        returning: bool = True,
    ) -> int | None: ...
    def balance(self, purse: str) -> int: ...
    def balances(self, names: Sequence[str]) -> dict[str, int | None]: ...
    def purses(self) -> dict[str, int]: ...
    def statement(self, purse: str, limit: int = 20) -> list[Movement]: ...
    def ledger_sum(self) -> int: ...
    def check_ledger(self) -> None: ...

    # bans (``net.house.bans``) and who is online on which node (``net.cluster.presence``)
    def bans(self) -> list[BanRow]: ...
    def put_ban(self, ban: BanRow) -> None: ...
    def drop_bans(self, kind: str, key: str) -> list[BanRow]: ...
    def prune_bans(self, now: float) -> int: ...
    def beat(self, node: str, upserts: Sequence[Presence] = (), gone: Sequence[str] = ()) -> None: ...
    def presence(self, within: float) -> list[Presence]: ...
    def leave_presence(self, node: str) -> None: ...

    # live tables
    def open_table_journal(self, table_id: TableId, header: TableHeader, *, now: float | None = None) -> None: ...
    def new_session(self, table_id: TableId, header: TableHeader, *, now: float | None = None) -> None: ...
    def append(
        self, table_id: TableId, kind: str, payload: Mapping[str, Any], *, now: float | None = None
    ) -> int: ...
    def journal(self, table_id: TableId, after: int = 0) -> list[JournalEntry]: ...
    def live_tables(self) -> list[LiveTable]: ...
    def close_table_journal(self, table_id: TableId) -> None: ...

    # finished records
    def save_record(
        self,
        record: Record,
        *,
        table_id: TableId | None = None,
        accounts: Mapping[str, str] | None = None,
        result: Sequence[int] | None = None,
        now: float | None = None,
        watchers: Sequence[str] = (),
    ) -> int: ...
    def history(self, account: str, limit: int = 20) -> list[RecordInfo]: ...
    def get_record(self, record_id: int) -> Record: ...

    # housekeeping
    def batch(self) -> ContextManager[None]: ...
    def close(self) -> None: ...


def make_data_folder(data_dir: str | Path) -> bool:
    """Create the data folder 0700 whatever the umask (or tighten it, and every file in it that others
    could read: a club from before files were made 0600); True if it did not exist."""
    folder = Path(data_dir)
    new = not folder.exists()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    _private_folder(folder)
    for entry in os.scandir(folder):
        if not (entry.name.startswith(DEFAULT_FILENAME) or entry.name in CLUB_FILES):
            continue  # someone else's file in a shared folder (``--data .``): not ours to change
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mode & 0o077:
                os.chmod(entry.path, 0o600)
                log.warning("%s could be read by other users; made it 0600", entry.path)
        except OSError:
            pass  # not ours to change
    return new


def _private_folder(folder: Path) -> None:
    """The data folder holds every hidden card: nobody but its owner may look inside (0700)."""
    try:
        if folder.stat().st_mode & 0o077:
            os.chmod(folder, 0o700)
    except OSError:
        pass  # not ours to change: the files inside are 0600 all the same


def pot_purse(table_id: TableId) -> str:
    """The ledger pool holding a table's pot or kitty."""
    return f"table:{table_id}:pot"


def check_funds(balance: int, needed: int, allow_debt: bool) -> None:
    """A table's zero rule: refuse to seat someone who cannot cover ``needed`` unless debt is allowed."""
    if allow_debt or balance >= needed:
        return
    if balance <= 0:
        message = f"Your club balance is {balance} kopecks; this table does not allow debt."
    else:
        message = f"Your club balance is {balance} kopecks; this table needs at least {needed}."
    raise NotEnoughMoney(message, key="store.not_enough_money", params={"balance": balance, "needed": needed})


# --- keeping a live table's journal -------------------------------------------------


def header_of(game: Game, purses: Sequence[str], extra: Mapping[str, Any] | None = None) -> TableHeader:
    """The header of a session that has not dealt yet."""
    if game.deals:
        raise ValueError("a journal starts before the session's first deal")
    if len(purses) != game.n:
        raise ValueError(f"{game.n} seats need {game.n} purses, not {len(purses)}")
    return TableHeader(
        game=game.name,
        options=dict(game.options),
        players=list(game.names),
        dealer=game.dealer,
        pot=game.start_pot,
        seats=list(purses),
        extra=dict(extra or {}),
    )


class TableJournal:
    """Writes one live table's changes, and the money they moved, in one commit each.

    Each change comes as the ``engine.step.Step`` the game returned (the
    action as logged, the money moved, the deck orders drawn), so the journal
    reads nothing back from the game; ``game`` is kept for the session's header.
    """

    def __init__(self, store: Store, table_id: TableId, game: Game, purses: Sequence[str]):
        if len(purses) != game.n:
            raise ValueError(f"{game.n} seats need {game.n} purses, not {len(purses)}")
        self.store = store
        self.table_id = table_id
        self.game = game
        self.purses = list(purses)
        self._deal = game.deal_no  # the deal of the last step written

    @classmethod
    def open(
        cls,
        store: Store,
        table_id: TableId,
        game: Game,
        purses: Sequence[str],
        *,
        extra: Mapping[str, Any] | None = None,
        now: float | None = None,
    ) -> TableJournal:
        """Start the journal of a new live table whose session has not dealt yet."""
        store.open_table_journal(table_id, header_of(game, purses, extra), now=now)
        return cls(store, table_id, game, purses)

    def new_session(
        self, game: Game, *, extra: Mapping[str, Any] | None = None, now: float | None = None
    ) -> None:
        """The table goes on with a new ``Game``; the old entries are dropped (save the record first)."""
        self.store.new_session(self.table_id, header_of(game, self.purses, extra), now=now)
        self.game = game
        self._deal = game.deal_no

    def write(self, step: Step, *, clock: float | None = None, now: float | None = None) -> int:
        """One ``engine.step.Step`` of this session (a deal, an action, a tick) and its money, in one commit.

        Everything written comes from the step, nothing from the live game, so
        a step may be written after the game moved on.  A step must follow the
        last one written: a deal the next deal, an action or a tick the deal
        in play.
        """
        expected = self._deal + 1 if step.kind == DEAL else self._deal
        if step.deal_no != expected or step.kind not in (DEAL, ACTION, TICK):
            raise ValueError(f"a {step.kind} step of deal {step.deal_no} does not follow deal {self._deal} "
                             f"of table {self.table_id}")
        payload: dict[str, Any]
        if step.kind == DEAL:
            payload = {"deal": step.deal_no}
        elif step.kind == ACTION:
            payload = {"seat": step.seat, "action": step.action.text()}
        else:
            payload = {}
        if clock is not None:
            payload["clock"] = clock
        if step.decks:
            payload["decks"] = [[str(card) for card in order] for order in step.decks]
        moves = [(self.purses[seat] if seat is not None else pot_purse(self.table_id), amount)
                 for seat, amount in step.moved()]
        with self.store.batch():
            seq = self.store.append(self.table_id, step.kind, payload, now=now)
            if moves:
                self.store.post(moves, table_id=self.table_id, deal_no=step.deal_no,
                                reason=_reason(step.kind, payload, step.events), now=now, returning=False)
        self._deal = step.deal_no
        return seq

    def record_seat(self, seat: int, purse: str, *, now: float | None = None) -> int:
        """Seat ``seat`` now plays for ``purse`` (a player took over a bot's seat, say)."""
        if not 0 <= seat < len(self.purses):
            raise ValueError(f"there is no seat {seat} at table {self.table_id}")
        seq = self.store.append(self.table_id, SEAT, {"seat": seat, "purse": purse}, now=now)
        self.purses[seat] = purse
        return seq

    def note(self, kind: str, payload: Mapping[str, Any], *, now: float | None = None) -> int:
        """Anything else the server wants back after a crash (restore returns it untouched).

        The payload is stored as JSON: write cards as text (``str(card)``), since a
        ``Card`` is an ``int`` and would come back as a number.
        """
        if kind in (DEAL, ACTION, TICK, SEAT):
            raise ValueError(f"{kind!r} entries are written by " + ("record_seat" if kind == SEAT else "write"))
        return self.store.append(self.table_id, kind, payload, now=now)


def _reason(kind: str, payload: Mapping[str, Any], events: Sequence[Event]) -> str:
    """A short why for the statement: the events of the change, e.g. ``ante`` or ``remiz``."""
    kinds = list(dict.fromkeys(e.kind for e in events))
    what = payload.get("action", kind)
    return f"{what}: {', '.join(kinds)}"[:200] if kinds else str(what)


# --- restoring a live table -------------------------------------------------------------


@dataclass
class RestoredTable:
    """A live table as its journal leaves it."""

    table_id: TableId
    header: TableHeader
    game: Game
    purses: list[str]  # header.seats after the seat changes
    notes: list[JournalEntry]  # entries of the server's own kinds, in order
    last_at: float  # wall time of the last entry (or of opening)
    told: list[Event] = field(default_factory=list)  # the events of the deal in play (or the last), in order

    def journal(self, store: Store) -> TableJournal:
        """Resume writing where the journal stopped."""
        return TableJournal(store, self.table_id, self.game, self.purses)


GameLookup = Callable[[str], type[Game]]


def restore_table(
    store: Store, table_id: TableId, *, clock: float | None = None, lookup: GameLookup | None = None
) -> RestoredTable:
    """Rebuild a live table from its journal; ``StoreError`` names the entry that does not replay.

    ``clock`` is the table's game time now (``time.monotonic()``); a game that
    ran on a clock (Спекулянт's trade windows) is replayed on it shifted so the
    last journaled moment is now: an open window gets back the time it had
    left, whatever the downtime and whatever the old monotonic clock said.
    """
    live = {t.table_id: t for t in store.live_tables()}.get(table_id)
    if live is None:
        raise StoreError(f"there is no live table {table_id!r} in the journal", 65)
    return replay_journal(live, store.journal(table_id), clock=clock, lookup=lookup)


def replay_journal(
    live: LiveTable,
    entries: Sequence[JournalEntry],
    *,
    clock: float | None = None,
    lookup: GameLookup | None = None,
) -> RestoredTable:
    """Play a journal through the rules, as ``engine.table.owner.Table`` played it live (``engine.playback``)."""
    table_id, header = live.table_id, live.header
    game = _new_game(table_id, header, lookup)
    purses = list(header.seats)
    notes: list[JournalEntry] = []
    told: list[Event] = []
    moves = _journal_moves(entries, _decks_by_deal(table_id, entries), purses, notes, _clock_shift(entries, clock))
    try:
        for step in play(game, moves):
            told = list(step.events) if step.kind == DEAL else told + list(step.events)
    except ReplayError as err:
        entry = err.where
        raise StoreError(
            f"table {table_id}: journal entry {entry.seq} ({entry.kind} {_brief(entry.payload)}) "
            f"does not replay: {err.cause}",
            65,
        ) from None
    for note in notes:  # a sealed deal that ended: its seed, so a record written from here carries ``fair``
        if note.kind == FAIR and 0 < int(note.payload.get("deal", 0)) <= len(game.deals):
            game.deals[int(note.payload["deal"]) - 1].fair = _fair_of(note.payload)
    last_at = entries[-1].at if entries else live.opened_at
    return RestoredTable(table_id, header, game, purses, notes, last_at, told)


def restored_as_played(live: LiveTable, entries: Sequence[JournalEntry], game: Game) -> RestoredTable:
    """What ``replay_journal`` returns, for a ``game`` that has played ``entries`` already (a replica's,
    played on as they came): the seats and notes are read from the entries, nothing is played again."""
    purses = list(live.header.seats)
    notes: list[JournalEntry] = []
    for entry in entries:
        if entry.kind == SEAT:
            purses[int(entry.payload["seat"])] = str(entry.payload["purse"])
        elif entry.kind not in (DEAL, ACTION, TICK):
            notes.append(entry)
    last_at = entries[-1].at if entries else live.opened_at
    return RestoredTable(live.table_id, live.header, game, purses, notes, last_at, [])


def _fair_of(payload: Mapping[str, Any]) -> dict[str, str]:
    return {k: str(payload[k]) for k in ("protocol", "seal", "seed", "cut")}


def _clock_shift(entries: Sequence[JournalEntry], clock: float | None) -> float:
    """How far to move journaled game times so that the last of them is ``clock``."""
    times = [float(e.payload["clock"]) for e in entries if "clock" in e.payload]
    return clock - max(times) if clock is not None and times else 0.0


def _new_game(table_id: TableId, header: TableHeader, lookup: GameLookup | None) -> Game:
    try:
        if lookup is None:
            from engine.games import get_game

            lookup = get_game
        cls = lookup(header.game)
        return cls(header.players, header.options, dealer=header.dealer, pot=header.pot)
    except (KeyError, OptionError) as err:
        raise StoreError(f"table {table_id}: its session cannot be restored: {err}", 65) from None


def _decks_by_deal(table_id: TableId, entries: Sequence[JournalEntry]) -> dict[int, list[list[Any]]]:
    """Every deck order of each deal, keyed by the seq of its ``deal`` entry (redeals come later)."""
    decks: dict[int, list[list[Any]]] = {}
    current: int | None = None
    for entry in entries:
        if entry.kind == DEAL:
            current = entry.seq
            decks[current] = []
        orders = entry.payload.get("decks") if entry.kind in (DEAL, ACTION, TICK) else None
        if orders and current is not None:
            try:
                decks[current] += [[parse_card(c) for c in order] for order in orders]
            except (CardError, TypeError) as err:
                raise StoreError(f"table {table_id}: journal entry {entry.seq} has a bad deck: {err}", 65)
    return decks


def journal_moves(entries: Sequence[JournalEntry], *, clock: float | None = None) -> Iterator[Move]:
    """A journal's deals, actions and ticks as ``engine.playback`` moves (``clock``: as ``restore_table``)."""
    return _journal_moves(entries, _decks_by_deal("?", entries), None, [], _clock_shift(entries, clock))


def _journal_moves(
    entries: Sequence[JournalEntry],
    decks: Mapping[int, list[list[Any]]],
    purses: list[str] | None,
    notes: list[JournalEntry],
    shift: float,
) -> Iterator[Move]:
    """The journal's game entries as moves (labelled by their entry); seat changes and notes kept aside."""
    for entry in entries:
        payload = entry.payload
        try:
            clock = float(payload["clock"]) + shift if "clock" in payload else None
            if entry.kind == DEAL:
                move = Move(DEAL, decks=tuple(decks[entry.seq]), clock=clock, where=entry)
            elif entry.kind == ACTION:
                move = Move(ACTION, seat=int(payload["seat"]), text=str(payload["action"]), clock=clock, where=entry)
            elif entry.kind == TICK:
                move = Move(TICK, clock=clock, where=entry)
            else:
                if entry.kind == SEAT and purses is not None:
                    purses[int(payload["seat"])] = str(payload["purse"])
                else:
                    notes.append(entry)
                continue
        except REPLAY_ERRORS as err:
            raise ReplayError(entry, err) from err
        yield move


def _brief(payload: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in payload.items() if k != "decks"}
    text = " ".join(f"{k}={v}" for k, v in shown.items())
    return text[:80]


def record_of_journal(live: LiveTable, entries: Sequence[JournalEntry]) -> Record:
    """The ``sukno-record/1`` of a live table so far (ticks are not part of a record)."""
    header = live.header
    deals: list[RecordDeal] = []
    for entry in entries:
        if entry.kind == DEAL:
            deals.append(RecordDeal([], []))
        if not deals:
            continue
        if entry.kind in (DEAL, ACTION, TICK):
            deals[-1].decks += [[parse_card(c) for c in o] for o in entry.payload.get("decks", [])]
        if entry.kind == ACTION:
            name = header.players[int(entry.payload["seat"])]
            deals[-1].actions.append(f"{name}: {entry.payload['action']}")
        if entry.kind == FAIR and 0 < int(entry.payload.get("deal", 0)) <= len(deals):
            deals[int(entry.payload["deal"]) - 1].fair = _fair_of(entry.payload)
    return Record(header.game, list(header.players), dict(header.options), header.dealer, header.pot, deals)


__all__ = [
    "ACTION",
    "DEAL",
    "GRANTS",
    "SEAT",
    "TICK",
    "Account",
    "AccountError",
    "JournalEntry",
    "LedgerError",
    "LiveTable",
    "Movement",
    "NotEnoughMoney",
    "RecordInfo",
    "RestoredTable",
    "Store",
    "StoreError",
    "TableHeader",
    "TableJournal",
    "check_funds",
    "header_of",
    "journal_moves",
    "make_data_folder",
    "pot_purse",
    "record_of_journal",
    "replay_journal",
    "restore_table",
]
