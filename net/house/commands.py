"""The admin commands themselves, against a running ``SuknoServer`` (``net.house.admin`` carries them).

Each ``do_<verb>`` takes the words after the verb and who asks, and returns a
``Reply``; a refusal is an ``AdminError`` (status 1) or a ``UsageError``
(status 2) and changes nothing.  Whatever is pure club logic lives in
``engine.table.admin_ops``; here is what needs the server: its sessions (kick, say,
sessions), its door (bans, shutdown), its store (grant).

The audit log gets every command that changes something or shows hidden
cards (``watch``); the read-only listings (``tables``, ``sessions``, ``bans``,
``help``) are not logged, since the console polls them every second.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.table import admin_ops
from engine.table.admin_ops import AdminError
from engine.game import IllegalAction
from engine.store.base import AccountError, StoreError
from engine.table.owner import sanitize
from net.cluster.answers import settled
from net.house import figures
from net.house.bans import AUDIT_NAME, BANS_NAME, AuditLog, Ban, BanList, kind_of, shuts_out
from net.ssh.identity import fold
from net.modes.texts import text

log = logging.getLogger("sukno.admin")

HELP = """\
tables                                  the tables: game, seats, watchers, pot, state
sessions                                who is connected: name, address, key, where
open GAME [name=value …] [seats=N]      open a table with the game's options (listed below),
                                        e.g. open stukolka variant=v dark=yes razrez=yes seats=5,
                                        open stukolka variant=g; clock=S grace=S bots=fill: the table's own
close TABLE [--after-deal]              close a table (mid-deal: when its deal ends)
seat TABLE SEAT bot|NAME                put an account (or a bot) in a seat
kick NAME [reason …]                    end NAME's sessions, showing the reason
ban NAME|FINGERPRINT|ADDRESS [--for DURATION] [reason …]
                                        refuse on every next connect (e.g. --for 2h)
