"""A live table's keeper: writes each change of an ``engine.table.owner.Table`` to the store first.

The keeper is a stored table's ``engine.table.journal.JournalPort``: ``Table``
calls it inside ``keeper.transaction()`` at each change, handing it the
game's ``engine.step.Step``, and shows the change to its subscribers only
after the transaction committed;
a ``StoreError`` rolls the batch back, the keeper rebuilds the table from its
journal (the game in memory is one change ahead of the disk) and the table
reports the failure instead of showing anything.

What is written (``engine.store.base`` explains the journal itself):

- a session's header when its first deal starts (``header_of``, the table's
  own state in ``extra["table"]``, ``extra["session"] = True``), then each
  deal, action and clock tick through ``TableJournal``, with the money moved;
- between sessions, a header with no game (``extra["session"] = False``);
- finished play as ``sukno-record/1`` records (``save_record``), in the same
  commit as the action that finished it: the deals since the last record
  whenever the game reaches a natural end (every deal of
  Стуколка and Спекулянт, a partiya of Копилка, a game of french3, a match of
  ukr_pairs), and what is left when a session ends elsewhere; a ``recorded``
  note says where the next record starts (its deal, pot and balances);
- the table's own state (seats, who is ready, money at this table, carried
  pot, dealer, and the seed and cuts of the next or current sealed deal,
  ``engine.shuffle``) as a ``table`` note whenever it changed: the journal is
  the only place a seed is kept before its deal ends, so a restarted server
  deals the same sealed deck, and nothing shows it (views carry the seal);
- a ``fair`` note when a sealed deal ends (its seed, now public), so a
  restored session still writes ``fair`` into its records.

``restore`` puts a journal back into a fresh ``Table``: the same seats, hands,
turn, pot and timers (the game's clock shifted to the restart's ``now``).

The keeper also keeps in memory what its last commit left in the journal (the
session's header and entries, ``Book``): after a failed commit ``rebuild``
reads the journal again, and when the store cannot even be read (PostgreSQL
gone) it puts the table back from that copy, so memory never holds a step the
journal may lack, and says so (``StoreError``): the table then waits for a
read of the journal before it writes on (a commit whose answer was lost may
have landed).
"""

from __future__ import annotations

import json
import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ContextManager, Iterator, Mapping, Sequence

from engine.botnames import BOT_PREFIX, is_bot
from engine.game import Event, Game
from engine.record import Record, RecordDeal
from engine.step import Step
from engine.table.told import CARRIED, TOLD_NOTE, encode_events
from engine.store.base import (
    DEAL,
    FAIR,
    JournalEntry,
    LiveTable,
    NotEnoughMoney,
    RestoredTable,
    Store,
    StoreError,
    TableHeader,
    TableJournal,
    check_funds,
    header_of,
    replay_journal,
)

if TYPE_CHECKING:
    from engine.table.owner import Table

log = logging.getLogger("sukno.keeper")

TABLE_NOTE = "table"
RECORDED_NOTE = "recorded"
FAIR_NOTE = FAIR  # {"deal": n, "protocol", "seal", "seed", "cut"}: a sealed deal ended, its seed may be known


@dataclass
class Book:
    """The journal as this keeper's last commit left it (header and entries of the session), kept in
    memory so the table can be put back as committed without reading a store that is away."""

    live: LiveTable | None = None
    entries: list[JournalEntry] = field(default_factory=list)

    def play(self, writes: Sequence[tuple[str, Any]], table_id: Any) -> None:
        """Add what one commit wrote: ("entry", JournalEntry) or ("session", TableHeader)."""
        for what, value in writes:
            if what == "session":
                self.live = LiveTable(table_id, time.time(), value)
                self.entries = []
            else:
                self.entries.append(value)


class _Writer:
    """The store as the keeper's writes go through it: each entry and new header is noted for the
    ``Book`` (payloads as the store keeps them, JSON), everything else is the store's own."""

    def __init__(self, store: Store, keeper: TableKeeper):
        self._store = store
        self._keeper = keeper

    def append(self, table_id: Any, kind: str, payload: Mapping[str, Any], *, now: float | None = None) -> int:
        seq = self._store.append(table_id, kind, payload, now=now)
        if table_id == self._keeper.table.id:
            entry = JournalEntry(seq, time.time() if now is None else now, kind, json.loads(json.dumps(payload)))
            self._keeper._wrote("entry", entry)
        return seq

    def new_session(self, table_id: Any, header: TableHeader, *, now: float | None = None) -> None:
        self._store.new_session(table_id, header, now=now)
        if table_id == self._keeper.table.id:
            self._keeper._wrote("session", TableHeader.from_json(json.loads(json.dumps(header.to_json()))))

    def batch(self) -> ContextManager[None]:
        return self._store.batch()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


