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
  it.  Its ``Table.remote`` sends every change (sit, stand, start, act, say, cut, away, back…) to
  the owner over **the bus** and returns at once an ``engine.table.pending.Pending``: the loop never
  waits for another node.

The bus is ``NOTIFY sukno_bus`` with small JSON texts (no card is ever in one):

* ``call`` {id, from, table, op, args}: the owner of ``table`` applies it through the club's door
  and the engine, on its loop, and answers with ``reply`` {id, to, ok, result | key, message,
  params}: done, or the usual refusal (its catalogue key, so the player reads it in his language).
  The caller's loop goes on meanwhile; the reply, heard on the loop, first brings the replica up
  to date from the journal, then settles the call's ``Pending`` (so the screen that asked shows
  what it did).  No answer in ``CALL_TIMEOUT`` settles it as a refusal (``cluster.no_answer``, a
  timer on the loop), e.g. while an owner that died is being replaced; a late answer is dropped.
  Whoever asked (``tui.pending`` for the screens, the hall door and the text mode; the watchers,
  the bot protocol and the admin) keeps each person's commands in order: one typed after a
  pending one runs when the first is answered.
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

**Failover**: the renewing thread also looks at every lease; one of this club's tables whose
lease expired (its owner killed, paused, cut off) is taken over on the loop: a new epoch, the
table restored from its journal with its clocks shifted as a restart does, its seated players not
online here made *away* (their grace runs; one who comes back to any node gets his seat back), the
dead owner's sessions no longer taken for online (its presence rows outlive it by a few seconds).
A node that wakes after a pause to find its lease taken over turns the table into a replica at its
thread's next look (≤ ``ttl / 3``); a move made there before that is refused by the epoch's fence
("could not write that down"), never applied.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import statistics
import threading
import time
from collections import deque
from typing import Any, Callable, NamedTuple

from engine.game import Event, IllegalAction
from engine.table.keeper import TableKeeper
from engine.table.pending import Calls, Pending
from engine.table.replica import Replica
from engine.store.base import JournalEntry, StoreError
from engine.table.owner import TableError
from net.cluster.notices import MAX_PAYLOAD, NoticeError, Notices
from net.ssh.offloop import StoreThread

log = logging.getLogger("sukno.cluster")

BUS_CHANNEL = "sukno_bus"
JOURNAL_CHANNEL = "sukno_journal"
ENTRY_CHANNEL = "sukno_entry"
"""Each committed entry itself (``engine.store.postgres.ENTRY_CHANNEL``): a replica plays it at once, no read."""
LEASE_TTL = 3.0
"""Seconds a lease lasts unless renewed: how long a dead owner's tables wait for a new owner."""
REREAD = 1.0
"""Seconds between reads of a replica whose last read failed (the store away, or what did not replay)."""
CALL_TIMEOUT = 2.0
"""How long a change sent to a table's owner may go unanswered (``[node] call_timeout``); nobody
waits meanwhile.  A table whose owner did not answer, or whose lease has run out, refuses at once
until the leases show an owner again."""
ANSWER_SHARE = 0.75
"""The share of ``call_timeout`` within which the owner must begin a call (``until``, wall clock):
a call that reaches it later (it was paused, or slow) is refused, never applied, since its sender
may have said "nothing happened" already; the rest of the time is for the answer's way back.
It compares wall clocks: the nodes' clocks must agree to well within that (NTP keeps them so)."""
QUIET_OPS = ("away", "back")
"""Calls the club makes itself (a session ends or begins): a refusal is logged, never raised."""
RELAYED = ("say", "away", "stepped_away", "back", "stand_in", "gone", "timeout", "rail_summary", "suspended",
           "resumed")
