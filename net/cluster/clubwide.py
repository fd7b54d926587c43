"""The hall and the house across nodes: chat, arrivals and admin commands club-wide.

Built on ``net.cluster.notices`` (LISTEN/NOTIFY), on two channels of its own:

* ``sukno_hall``: {node, kind, name, text?} — a hall line said here (``say``), or someone arriving
  (``enter``) or leaving (``leave``) this node, told to the other nodes, whose halls show it
  (``Club.hear``: an event with the node's name, never sent on again).  A line is checked where it
  is said (throttle, mutes, the sanitizer); the receiver bounds and sanitizes it once more.
* ``sukno_admin``: {t: "ask", id, from, to, argv, who} — an admin command for the node that can
  do it (``kick`` a player connected there, ``close`` a table it owns), run there by its own
  ``AdminCommands`` (and written in its audit log), and {t: "answer", id, to, ok, status, text}
  back.  ``ask`` waits at most ``ASK_TIMEOUT``; no answer is a refusal that says so.

A notice is a hint: a node that was not listening misses hall lines (they are chat, not records);
who is online and the bans are the store's (``net.cluster.presence``, ``net.house.bans``).

Every notice here is *posted* (``Notices.post``: sent in order by a task on psycopg's asynchronous
connection), never sent with a blocking call on the loop: a database that is slow or unreachable
delays the line to the other nodes, never a session of this one.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from functools import partial
from typing import Any, Callable

from engine.table.owner import sanitize
from net.cluster.notices import MAX_PAYLOAD, NoticeError, undo_all

log = logging.getLogger("sukno.cluster")

HALL_CHANNEL = "sukno_hall"
ADMIN_CHANNEL = "sukno_admin"
HALL_KINDS = ("say", "enter", "leave")
REMOTE_VERBS = ("kick", "close")
"""The admin commands another node may be asked to run (what only that node can do)."""
ASK_TIMEOUT = 5.0
MAX_NAME, MAX_TEXT = 64, 1000


def _send(notices: Any, channel: str, message: dict[str, Any],
          failed: Callable[[str], None] | None = None) -> None:
    """On the loop: posted, never waited for.  ``NoticeError`` at once if too long; ``failed(reason)``
    later (on the loop) if PostgreSQL could not be told; without it the notices log the failure."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) > MAX_PAYLOAD:
        raise NoticeError("that is too long to send to another node")
    notices.post(channel, text, failed)


def _load(payload: str) -> dict[str, Any] | None:
    try:
        message = json.loads(payload)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class HallRelay:
    """This node's hall lines and arrivals to the others; theirs into this node's hall."""

    def __init__(self, club: Any, notices: Any, node: str) -> None:
        self.club = club
        self.notices = notices
        self.node = node
        self._off: list[Callable[[], None]] = []

    def start(self) -> None:
        self._off = [self.club.subscribe(self._local), self.notices.on(HALL_CHANNEL, self._remote)]

    def stop(self) -> None:
        for off in self._off:
            off()
        self._off = []

    def _local(self, events: list[Any]) -> None:
        for event in events:
            data = event.data or {}
            if event.kind not in HALL_KINDS or "node" in data or not isinstance(data.get("name"), str):
                continue  # not a hall event, or one heard from another node (never sent on)
            message = {"node": self.node, "kind": event.kind, "name": data["name"]}
            if event.kind == "say":
                message["text"] = str(data.get("text", ""))[:MAX_TEXT]
            try:
                _send(self.notices, HALL_CHANNEL, message, partial(self._unsent, event.kind))
            except NoticeError as err:
                self._unsent(event.kind, str(err))

    def _unsent(self, kind: str, why: str) -> None:
        log.warning("node %s: a hall %s was not sent to the other nodes: %s", self.node, kind, why)

    def _remote(self, payload: str) -> None:
        message = _load(payload)
        if message is None:
            return
        node, kind, name = message.get("node"), message.get("kind"), message.get("name")
        if not isinstance(node, str) or node == self.node or kind not in HALL_KINDS:
            return
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
            return
        text = sanitize(str(message.get("text", ""))[:MAX_TEXT]) if kind == "say" else None
        if kind == "say" and not text:
            return
        self.club.hear(kind, name, node[:MAX_NAME], text)