unban NAME|FINGERPRINT|ADDRESS          lift a ban
bans                                    the bans in force
say TEXT …                              tell every session
mute NAME [--for DURATION] [reason …]   refuse NAME's chat and whispers (e.g. --for 1h)
unmute NAME                             give NAME his words back
mutes                                   the mutes in force
watch TABLE                             every hand at a table and its rail (logged)
grant NAME AMOUNT                       credit NAME with AMOUNT kopecks in the ledger
metrics                                 the server's figures (Prometheus's text format)
health                                  exit 0 when the club answers and its store takes a write
ratings [GAME] [--recompute]            the skill ratings; --recompute: again from the records
shutdown [--grace SECONDS]              no new deals; finish deals in play; save; exit
help                                    this list"""

COMMANDS = ("tables", "sessions", "open", "close", "seat", "kick", "ban", "unban", "bans", "say",
            "mute", "unmute", "mutes", "watch", "grant", "metrics", "health", "ratings", "shutdown", "help")
MAX_GRACE = 86400
"""The longest ``shutdown --grace`` (a day): deals in play finish within it."""
READ_ONLY = frozenset({"tables", "sessions", "bans", "mutes", "help", "metrics", "health", "ratings"})


_LOCAL_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("sukno_admin_local_only", default=False)
"""True while running a command another node asked of this one: it never asks a node in turn."""


class UsageError(AdminError):
    """The command line itself is wrong (exit status 2)."""


@dataclass
class Reply:
    """What a command answers: ``text`` for people, ``data`` for ``--json``."""

    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    status: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "status": self.status, "text": self.text, "data": self.data}


def _flag(args: list[str], name: str, takes_value: bool = False) -> tuple[list[str], str | bool | None]:
    """Take ``--name`` (and its value) out of ``args``."""
    rest: list[str] = []
    value: str | bool | None = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == name:
            if takes_value:
                if i + 1 >= len(args):
                    raise UsageError(f"{name} needs a value")
                value = args[i + 1]
                i += 2
                continue
            value = True
        elif takes_value and word.startswith(name + "="):
            value = word.split("=", 1)[1]
        else:
            rest.append(word)
        i += 1
    return rest, value


def _need(args: list[str], low: int, usage: str, high: int | None = None) -> None:
    if len(args) < low or (high is not None and len(args) > high):
        raise UsageError(f"usage: {usage}")


class AdminCommands:
    """Every admin command, against a running ``SuknoServer``."""

    def __init__(self, server: Any, on_shutdown: Callable[[], Any] | None = None) -> None:
        self.server = server
        self.club = server.club
        data: Path = server.config.data
        self.bans = BanList(data / BANS_NAME, store=getattr(server, "store", None))
        self.audit = AuditLog(data / AUDIT_NAME)
        self._bans_seen = self.bans.changed
        self.on_shutdown = on_shutdown
        self.shutting_down = False
        self._shutdown_task: asyncio.Task[None] | None = None
        server.gates.append(self._gate)
        self._unsubscribe = self.club.subscribe(self._club_events)
        self.admin_keys = admin_keys(server.config, getattr(server, "store", None))
        """The keys whose sessions may type ``admin …`` (``net.house.admin.admin_runner``)."""
        self._probe: asyncio.Task[None] | None = None
        self._reads: Any = None  # net.ssh.offloop.StoreThread: the bans and mutes, read off the loop
        self._later_before: Callable[[Callable[[Any], Any]], None] | None = None
        """The ``social.later`` this console replaced (the server's store-thread writer): back at ``close``."""
        self.relay: Any = None
        """``net.cluster.clubwide.AdminRelay`` on a node of several (``join_cluster``), else None."""

    def watch_store(self) -> None:
        """Probe the store every ``STORE_PROBE`` seconds, so a vanished database is noticed (and everyone
        told) even while nobody acts; a write would refuse anyway (``engine.store.sqlite``).  The bans
        (and on a shared store the mutes, another node's admin may change them) are read again as often,
        by a thread with its own store connection (``net.ssh.offloop``): never a store call on the loop."""
        store = getattr(self.server, "store", None)
        if self._probe is None and hasattr(store, "check"):
            self._probe = asyncio.get_running_loop().create_task(self._probe_store(), name="sukno store probe")
        if self._reads is None and store is not None and hasattr(store, "bans"):
            from net.ssh.offloop import StoreThread

            reads = StoreThread(store, "sukno bans", self.STORE_PROBE)
            reads.add("the bans", self.bans.read_pruned, self._bans_read)
            if getattr(self.server.config, "store_url", ""):  # a shared store: other nodes' mutes too
                social = self.club.social
                reads.add("the mutes", lambda own: (social.mutes_made, own.mutes()),
                          lambda got: social.set_mutes(got[1], got[0]))
            self.bans.fed = True
            self._reads = reads
            reads.start()
            self._later_before = self.club.social.later  # the server's writer, given back at ``close``
            self.club.social.later = self._later

    def _later(self, work: Callable[[Any], Any]) -> None:
        """A store write nobody awaits (an expired mute cleared): the thread makes it; a failure is logged."""
        reads = self._reads
        if reads is None:
            return

        def said(done: asyncio.Future[Any]) -> None:
            if not done.cancelled() and done.exception() is not None:
                log.warning("a store write was not made: %s", done.exception())

        reads.run(work).add_done_callback(said)

    def _bans_read(self, got: tuple[int, list[Any]]) -> None:
        """On the loop: the bans a thread read; a ban made on another node ends the sessions it hits."""
        if self.bans.take(got[1], got[0]):
            asyncio.get_running_loop().create_task(self._bans_from_elsewhere(), name="sukno bans elsewhere")

    async def _probe_store(self) -> None:
        while True:
            await asyncio.sleep(self.STORE_PROBE)
            if not self.bans.fed:
                await self._bans_from_elsewhere()
            store = getattr(self.server, "store", None)
            gone = store.check() if store is not None else None
            if gone:
                log.error("the club's store is gone; no action is taken any more: %s", gone)
                self.broadcast(lambda lang: text(lang, "store_gone"))
                return

    STORE_PROBE = 2.0

    def close(self) -> None:
        if self.relay is not None:
            self.relay.stop()
            self.relay = None
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
        if self._reads is not None:
            if self.club.social.later == self._later:  # still ours: the writer it replaced takes over again
                self.club.social.later = self._later_before
            self._reads.stop(timeout=2.0)
            self._reads = None
        self._unsubscribe()
        if self._gate in self.server.gates:
            self.server.gates.remove(self._gate)

    # -- running a command ----------------------------------------------------------

    def join_cluster(self) -> None:
        """On a node of several: kick and close reach the node that can do them (net/cluster/clubwide.py)."""
        node = getattr(self.server, "node", None)
        if self.relay is None and node is not None:
            from net.cluster.clubwide import AdminRelay

            self.relay = AdminRelay(self, node.notices, node.name)
            self.relay.start()

    async def run(self, argv: list[str], who: str, remote: bool = True) -> Reply:
        """Run one command for ``who`` (``unix:NAME`` or ``ssh:NAME``); never raises.  ``remote``: it
        may ask another node (False for a command another node asked of this one: no ping-pong)."""
        token = _LOCAL_ONLY.set(not remote)
        try:
            return await self._run(argv, who)
        finally:
            _LOCAL_ONLY.reset(token)

    async def _run(self, argv: list[str], who: str) -> Reply:
        if not argv:
            return Reply(False, "no command; type help", status=2)
        verb, args = argv[0].lower(), list(argv[1:])
        if verb not in COMMANDS:
            return Reply(False, f"unknown command {argv[0]!r}; commands: {', '.join(COMMANDS)}", status=2)
        try:
            reply = await getattr(self, f"do_{verb}")(args, who)
        except UsageError as err:
            reply = Reply(False, str(err), status=2)
        except AdminError as err:
            reply = Reply(False, str(err), status=1)
        except Exception:  # a bug must not kill the console or the server
            log.exception("admin command %r failed", argv)
            reply = Reply(False, "the command failed because of an error in the server; see its log", status=1)
        if verb not in READ_ONLY:
            try:
                self.audit.write(who, argv, reply.ok, reply.text)
            except OSError as err:
                log.error("cannot write the audit log: %s", err)
        return reply

    # -- listings -------------------------------------------------------------------

    async def do_help(self, args: list[str], who: str) -> Reply:
        from net.house.options_help import options_text

        return Reply(True, f"{HELP}\n\n{options_text()}", {"commands": list(COMMANDS)})

    async def do_tables(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "tables", 0)
        rows = admin_ops.tables_rows(self.club)
        return Reply(True, admin_ops.tables_text(rows), {"tables": rows, "shutting_down": self.shutting_down})

    async def do_metrics(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "metrics", 0)
        text = figures.metrics_text(self.server)
        return Reply(True, text.rstrip("\n") or "no figures", {"metrics": text})

    async def do_health(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "health", 0)
        reads = self._reads
        ok, facts = await figures.health(self.server, reads.run if reads is not None else None)
        words = f"the loop answers; the store: {facts['store']}"
        return Reply(ok, words, facts, status=0 if ok else 1)

    async def do_ratings(self, args: list[str], who: str) -> Reply:
        args, again = _flag(args, "--recompute")
        _need(args, 0, "ratings [GAME] [--recompute]", 1)
        store = getattr(self.server, "store", None)
        if store is None or not hasattr(store, "ratings_book"):
            raise AdminError("this club keeps no ratings (no store)")
        reads = self._reads
        run = (lambda work: asyncio.wait_for(asyncio.shield(reads.run(work)), self.STORE_WAIT)) if reads else None
        try:
            kept = await run(lambda own: own.ratings_book()) if run else store.ratings_book()
            if not again:
                key = args[0] if args else None
                return Reply(True, figures.ratings_text(kept, key), {"ratings": figures.ratings_json(kept)})
            fresh, records = await run(lambda own: own.recompute_ratings()) if run else store.recompute_ratings()
        except (StoreError, asyncio.TimeoutError) as err:
            raise AdminError(f"the store did not answer: {err or 'no answer'}") from None
        same = fresh == kept
        text = (f"recomputed from {records} records: {'the same figures as kept' if same else 'DIFFERENT from kept'}\n"
                + figures.ratings_text(fresh, args[0] if args else None))
        return Reply(same, text, {"records": records, "same": same, "ratings": figures.ratings_json(fresh)},
                     status=0 if same else 1)

    def _where(self, session: Any) -> str:
        if session.watching is not None:
            return f"watching {session.watching}"
        table = self.club.where(session.name) if session.name else None
        return f"table {table.id} seat {table.seat_of(session.name) + 1}" if table is not None else "hall"

    def session_rows(self) -> list[dict[str, Any]]:
        """Every session of the club: this node's from memory, the other nodes' from the store's
        presence rows as last read (``net.cluster.presence``: no store call here), each with its node's name."""
        now = time.monotonic()
        rows = []
        presence = getattr(self.server, "presence", None)
        node = presence.node if presence is not None else "main"
        for s in sorted(self.server.sessions, key=lambda s: s.started):
            rows.append({
                "node": node,
                "name": s.name, "guest": s.guest, "address": s.conn.peer, "key": s.conn.fingerprint,
                "where": self._where(s), "lang": s.lang, "seconds": round(now - s.started),
                "idle": round(now - s.last_input),
                "muted": bool(s.name and self.club.social.muted(s.name) is not None),
                "away": bool(s.name and self.club.is_away(s.name)),
            })
        wall = time.time()
        for p in presence.elsewhere() if presence is not None else []:
            rows.append({
                "node": p.node, "name": p.name, "guest": p.guest, "address": p.address, "key": p.key,
                "where": p.place, "lang": p.lang, "seconds": max(0, round(wall - p.since)),
                "idle": None if p.active is None else max(0, round(wall - p.active)),
                "muted": bool(p.name and self.club.social.muted(p.name) is not None), "away": False,
            })
        return rows

    async def do_sessions(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "sessions", 0)
        rows = self.session_rows()
        if not rows:
            return Reply(True, "nobody is connected", {"sessions": []})
        nodes = len({r["node"] for r in rows}) > 1 or rows[0]["node"] != "main"
        lines = [("node         " if nodes else "") + f"{'name':<16} {'address':<15} {'where':<18} {'time':>6} {'idle':>6}  key"]
        for r in rows:
            name = (r["name"] or "-") + (" (guest)" if r["guest"] else "")
            idle = "-" if r["idle"] is None else f"{r['idle']}s"
            lines.append((f"{r['node'][:12]:<12} " if nodes else "") +
                         f"{name:<16} {r['address']:<15} {r['where']:<18} {r['seconds']:>5}s {idle:>6}"
                         f"  {r['key'] or '-'}")
        return Reply(True, "\n".join(lines), {"sessions": rows})

    # -- tables ---------------------------------------------------------------------

    async def do_open(self, args: list[str], who: str) -> Reply:
        _need(args, 1, "open GAME [name=value …] [seats=N]")
        if self.shutting_down:
            raise AdminError("the club is shutting down; no new tables")
        table = admin_ops.open_table(self.club, args[0], args[1:])
        options = " ".join(f"{k}={v}" for k, v in table.options.items())
        return Reply(True, f"opened table {table.id}: {table.game_name}, {len(table.seats)} seats ({options})",
                     {"table": table.id, "game": table.game_name, "options": dict(table.options),
                      "seats": len(table.seats)})

    async def do_close(self, args: list[str], who: str) -> Reply:
        words = list(args)
        args, after = _flag(args, "--after-deal")
        _need(args, 1, "close TABLE [--after-deal]", 1)
        table = admin_ops.table_of(self.club, args[0])
        node = getattr(self.server, "node", None)
        if node is not None and table.id in node.replicas:  # another node owns it: it closes it
            lease = self.server.store.lease(table.id)
            if lease is None or lease[2] <= 0:
                raise AdminError(f"table {table.id} has no owner just now (a node is taking it over); try again")
            return await self._ask(lease[0], ["close", *words], who)
        if admin_ops.close_table(self.club, table, bool(after)):
            return Reply(True, f"closed table {table.id}", {"table": table.id, "closed": True})
        return Reply(True, f"table {table.id} closes when its deal ends; no new deal starts there",
                     {"table": table.id, "closed": False})

    async def do_seat(self, args: list[str], who: str) -> Reply:
        _need(args, 3, "seat TABLE SEAT bot|NAME", 3)
        table = admin_ops.table_of(self.club, args[0])
        if args[2].lower() == "bot":
            seat, name = admin_ops.seat_bot(self.club, table, args[1])
            name = await _answer(name)  # at a table another node owns: its answer
            return Reply(True, f"{name} sits at table {table.id}, seat {seat + 1}",
                         {"table": table.id, "seat": seat + 1, "name": name, "bot": True})
        name = self._account_name(args[2])
        seat = await _answer(admin_ops.seat_player(self.club, table, args[1], name))
        return Reply(True, f"{name} sits at table {table.id}, seat {seat + 1}",
                     {"table": table.id, "seat": seat + 1, "name": name})

    def _account_name(self, name: str) -> str:
        """The account's own spelling of ``name``; refused when there is no such account."""
        wanted = fold(name)
        for online in self.club.online():
            if fold(online) == wanted and not self.club.is_guest(online):
                return online
        store = getattr(self.server, "store", None)
        account = store.account(name) if store is not None else None
        if account is not None:
            return account.name
        known = getattr(self.server.accounts, "_by_key", {})  # the file-backed Accounts: key → name
        for spelled in known.values():
            if fold(spelled) == wanted:
                return spelled
        raise AdminError(f"there is no account named {name!r}")

    async def do_watch(self, args: list[str], who: str) -> Reply:
        _need(args, 1, "watch TABLE", 1)
        table = admin_ops.table_of(self.club, args[0])
        shown, data = admin_ops.admin_view(table)
        return Reply(True, shown, data)

    # -- people ---------------------------------------------------------------------

    def _sessions_of(self, name: str) -> list[Any]:
        wanted = fold(name)
        return [s for s in self.server.sessions if s.name and fold(s.name) == wanted and not s.closed]

    async def _show_out(self, sessions: list[Any], farewell: Callable[[Any], str]) -> None:
        await asyncio.gather(*(s.close(farewell(s)) for s in sessions), return_exceptions=True)

    async def do_kick(self, args: list[str], who: str) -> Reply:
        _need(args, 1, "kick NAME [reason …]")
        name, reason = args[0], sanitize(" ".join(args[1:]))
        sessions = self._sessions_of(name)
        far = self._nodes_of(name)  # his sessions on other nodes: each of them shows him out there
        if not sessions and not far:
            raise AdminError(f"nobody named {name!r} is connected")

        def farewell(s: Any) -> str:
            return text(s.lang, "kicked", reason=reason) if reason else text(s.lang, "kicked_plain")

        await self._show_out(sessions, farewell)
        said = [f"showed out {sessions[0].name} ({len(sessions)} session(s))"] if sessions else []
        refused: list[str] = []
        for node in far:
            try:
                said.append((await self._ask(node, ["kick", *args], who)).text)
            except AdminError as err:
                refused.append(str(err))
        if not said:
            raise AdminError("; ".join(refused))
        said += refused
        return Reply(True, "; ".join(said), {"name": sessions[0].name if sessions else name,
                                             "sessions": len(sessions), "nodes": far})

    def _nodes_of(self, name: str) -> list[str]:
        """The other nodes where ``name`` is connected (their presence rows), if this node may ask them."""
        presence = getattr(self.server, "presence", None)
        if self.relay is None or presence is None or _LOCAL_ONLY.get():
            return []
        wanted = fold(name)
        return sorted({p.node for p in presence.elsewhere() if fold(p.name) == wanted})

    async def _ask(self, node: str, argv: list[str], who: str) -> Reply:
        """Run ``argv`` on ``node`` (``net.cluster.clubwide``); its answer, said as from that node."""
        if self.relay is None or _LOCAL_ONLY.get():
            raise AdminError(f"that is node {node}'s to do, and it cannot be asked from here")
        ok, status, answer = await self.relay.ask(node, argv, who)
        if not ok:
            raise AdminError(f"node {node}: {answer}") if status != 2 else UsageError(f"node {node}: {answer}")
        return Reply(True, f"node {node}: {answer}", {"node": node})

    async def do_ban(self, args: list[str], who: str) -> Reply:
        args, duration = _flag(args, "--for", takes_value=True)
        _need(args, 1, "ban NAME|FINGERPRINT|ADDRESS [--for DURATION] [reason …]")
        target, reason = args[0], sanitize(" ".join(args[1:]))
        seconds = admin_ops.parse_duration(str(duration)) if duration is not None else None
        if kind_of(target) == "name":
            target = self._account_name(target) if self._known(target) else target
        if self._reads is not None:  # written by the store's thread: the loop awaits it
            ban = await self._off_loop(lambda run: self.bans.add_off_loop(run, target, seconds, reason, who))
        else:
            ban = self.bans.add(target, seconds, reason, who)
        hit = [s for s in self.server.sessions if not s.closed and self._ban_hits(ban, s)]
        await self._show_out(hit, lambda s: self._ban_text(ban, s.lang))
        until = "for ever" if ban.until is None else f"for {admin_ops.show_duration(seconds or 0)}"
        return Reply(True, f"banned {ban.kind} {ban.target} {until}" + (f" ({len(hit)} session(s) ended)" if hit else ""),
                     {"ban": _ban_json(ban), "ended": len(hit)})

    STORE_WAIT = 10.0
    """Seconds an admin's change waits for the store's thread before it is refused (the thread makes
    it still if the store answers later)."""

    async def _off_loop(self, change: Callable[[Callable[[Any], Any]], Any]) -> Any:
        """``change(run)``: an admin's store write made by the bans' thread; its ``StoreError`` (or no
        answer in ``STORE_WAIT`` s) a refusal that says so."""
        reads = self._reads

        def run(work: Callable[[Any], Any]) -> Any:
            return asyncio.wait_for(asyncio.shield(reads.run(work)), self.STORE_WAIT)

        try:
            return await change(run)
        except (StoreError, AccountError) as err:
            raise AdminError(f"the store refused it; nothing changed: {err}") from None
        except asyncio.TimeoutError:
            raise AdminError(f"the store has not answered for {self.STORE_WAIT:g} s; "
                             "the change is made if it answers later") from None

    async def _bans_from_elsewhere(self) -> None:
        """A ban made on another node (read from the store) ends this node's sessions it hits."""
        self.bans.refresh()
        if self.bans.changed == self._bans_seen:
            return
        self._bans_seen = self.bans.changed
        now = time.time()
        for ban in [b for b in self.bans.bans if b.until is None or b.until > now]:
            hit = [s for s in self.server.sessions if not s.closed and self._ban_hits(ban, s)]
            if hit:
                log.info("a ban of %s %s (by %s) ends %d session(s) here", ban.kind, ban.target, ban.by, len(hit))
                await self._show_out(hit, lambda s, ban=ban: self._ban_text(ban, s.lang))

    def _known(self, name: str) -> bool:
        try:
            self._account_name(name)
            return True
        except AdminError:
            return False

    def _ban_hits(self, ban: Ban, session: Any) -> bool:
        return shuts_out(ban, name=session.name, key=session.conn.fingerprint, address=session.conn.peer)

    @staticmethod
    def _ban_text(ban: Ban, lang: str) -> str:
        reason = ban.reason or text(lang, "no_reason")
        if ban.until is None:
            return text(lang, "banned_ever", reason=reason)
        until = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ban.until))
        return text(lang, "banned", until=until, reason=reason)

    def _gate(self, session: Any) -> str | None:
        """The server's check on every new session: a ban's farewell, or None."""
        ban = self.bans.matching(name=session.name, key=session.conn.fingerprint, address=session.conn.peer)
        if ban is None:
            return None
        log.info("refused %s (%s, %s): banned %s %s", session.name, session.conn.peer,
                 session.conn.fingerprint, ban.kind, ban.target)
        return self._ban_text(ban, session.lang)

    async def do_unban(self, args: list[str], who: str) -> Reply:
        _need(args, 1, "unban NAME|FINGERPRINT|ADDRESS", 1)
        if self._reads is not None:
            gone = await self._off_loop(lambda run: self.bans.remove_off_loop(run, args[0]))
        else:
            gone = self.bans.remove(args[0])
        if not gone:
            raise AdminError(f"{args[0]!r} is not banned")
        return Reply(True, f"lifted the ban on {gone[0].kind} {gone[0].target}", {"lifted": [_ban_json(b) for b in gone]})

    async def do_bans(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "bans", 0)
        self.bans.prune()
        now = time.time()
        rows = [_ban_json(b) for b in self.bans.bans]
        if not rows:
            return Reply(True, "nobody is banned", {"bans": []})
        lines = []
        for b in self.bans.bans:
            left = b.left(now)
            until = "for ever" if left is None else f"{admin_ops.show_duration(left)} left"
            lines.append(f"{b.kind:<7} {b.target:<24} {until:<14} by {b.by}: {b.reason or '-'}")
        return Reply(True, "\n".join(lines), {"bans": rows})

    async def do_say(self, args: list[str], who: str) -> Reply:
        words = sanitize(" ".join(args))
        if not words:
            raise UsageError("usage: say TEXT …")
        count = self.broadcast(lambda lang: f"{text(lang, 'announce')}: {words}")
        return Reply(True, f"told {count} session(s)", {"sessions": count})

    # -- words ----------------------------------------------------------------------

    async def do_mute(self, args: list[str], who: str) -> Reply:
        args, duration = _flag(args, "--for", takes_value=True)
        _need(args, 1, "mute NAME [--for DURATION] [reason …]")
        name = self._account_name(args[0]) if self._known(args[0]) else self._online(args[0])
        reason = sanitize(" ".join(args[1:]))
        seconds = admin_ops.parse_duration(str(duration)) if duration is not None else None
        social = self.club.social
        if self._reads is not None and social.store is not None:  # the store's thread writes it
            mute = social.mute_of(name, seconds, reason, who)
            await self._off_loop(lambda run: run(lambda own: own.set_mute(name, mute.until, reason, who)))
            social.mute(name, seconds, reason, who, keep=False)
        else:
            mute = social.mute(name, seconds, reason, who)
        until = "for ever" if mute.until is None else f"for {admin_ops.show_duration(seconds or 0)}"
        return Reply(True, f"muted {name} {until}" + (f": {reason}" if reason else ""),
                     {"name": name, "until": mute.until, "reason": reason})

    def _online(self, name: str) -> str:
        spelled = self.club.online_name(name)
        if spelled is None:
            raise AdminError(f"there is no account named {name!r}")
        return spelled

    async def do_unmute(self, args: list[str], who: str) -> Reply:
        _need(args, 1, "unmute NAME", 1)
        social = self.club.social
        if self._reads is not None and social.store is not None and social.muted(args[0]) is not None:
            await self._off_loop(lambda run: run(lambda own: own.clear_mute(args[0])))
            social.unmute(args[0], keep=False)
        elif not social.unmute(args[0]):
            raise AdminError(f"{args[0]!r} is not muted")
        return Reply(True, f"unmuted {args[0]}", {"name": args[0]})

    async def do_mutes(self, args: list[str], who: str) -> Reply:
        _need(args, 0, "mutes", 0)
        now = self.club.social.wall()
        mutes = self.club.social.mutes()
        if not mutes:
            return Reply(True, "nobody is muted", {"mutes": []})
        lines = []
        for m in mutes:
            left = "for ever" if m.until is None else f"{admin_ops.show_duration(max(0, m.until - now))} left"
            lines.append(f"{m.name:<16} {left:<14} by {m.by}: {m.reason or '-'}")
        return Reply(True, "\n".join(lines), {"mutes": [{"name": m.name, "until": m.until, "reason": m.reason,
                                                          "by": m.by} for m in mutes]})

    def broadcast(self, line: Callable[[str], str]) -> int:
        """Show a line to every session: a notice in a player's App, a note in a watcher's row."""
        count = 0
        for session in list(self.server.sessions):
            if session.closed:
                continue
            message = line(session.lang)
            app, member, door = session.app, session.member, getattr(session, "door", None)
            if app is not None:
                app.call_later(app.announce, message)  # a log line (tui.app.ClubApp.announce)
            elif door is not None:
                door.announce(message)  # a log line in the hall door (net.modes.hall)
            elif member is not None:
                member.say_note(message)
            elif getattr(session, "text", None) is not None:
                session.text.notice(message)
            else:
                continue
            count += 1
        return count

    # -- money ----------------------------------------------------------------------

    async def do_grant(self, args: list[str], who: str) -> Reply:
        _need(args, 2, "grant NAME AMOUNT", 2)
        try:
            amount = int(args[1])
        except ValueError:
            raise AdminError(f"{args[1]!r} is not an amount: a whole number of kopecks, e.g. 5000") from None
        if amount == 0:
            raise AdminError("a grant of zero changes nothing")
        store = getattr(self.server, "store", None)
        if store is None:
            raise AdminError("this server keeps no ledger yet (the store is not wired in); nothing was granted")
        from engine.store.base import GRANTS

        account = store.account(args[0])
        if account is None:
            raise AdminError(f"there is no account named {args[0]!r}")
        name = getattr(account, "name", args[0])
        store.post([(name, amount), (GRANTS, -amount)], reason=f"admin grant by {who}")
        return Reply(True, f"granted {amount} kopecks to {name}; balance {store.balance(name)}",
                     {"name": name, "amount": amount, "balance": store.balance(name)})

    # -- closing the house ----------------------------------------------------------

    async def do_shutdown(self, args: list[str], who: str) -> Reply:
        args, grace_word = _flag(args, "--grace", takes_value=True)
        _need(args, 0, "shutdown [--grace SECONDS]", 0)
        grace = float(getattr(self.server.config, "shutdown_grace", 60))
        if grace_word is not None:
            try:
                grace = float(str(grace_word))
            except ValueError:
                raise UsageError(f"--grace takes seconds, not {grace_word!r}") from None
            if not math.isfinite(grace) or grace < 0 or grace > MAX_GRACE:
                raise UsageError(f"--grace takes seconds from 0 to {MAX_GRACE}, not {grace_word!r}")
        if self.shutting_down:
            raise AdminError("the club is already shutting down")
        self.shutting_down = True
        self.server.stop_accepting()
        for table in self.club.tables.values():
            table.closing = True
        playing = [t.id for t in self.club.tables.values() if t.in_deal()]
        self.broadcast(lambda lang: text(lang, "shutting_down", grace=int(grace)))
        self._shutdown_task = asyncio.get_running_loop().create_task(self._shutdown(grace), name="sukno shutdown")
        return Reply(True, f"shutting down: no new connections or deals; {len(playing)} deal(s) in play "
                     f"finish within {int(grace)} s, then the server saves and exits",
                     {"grace": grace, "in_deal": playing})

    async def _shutdown(self, grace: float) -> None:
        wake = asyncio.Event()
        unsubscribe = [t.subscribe(lambda _e: wake.set()) for t in self.club.tables.values()]
        deadline = asyncio.get_running_loop().time() + grace
        try:
            while any(t.in_deal() for t in self.club.tables.values()):
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    log.warning("shutdown: the grace ran out with deals in play")
                    break
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), left)
                except asyncio.TimeoutError:
                    pass
        finally:
            for off in unsubscribe:
                off()
        log.info("shutdown: no deal in play; stopping")
        if self.on_shutdown is not None:
            self.on_shutdown()
        else:
            await self.server.stop()

    # -- a closed table ---------------------------------------------------------------

    def _club_events(self, events: list[Any]) -> None:
        for event in events:
            if getattr(event, "kind", "") == "table_close":
                self._evict(int(event.data["table"]))

    def _evict(self, table_id: int) -> None:
        """Send everyone looking at a closed table back to the hall."""
        for session in list(self.server.sessions):
            if session.watching == table_id:
                session.watch.end(("hall", None))  # what the watcher's own "leave" does
            app = session.app
            if app is not None:
                app.call_later(_back_to_hall, app, table_id)


