"""The admin commands against a running ``SuknoServer`` (``net.house.admin`` carries them).

Each verb takes the words after it and who asks, and returns a ``Reply``
(``net.house.verbs``); a refusal is an ``AdminError`` (status 1) or a
``UsageError`` (status 2) and changes nothing.  The verbs come in groups, each a
module: the club's tables and ledger (``net.house.clubverbs``), bans and mutes
(``net.house.discipline``); here are the house they act on (its store thread,
the other nodes it may ask) and the verbs that need the server itself (sessions,
kick, say, shutdown).

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
from pathlib import Path
from typing import Any, Callable

from engine.table.admin_ops import AdminError
from engine.store.base import AccountError, StoreError
from engine.table.owner import sanitize
from net.house import figures
from net.house import accountverbs, clubverbs, discipline, moderation
from net.house.bans import AUDIT_NAME, BANS_NAME, AuditLog, BanList
from net.house.discipline import ban_hits, ban_text
from net.house.roster import admin_keys, broadcast, session_rows, sessions_text
from net.house.shut import ShutAccounts, read_shut
from net.house.verbs import COMMANDS, HELP, MAX_GRACE, READ_ONLY, Reply, UsageError, flag, need
from net.ssh.identity import fold
from net.modes.texts import text

log = logging.getLogger("sukno.admin")

_LOCAL_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("sukno_admin_local_only", default=False)
"""True while running a command another node asked of this one: it never asks a node in turn."""


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
        self.shut = ShutAccounts()
        """The disabled and closed accounts (read by the store thread): refused at every door."""
        server.gates += [self._gate, self.shut.gate]
        unhear, unlisten = self.club.subscribe(self._club_events), moderation.listen(self)  # admins hear reports
        self._unsubscribe = lambda: (unhear(), unlisten())
        self.admin_keys = admin_keys(server.config, getattr(server, "store", None))
        """The keys whose sessions may type ``admin …`` (``net.house.admin.admin_runner``)."""
        self._probe: asyncio.Task[None] | None = None
        self.store_reads: Any = None  # net.ssh.offloop.StoreThread: the bans and mutes, read off the loop
        self._later_before: Callable[[Callable[[Any], Any]], None] | None = None
        """The ``social.later`` this console replaced (the server's store-thread writer): back at ``close``."""
        self.relay: Any = None
        """``net.cluster.clubwide.AdminRelay`` on a node of several (``join_cluster``), else None."""
        self.house_relay: Any = None  # net.cluster.housewide.HouseRelay, as ``relay``

    def watch_store(self) -> None:
        """Probe the store every ``STORE_PROBE`` seconds, so a vanished database is noticed (and everyone
        told) even while nobody acts; a write would refuse anyway (``engine.store.sqlite``).  The bans
        (and on a shared store the mutes, another node's admin may change them) are read again as often,
        by a thread with its own store connection (``net.ssh.offloop``): never a store call on the loop."""
        store = getattr(self.server, "store", None)
        if self._probe is None and hasattr(store, "check"):
            self._probe = asyncio.get_running_loop().create_task(self._probe_store(), name="sukno store probe")
        if self.store_reads is None and store is not None and hasattr(store, "bans"):
            from net.ssh.offloop import StoreThread

            reads = StoreThread(store, "sukno bans", self.STORE_PROBE)
            reads.add("the bans", self.bans.read_pruned, self._bans_read)
            reads.add("the shut accounts", read_shut, lambda got: self.shut.read_back(got, self.server, self.show_out))
            if getattr(self.server.config, "store_url", ""):  # a shared store: other nodes' mutes too
                social = self.club.social
                reads.add("the mutes", lambda own: (social.mutes_made, own.mutes()),
                          lambda got: social.set_mutes(got[1], got[0]))
            self.bans.fed = True
            self.store_reads = reads
            reads.start()
            self._later_before = self.club.social.later  # the server's writer, given back at ``close``
            self.club.social.later = self._later

    def _later(self, work: Callable[[Any], Any]) -> None:
        """A store write nobody awaits (an expired mute cleared): the thread makes it; a failure is logged."""
        reads = self.store_reads
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
        for relay in (self.relay, self.house_relay):
            if relay is not None:
                relay.stop()
        self.relay = self.house_relay = None
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
        if self.store_reads is not None:
            if self.club.social.later == self._later:  # still ours: the writer it replaced takes over again
                self.club.social.later = self._later_before
            self.store_reads.stop(timeout=2.0)
            self.store_reads = None
        self._unsubscribe()
        self.server.gates[:] = [g for g in self.server.gates if g not in (self._gate, self.shut.gate)]

    # -- running a command ----------------------------------------------------------

    def join_cluster(self) -> None:
        """On a node of several: kick and close reach the node that can do them (net/cluster/clubwide.py),
        and the house's news (a report) every node's admins (net/cluster/housewide.py)."""
        node = getattr(self.server, "node", None)
        if self.relay is None and node is not None:
            from net.cluster.clubwide import AdminRelay
            from net.cluster.housewide import HouseRelay

            self.relay = AdminRelay(self, node.notices, node.name)
            self.relay.start()
            self.house_relay = HouseRelay(self, node.notices, node.name)  # reports heard on every node
            self.house_relay.start()

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
            group = next((g for g in (discipline, clubverbs, accountverbs, moderation) if verb in g.VERBS), None)
            if group is not None:
                reply = await getattr(group, verb)(self, args, who)
            else:
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
                self.audit.write(who, argv, reply.ok, reply.audit or reply.text)
            except OSError as err:
                log.error("cannot write the audit log: %s", err)
        return reply

    # -- listings -------------------------------------------------------------------

    async def do_help(self, args: list[str], who: str) -> Reply:
        from net.house.options_help import options_text

        return Reply(True, f"{HELP}\n\n{options_text()}", {"commands": list(COMMANDS)})

    async def do_metrics(self, args: list[str], who: str) -> Reply:
        need(args, 0, "metrics", 0)
        text = figures.metrics_text(self.server)
        return Reply(True, text.rstrip("\n") or "no figures", {"metrics": text})

    async def do_health(self, args: list[str], who: str) -> Reply:
        need(args, 0, "health", 0)
        reads = self.store_reads
        ok, facts = await figures.health(self.server, reads.run if reads is not None else None)
        words = f"the loop answers; the store: {facts['store']}"
        return Reply(ok, words, facts, status=0 if ok else 1)

    async def do_ratings(self, args: list[str], who: str) -> Reply:
        args, again = flag(args, "--recompute")
        need(args, 0, "ratings [GAME] [--recompute]", 1)
        store = getattr(self.server, "store", None)
        if store is None or not hasattr(store, "ratings_book"):
            raise AdminError("this club keeps no ratings (no store)")
        reads = self.store_reads
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

    def session_rows(self) -> list[dict[str, Any]]:
        return session_rows(self.server)

    async def do_sessions(self, args: list[str], who: str) -> Reply:
        need(args, 0, "sessions", 0)
        rows = session_rows(self.server)
        if not rows:
            return Reply(True, "nobody is connected", {"sessions": []})
        return Reply(True, sessions_text(rows), {"sessions": rows})

    def account_name(self, name: str) -> str:
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

    # -- people ---------------------------------------------------------------------

    def _sessions_of(self, name: str) -> list[Any]:
        wanted = fold(name)
        return [s for s in self.server.sessions if s.name and fold(s.name) == wanted and not s.closed]

    async def show_out(self, sessions: list[Any], farewell: Callable[[Any], str]) -> None:
        await asyncio.gather(*(s.close(farewell(s)) for s in sessions), return_exceptions=True)

    async def do_kick(self, args: list[str], who: str) -> Reply:
        need(args, 1, "kick NAME [reason …]")
        name, reason = args[0], sanitize(" ".join(args[1:]))
        sessions = self._sessions_of(name)
        far = self._nodes_of(name)  # his sessions on other nodes: each of them shows him out there
        if not sessions and not far:
            raise AdminError(f"nobody named {name!r} is connected")

        def farewell(s: Any) -> str:
            return text(s.lang, "kicked", reason=reason) if reason else text(s.lang, "kicked_plain")

        await self.show_out(sessions, farewell)
        said = [f"showed out {sessions[0].name} ({len(sessions)} session(s))"] if sessions else []
        refused: list[str] = []
        for node in far:
            try:
                said.append((await self.ask(node, ["kick", *args], who)).text)
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

    async def ask(self, node: str, argv: list[str], who: str) -> Reply:
        """Run ``argv`` on ``node`` (``net.cluster.clubwide``); its answer, said as from that node."""
        if self.relay is None or _LOCAL_ONLY.get():
            raise AdminError(f"that is node {node}'s to do, and it cannot be asked from here")
        ok, status, answer = await self.relay.ask(node, argv, who)
        if not ok:
            raise AdminError(f"node {node}: {answer}") if status != 2 else UsageError(f"node {node}: {answer}")
        return Reply(True, f"node {node}: {answer}", {"node": node})

    STORE_WAIT = 10.0
    """Seconds an admin's change waits for the store's thread before it is refused (the thread makes
    it still if the store answers later)."""

    async def off_loop(self, change: Callable[[Callable[[Any], Any]], Any]) -> Any:
        """``change(run)``: an admin's store write made by the bans' thread; its ``StoreError`` (or no
        answer in ``STORE_WAIT`` s) a refusal that says so."""
        reads = self.store_reads

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
            hit = [s for s in self.server.sessions if not s.closed and ban_hits(ban, s)]
            if hit:
                log.info("a ban of %s %s (by %s) ends %d session(s) here", ban.kind, ban.target, ban.by, len(hit))
                await self.show_out(hit, lambda s: ban_text(ban, s.lang))  # awaited in this turn of the loop

    def known(self, name: str) -> bool:
        try:
            self.account_name(name)
            return True
        except AdminError:
            return False

    def _gate(self, session: Any) -> str | None:
        """The server's check on every new session: a ban's farewell, or None."""
        ban = self.bans.matching(name=session.name, key=session.conn.fingerprint, address=session.conn.peer)
        if ban is None:
            return None
        log.info("refused %s (%s, %s): banned %s %s", session.name, session.conn.peer,
                 session.conn.fingerprint, ban.kind, ban.target)
        return ban_text(ban, session.lang)

    async def do_say(self, args: list[str], who: str) -> Reply:
        words = sanitize(" ".join(args))
        if not words:
            raise UsageError("usage: say TEXT …")
        count = self.broadcast(lambda lang: f"{text(lang, 'announce')}: {words}")
        return Reply(True, f"told {count} session(s)", {"sessions": count})

    def broadcast(self, line: Callable[[str], str]) -> int:
        """Show a line to every session of this node (``net.house.roster.broadcast``)."""
        return broadcast(self.server.sessions, line)

    # -- closing the house ----------------------------------------------------------

    async def do_shutdown(self, args: list[str], who: str) -> Reply:
        args, grace_word = flag(args, "--grace", takes_value=True)
        need(args, 0, "shutdown [--grace SECONDS]", 0)
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


def _back_to_hall(app: Any, table_id: int) -> None:
    table = getattr(app.screen, "table", None)
    if table is not None and getattr(table, "id", None) == table_id and table_id not in app.club.tables:
        getattr(app, "back_to_hall", app.show_hall)()
