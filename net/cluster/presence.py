"""Who is online on which node, kept in the store: every node sees the whole club.

Each node writes its own sessions (name, guest, address, key, where, language, when it last typed)
to the store's ``presence`` rows and beats every ``BEAT`` seconds (``Store.beat``: only the rows
that changed since the last beat are written, so a quiet club costs one small write per beat).  A
node that dies stops beating: after ``WITHIN`` seconds its sessions drop out of ``presence`` on
every other node, and its rows are deleted later (``FORGET_NODE``).  A node that stops cleanly
takes its rows with it (``leave``).

**The rows are the one truth of who is online elsewhere** (not a second account over the bus): each
node reads them back every beat and keeps them (``others``) for ``Club.elsewhere`` (so
``is_online``, the felt's "away", the stand-ins and ``who`` are club-wide), the watcher counts,
and ``sukno admin sessions`` (with the node's name and its idle time).  After a beat that changed
a row, a node sends a hint (``NOTIFY sukno_presence``, no data) so the others read at once instead
of at their next beat; a missed hint costs at most one beat.

No store call is made on the event loop (``net.ssh.offloop``): the loop takes a snapshot of its
sessions (memory only) every beat and when someone arrives or leaves; a thread with its own store
connection writes it and reads the club's rows, handed back to the loop.  A slow store delays who
is online elsewhere, never a session.

Everything shown comes from the session's own state, bounded to the store's limits
(``engine.store.base.PRESENCE_LIMITS``); nothing a client typed is kept but its name.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any, Callable

from engine.store.base import PRESENCE_LIMITS, Presence, StoreError
from net.ssh.offloop import StoreThread

log = logging.getLogger("sukno.presence")

BEAT = 2.0
"""Seconds between two heartbeats of a node."""
LONE_BEAT = 60.0
"""A server alone (no ``--node``) beats this seldom when nothing changed: only it reads its rows."""
WITHIN = 10.0
"""A node silent this long is taken for dead: its sessions are no longer shown (≥ a few beats)."""
SETTLE = 0.1
"""Seconds an arrival's snapshot waits, so that a burst of arrivals (twenty connecting at once) is
one snapshot, not one of every session per arrival on the loop."""
HINT_CHANNEL = "sukno_presence"
"""A node's rows changed: read them now (the payload is the node's name, nothing else)."""


def node_name(config: Any) -> str:
    """This node's name (``--node NAME`` when given; one process alone is ``main``)."""
    return str(getattr(config, "node", "") or "main")


def place_of(server: Any, session: Any) -> str:
    """Where a session is, in the words ``sessions`` shows: hall, a seat, or a table watched."""
    if session.watching is not None:
        return f"watching {session.watching}"
    table = server.club.where(session.name) if session.name else None
    if table is not None:
        return f"table {table.id} seat {table.seat_of(session.name) + 1}"
    watched = server.club.watching(session.name) if session.name else []
    return f"watching {watched[0].id}" if watched else "hall"


def _cut(text: Any, field: str) -> str:
    """``text`` bounded to its field, anything unprintable shown as ``?`` (the usual printable text is
    not looked at character by character: a snapshot cuts six fields of every session)."""
    limit = PRESENCE_LIMITS[field]
    shown = str(text)[:limit]
    return shown if shown.isprintable() else "".join(ch if ch.isprintable() else "?" for ch in shown)


def watchers(rows: list[Presence]) -> dict[int, int]:
    """Watchers per table among presence rows (place ``watching N``)."""
    counts: dict[int, int] = {}
    for row in rows:
        word = row.place.removeprefix("watching ")
        if word != row.place and word.isdigit():
            counts[int(word)] = counts.get(int(word), 0) + 1
    return counts


def watcher_names(rows: list[Presence]) -> dict[int, set[str]]:
    """Who watches each table among presence rows (place ``watching N``)."""
    names: dict[int, set[str]] = {}
    for row in rows:
        word = row.place.removeprefix("watching ")
        if word != row.place and word.isdigit():
            names.setdefault(int(word), set()).add(row.name)
    return names