def admin_keys(config: Any, store: Any) -> frozenset[str]:
    """Admin is a key, not a name: the config's ``[admin] keys``, and the keys that the accounts named
    in ``[admin] accounts`` have in the store now, at start (a name registered later gets nothing)."""
    keys = {str(k) for k in getattr(config, "admin_keys", [])}
    for name in getattr(config, "admins", []):
        account = store.account(name) if store is not None else None
        if account is None or not account.keys:
            log.warning("config: the admin account %r does not exist with a key; it has no admin rights "
                        "(list its key in [admin] keys)", name)
            continue
        keys |= set(account.keys)
    return frozenset(keys)


def _back_to_hall(app: Any, table_id: int) -> None:
    table = getattr(app.screen, "table", None)
    if table is not None and getattr(table, "id", None) == table_id and table_id not in app.club.tables:
        getattr(app, "back_to_hall", app.show_hall)()


def _ban_json(ban: Ban) -> dict[str, Any]:
    return {"kind": ban.kind, "target": ban.target, "until": ban.until, "reason": ban.reason, "by": ban.by}


async def _answer(result: Any) -> Any:
    """A seat change's result, once the table's owner answered it; its refusal in the admin's words."""
    try:
        return await settled(result)
    except IllegalAction as err:
        raise AdminError(err.message if hasattr(err, "message") else str(err)) from None
