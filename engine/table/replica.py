"""A replica: a table another node owns, kept as its journal says.

A node keeps a replica of every table of the club it does not own, so that the sessions it holds
draw their views and spectator renders locally; nothing hidden travels between nodes, only the
journal (in the shared store) and notices of its sequence numbers.  ``sync`` rebuilds the table
from its journal (``TableKeeper.restore``, the restart's own path, so a replica is exactly what
a restarted owner would be) and tells the table's subscribers only what they have not heard:

* seat and readiness changes (the ``table`` note against what the replica had): ``stand``,
  ``sit``, ``table_ready``;
* the draw for the table's first dealer (R3/R33, the lot of the first deal's sealed seed), and
  the events of the deal in play past those already told (the game's own, replayed, so the
  same events the owner's players saw, in the same order);
* ``deal_over`` when the deal in play has ended (with ``fair_open``, its seed now public, from
  the journal's ``fair`` note), ``fair_seal`` when the next deal's seal is new, and
  ``session_over`` when the owner began a new session (its last action is then gone from the
  journal with the old session: the money it moved is told from the table's money, as the
  owner told it).

A read is incremental: only the entries after the last one read (``Store.journal(after=…)``) are
played on the replica's game, from the state the last read left (its ``table`` note, its clock
shift), exactly as ``replay_journal`` plays them; a new session (a new header), a gap in the
sequence numbers, or anything that does not play on is read again from the start
(``TableKeeper.restore``), which is the truth either way (``rebuilds`` counts those).  A read is
two halves: ``fetch`` reads the store (in any thread, on its own connection: the node's reader,
off the event loop) and ``apply`` plays what it read on the loop, with no store call; ``sync`` is
both at once.

What is not in the journal (chat, away/back, the rail) the owner relays over the bus.  The replica
never writes: its table is a ``RemoteTable`` (``engine.table.remote``) that sends every change to the
owner, and its ``deadline()`` is None (the owner runs the clocks and the bots).  Pure: no asyncio, no clock read (``now`` comes in).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.botnames import is_bot
from engine.game import Event
from engine.table.keeper import FAIR_NOTE, RECORDED_NOTE, TABLE_NOTE, TableKeeper
from engine.playback import play
from engine.store.base import ACTION, DEAL, TICK, JournalEntry, LiveTable, journal_moves

if TYPE_CHECKING:
    from engine.store.base import Store
    from engine.table.owner import Table


class Read(NamedTuple):
    """One read of the store for a replica (``Replica.fetch``): its live table (None: closed), its
    header as compared, the last seq read before (-1: read from the start) and the entries read."""

    live: LiveTable | None
    header: str
    after: int
    entries: list[JournalEntry]


class Replica:
    """Keeps ``table`` (a table this node does not own) as the store's journal leaves it."""

    def __init__(self, store: Store, table: Table):
        self.store = store
        self.table = table
        self.reader = TableKeeper(store, table)  # restore only: a replica never writes
        self._header: str | None = None
        self._deal: tuple[str, int] | None = None
        self._told = 0
        self._over: tuple[str, int] | None = None
        self._seal: str | None = None
        self._deal_told: list[Event] = []  # the events of the deal in play so far, as the last read left them
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

    def fetch(self, store: Store | None = None, *, from_start: bool = False) -> Read:
        """What the store has that this replica has not read (any thread, ``store`` its connection;
        nothing of the replica changes): the entries after the last read, or all of them for a new
        session's header, a gap, or ``from_start``.  ``StoreError`` if the store cannot be read."""
        store = store if store is not None else self.store
        table_id = self.table.id
        live = next((t for t in store.live_tables() if t.table_id == table_id), None)
        if live is None:
            return Read(None, "", -1, [])
        header = json.dumps(live.header.to_json(), sort_keys=True, default=str)
        after = self.reader.read_seq
        if not from_start and self._header is not None and header == self._header:
            entries = store.journal(table_id, after=after)
            if not entries or entries[0].seq == after + 1:
                return Read(live, header, after, entries)
        return Read(live, header, -1, store.journal(table_id))

    def apply(self, read: Read, now: float | None = None, *, tell: bool = True) -> list[Event] | None:
        """On the loop, no store call: ``read`` (``fetch``'s) played on the replica, the subscribers told
        what changed (returned).  None when the journal must be read from its start (``read`` began
        before another was applied, or does not play on): nothing changed then."""
        table = self.table
        live, header = read.live, read.header
        if live is None:
            return []
        if read.after >= 0 and (read.after != self.reader.read_seq or header != self._header):
            return None  # stale: another read was applied since this one began
        self._live = live
        first = self._header is None
        before_seats, before_ready = list(table.seats), set(table.ready)
        before_money = dict(table.money)
        drawn_before = table.first_drawn
        old = table.game
        old_in_deal = old is not None and old.in_deal
        old_balances = list(old.balances) if old is not None else []
        if read.after < 0:
            told = self.reader.restore(live, now, tell=False, entries=read.entries)
            self.rebuilds += 1
        else:
            played = self._play_on(read.entries)
            if played is None:
                return None
            told = played
        self._deal_told = told
        self.syncs += 1
        events: list[Event] = []
        new_session = not first and header != self._header
        if new_session and old is not None:
            events += self._session_over(old, old_in_deal, old_balances, before_money)
        game = table.game
        deal = (header, len(game.deals) if game is not None else 0)
        if not first:
            dealt = game is not None and deal != self._deal and deal[1] > 0
            events += self._seat_changes(before_seats, before_ready, dealt)
        fresh = told if deal != self._deal else told[self._told:]
        if not first and not drawn_before and table.first_drawn and table.sealed is not None:
            # R3/R33: the table's first dealer was drawn by lot from this deal's sealed seed: the same draw
            events += table.game_cls.draw_first_dealer(len(table.seats), table.sealed.lot())[1]
        events += fresh
        self._header, self._deal, self._told = header, deal, len(told)
        if game is not None and game.deals and not game.in_deal and self._over != deal:
            self._over = deal
            last = game.deals[-1]
            events.append(Event("deal_over", None, {"money": {game.names[i]: last.money[i] for i in range(game.n)},
                                                    "pot": game.pot}))
            if last.fair:
                events.append(Event("fair_open", None, {k: last.fair[k] for k in ("seal", "seed", "cut")}))
        seal = table.sealed.seal if table.sealed is not None else None
        if not first and seal is not None and seal != self._seal:
            events.append(Event("fair_seal", None, {"seal": seal}))
        self._seal = seal
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

    def _play_on(self, entries: list[JournalEntry]) -> list[Event] | None:
        """The entries after the last read, played on (the deal's events so far returned); None when
        the journal must be read from its start (a gap, or what does not play on)."""
        reader, table = self.reader, self.table
        if not entries:
            return self._deal_told
        if entries[0].seq != reader.read_seq + 1:
            return None  # a gap: entries lost to a new session, or never seen
        game = table.game
        if game is None and any(e.kind in (DEAL, ACTION, TICK) for e in entries):
            return None
        state = reader.read_state
        for entry in entries:
            if entry.kind == TABLE_NOTE:
                state = dict(entry.payload)
            elif entry.kind == RECORDED_NOTE:
                reader.read_recorded(entry.payload)
        told = list(self._deal_told)
        if game is not None:
            clocks = [float(e.payload["clock"]) for e in entries if "clock" in e.payload]
            clock = max(clocks) + reader.read_shift if clocks else None  # the last read's shift, kept
            try:
                for step in play(game, journal_moves(entries, clock=clock)):
                    told = list(step.events) if step.kind == DEAL else told + list(step.events)
            except Exception:  # what does not play on is read from the start (and refused there if bad)
                return None
            for note in entries:
                if note.kind == FAIR_NOTE and 0 < int(note.payload.get("deal", 0)) <= len(game.deals):
                    game.deals[int(note.payload["deal"]) - 1].fair = {
                        k: str(note.payload[k]) for k in ("protocol", "seal", "seed", "cut")}
        table.resume(state, game, ())
        reader.read_state, reader.read_seq = state, entries[-1].seq
        return told

    def _seat_changes(self, seats: list[str | None], ready: set[str], dealt: bool) -> list[Event]:
        """``dealt``: a deal began, so the last to say ``start`` is no longer in the ready set (cleared)."""
        table = self.table
        out: list[Event] = []
        for seat, (was, now) in enumerate(zip(seats, table.seats)):
            if was != now and was:
                out.append(Event("stand", seat, {"name": was}))
            if was != now and now:
                out.append(Event("sit", seat, {"name": now}))
        now_ready = {n for n in table.seated() if not is_bot(n)} if dealt else table.ready
        for name in sorted(now_ready - ready, key=lambda n: table.seat_of(n) or 0):
            out.append(Event("table_ready", table.seat_of(name), {"name": name}))
        return out

    def _session_over(self, old: Any, in_deal: bool, balances: list[int], money: dict[str, int]) -> list[Event]:
        """The owner ended a session: what it told, from the money the table booked."""
        table = self.table
        gained = {n: table.money.get(n, 0) - money.get(n, 0) for n in old.names}
        out: list[Event] = []
        if in_deal:
            out.append(Event("deal_over", None, {"money": {n: gained[n] - b for n, b in zip(old.names, balances)},
                                                 "pot": table.carried_pot}))
        out.append(Event("session_over", None, {"balances": gained}))
        return out