"""Public table events that are not in the journal: the owner tells the replicas."""
OPS = ("sit", "sit_bot", "stand", "set_rule", "invite", "say", "start", "cut", "act", "away", "back")


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
        self.replicas: dict[Any, Replica] = {}
        self.poke: Callable[[], None] = lambda: None
        """Wakes the club's clock (``Runtime``) after a takeover: the table has deadlines again."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._calls = itertools.count(1)
        self._waiting: Calls[_Call] = Calls()  # the calls waiting for their answer, each settled once (the loop)
        self._dirty: dict[Any, int] = {}  # replica → the highest journal seq heard of since its last read
        self._heard: dict[Any, int] = {}  # replica → the highest journal seq heard of (0: a new session began)
        self._flush_due = False
        self.reads = StoreThread(store, "sukno replicas", every=3600.0)
        """Reads the replicas' journals on a connection of its own, off the loop (``Replica.fetch``)."""
        self._reading: set[Any] = set()  # replicas whose read is in flight
        self._reread: set[Any] = set()  # replicas heard of again meanwhile: read again after it
        self._waiters: dict[Any, list[Callable[[], None]]] = {}  # run after the next read of a replica
        self._unread: dict[Any, str] = {}  # replicas whose last read failed (why): read again, from the start
        self._reread_due: set[Any] = set()  # … with their next read already timed
        self._unreplayable: set[Any] = set()  # tables whose takeover found a journal that did not replay
        self._relays: dict[Any, Callable[[], None]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._taking: set[Any] = set()
        self.takeovers = 0
        self.round_trips: deque[float] = deque(maxlen=10_000)
        """Seconds from sending each call to its answer (the bus alone: what a move across nodes adds)."""
        self._silent: dict[Any, float] = {}  # replica → refused at once until then (its owner did not
        # answer, or its lease ran out)
        self._leases_seen: dict[Any, tuple[str, int]] = {}
        self._learning: set[Any] = set()  # tables of a live lease this node did not know, being learnt
        self.presence: Any = None
        """This node's ``net.cluster.presence.PresenceKeeper`` once the server runs (``attach_presence``)."""
        self._offs: list[Callable[[], None]] = []

    # -- starting and stopping ---------------------------------------------------------------

    async def start_notices(self) -> None:
        """Listen before the tables are read, so no committed change falls between the two."""
        self._loop = asyncio.get_running_loop()
        self.notices.on(ENTRY_CHANNEL, self._entry_notice)
        self.notices.on(JOURNAL_CHANNEL, self._journal_notice)
        self.notices.on(BUS_CHANNEL, self._bus_notice)
        self.notices.on_gap(self._resync_all)
        await self.notices.start()
        if self.store is not None:
            self.reads.start()

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
        self._send_quietly({"t": "opened", "table": table_id, "node": self.name})

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
        await asyncio.get_running_loop().run_in_executor(None, self.reads.stop, 5.0)
        for table_id in list(self.owned):
            try:
                self.store.release_lease(table_id)
            except StoreError as err:
                log.warning("node %s: lease of table %s not released: %s", self.name, table_id, err)
        self.owned.clear()
        if self.round_trips:
            times = sorted(t * 1000 for t in self.round_trips)
            log.info("node %s: %d calls to other nodes, round trip p50 %.1f ms, p99 %.1f ms", self.name, len(times),
                     statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))])
        if self.replicas:
            log.info("node %s: replicas' entries played from their notices %d, journal reads %d", self.name,
                     sum(r.followed for r in self.replicas.values()), sum(r.syncs for r in self.replicas.values())
                     - sum(r.followed for r in self.replicas.values()))
        await self.notices.stop()

    # -- owned tables and replicas -------------------------------------------------------------

    def _own(self, table_id: Any, epoch: int) -> None:
        self.owned[table_id] = epoch
        table = self.club.tables[table_id]
        offs = [table.subscribe(lambda events, tid=table_id: self._relay(tid, events)),
                table.rail.subscribe(lambda events, tid=table_id: self._relay_rail(tid, events))]
        self._relays[table_id] = lambda: [off() for off in offs] and None

    def _replicate(self, table_id: Any, now: float | None) -> None:
        """The table's log has its story already (the club's restore, or our own play until now)."""
        table = self.club.tables[table_id]
        table.keeper = None  # a replica never writes
        table.remote = lambda op, *args, tid=table_id: self.call(tid, op, *args)
        replica = Replica(self.store, table)
        self.replicas[table_id] = replica
        try:
            replica.prime(now)
        except StoreError as err:
            self._read_later(table_id, getattr(err, "message", str(err)))
        self._send_quietly({"t": "away?", "table": table_id, "from": self.name})  # who is away there now

    def _lost(self, table_id: Any) -> None:
        """On the loop: our lease of ``table_id`` was taken over; the table is a replica now."""
        if self.owned.pop(table_id, None) is None:
            return
        unsubscribe = self._relays.pop(table_id, None)
        if unsubscribe is not None:
            unsubscribe()
        log.warning("node %s: the lease of table %s was taken over; it is a replica now", self.name, table_id)
        self._replicate(table_id, self._now())

    def _take(self, table_id: Any, holder: str | None = None) -> None:
        """On the loop: take over a table whose lease expired (its owner died or was cut off)."""
        self._taking.discard(table_id)
        if holder is not None and holder != self.name and self.presence is not None:
            self.presence.forget_node(holder)  # its sessions are gone with it (they come back to any node)
        if table_id in self.owned or table_id not in self.replicas or self.club is None:
            return
        try:
            epoch = self.store.acquire_lease(table_id, self.name, self.ttl)
        except StoreError as err:
            log.warning("node %s: cannot take table %s over: %s", self.name, table_id, err)
            return
        if epoch is None:
            return
        now = self._now()
        table = self.club.tables[table_id]
        live = next((t for t in self.store.live_tables() if t.table_id == table_id), None)
        keeper = TableKeeper(self.store, table)
        try:
            if live is not None:
                keeper.restore(live, now, tell=False)  # the clocks shifted as a restart does
        except StoreError as err:
            if table_id not in self._unreplayable:  # tried again at each look at the leases: said once
                self._unreplayable.add(table_id)
                log.error("node %s: table %s taken but its journal does not replay: %s", self.name, table_id, err)
            self.store.release_lease(table_id)
            return
        self._unreplayable.discard(table_id)
        del self.replicas[table_id]
        self._silent.pop(table_id, None)
        table.remote = None
        table.keeper = keeper
        self._own(table_id, epoch)
        self.takeovers += 1
        table.restart_clocks(now)  # a bot or a turn clock restarts from now
        for name in table.seated():
            if not self.club.is_robot(name) and not self.club.is_online(name):
                table.away(name, now)  # the grace runs; back on any node gives the seat back
        log.warning("node %s: took table %s over (epoch %d)", self.name, table_id, epoch)
        self._send_quietly({"t": "owner", "table": table_id, "node": self.name})
        self.poke()

    # -- the bus: calls to an owner --------------------------------------------------------------

    def call(self, table_id: Any, op: str, *args: Any) -> Pending | None:
        """On the loop, for a replica: send ``op`` to the owner and return at once its ``Pending``
        (never waits: the loop goes on serving every other session).  A table whose owner did not
        answer lately refuses at once (``TableError``).  The quiet calls (away, back: the club's own)
        return None; their refusal is logged."""
        try:
            pending = self._call(table_id, op, *args)
        except TableError as err:
            if op not in QUIET_OPS:
                raise
            self._quiet_refusal(table_id, op, args, err)
            return None
        if op in QUIET_OPS:
            pending.then(None, lambda err: self._quiet_refusal(table_id, op, args, err))
            return None
        return pending

    def _quiet_refusal(self, table_id: Any, op: str, args: tuple[Any, ...], err: IllegalAction) -> None:
        log.warning("node %s: %s of %s at table %s not told to its owner: %s", self.name, op, args[0] if args else "",
                    table_id, getattr(err, "message", err))

    def _call(self, table_id: Any, op: str, *args: Any) -> Pending:
        if self._silent.get(table_id, 0.0) > time.monotonic():
            raise _no_answer()
        call_id = f"{self.name}:{next(self._calls)}"
        until = round(time.time() + self.call_timeout * ANSWER_SHARE, 3)  # after that the owner refuses it
        message = {"t": "call", "id": call_id, "from": self.name, "table": table_id, "op": op, "args": list(args),
                   "until": until}
        pending = Pending(op)
        loop = self._loop or asyncio.get_running_loop()
        timer = loop.call_later(self.call_timeout, self._expire, call_id)
        self._waiting.open(call_id, pending, _Call(pending, table_id, op, time.perf_counter(), timer))
        try:
            self._send(message, failed=lambda _reason: self._unsent(call_id))
        except NoticeError:  # too long for a notice: never sent
            self._waiting.take(call_id)
            timer.cancel()
            raise _no_answer() from None
        return pending

    def _unsent(self, call_id: str) -> None:
        """On the loop: the call could not be sent (the database unreachable): refused, nothing done."""
        call = self._waiting.refuse(call_id, _no_answer())  # unless it was answered first
        if call is not None:
            call.timer.cancel()

    def _expire(self, call_id: str) -> None:
        """On the loop: no answer in ``call_timeout``; the call is refused (a late answer is dropped)."""
        call = self._waiting.refuse(call_id, _no_answer())  # unless its answer came first
        if call is None:
            return
        self._silent[call.table_id] = time.monotonic() + self.ttl  # or until a new owner shows

    def _answered(self, message: dict[str, Any]) -> None:
        """On the loop: the owner's answer to one of our calls.  The replica is brought up to date from
        the journal first, so whoever asked shows what the call did."""
        taken = self._waiting.take(message.get("id"))
        call = taken[1] if taken is not None else None
        if call is None:  # answered after its time ran out: refused already; but the owner lives
            table_id = message.get("table")
            if table_id in self.replicas:
                self._silent.pop(table_id, None)
            if message.get("ok"):  # the owner began it in time (``until``) but its answer came too late
                log.warning("node %s: call %s on table %s was done by its owner after its time here ran out "
                            "(its journal shows it)", self.name, str(message.get("id"))[:40], table_id)
            return
        call.timer.cancel()
        self.round_trips.append(time.perf_counter() - call.sent)
        replica = self.replicas.get(call.table_id)
        if replica is not None and message.get("ok") and self._behind(call.table_id, replica):
            # what the owner did, on this node's screens before "done": after the replica's next read
            self._after_read(call.table_id, lambda: self._settle(call, message))
            return
        self._settle(call, message)

    def _settle(self, call: _Call, message: dict[str, Any]) -> None:
        """The call's pending settled as the owner answered: done with its result, or its refusal."""
        if not message.get("ok"):
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            call.pending.refuse(TableError(str(message.get("key") or "cluster.failed"),
                                           str(message.get("message") or ""), **params))
            return
        try:
            value = _result(call.op, message.get("result"))
        except (TypeError, ValueError):
            call.pending.refuse(TableError("cluster.failed",
                                           "That could not be done on the node that runs this table."))
            return
        call.pending.resolve(value)

    def _bus_notice(self, payload: str) -> None:
        """On the loop: a call for a table we own, an event for a replica, a new owner."""
        try:
            message = json.loads(payload)
        except ValueError:
            return
        kind = message.get("t")
        table_id = message.get("table")
        if kind == "reply":
            if message.get("to") == self.name:
                self._answered(message)
        elif kind == "call" and table_id in self.owned:
            self._serve(message)
        elif kind == "event" and table_id in self.replicas and message.get("node") != self.name:
            data = message.get("data") if isinstance(message.get("data"), dict) else {}
            seat = message.get("seat") if isinstance(message.get("seat"), int) else None
            self.club.tables[table_id].mirror([Event(str(message.get("kind")), seat, data)])
        elif kind == "rail" and table_id in self.replicas and message.get("node") != self.name:
            name, text = message.get("name"), message.get("text")
            if isinstance(name, str) and isinstance(text, str) and 0 < len(name) <= 64 and name.isprintable():
                self.club.tables[table_id].hear_rail(name, text[:1000])
        elif kind == "away?" and table_id in self.owned and isinstance(message.get("from"), str):
            table = self.club.tables.get(table_id)
            if table is not None:
                self._send_quietly({"t": "away", "table": table_id, "to": message["from"], "away": table.away_now(),
                                    "stand_ins": [n for n in table.bots() if n in table.away_now()]})
        elif kind == "away" and table_id in self.replicas and message.get("to") == self.name:
            names = [n for n in message.get("away") or [] if isinstance(n, str)]
            stand_ins = [n for n in message.get("stand_ins") or [] if isinstance(n, str)]
            self.club.tables[table_id].mirror([Event("away", None, {"name": n}) for n in names]
                                              + [Event("stand_in", None, {"name": n}) for n in stand_ins], tell=False)
        elif kind == "opened" and message.get("node") != self.name and isinstance(message.get("node"), str):
            self._learn(table_id, message["node"])
        elif kind == "owner" and message.get("node") != self.name and self.club is not None:
            table = self.club.tables.get(table_id)
            if table is not None and table_id in self.replicas:
                for name in table.seated():
                    if self.club.is_online(name) and not self.club.is_away(name):
                        try:
                            table.back(name)
                        except IllegalAction:
                            pass

    def _serve(self, message: dict[str, Any]) -> None:
        """The owner's side of a call: through the club's door and the engine, then the answer."""
        table_id, op, args = message["table"], message.get("op"), message.get("args")
        reply: dict[str, Any] = {"t": "reply", "id": message.get("id"), "to": message.get("from"), "table": table_id}
        try:
            if op not in OPS or not isinstance(args, list):
                raise TableError("cluster.failed", "That could not be done on the node that runs this table.")
            until = message.get("until")
            if isinstance(until, (int, float)) and time.time() > until:  # this node was paused, or slow:
                log.warning("node %s: a call %s from %s on table %s came too late; refused", self.name, op,
                            message.get("from"), table_id)
                raise _no_answer()  # its sender told "nothing happened" already: so nothing happens
            reply["result"] = _encode(op, self._apply(table_id, op, args))
            reply["ok"] = True
        except IllegalAction as err:
            reply.update(ok=False, key=err.key, message=err.message,
                         params=json.loads(json.dumps(err.params, default=str)))
        except Exception:
            log.exception("node %s: a call %s on table %s failed", self.name, op, table_id)
            reply.update(ok=False, key="cluster.failed",
                         message="That could not be done on the node that runs this table.", params={})
        try:
            self._send(reply)
        except NoticeError as err:
            log.warning("node %s: the answer to %s was not sent: %s", self.name, message.get("from"), err)

    def _apply(self, table_id: Any, op: str, args: list[Any]) -> Any:
        club, now = self.club, self._now()
        table = club.table(table_id)
        if op == "sit":
            return club.sit(str(args[0]), table_id, _seat(args[1]))
        if op == "sit_bot":
            return club.sit_bot(table_id, _seat(args[0]))
        if op == "stand":
            return club.stand(str(args[0]), table_id)
        if op == "start":
            return table.start(str(args[0]), now)
        if op == "act":
            return table.act(str(args[0]), str(args[1]), now)
        if op == "away":
            return table.away(str(args[0]), now, str(args[1]))
        if op == "back":
            return table.back(str(args[0]), now)
        if op == "say":
            return table.say(str(args[0]), str(args[1]))
        if op == "cut":
            return table.cut(str(args[0]), str(args[1]))
        if op == "set_rule":
            return table.set_rule(str(args[0]), str(args[1]), args[2])
        return table.invite(str(args[0]), str(args[1]))

    def _relay(self, table_id: Any, events: list[Event]) -> None:
        """An owned table's public events that are not in its journal, told to the other nodes."""
        for event in events:
            if event.kind in RELAYED:
                try:
                    self._send({"t": "event", "table": table_id, "node": self.name, "kind": event.kind,
                                "seat": event.seat, "data": json.loads(json.dumps(dict(event.data), default=str))})
                except NoticeError as err:
                    log.warning("node %s: an event of table %s was not relayed: %s", self.name, table_id, err)

    def _relay_rail(self, table_id: Any, events: list[Event]) -> None:
        """An owned table's rail (its watchers' words during a deal), told to the other nodes' watchers."""
        for event in events:
            data = event.data or {}
            if event.kind == "rail" and isinstance(data.get("name"), str):
                self._send_quietly({"t": "rail", "table": table_id, "node": self.name, "name": data["name"],
                                    "text": str(data.get("text", ""))[:1000]})

    def _send_quietly(self, message: dict[str, Any]) -> None:
        try:
            self._send(message)
        except NoticeError as err:
            log.warning("node %s: a %s notice was not sent: %s", self.name, message.get("t"), err)

    def _send(self, message: dict[str, Any], failed: Callable[[str], None] | None = None) -> None:
        """Posted to the notices' sending thread (in order): the loop never waits for PostgreSQL.
        ``NoticeError`` at once if it is too long; ``failed(reason)`` later if it could not be sent."""
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        if len(text.encode()) > MAX_PAYLOAD:
            raise NoticeError("that is too long to send to another node")
        self.notices.post(BUS_CHANNEL, text, failed)

    # -- notices of the journal ---------------------------------------------------------------

    def _behind(self, table_id: Any, replica: Replica) -> bool:
        """Does the replica need a read before an answer is shown?  The journal notice of what the
        owner did is committed, so heard, before its answer (PostgreSQL delivers notices in commit
        order); a replica that has read past every notice heard (the burst's read came first) has it."""
        heard, dirty = self._heard.get(table_id, 0), self._dirty.get(table_id)
        return heard == 0 or dirty == 0 or replica.reader.read_seq < max(heard, dirty or 0)

    def _entry_notice(self, payload: str) -> None:
        """On the loop: a committed entry itself, heard just before its ``sukno_journal`` notice: a
        replica it follows plays it at once, with no read; that notice then finds the
        replica has it.  Not while a read is in flight or a full read is due (a new session): the read
        brings it.  What does not play on is read from the start."""
        try:
            head, text = payload.split("\n", 1)
            tid_text, seq_text, at_text, kind = head.rsplit(" ", 3)
            table_id, seq, at = json.loads(tid_text), int(seq_text), float(at_text)
        except ValueError:
            return
        replica = self.replicas.get(table_id)
        if replica is None or table_id in self._reading or self._dirty.get(table_id) == 0 \
                or not replica.follows(seq):
            return
        try:
            entry = JournalEntry(seq, at, kind, json.loads(text))
        except ValueError:
            return
        if not isinstance(entry.payload, dict):
            return
        try:
            told = replica.follow(entry, self._now())
        except Exception:
            log.exception("node %s: entry %d of table %s did not play on its replica", self.name, seq, table_id)
            told = None
        if told is None:
            self._read(table_id, from_start=True)

    def _journal_notice(self, payload: str) -> None:
        """On the loop: a committed journal entry; replicas of that table read the journal (once per burst)."""
        try:
            text, seq_text = payload.rsplit(" ", 1)
            table_id, seq = json.loads(text), int(seq_text)
        except ValueError:
            return
        if table_id in self.replicas:
            self._heard[table_id] = max(self._heard.get(table_id, 0), seq) if seq > 0 else 0
            # seq 0 (a new session) or -1 (closed): always read; else the highest heard of (a read
            # that has it already, e.g. the one made for our own call's answer, makes it no news)
            self._dirty[table_id] = max(self._dirty.get(table_id, 0), seq) if seq > 0 and \
                self._dirty.get(table_id, 1) > 0 else 0
            if not self._flush_due and self._loop is not None:
                self._flush_due = True
                self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        dirty, self._dirty = self._dirty, {}
        for table_id, seq in dirty.items():
            replica = self.replicas.get(table_id)
            if replica is not None and (seq <= 0 or seq > replica.reader.read_seq):
                self._read(table_id, from_start=seq <= 0)

    def _after_read(self, table_id: Any, then: Callable[[], None]) -> None:
        """On the loop: ``then()`` once a read of ``table_id``'s replica begun from now is applied."""
        self._waiters.setdefault(table_id, []).append(then)
        self._read(table_id)

    def _read(self, table_id: Any, from_start: bool = False) -> None:
        """On the loop: read the replica's journal in the reader's thread, apply it here when read (one
        read in flight per replica; one asked meanwhile follows it).  The loop never waits for it."""
        replica = self.replicas.get(table_id)
        if replica is None:
            for then in self._waiters.pop(table_id, []):
                then()
            return
        if table_id in self._reading:
            self._reread.add(table_id)
            return
        self._reading.add(table_id)
        waiters = self._waiters.pop(table_id, [])
        read = self.reads.run(lambda own: replica.fetch(own, from_start=from_start))
        read.add_done_callback(lambda done: self._read_done(table_id, replica, done, waiters))

    def _read_done(self, table_id: Any, replica: Replica, done: asyncio.Future[Any],
                   waiters: list[Callable[[], None]]) -> None:
        self._reading.discard(table_id)
        if self.replicas.get(table_id) is replica and not done.cancelled():
            error = done.exception()
            try:
                if error is not None:
                    raise error
                if replica.apply(done.result(), self._now()) is None:  # stale, or does not play on
                    self._waiters.setdefault(table_id, [])[:0] = waiters
                    self._reread.discard(table_id)
                    self._read(table_id, from_start=True)
                    return
                if self._unread.pop(table_id, None) is not None:
                    log.warning("node %s: replica of table %s read again", self.name, table_id)
            except (StoreError, TableError) as err:
                self._read_later(table_id, getattr(err, "message", str(err)))
            except Exception as err:
                log.exception("node %s: replica of table %s not applied", self.name, table_id)
                self._read_later(table_id, str(err))
        if table_id in self._reread or self._waiters.get(table_id):
            self._reread.discard(table_id)
            self._read(table_id)
        for then in waiters:
            try:
                then()
            except Exception:
                log.exception("node %s: what waited for a read of table %s failed", self.name, table_id)

    def _read_later(self, table_id: Any, why: str) -> None:
        """A replica that could not be read, or whose journal did not replay: it never stops there; it
        reads the table again from the journal's start every ``REREAD`` s until it does (logged once)."""
        if table_id not in self._unread:
            log.warning("node %s: replica of table %s not read (read again every %.0f s until it is): %s",
                        self.name, table_id, REREAD, why)
        self._unread[table_id] = why
        if self._loop is not None and table_id not in self._reread_due:
            self._reread_due.add(table_id)

            def again() -> None:
                self._reread_due.discard(table_id)
                if table_id in self._unread and table_id in self.replicas:
                    self._read(table_id, from_start=True)

            self._loop.call_later(REREAD, again)

    def _resync_all(self) -> None:
        """The listener came back after a lost connection: notices may have been missed."""
        self._dirty.update(dict.fromkeys(self.replicas, 0))
        self._flush()

    # -- the leases' thread ----------------------------------------------------------------------

    def _renew_loop(self) -> None:
        from engine.store.postgres import PgStore

        own: PgStore | None = None
        every = self.ttl / 3
        while not self._stop.wait(0 if own is None else every):
            try:
                if own is None:
                    own = PgStore(self.url, statement_timeout=every, connect_timeout=every)
                for table_id, epoch in list(self.owned.items()):
                    if not own.renew_for(table_id, self.name, epoch, self.ttl):
                        self._hand(self._lost, table_id)
                for table_id, (holder, epoch, left) in own.leases().items():
                    if (left > 0 and holder != self.name and table_id not in self.replicas
                            and table_id not in self.owned and table_id not in self._learning
                            and self.club is not None and table_id not in self.club.tables):
                        self._learning.add(table_id)  # opened elsewhere, its notice missed: learn it
                        self._hand(self._learn, table_id, holder)
                    if table_id not in self.replicas:
                        continue
                    if left <= 0:
                        self._silent[table_id] = time.monotonic() + every * 2  # nobody to ask now
                        if table_id not in self._taking:
                            self._taking.add(table_id)
                            self._hand(self._take, table_id, holder)
                    elif self._leases_seen.get(table_id) != (holder, epoch):
                        self._leases_seen[table_id] = (holder, epoch)
                        self._silent.pop(table_id, None)  # a new owner: ask it
            except StoreError as err:
                log.warning("node %s: leases not renewed: %s", self.name, err)
                if own is not None and own.reachable() is not None:
                    own.close()
                    own = None
                    self._stop.wait(every)
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


class _Call(NamedTuple):
    """A call sent to a table's owner, its answer not yet in."""

    pending: Pending
    table_id: Any
    op: str
    sent: float
    timer: asyncio.TimerHandle


def _no_answer() -> TableError:
    return TableError("cluster.no_answer", "The node that runs this table did not answer; "
                      "nothing happened. Try again in a few seconds.")


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _encode(op: str, result: Any) -> Any:
    """A call's result as JSON: events as their kinds and seats (no data: the journal has it)."""
    if op in ("start", "act"):
        return [[e.kind, e.seat] for e in result or []]
    return result if isinstance(result, (int, str, bool)) or result is None else None


def _result(op: str, value: Any) -> Any:
    if op in ("start", "act"):
        return [Event(str(k), s if isinstance(s, int) else None, {}) for k, s in (value or [])]
    if op == "sit":
        return int(value)
    if op == "sit_bot":
        return str(value)
    return value
