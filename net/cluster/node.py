"""One node of a club served by several ``sukno serve --node NAME`` processes.

Every node holds every table of the club in memory, each either **owned** or a **replica**:

* **Owned**: this node holds the table's lease (``engine.store.postgres``: an epoch that fences every
  journal and money write); it applies actions, runs the clocks and bots, and journals, exactly as
  a lone ``sukno serve``.  The leases are renewed every ``ttl / 3`` s by a thread with its own
  connection, off the event loop, so a busy loop cannot lose them; a lease found taken over
  turns the table into a replica.  On shutdown the leases are released (another node takes the
  tables over at once).
* **Replica** (``engine.table.replica``): another node owns it; this node keeps it as the journal says,
  advanced by the journal's notices (``NOTIFY sukno_journal``, sent in the journal's own
  transaction: only committed entries), and draws its sessions' views and spectator renders from
  it (``net.cluster.follow``).  It is an ``engine.table.remote.RemoteTable``: every change (sit,
  stand, start, act, say, cut, away, back…) goes to the owner over **the bus** and returns at once
  an ``engine.table.pending.Pending``: the loop never waits for another node.

The bus is ``NOTIFY sukno_bus`` with small JSON texts (no card is ever in one), each a typed message
of ``net.cluster.wire``:

* ``call`` and ``reply``: a change sent to the owner of ``table`` and its answer (``net.cluster.calls``).
* ``event`` {table, node, kind, seat, data}: public table events that are not in the journal
  (chat, away and back, a stand-in taking over, a clock run out, the rail's summary), told to the
  replicas' watchers and players; a replica's felt follows who is away and whom a stand-in plays
  for (``Table.mirror``).  A replica just made asks ``away?`` {table, from} and the owner answers
  ``away`` {table, to, away, stand_ins}: the state as it stands.
* ``rail`` {table, node, name, text}: a watcher's words on the rail during a deal (said on any
  node, they are the owner's: ``say`` is a call), told to every replica's watchers.
* ``opened`` {table, node}: a table opened at runtime on ``node`` (``sukno admin open``), its lease
  taken there first: every other node reads its journal, adds it (``Club.adopt``) and keeps it as a
  replica, so it can be watched and sat at from any node.  A node that missed the notice learns it
  from the leases its thread reads (a live lease of a table it does not know).  A table closed by
  its owner lets its lease go (``net.cluster.clubwide`` tells the others to drop it).
* ``owner`` {table, node}: a node took a table over; the others tell it which of its players are
  online with them (``back``), so nobody's stand-in plays for a player who is here.

Who is online on which node is not told here: the store's presence rows are its one truth
(``net.cluster.presence``, read off the loop and kept in ``Club.elsewhere``, so ``is_online`` — the
felt's "away", the stand-ins, ``who`` — is club-wide); this module only sends the hint that a
node's rows changed (``NOTIFY sukno_presence``) so the others read them at once.

**Failover**: the renewing thread also looks at every lease, and again just after the soonest end
of a lease it replicates; one of this club's tables whose lease expired (its owner killed, paused,
cut off) is taken over (``net.cluster.takeover``): a new epoch, the replica's own game read on to
the journal's end and owned as it is (a game on a live clock, or a replica that cannot read on, is
replayed from its journal with its clocks shifted as a restart does), its seated players not
online here made *away* (their grace runs; one who comes back to any node gets his seat back), the
dead owner's sessions no longer taken for online (its presence rows outlive it by a few seconds).
A node that wakes after a pause to find its lease taken over turns the table into a replica at its
thread's next look (≤ ``ttl / 3``); a move made there before that is refused by the epoch's fence
("could not write that down"), never applied.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any, Callable

from engine.game import Event, IllegalAction
from engine.table.remote import make_remote
from engine.table.replica import Replica
from engine.store.base import StoreError
from engine.table.owner import TableError
from net.cluster.notices import MAX_PAYLOAD, NoticeError, Notices, undo_all
from net.cluster.calls import CALL_TIMEOUT, OwnerCalls, serve_call
from net.cluster.follow import ReplicaReads
from net.cluster.takeover import take
from net.cluster.wire import (HOUSE_MESSAGES, AwayAsked, AwayState, BusError, Call, Message, NewOwner, Opened, Rail,
                              Reply, TableNews, decode, encode)

log = logging.getLogger("sukno.cluster")

BUS_CHANNEL = "sukno_bus"
JOURNAL_CHANNEL = "sukno_journal"
ENTRY_CHANNEL = "sukno_entry"
"""Each committed entry itself (``engine.store.postgres.ENTRY_CHANNEL``): a replica plays it at once, no read."""
LEASE_TTL = 3.0
"""Seconds a lease lasts unless renewed: how long a dead owner's tables wait for a new owner."""
RELAYED = ("say", "away", "stepped_away", "back", "stand_in", "gone", "timeout", "rail_summary", "suspended",
           "resumed")