class TableKeeper:
    """Keeps one table's journal in step with it (see the module docstring)."""

    def __init__(self, store: Store, table: Table):
        self.store = store
        self.table = table
        self.book = Book()
        """What the last commit left in the journal (``Book``): the table is put back from it when the
        store cannot be read."""
        self._writer: Any = _Writer(store, self)
        self._writes: list[tuple[str, Any]] | None = None  # the open transaction's, noted at its commit
        self._telling: list[Event] = []  # what the open transaction's operation will show, its last entry
        self._at_book = False
        """The table is exactly as ``book`` leaves it (put back from it, or restored, with no write since):
        a journal read that finds nothing new has nothing to put back, and a failed read nothing to undo."""
        self.journal: TableJournal | None = None
        self._noted: dict[str, Any] | None = None
        self._since: tuple[int, int, list[int]] = (0, 0, [])  # the next record starts: deal, pot, balances
        self.read_seq = 0
        """The last journal entry ``restore`` read (a replica skips a notice of what it has read)."""
        self.read_state: dict[str, Any] = {}
        """The table's state as that read left it (its last ``table`` note): a replica reads on from it."""
        self.read_shift = 0.0
        """How far that read moved the journal's game clocks (``replay_journal``'s shift)."""

    # -- opening --------------------------------------------------------------------------

    def open_new(self, now: float | None = None) -> None:
        """A table that has never been journaled: its journal starts in the lobby."""
        header = self._lobby_header()
        self.store.open_table_journal(self.table.id, header, now=now)
        self.book.play([("session", TableHeader.from_json(json.loads(json.dumps(header.to_json()))))], self.table.id)
        self._noted = self.table.state()

    def purse(self, name: str) -> str:
        """Whose money a seat plays with: the account of that name, a pool (``bot:Mitya``) as it is,
        a bot seat (``bot-Mitya``) its ``bot:Mitya`` pool, else a pool of the name (no account)."""
        if ":" in name or self.store.account(name) is not None:
            return name
        if is_bot(name):
            return f"bot:{name[len(BOT_PREFIX):]}"
        return f"player:{name}"

    def check_funds(self, name: str) -> None:
        """The table's zero rule for ``name`` (only accounts have a club balance to check)."""
        if self.store.account(name) is None:
            return
        check_funds(self.store.balance(name), self.table.game_cls.stake(self.table.options), self.table.allow_debt)

    def funds(self, name: str) -> int | None:
        """The club balance of an account now (every journaled change has paid already); None for a pool."""
        if self.store.account(name) is None:
            return None
        return self.store.balance(name)

    # -- writing (engine.table.journal.JournalPort) ---------------------------------------------------

    @property
    def gone(self) -> bool:
        """The store's file vanished: no write will succeed until the house restarts the club."""
        return bool(getattr(self.store, "gone", False))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One commit for one table operation; the table's own state is noted at its end, and what
        was written goes into the ``book`` once it is committed (never before)."""
        if self._writes is not None:  # inside another operation's: its commit is this one's
            yield
            return
        self._writes = []
        self._at_book = False  # the operation changes the table before its commit
        try:
            with self.store.batch():
                yield
                self._note_table()
                if self._telling:  # last, so a replica playing the entries one by one tells it on the new state
                    self._writer.append(self.table.id, TOLD_NOTE, encode_events(self._telling))
            self.book.play(self._writes, self.table.id)
        finally:
            self._writes = None
            self._telling = []

    def _wrote(self, what: str, value: Any) -> None:
        if self._writes is not None:
            self._writes.append((what, value))
        else:  # a write of its own, outside any operation: committed already
            self.book.play([(what, value)], self.table.id)

    def session_started(self, game: Game) -> None:
        """Before the session's first deal: its header (the old entries go)."""
        purses = [self.purse(n) for n in game.names]
        state = self.table.state()
        self._new_journal(header_of(game, purses, {"session": True, "table": state}))
        self.journal = TableJournal(self._writer, self.table.id, game, purses)
        self._noted = state
        self._since = (0, game.pot, [0] * game.n)

    def dealt(self, step: Step, now: float | None) -> None:
        self._journal().write(step, clock=now)
        self._record(final=False)

    def applied(self, step: Step, now: float | None) -> None:
        self._journal().write(step, clock=now)
        self._record(final=False)

    def ticked(self, step: Step, now: float | None) -> None:
        self._journal().write(step, clock=now)
        self._record(final=False)

    def told(self, events: Sequence[Event]) -> None:
        """What the operation shows once committed: journaled last in its transaction (``engine.table.told``)."""
        self._telling.extend(events)

    def revealed(self, deal_no: int, fair: Mapping[str, str]) -> None:
        """A sealed deal of this session ended: its ``fair`` (the seed now public), for a restored record."""
        self._writer.append(self.table.id, FAIR_NOTE, {"deal": deal_no, **fair})

    def session_over(self, game: Any) -> None:
        """A session ended (after the table booked it): keep what is not recorded yet, journal the lobby."""
        self._record(final=True, game=game)
        self._new_journal(self._lobby_header())
        self.journal = None
        self._noted = self.table.state()

    def _new_journal(self, header: TableHeader) -> None:
        """A new session's header (the old entries go), carrying the old journal's ``told`` notes of its
        last deal (or its lobby): a replica that has not read them yet reads them here."""
        entries = list(self.book.entries)
        for what, value in self._writes or []:
            entries = [] if what == "session" else entries + [value]
        last_deal = max((i for i, e in enumerate(entries) if e.kind == DEAL), default=-1)
        carried = [e.payload for e in entries[last_deal + 1:] if e.kind == TOLD_NOTE][-CARRIED:]
        self._writer.new_session(self.table.id, header)
        for payload in carried:
            self._writer.append(self.table.id, TOLD_NOTE, payload)

    def _record(self, final: bool, game: Any = None) -> None:
        """Save the deals since the last record when they end at a natural end (or the session does)."""
        game = game if game is not None else self.table.game
        first, pot, balances = self._since
        if game is None or game.in_deal or len(game.deals) <= first or not (final or game.natural_end()):
            return
        names = list(game.names)
        deals = [
            RecordDeal([list(d) for d in log.decks], [f"{names[seat]}: {action.text()}" for seat, action in log.actions],
                       dict(log.fair) if log.fair else None)
            for log in game.deals[first:]
        ]
        record = Record(game.name, names, dict(game.options), game.deals[first].dealer, pot, deals)
        purses = self.journal.purses if self.journal is not None else [self.purse(n) for n in names]
        accounts = {n: p for n, p in zip(names, purses) if ":" not in p}
        result = [now - then for now, then in zip(game.balances, balances or [0] * game.n)]
        watchers = sorted(self.table.watched - set(names))
        self.store.save_record(record, table_id=self.table.id, accounts=accounts, result=result, watchers=watchers)
        self.table.watched = set(self.table.spectators)  # the next record: who watches on, and who comes
        self._since = (len(game.deals), game.pot, list(game.balances))
        if not final:
            self._writer.append(self.table.id, RECORDED_NOTE,
                              {"deal": self._since[0], "pot": self._since[1], "balances": self._since[2]})

    def _journal(self) -> TableJournal:
        if self.journal is None or self.journal.game is not self.table.game:
            raise StoreError(f"table {self.table.id}: its journal lost track of the session", 70)
        return self.journal

    def _note_table(self) -> None:
        state = self.table.state()
        if state != self._noted:
            self._writer.append(self.table.id, TABLE_NOTE, state)
            self._noted = state

    def _lobby_header(self) -> TableHeader:
        table = self.table
        return TableHeader(
            game=table.game_name,
            options=dict(table.options),
            players=table.names(),
            dealer=table.state()["dealer"],
            pot=table.carried_pot,
            seats=[],
            extra={"session": False, "table": table.state()},
        )

    # -- reading back --------------------------------------------------------------------------

    @property
    def since(self) -> tuple[int, int, list[int]]:
        """Where the next record starts: the deal, the pot and the balances."""
        return self._since

    def read_recorded(self, payload: Mapping[str, Any]) -> None:
        """A ``recorded`` note read (a replica reading on): where the next record starts."""
        self._since = (int(payload["deal"]), int(payload["pot"]), [int(b) for b in payload["balances"]])

    def restore(self, live: LiveTable, now: float | None = None, *, tell: bool = True,
                entries: list[JournalEntry] | None = None) -> list[Event]:
        """Put the table back as its journal leaves it; ``StoreError`` if it does not replay.

        ``tell``: put the events of the deal in play back into the table's log,
        so a player back at his seat reads the story of the deal so far.
        Returns those events (a replica, ``engine.table.replica``, tells only the ones it has not told).
        ``entries``: the journal as read already (a replica's read made off the loop), else read here.
        """
        entries = self.store.journal(self.table.id) if entries is None else entries
        return self.install(replay(live, entries, now), tell=tell)

    def install(self, replayed: Replayed, *, tell: bool = True) -> list[Event]:
        """``restore`` with the journal replayed already (``replay``, in any thread): on the table's
        side only, no store call and no replay."""
        table, entries, restored = self.table, replayed.entries, replayed.restored
        self._since = replayed.since
        told = restored.told if restored is not None else []  # its ended sealed deals carry their ``fair``
        self.journal = restored.journal(self._writer) if restored is not None else None
        table.resume(replayed.state, restored.game if restored is not None else None, told if tell else [])
        self._noted = table.state()
        self.read_seq = entries[-1].seq if entries else 0
        self.book = Book(replayed.live, list(entries))
        self.read_state = replayed.state
        self._at_book = True
        clocks = [float(e.payload["clock"]) for e in entries if "clock" in e.payload]
        self.read_shift = replayed.now - max(clocks) if replayed.now is not None and clocks else 0.0
        return told

    def rebuild(self) -> None:
        """After a failed write: the table as its journal reads now (same process, same clock: no
        shift; the log is kept).  A store that cannot be read raises ``StoreError``, the table put
        back first as this keeper's last commit left it (``book``): the journal may hold one entry
        more (a commit whose answer was lost), so the table must not write on until this succeeds."""
        book, table_id = self.book, self.table.id
        try:
            live = {t.table_id: t for t in self.store.live_tables()}.get(table_id)
            if live is None:
                raise StoreError(f"table {table_id} has no journal to rebuild from", 70)
            newer = None
            if self._at_book and book.live is not None and header_key(live) == header_key(book.live):
                last = book.entries[-1].seq if book.entries else 0
                newer = self.store.journal(table_id, after=last)
                if not newer:
                    return  # the journal is what the table was put back to: nothing to replay
                if newer[0].seq != last + 1:
                    newer = None
            entries = list(book.entries) + newer if newer is not None else self.store.journal(table_id)
        except StoreError:
            if not self._at_book:  # put back once: a suspended table's next tries find it so already
                self.undo()
            raise
        self.restore(live, now=None, tell=False, entries=entries)

    def undo(self) -> None:
        """The table as this keeper's last commit left it, from memory (no store call)."""
        book = self.book
        if book.live is None:
            raise StoreError(f"table {self.table.id}: nothing committed is known to put it back to", 70)
        self.restore(book.live, now=None, tell=False, entries=list(book.entries))


