"""A replica: a table another node owns, kept as its journal says.

A node keeps a replica of every table of the club it does not own, so that the sessions it holds
draw their views and spectator renders locally; nothing hidden travels between nodes, only the
journal (in the shared store) and notices of its sequence numbers.  ``sync`` plays the journal's
moves on the replica's table (``TableKeeper.restore``, the restart's own path, so a replica is
exactly what a restarted owner would be) and tells the table's subscribers what the owner told its
own: each committed operation ends with a ``told`` note (``engine.table.told``) holding the events
the owner showed once it committed, and the replica tells those notes it has not told yet, as
they are.  It works nothing out by comparing the table before and after.

A read is incremental: only the entries after the last one read (``Store.journal(after=…)``) are
played on the replica's game, from the state the last read left (its ``table`` note, its clock
shift), exactly as ``replay_journal`` plays them; a new session (a new header), a gap in the
sequence numbers, or anything that does not play on is read again from the start
(``TableKeeper.restore``), which is the truth either way (``rebuilds`` counts those).  Each note
has an id: one read again, or carried into a new session's journal, is told once.  A read is two
halves: ``fetch`` reads the store (in any thread, on its own connection: the node's reader, off the
event loop) and ``apply`` plays what it read on the loop, with no store call; ``sync`` is both at once.

What is not in the journal (chat, away/back, the rail) the owner relays over the bus.  The replica
never writes: its table is a ``RemoteTable`` (``engine.table.remote``) that sends every change to the
owner, and its ``deadline()`` is None (the owner runs the clocks and the bots).  Pure: no asyncio, no clock read (``now`` comes in).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NamedTuple

from engine.game import Event
from engine.table.keeper import FAIR_NOTE, RECORDED_NOTE, TABLE_NOTE, Replayed, TableKeeper, header_key, replay
from engine.table.told import CARRIED, TOLD_NOTE, decode_events, note_id
from engine.playback import play
from engine.store.base import ACTION, DEAL, TICK, JournalEntry, LiveTable, journal_moves, restored_as_played

if TYPE_CHECKING:
    from engine.store.base import Store
    from engine.table.owner import Table

log = logging.getLogger("sukno.replica")


class Read(NamedTuple):
    """One read of the store for a replica (``Replica.fetch``): its live table (None: closed), its
    header as compared, the last seq read before (-1: read from the start), the entries read, and
    (read from the start) the journal replayed where it was read."""

    live: LiveTable | None
    header: str
    after: int
    entries: list[JournalEntry]
    replayed: Replayed | None = None


class Replica:
    """Keeps ``table`` (a table this node does not own) as the store's journal leaves it."""

    def __init__(self, store: Store, table: Table):
        self.store = store
        self.table = table
        self.reader = TableKeeper(store, table)  # restore only: a replica never writes
        self._header: str | None = None
        self._heard: dict[str, None] = {}  # the ids of the last ``told`` notes told (or passed when primed), in order
        self._live: LiveTable | None = None  # the live table as the last read applied found it
        self.followed = 0
        """Entries played straight from their notice (``follow``), with no read of the store."""
        self.syncs = 0
        self.rebuilds = 0
        """Reads from the journal's start (the first, a new session, a gap); the others read on."""

    def prime(self, now: float | None = None) -> None:
        """The first reading, telling nothing: the table's log already has its story (the club's restore,
        or this node owned the table until now)."""
        self.sync(now, tell=False)

    def sync(self, now: float | None = None, *, tell: bool = True) -> list[Event]:
        """Read the journal again; tell the subscribers what changed (the events, also returned).
        ``StoreError`` if it cannot be read or does not replay (the replica is left as it was)."""
        events = self.apply(self.fetch(), now, tell=tell)
        if events is None:
            events = self.apply(self.fetch(from_start=True), now, tell=tell)
        return events or []

    def fetch(self, store: Store | None = None, *, from_start: bool = False, now: float | None = None) -> Read:
        """What the store has that this replica has not read (any thread, ``store`` its connection;
        nothing of the replica changes): the entries after the last read, or all of them for a new
        session's header, a gap, or ``from_start`` (replayed here too when ``now`` is given, so the
        loop only installs the game).  ``StoreError`` if the store cannot be read or does not replay."""
        store = store if store is not None else self.store
        table_id = self.table.id
        live = next((t for t in store.live_tables() if t.table_id == table_id), None)
        if live is None:
            return Read(None, "", -1, [])
        header = header_key(live)
        after = self.reader.read_seq
        if not from_start and self._header is not None and header == self._header:
            entries = store.journal(table_id, after=after)
            if not entries or entries[0].seq == after + 1:
                return Read(live, header, after, entries)
        entries = store.journal(table_id)
        return Read(live, header, -1, entries, replay(live, entries, now) if now is not None else None)

    def apply(self, read: Read, now: float | None = None, *, tell: bool = True) -> list[Event] | None:
        """On the loop, no store call: ``read`` (``fetch``'s) played on the replica, the subscribers told
        what the owner told that they have not heard (returned).  None when the journal must be read
        from its start (``read`` began before another was applied, or does not play on): nothing changed then."""
        table = self.table
        live, header = read.live, read.header
        if live is None:
            return []
        if read.after >= 0 and (read.after != self.reader.read_seq or header != self._header):
            return None  # stale: another read was applied since this one began
        read_before = self.reader.read_seq if header == self._header else 0  # a gap's read: those are told
        if read.after < 0:
            self.reader.install(read.replayed or replay(live, read.entries, now), tell=False)
            self.rebuilds += 1
        elif not self._play_on(read.entries):
            return None
        self._live = live
        self.syncs += 1
        first = self._header is None
        events: list[Event] = []
        for entry in read.entries:
            if entry.kind != TOLD_NOTE or entry.seq <= read_before:
                continue
            heard = note_id(entry.payload, f"{header}:{entry.seq}")
            if heard in self._heard:
                continue  # told already: carried into a new session's journal, or read again after a gap
            self._heard[heard] = None
            try:
                events += [] if first else decode_events(entry.payload)
            except (ValueError, TypeError, KeyError) as err:  # one bad note costs its words, never the table
                log.warning("table %s: journal entry %s cannot be told: %s", table.id, entry.seq, err)
        while len(self._heard) > 2 * CARRIED:
            del self._heard[next(iter(self._heard))]
        self._header = header
        if tell:
            table.tell(events, now)
        return events

    def follows(self, seq: int) -> bool:
        """Would the entry ``seq`` play on from the last read (``follow``)?"""
        return self._live is not None and self._header is not None and seq == self.reader.read_seq + 1

    def follow(self, entry: JournalEntry, now: float | None = None) -> list[Event] | None:
        """On the loop, no store call: the entry that ``follows`` the last one read, as its notice carried
        it (``engine.store.postgres.ENTRY_CHANNEL``), played on as a read of it would be; the subscribers told.
        None when it does not play on (the game may be part-played then): read from the start."""
        if not self.follows(entry.seq):
            return None
        assert self._live is not None and self._header is not None
        events = self.apply(Read(self._live, self._header, self.reader.read_seq, [entry]), now)
        if events is not None:
            self.followed += 1
        return events

    def _play_on(self, entries: list[JournalEntry]) -> bool:
        """The entries after the last read, played on; False when the journal must be read from its
        start (a gap, or what does not play on)."""
        reader, table = self.reader, self.table
        if not entries:
            return True
        if entries[0].seq != reader.read_seq + 1:
            return False  # a gap: entries lost to a new session, or never seen
        game = table.game
        if game is None and any(e.kind in (DEAL, ACTION, TICK) for e in entries):
            return False
        state = reader.read_state
        for entry in entries:
            if entry.kind == TABLE_NOTE:
                state = dict(entry.payload)
            elif entry.kind == RECORDED_NOTE:
                reader.read_recorded(entry.payload)
        if game is not None:
            clocks = [float(e.payload["clock"]) for e in entries if "clock" in e.payload]
            clock = max(clocks) + reader.read_shift if clocks else None  # the last read's shift, kept
            try:
                for _ in play(game, journal_moves(entries, clock=clock)):
                    pass
            except Exception:  # what does not play on is read from the start (and refused there if bad)
                return False
            for note in entries:
                if note.kind == FAIR_NOTE and 0 < int(note.payload.get("deal", 0)) <= len(game.deals):
                    game.deals[int(note.payload["deal"]) - 1].fair = {
                        k: str(note.payload[k]) for k in ("protocol", "seal", "seed", "cut")}
        table.resume(state, game, ())
        reader.read_state, reader.read_seq = state, entries[-1].seq
        reader.book.entries += entries  # the session whole, as a takeover's owner needs it (``as_replayed``)
        return True

    def as_replayed(self) -> Replayed | None:
        """The journal as read so far, as a replay of it would leave a fresh game, made from this
        replica's own game with no replay (a takeover's owner installs it): None when the replica
        has read no session, or its game runs on a live clock (Спекулянт's windows), which a
        takeover replays at its own time so an open window gets back the time the takeover took."""
        reader, live, game = self.reader, self._live, self.table.game
        if live is None or game is None or game.clocked or reader.book.live is None:
            return None
        entries = reader.book.entries
        if (entries[-1].seq if entries else 0) != reader.read_seq:
            return None
        restored = restored_as_played(live, entries, game)
        return Replayed(live, list(entries), dict(reader.read_state), reader.since, restored, None)