class AdminRelay:
    """Asks another node to run an admin command only it can do; runs such commands asked of this one."""

    def __init__(self, commands: Any, notices: Any, node: str, timeout: float = ASK_TIMEOUT) -> None:
        self.commands = commands
        self.notices = notices
        self.node = node
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._off: Callable[[], None] | None = None

    def start(self) -> None:
        self._off = undo_all([self.notices.on(ADMIN_CHANNEL, self._notice),
                              self.commands.club.subscribe(self._club_events)])

    def stop(self) -> None:
        if self._off is not None:
            self._off()
            self._off = None
        for future in self._waiting.values():
            future.cancel()
        self._waiting.clear()

    async def ask(self, node: str, argv: list[str], who: str) -> tuple[bool, int, str]:
        """Run ``argv`` on ``node``: (ok, status, its answer's text); a refusal if it does not answer."""
        ask_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask_id] = future
        def unsent(why: str) -> None:
            if not future.done():
                future.set_exception(NoticeError(why))

        try:
            _send(self.notices, ADMIN_CHANNEL, {"t": "ask", "id": ask_id, "from": self.node, "to": node,
                                                 "argv": argv, "who": who}, unsent)
            answer = await asyncio.wait_for(future, self.timeout)
        except NoticeError as err:
            return False, 1, f"could not ask node {node}: {err}"
        except asyncio.TimeoutError:
            return False, 1, f"node {node} did not answer in {self.timeout:g} s; nothing is known to be done"
        finally:
            self._waiting.pop(ask_id, None)
        return bool(answer.get("ok")), int(answer.get("status") or 0), str(answer.get("text", ""))[:MAX_TEXT]

    def _club_events(self, events: list[Any]) -> None:
        """A table closed here (now, or when its deal ended): every other node drops its replica."""
        for event in events:
            data = event.data or {}
            if event.kind == "table_close" and "node" not in data:
                try:
                    _send(self.notices, ADMIN_CHANNEL, {"t": "closed", "from": self.node, "table": data.get("table")})
                except NoticeError as err:
                    log.warning("node %s: the other nodes were not told table %s closed: %s", self.node,
                                data.get("table"), err)

    def _closed_elsewhere(self, message: dict[str, Any]) -> None:
        table_id = message.get("table")
        if message.get("from") == self.node or not isinstance(table_id, int):
            return
        node = getattr(self.commands.server, "node", None)
        if node is not None and table_id in getattr(node, "owned", {}):
            return  # ours: only the owner closes it (a stale notice)
        if node is not None:
            node.replicas.pop(table_id, None)
        self.commands.club.forget_table(table_id)
        log.info("node %s: table %s was closed by node %s", self.node, table_id, message.get("from"))

    def _notice(self, payload: str) -> None:
        message = _load(payload)
        if message is not None and message.get("t") == "closed":
            self._closed_elsewhere(message)
            return
        if message is None or message.get("to") != self.node:
            return
        if message.get("t") == "answer":
            asked = message.get("id")
            future = self._waiting.get(asked) if isinstance(asked, int) else None
            if future is not None and not future.done():
                future.set_result(message)
        elif message.get("t") == "ask":
            asyncio.get_running_loop().create_task(self._run(message), name="sukno admin asked")

    async def _run(self, message: dict[str, Any]) -> None:
        argv, who, asker = message.get("argv"), message.get("who"), message.get("from")
        if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv) and isinstance(asker, str)
                and isinstance(who, str)):
            return
        if argv[0].lower() not in REMOTE_VERBS:
            answer = {"ok": False, "status": 2, "text": f"{argv[0]!r} is not asked of another node"}
        else:
            reply = await self.commands.run(argv[:50], f"{who[:64]} via {asker[:64]}", remote=False)
            answer = {"ok": reply.ok, "status": reply.status, "text": reply.text[:MAX_TEXT]}
        try:
            _send(self.notices, ADMIN_CHANNEL, {"t": "answer", "id": message.get("id"), "to": asker, **answer})
        except NoticeError as err:
            log.warning("node %s: the answer to %s's %s was not sent: %s", self.node, asker, argv[0], err)
