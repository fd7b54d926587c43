"""Who is online on which node, kept in the store (issue 15): every node sees the whole club.

Each node writes its own sessions (name, guest, address, key, where, language) to the store's
``presence`` rows and beats every ``BEAT`` seconds (``Store.beat``: only the rows that changed
since the last beat are written, so a quiet club costs one small write per beat).  A node that
dies stops beating: after ``WITHIN`` seconds its sessions drop out of ``club_sessions`` on every
other node, and its rows are deleted later (``FORGET_NODE``).  A node that stops cleanly takes its
rows with it (``leave``).

The rows are read by ``sukno admin sessions`` on any node (with the node's name) and by the
club-wide ``who``.  Everything shown comes from the session's own state, bounded to the store's
limits (``engine.store.PRESENCE_LIMITS``); nothing a client typed is kept but its name.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from engine.store import PRESENCE_LIMITS, Presence, StoreError

log = logging.getLogger("sukno.presence")

BEAT = 2.0
"""Seconds between two heartbeats of a node."""
LONE_BEAT = 60.0
"""A server alone (no ``--node``) beats this seldom when nothing changed: only it reads its rows."""
WITHIN = 10.0
"""A node silent this long is taken for dead: its sessions are no longer shown (≥ a few beats)."""


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
    limit = PRESENCE_LIMITS[field]
    shown = "".join(ch if ch.isprintable() else "?" for ch in str(text))
    return shown[:limit]


def watchers(rows: list[Presence]) -> dict[int, int]:
    """Watchers per table among presence rows (place ``watching N``)."""
    counts: dict[int, int] = {}
    for row in rows:
        word = row.place.removeprefix("watching ")
        if word != row.place and word.isdigit():
            counts[int(word)] = counts.get(int(word), 0) + 1
    return counts


class PresenceKeeper:
    """Writes this node's sessions to the store on a timer; reads every node's back."""

    def __init__(self, server: Any, store: Any, node: str) -> None:
        self.server = server
        self.store = store
        self.node = _cut(node, "node")
        self._published: dict[str, Presence] = {}
        self._ids: dict[int, str] = {}  # id(session) → its presence id, while it lives
        self._count = 0
        self._task: asyncio.Task[None] | None = None
        self._failing = False
        self._beat_at = -LONE_BEAT

    def _sid(self, session: Any) -> str:
        key = id(session)
        if key not in self._ids:
            self._count += 1
            self._ids[key] = str(self._count)
        return self._ids[key]

    def rows(self) -> dict[str, Presence]:
        """This node's sessions now, as rows (the ones with a name: a session still at the door has none)."""
        now_wall, now = time.time(), time.monotonic()
        out: dict[str, Presence] = {}
        live = set()
        for session in list(self.server.sessions):
            live.add(id(session))
            if session.closed or not session.name:
                continue
            sid = self._sid(session)
            out[sid] = Presence(
                node=self.node, session=sid, name=_cut(session.name, "name"), guest=bool(session.guest),
                address=_cut(session.conn.peer, "address"),
                key=_cut(session.conn.fingerprint, "key") if session.conn.fingerprint else None,
                place=_cut(place_of(self.server, session), "place"), lang=_cut(session.lang, "lang"),
                since=round(now_wall - (now - session.started), 3))
        for gone in set(self._ids) - live:
            del self._ids[gone]
        return out

    def beat(self) -> None:
        """One heartbeat: the rows that changed, the sessions that ended; a refusal is logged once."""
        rows = self.rows()
        upserts = [r for sid, r in rows.items() if self._published.get(sid) != r]
        gone = [sid for sid in self._published if sid not in rows]
        lone = getattr(self.server, "node", None) is None
        if lone and not upserts and not gone and not self._failing and self._published is not None \
                and time.monotonic() - self._beat_at < LONE_BEAT:
            return  # one server alone: nobody waits for its heartbeat; write when something changed
        self._beat_at = time.monotonic()
        try:
            self.store.beat(self.node, upserts, gone)
        except StoreError as err:
            if not self._failing:
                log.warning("cannot write who is online to the store just now: %s", err)
            self._failing = True
            self._published = {}  # all of it again at the next beat that works
            return
        if self._failing:
            log.info("who is online is written to the store again")
        self._failing = False
        self._published = rows
        if getattr(self.server, "node", None) is not None:  # one of several: count the others' watchers
            self.server.club.set_watchers_elsewhere(watchers(self.elsewhere()))

    def start(self) -> None:
        """Beat from now on; rows this node's name left behind (a kill -9 before) go first."""
        try:
            self.store.leave_presence(self.node)
        except StoreError as err:
            log.warning("cannot clear this node's old sessions from the store: %s", err)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="sukno presence")

    async def _run(self) -> None:
        while True:
            self.beat()
            await asyncio.sleep(BEAT)

    def stop(self) -> None:
        """Stop beating and take this node's rows out of the club at once."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        try:
            self.store.leave_presence(self.node)
        except StoreError as err:
            log.warning("cannot take this node's sessions out of the store: %s (they vanish in %g s)", err, WITHIN)

    def elsewhere(self) -> list[Presence]:
        """The sessions of every other live node (empty when the store cannot be read now)."""
        try:
            rows = self.store.presence(WITHIN)
        except StoreError as err:
            log.warning("cannot read who is online on the other nodes: %s", err)
            return []
        return [r for r in rows if r.node != self.node]