class PresenceKeeper:
    """This node's sessions to the store and every node's back, on a thread of its own (see above)."""

    def __init__(self, server: Any, store: Any, node: str) -> None:
        self.server = server
        self.store = store
        self.node = _cut(node, "node")
        self._published: dict[str, Presence] = {}  # the thread's: what the store has of this node
        self._ids: dict[int, str] = {}  # id(session) → its presence id, while it lives
        self._made: dict[int, tuple[tuple[Any, ...], Presence]] = {}  # id(session) → what its row was made of, the row
        self._count = 0
        self._task: asyncio.Task[None] | None = None
        self._failing = False
        self._beat_at = -LONE_BEAT
        self._pending: dict[str, Presence] | None = None  # the loop's last snapshot, not yet written
        self._pending_lock = threading.Lock()
        self._cleared = False
        self._others: list[Presence] = []  # every other live node's sessions, as last read
        self._dead: dict[str, float] = {}  # nodes taken for dead here (a lease taken over) → until
        self._off: list[Callable[[], None]] = []
        self._settling: asyncio.TimerHandle | None = None  # an arrival's snapshot, waiting ``SETTLE``
        self.reads = 0
        self.hint: Callable[[], None] | None = None
        """Called in the thread after a beat that changed a row (a node sends ``HINT_CHANNEL``)."""
        self._thread = StoreThread(store, "sukno presence", BEAT)
        self._thread.add("presence beat", self._write)
        if self._several():
            self._thread.add("who is online elsewhere", self._read, self._heard)
        self._thread.final = lambda own: own.leave_presence(self.node)

    def _several(self) -> bool:
        """One node of several (``--node NAME``): it beats every ``BEAT`` and reads the others."""
        return getattr(self.server, "node", None) is not None or bool(getattr(self.server.config, "node", ""))

    def _sid(self, session: Any) -> str:
        key = id(session)
        if key not in self._ids:
            self._count += 1
            self._ids[key] = str(self._count)
        return self._ids[key]

    def rows(self) -> dict[str, Presence]:
        """This node's sessions now, as rows (the ones with a name: a session still at the door has none).

        A session's row is made again only when something it is made of changed (its place, its
        last key, its name…): a beat with a thousand watchers otherwise cut six fields and built a
        row for each, ≈ 33 ms on the loop every ``BEAT``; now it looks at each and
        reuses its row (``tests/bench/presence_bench.py``)."""
        now_wall, now = time.time(), time.monotonic()
        out: dict[str, Presence] = {}
        made = self._made
        kept: dict[int, tuple[tuple[Any, ...], Presence]] = {}
        server = self.server
        for session in list(server.sessions):
            if session.closed or not session.name:
                continue
            key = id(session)
            conn = session.conn
            parts = (session.name, session.guest, conn.peer, conn.fingerprint, place_of(server, session),
                     session.lang, session.started, getattr(session, "last_input", session.started))
            known = made.get(key)
            if known is not None and known[0] == parts:
                row = known[1]
            else:
                name, guest, peer, fingerprint, place, lang, started, last_input = parts
                row = Presence(
                    node=self.node, session=self._sid(session), name=_cut(name, "name"), guest=bool(guest),
                    address=_cut(peer, "address"), key=_cut(fingerprint, "key") if fingerprint else None,
                    place=_cut(place, "place"), lang=_cut(lang, "lang"),
                    since=round(now_wall - (now - started), 3),
                    active=float(round(now_wall - (now - last_input))))
            kept[key] = (parts, row)
            out[row.session] = row
        self._made = kept
        live = {id(session) for session in server.sessions}
        for gone in set(self._ids) - live:
            del self._ids[gone]
        return out

    # -- the loop's side ------------------------------------------------------------------

    def snapshot(self) -> None:
        """On the loop: this node's sessions as they are, for the thread to write (memory only)."""
        rows = self.rows()
        with self._pending_lock:
            self._pending = rows
        self._thread.poke()

    def read_soon(self) -> None:
        """Another node's rows changed (its hint): read them now, not at the next beat."""
        self._thread.poke()

    def _heard(self, rows: list[Presence]) -> None:
        """On the loop: every live node's sessions, as the store has them now."""
        self.reads += 1
        self._others = [r for r in rows if r.node != self.node]
        self._show()

    def _show(self) -> None:
        now = time.monotonic()
        self._dead = {n: until for n, until in self._dead.items() if until > now}
        shown = self.elsewhere()
        club = self.server.club
        club.elsewhere = {r.name for r in shown}
        club.set_watchers_elsewhere(watchers(shown))
        club.watched_elsewhere(watcher_names(shown))
        club.back_where_online()

    def forget_node(self, node: str) -> None:
        """On the loop: ``node`` is taken for dead (another node took its lease over): its sessions are
        not online until its rows are gone (``WITHIN``) or it beats again after that."""
        self._dead[node] = time.monotonic() + WITHIN
        self._show()

    def elsewhere(self) -> list[Presence]:
        """The sessions of every other live node, as last read (no store call: the thread reads)."""
        return [r for r in self._others if r.node not in self._dead]

    # -- the thread's side ----------------------------------------------------------------

    def _write(self, store: Any) -> None:
        """One heartbeat: the rows that changed, the sessions that ended; a refusal is logged once."""
        if not self._cleared:
            store.leave_presence(self.node)  # rows this node's name left behind (a kill -9 before)
            self._cleared = True
            self._published = {}
        with self._pending_lock:
            rows, self._pending = self._pending, None
        if rows is None:
            return  # no snapshot from the loop since the last beat: a stuck loop does not beat
        upserts = [r for sid, r in rows.items() if self._published.get(sid) != r]
        gone = [sid for sid in self._published if sid not in rows]
        if not self._several() and not upserts and not gone and not self._failing \
                and time.monotonic() - self._beat_at < LONE_BEAT:
            return  # one server alone: nobody waits for its heartbeat; write when something changed
        self._beat_at = time.monotonic()
        try:
            store.beat(self.node, upserts, gone)
        except StoreError as err:
            if not self._failing:  # an unreachable store is said once by its outage line
                log.log(logging.DEBUG if err.exit_status == 75 else logging.WARNING,
                        "cannot write who is online to the store just now: %s", err)
            self._failing = True
            self._published = {}  # all of it again at the next beat that works
            return
        if self._failing:
            log.debug("who is online is written to the store again")
        self._failing = False
        self._published = rows
        if (upserts or gone) and self.hint is not None:
            self.hint()

    def _read(self, store: Any) -> list[Presence]:
        return list(store.presence(WITHIN))

    def start(self) -> None:
        """Beat from now on: a snapshot every ``BEAT`` s and at every arrival or leaving."""
        if self._task is None:
            node = getattr(self.server, "node", None)
            if node is not None and hasattr(node, "attach_presence"):
                node.attach_presence(self)  # its hints to the other nodes, theirs to this one
            self._off.append(self.server.club.subscribe(self._club_events))
            self._task = asyncio.get_running_loop().create_task(self._run(), name="sukno presence")
            self._thread.start()

    def _club_events(self, events: list[Any]) -> None:
        if self._settling is None and any(e.kind in ("enter", "leave") and "node" not in (e.data or {})
                                          for e in events):
            # After the session is in (or out of) the set, and after the others of a burst: one snapshot.
            self._settling = asyncio.get_running_loop().call_later(SETTLE, self._settled)

    def _settled(self) -> None:
        self._settling = None
        self.snapshot()

    async def _run(self) -> None:
        while True:
            self.snapshot()
            await asyncio.sleep(BEAT)

    def stop(self) -> None:
        """Stop beating and take this node's rows out of the club at once (in the thread, waited for)."""
        for off in self._off:
            off()
        self._off = []
        if self._settling is not None:
            self._settling.cancel()
            self._settling = None
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._thread.stop()