"""Public table events that are not in the journal: the owner tells the replicas."""


class Node:
    """This process's part of the club: its leases, its replicas, its end of the bus."""

    def __init__(self, name: str, store: Any, url: str, *, ttl: float = LEASE_TTL,
                 call_timeout: float = CALL_TIMEOUT) -> None:
        self.name = name
        self.store = store
        self.url = url
        self.ttl = ttl
        self.call_timeout = call_timeout
        self.club: Any = None
        self.notices = Notices(url)
        self.owned: dict[Any, int] = {}
        self.poke: Callable[[], None] = lambda: None
        """Wakes the club's clock (``Runtime``) after a takeover: the table has deadlines again."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self.follow = ReplicaReads(name, store, self._now)
        """Keeps the replicas as their journals say (``net.cluster.follow``)."""
        self.replicas: dict[Any, Replica] = self.follow.replicas
        self.calls = OwnerCalls(name, self._send, self.follow, ttl=ttl, call_timeout=call_timeout)
        """This node's changes sent to the owners of its replicas (``net.cluster.calls``)."""
        self._unreplayable: set[Any] = set()  # tables whose takeover found a journal that did not replay
        self._relays: dict[Any, Callable[[], None]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._taking: set[Any] = set()
        self.takeovers = 0
        self._leases_seen: dict[Any, tuple[str, int]] = {}
        self._learning: set[Any] = set()  # tables of a live lease this node did not know, being learnt
        self.presence: Any = None
        """This node's ``net.cluster.presence.PresenceKeeper`` once the server runs (``attach_presence``)."""
        self._offs: list[Callable[[], None]] = []

    # -- starting and stopping ---------------------------------------------------------------

    async def start_notices(self) -> None:
        """Listen before the tables are read, so no committed change falls between the two."""
        self._loop = self.follow.loop = asyncio.get_running_loop()
        self.notices.on(ENTRY_CHANNEL, self.follow.entry_notice)
        self.notices.on(JOURNAL_CHANNEL, self.follow.journal_notice)
        self.notices.on(JOURNAL_CHANNEL, self.calls.heard_from_owner)
        self.notices.on(BUS_CHANNEL, self._bus_notice)
        self.notices.on_gap(self.follow.resync_all)
        self.notices.on_gap(self.calls.silent.clear)  # the bus is back: every owner may be asked again
        await self.notices.start()
        if self.store is not None:
            self.follow.reads.start()

    def claim(self, club: Any, now: float) -> None:
        """Take the lease of every table of ``club`` nobody holds; keep the others as replicas.
        Run under ``store.nodes_starting()``, with the club made under the same lock."""
        self.club = club
        club.numbers_taken = self._numbers_taken
        self._offs.append(club.subscribe(self._club_changed))
        for table_id, table in list(club.tables.items()):
            epoch = self.store.acquire_lease(table_id, self.name, self.ttl)
            if epoch is not None:
                self._own(table_id, epoch)
            else:
                self._replicate(table_id, now)
        log.info("node %s: owns tables %s; replicas of %s", self.name, sorted(self.owned, key=str),
                 sorted(self.replicas, key=str))

    def _numbers_taken(self) -> list[int]:
        """Every table number a node of the club ever leased (a table opened here takes a new one)."""
        try:
            return [t for t in self.store.leases() if isinstance(t, int)]
        except StoreError as err:
            log.warning("node %s: the leases could not be read for a new table's number: %s", self.name, err)
            return []

    def _club_changed(self, events: list[Event]) -> None:
        """A table opened here (``sukno admin open``) is ours and the others hear of it; one closed here
        lets its lease go.  Events heard from another node (``node`` in the data) are not ours."""
        for event in events:
            data = event.data or {}
            table_id = data.get("table")
            if "node" in data or not isinstance(table_id, int):
                continue
            if event.kind == "table_open" and table_id not in self.owned and table_id not in self.replicas:
                self._opened_here(table_id)
            elif event.kind == "table_close" and table_id in self.owned:
                self.owned.pop(table_id, None)
                unsubscribe = self._relays.pop(table_id, None)
                if unsubscribe is not None:
                    unsubscribe()
                try:
                    self.store.release_lease(table_id)
                except StoreError as err:
                    log.warning("node %s: lease of closed table %s not released: %s", self.name, table_id, err)

    def _opened_here(self, table_id: int) -> None:
        try:
            epoch = self.store.acquire_lease(table_id, self.name, self.ttl)
        except StoreError as err:
            epoch = None
            log.error("node %s: table %s opened here but its lease was not taken: %s", self.name, table_id, err)
        if epoch is None:
            log.error("node %s: table %s opened here is leased by another node; not told to the others",
                      self.name, table_id)
            return
        self._own(table_id, epoch)
        log.info("node %s: opened table %s (epoch %d); telling the other nodes", self.name, table_id, epoch)
        self._send_quietly(Opened(table_id, self.name))

    def _learn(self, table_id: Any, node: str | None = None) -> None:
        """On the loop: a table another node opened: read its journal, add it, keep it as a replica.
        (Its number stays in ``_learning``: numbers are never reused, so the thread never asks again.)"""
        self._learning.add(table_id)
        club = self.club
        if club is None or not isinstance(table_id, int) or table_id in club.tables:
            return
        try:
            live = next((t for t in self.store.live_tables() if t.table_id == table_id), None)
            if live is None:
                return  # closed meanwhile (or never journaled)
            now = self._now()
            club.adopt(live, now, node=str(node or "elsewhere")[:64])
        except (StoreError, TableError, KeyError, TypeError, ValueError) as err:
            log.error("node %s: table %s opened by node %s could not be read: %s", self.name, table_id, node,
                      getattr(err, "message", err))
            return
        self._replicate(table_id, now)
        log.info("node %s: table %s opened by node %s is kept here as a replica", self.name, table_id, node)

    def attach_presence(self, keeper: Any) -> None:
        """The server's presence keeper: after a beat that changed its rows, this node hints the others,
        and a hint of another node's makes it read the rows at once."""
        from net.cluster.presence import HINT_CHANNEL

        self.presence = keeper

        def hint() -> None:  # in the keeper's thread
            try:
                self.notices.notify(HINT_CHANNEL, self.name[:64])
            except NoticeError as err:
                log.warning("node %s: the other nodes were not told who is online here changed: %s", self.name, err)

        keeper.hint = hint
        self._offs.append(self.notices.on(HINT_CHANNEL, lambda payload: payload == self.name[:64]
                                          or keeper.read_soon()))

    def start_renewing(self) -> None:
        self._thread = threading.Thread(target=self._renew_loop, name="sukno leases", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """Stop renewing, let every lease go (another node takes the tables at once), stop listening."""
        self._stop.set()
        for off in self._offs:
            off()
        self._offs = []
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join, 5)
        await asyncio.get_running_loop().run_in_executor(None, self.follow.reads.stop, 5.0)
        for table_id in list(self.owned):
            try:
                self.store.release_lease(table_id)
            except StoreError as err:
                log.warning("node %s: lease of table %s not released: %s", self.name, table_id, err)
        self.owned.clear()
        self.calls.log_figures()
        self.follow.log_figures()
        await self.notices.stop()

    # -- owned tables and replicas -------------------------------------------------------------

    def _own(self, table_id: Any, epoch: int) -> None:
        self.owned[table_id] = epoch
        table = self.club.tables[table_id]
        self._relays[table_id] = undo_all([table.subscribe(lambda events: self._relay(table_id, events)),
                                           table.rail.subscribe(lambda events: self._relay_rail(table_id, events))])

    def _replicate(self, table_id: Any, now: float | None) -> None:
        """The table's log has its story already (the club's restore, or our own play until now).
        ``now`` None: primed by a read in the reader's thread rather than here."""
        table = self.club.tables[table_id]
        make_remote(table, lambda change: self.calls.call(table_id, change))  # a replica never writes
        replica = Replica(self.store, table)
        self.replicas[table_id] = replica
        if now is None:  # read (and replayed) in the reader's thread; its first read tells nothing
            self.follow.read(table_id, from_start=True)
        else:
            try:
                replica.prime(now)
            except StoreError as err:
                self.follow.read_later(table_id, getattr(err, "message", str(err)))
        self._send_quietly(AwayAsked(table_id, self.name))  # who is away there now

    def _lost(self, table_id: Any) -> None:
        """On the loop: our lease of ``table_id`` was taken over; the table is a replica now."""
        if self.owned.pop(table_id, None) is None:
            return
        unsubscribe = self._relays.pop(table_id, None)
        if unsubscribe is not None:
            unsubscribe()
        log.warning("node %s: the lease of table %s was taken over; it is a replica now", self.name, table_id)
        self._replicate(table_id, None)  # a long session's replay is not made on the loop

    def _take(self, table_id: Any, holder: str | None = None) -> None:
        """On the loop: take over a table whose lease expired (its owner died or was cut off)."""
        take(self, table_id, holder)

    # -- the bus: what the other nodes say ----------------------------------------------------------

    def _bus_notice(self, payload: str) -> None:
        """On the loop: a call for a table we own, an event for a replica, a new owner."""
        try:
            message = decode(payload)
        except BusError as err:
            log.warning("node %s: a bus notice dropped: %s", self.name, err)
            return
        if isinstance(message, HOUSE_MESSAGES):
            return  # about no table: the house's (net.cluster.housewide)
        table_id, club = message.table, self.club
        if isinstance(message, Reply):
            if message.to == self.name:
                self.calls.answered(message)
        elif isinstance(message, Call):
            if table_id in self.owned:
                serve_call(club, self.name, message, self._now(), self._send)
        elif isinstance(message, TableNews):
            if table_id in self.replicas and message.node != self.name:
                club.tables[table_id].mirror([Event(message.kind, message.seat, message.data)])
        elif isinstance(message, Rail):
            if table_id in self.replicas and message.node != self.name:
                club.tables[table_id].hear_rail(message.name, message.text)
        elif isinstance(message, AwayAsked):
            table = club.tables.get(table_id) if table_id in self.owned else None
            if table is not None:
                away = table.away_now()
                self._send_quietly(AwayState(table_id, message.sender, tuple(away),
                                             tuple(n for n in table.bots() if n in away)))
        elif isinstance(message, AwayState):
            if table_id in self.replicas and message.to == self.name:
                club.tables[table_id].mirror([Event("away", None, {"name": n}) for n in message.away]
                                             + [Event("stand_in", None, {"name": n}) for n in message.stand_ins],
                                             tell=False)
        elif isinstance(message, Opened):
            if message.node != self.name:
                self._learn(table_id, message.node)
        elif isinstance(message, NewOwner) and message.node != self.name and table_id in self.replicas:
            self._owner_changed(club.tables.get(table_id))

    def _owner_changed(self, table: Any) -> None:
        """Another node took a table over: it hears which of its players are online here."""
        for name in table.seated() if table is not None else []:
            if self.club.is_online(name) and not self.club.is_away(name):
                try:
                    table.back(name)
                except IllegalAction:
                    pass

    def _relay(self, table_id: Any, events: list[Event]) -> None:
        """An owned table's public events that are not in its journal, told to the other nodes."""
        for event in events:
            if event.kind in RELAYED:
                try:
                    self._send(TableNews(table_id, self.name, event.kind, event.seat,
                                         json.loads(json.dumps(dict(event.data), default=str))))
                except NoticeError as err:
                    log.warning("node %s: an event of table %s was not relayed: %s", self.name, table_id, err)

    def _relay_rail(self, table_id: Any, events: list[Event]) -> None:
        """An owned table's rail (its watchers' words during a deal), told to the other nodes' watchers."""
        for event in events:
            data = event.data or {}
            if event.kind == "rail" and isinstance(data.get("name"), str):
                self._send_quietly(Rail(table_id, self.name, data["name"], str(data.get("text", ""))[:1000]))

    def _send_quietly(self, message: Message) -> None:
        try:
            self._send(message)
        except NoticeError as err:
            log.warning("node %s: a %s notice was not sent: %s", self.name, message.t, err)

    def _send(self, message: Message, failed: Callable[[str], None] | None = None) -> None:
        """Posted to the notices' sending thread (in order): the loop never waits for PostgreSQL.
        ``NoticeError`` at once if it is too long; ``failed(reason)`` later if it could not be sent."""
        text = encode(message)
        if len(text.encode()) > MAX_PAYLOAD:
            raise NoticeError("that is too long to send to another node")
        self.notices.post(BUS_CHANNEL, text, failed)

    # -- the leases' thread ----------------------------------------------------------------------

    def _renew_loop(self) -> None:
        from engine.store.postgres import PgStore

        own: PgStore | None = None
        every = self.ttl / 3
        wait = 0.0
        while not self._stop.wait(wait):
            wait = every
            try:
                if own is None:
                    own = PgStore(self.url, statement_timeout=every, connect_timeout=every, role="leases")
                for table_id, epoch in list(self.owned.items()):
                    if not own.renew_for(table_id, self.name, epoch, self.ttl):
                        self._hand(self._lost, table_id)
                leases = own.leases()
                wait = _next_look(leases, self.replicas, every)
                for table_id, (holder, epoch, left) in leases.items():
                    if (left > 0 and holder != self.name and table_id not in self.replicas
                            and table_id not in self.owned and table_id not in self._learning
                            and self.club is not None and table_id not in self.club.tables):
                        self._learning.add(table_id)  # opened elsewhere, its notice missed: learn it
                        self._hand(self._learn, table_id, holder)
                    if table_id not in self.replicas:
                        continue
                    if left <= 0:
                        self.calls.silent[table_id] = time.monotonic() + every * 2  # nobody to ask now
                        if table_id not in self._taking:
                            self._taking.add(table_id)
                            self._hand(self._take, table_id, holder)
                    elif self._leases_seen.get(table_id) != (holder, epoch):
                        self._leases_seen[table_id] = (holder, epoch)
                        self.calls.silent.pop(table_id, None)  # a new owner: ask it
            except StoreError as err:
                log.warning("node %s: leases not renewed: %s", self.name, err)
                if own is not None and own.reachable() is not None:
                    own.close()
                    own = None
                    self._stop.wait(every)
                wait = every
        if own is not None:
            own.close()

    def _hand(self, function: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(function, *args)
            except RuntimeError:
                pass

    def _now(self) -> float:
        return time.monotonic()  # the tables' clock (asyncio's loop.time() is the same)


EXPIRY_MARGIN = 0.02
"""Seconds after a lease's end that its replica looks again: the database's clock decides, so a look
exactly at the end may still find it held."""


def _next_look(leases: dict[Any, tuple[str, int, float]], replicas: Any, every: float) -> float:
    """When the leases' thread looks next: after ``every`` (the renewal round), or just after the
    soonest end of a lease this node replicates, if that comes first, so a dead owner's tables are
    taken over as its lease ends, not up to a round later."""
    ends = [left for table_id, (_, _, left) in leases.items() if table_id in replicas and left > 0]
    return min([every] + [left + EXPIRY_MARGIN for left in ends])