@dataclass(frozen=True)
class Replayed:
    """A table's journal replayed into a fresh game, nothing of the table touched (``replay``)."""

    live: LiveTable
    entries: list[JournalEntry]
    state: dict[str, Any]
    since: tuple[int, int, list[int]]
    restored: RestoredTable | None  # None between sessions
    now: float | None


def replay(live: LiveTable, entries: list[JournalEntry], now: float | None) -> Replayed:
    """The journal replayed (``StoreError`` if it does not): pure, so a replica's reader thread makes
    it and the loop only installs it (``TableKeeper.install``); a long session's replay never holds the loop."""
    state = dict(live.header.extra.get("table", {}))
    since: tuple[int, int, list[int]] = (0, live.header.pot, [0] * len(live.header.players))
    for entry in entries:
        if entry.kind == TABLE_NOTE:
            state = dict(entry.payload)
        elif entry.kind == RECORDED_NOTE:
            p = entry.payload
            since = (int(p["deal"]), int(p["pot"]), [int(b) for b in p["balances"]])
    restored = replay_journal(live, entries, clock=now) if live.header.extra.get("session") else None
    return Replayed(live, list(entries), state, since, restored, now)


def header_key(live: LiveTable) -> str:
    """A session's header as one comparable text: a new one means a new journal session."""
    return json.dumps(live.header.to_json(), sort_keys=True, default=str)


__all__ = ["NotEnoughMoney", "TableKeeper"]
