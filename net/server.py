"""The SSH door of the club: asyncssh server, identity by key, one session per channel.

A public key is a person: a new key chooses a name on the welcome screen, a
known key goes straight to the hall; a client with no key may enter as a
guest (keyboard-interactive with no questions) who can watch and chat.  A
player's session runs its own ``ClubApp`` (his view is private); a watcher's
session joins the table's shared rendering (``net.spectate``).

asyncssh's defaults are changed where NET.md measured a trap: no line
editor, no agent or X11 forwarding, keepalives, a login timeout, and channels
in bytes (``encoding=None``) decoded here with ``errors="replace"`` — one bad
byte must never drop a connection, and watchers get the same encoded frame.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from pathlib import Path
from typing import Any, Callable

import asyncssh

from net.config import Config
from net.driver import attach
from net.identity import StoreAccounts
from net.runtime import Runtime
from net.spectate import Hubs, HubKey, Member
from net.watch import Watching
from net.texts import text

log = logging.getLogger("sukno.server")

HOST_KEY_NAME = "ssh_host_ed25519_key"


def configure_textual() -> None:
    """Process-wide Textual settings that must not vary between sessions (NET.md)."""
    from textual import constants

    if not os.environ.get("TEXTUAL_COLOR_SYSTEM"):
        constants.COLOR_SYSTEM = "256"  # type: ignore[misc]  # clients send no COLORTERM
    loop = asyncio.get_running_loop()
    if hasattr(asyncio, "eager_task_factory"):  # Textual would switch on the first app otherwise
        loop.set_task_factory(asyncio.eager_task_factory)  # type: ignore[attr-defined]
    tune_gc()


GC_THRESHOLDS = (50_000, 20, 100)
COLLECT_EVERY = 10.0
COLLECT_QUIET = 1.0
COLLECT_MAX_WAIT = 60.0
COLLECT_MANY = 40  # ended Apps (~1 MB each) that are worth a pause even in play


def tune_gc() -> None:
    """Make the cyclic GC rare: with hundreds of sessions it was most of the CPU.

    Measured (tests/bench/ssh_load.py, 200 watchers): with Python's defaults the
    collector took 85 of the 122 ms of CPU each game action cost, and its full
    passes over a big heap were the latency's long tail.  Textual's renders
    make many short-lived objects that refcounting frees anyway; collecting
    every 50 000 allocations instead of 700 lets them die uncounted.  The code
    loaded at start is frozen out of the collector's scans for good.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def host_key(data: Path) -> asyncssh.SSHKey:
    """The server's ed25519 key: made on first start (mode 0600), then always the same."""
    data.mkdir(parents=True, exist_ok=True)
    path = data / HOST_KEY_NAME
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        log.info("made a new host key %s (%s)", path, key.get_fingerprint())
        return key
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
        log.warning("host key %s was readable by others; made it 0600", path)
    return asyncssh.read_private_key(str(path))


def locale_of(env: dict[str, str]) -> tuple[str, bool]:
    """(language, ascii) from the client's LANG/LC_*: Russian if asked, ASCII if not UTF-8."""
    def first(*names: str) -> str:
        for name in names:
            value = env.get(name, "")
            if value:
                return value
        return ""

    messages = first("LC_ALL", "LC_MESSAGES", "LANG")
    ctype = first("LC_ALL", "LC_CTYPE", "LANG")
    lang = "ru" if messages.lower().startswith("ru") else "en"
    ascii_only = bool(ctype) and not re.search(r"utf-?8", ctype, re.IGNORECASE)
    return lang, ascii_only


class TokenBucket:
    """``rate`` per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self, amount: float) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < amount:
            return False
        self.level -= amount
        return True


class _Connection(asyncssh.SSHServer):
    """One SSH connection: who it is (key fingerprint or guest) and where from."""

    def __init__(self, server: SuknoServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.fingerprint: str | None = None
        self.guest = False
        self.refused: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        self.refused = self.server.admit_connection(self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None

    def begin_auth(self, username: str) -> bool:
        return True  # always ask, or clients never show their keys

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.fingerprint = key.get_fingerprint("sha256")
        return True  # any key: an unknown one registers a name

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.guest = self.fingerprint is None  # no key offered (or none accepted): a guest
        self.fingerprint = None
        return True

    def session_requested(self) -> Session:
        return Session(self.server, self)


class Session(Watching, asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One terminal: a player's own App, or a place among a table's watchers."""

    def __init__(self, server: SuknoServer, conn: _Connection) -> None:
        self.server = server
        self.conn = conn
        self.chan: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self.term = ""
        self.cols, self.rows = 80, 24
        self.has_pty = False
        self.lang, self.ascii = "en", False
        self.name: str | None = None
        self.guest = False
        self.app: Any = None
        self.driver: Any = None
        self.member: Member | None = None
        self.closed = False
        self.started = time.monotonic()
        self.last_input = self.started
        self.watching: int | None = None
        self._next: tuple[str, Any] | None = None
        self._watch_done: asyncio.Future[tuple[str, Any] | None] | None = None
        self._chan_paused = False
        self._poll: asyncio.TimerHandle | None = None
        self._input = TokenBucket(server.config.input_bytes_per_second, server.config.input_burst)
        self._task: asyncio.Task[None] | None = None
        self._rewatch: asyncio.Task[None] | None = None
        self._farewell: str | None = None
        self.command = ""

    # -- asyncssh callbacks ---------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self.chan = chan
        chan.set_write_buffer_limits(high=self.server.config.buffer_limit)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.has_pty = True
        self.term = term_type or ""
        self.cols, self.rows = max(1, term_size[0] or 80), max(1, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # With a pty it is the club (``ssh -t host watch 3`` goes straight to table 3's
        # watchers); without one, a refusal.
        self.command = command or ""
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._main(), name="sukno session")
        self.server.sessions.add(self)

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.closed:
            return
        if not self._input.take(len(data)):
            return  # over the input rate: dropped, like keys pressed into a full buffer
        self.last_input = time.monotonic()
        if self.driver is not None:
            self.driver.feed(data)
        elif self.member is not None:
            self.member.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.cols, self.rows = max(1, width or 1), max(1, height or 1)
        if self.driver is not None:
            self.driver.resize(*self.app_size())
        elif self.member is not None and self.watching is not None:
            self._start_rewatch()

    def eof_received(self) -> bool:
        self._lost()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost()

    def pause_writing(self) -> None:
        self._chan_paused = True

    def resume_writing(self) -> None:
        self._chan_paused = False
        self._resumed()

    def break_received(self, msec: int) -> bool:
        return True

    # -- the link a driver or a watcher writes through -----------------------------------

    @property
    def paused(self) -> bool:
        return self._chan_paused or self.buffered() > self.server.config.buffer_limit

    def buffered(self) -> int:
        """Bytes queued to this client: in the channel and in the connection's transport."""
        if self.chan is None:
            return 0
        size = self.chan.get_write_buffer_size()
        transport = getattr(self.conn.conn, "_transport", None)
        if transport is not None:
            size += transport.get_write_buffer_size()
        return size

    def send(self, data: bytes) -> None:
        if self.closed or self.chan is None:
            return
        try:
            self.chan.write(data)
        except (asyncssh.Error, OSError, BrokenPipeError):
            self._lost()
        if self.driver is not None and self.paused:
            self._schedule_poll()

    def _schedule_poll(self) -> None:
        if self._poll is None and not self.closed:
            self._poll = asyncio.get_running_loop().call_later(0.1, self._polled)

    def _polled(self) -> None:
        self._poll = None
        if self.paused:
            self._schedule_poll()
        else:
            self._resumed()

    def _resumed(self) -> None:
        if self.driver is not None:
            self.driver.resume()
        elif self.member is not None and self.member.hub is not None:
            self.member.hub.check_stale()

    def app_size(self) -> tuple[int, int]:
        """The window, capped: a huge window is drawn in its top-left corner."""
        config = self.server.config
        return min(self.cols, config.max_cols), min(self.rows, config.max_rows)

    # -- life of a session ---------------------------------------------------------------

    def write_line(self, line: str) -> None:
        self.send((line.replace("\n", "\r\n") + "\r\n").encode("utf-8", "replace"))

    def finish(self, status: int = 0, message: str | None = None) -> None:
        """Say goodbye (if anything to say) and close with an exit status."""
        if self.closed or self.chan is None:
            return
        if message:
            self.write_line(message)
        try:
            self.chan.exit(status)
        except (asyncssh.Error, OSError):
            pass

    async def _main(self) -> None:
        try:
            await self._serve()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session of %s failed", self.name or self.conn.peer)
            self._leave_screen()
            self.finish(1, text(self.lang, "failed"))
        finally:
            self._cleanup()
            self.server.forget(self)

    async def _serve(self) -> None:
        assert self.chan is not None
        self.lang, self.ascii = locale_of(dict(self.chan.get_environment()))
        config = self.server.config
        if not self.has_pty:
            self.finish(1, text(self.lang, "no_pty", port=self.server.port, host=self.server.shown_host))
            return
        refusal = self.conn.refused or self.server.admit_session(self)
        if refusal:
            self.finish(1, text(self.lang, "full", what=refusal))
            return
        if self.conn.guest or self.conn.fingerprint is None:
            self.guest = True
            self.name = self.server.guest_name()
        else:
            self.name = self.server.accounts.name_for(self.conn.fingerprint)
            if self.name and self.server.count_account(self.name) > config.max_sessions_per_account:
                self.finish(1, text(self.lang, "full", what=f"{self.name} × {config.max_sessions_per_account}"))
                return
        refusal = self.server.gate(self)
        if refusal:
            self.finish(1, refusal)
            return
        step = self._first_step()
        while step is not None and not self.closed:
            kind, arg = step
            step = await (self._run_app() if kind == "hall" else self._watch(int(arg)))
        self.finish(0, self._farewell)

    def _first_step(self) -> tuple[str, Any]:
        """The hall, or a table's watchers for ``watch N`` given as the ssh command."""
        match = re.fullmatch(r"\s*(?:watch|смотреть)\s+(\d{1,6})\s*", self.command, re.IGNORECASE)
        if match and self.name is not None and int(match.group(1)) in self.server.club.tables:
            self.server.club.enter(self.name, guest=self.guest)  # _watch's end says he left
            return ("watch", int(match.group(1)))
        return ("hall", None)

    async def _run_app(self) -> tuple[str, Any] | None:
        """Run the player's own App until it ends; what to do next (watch a table, or nothing)."""
        self._next = None
        app = self.server.make_player_app(self)
        attach(app, self)
        self.app = app
        try:
            await app.run_async(size=self.app_size())
        finally:
            self.app = None
            self.driver = None
            self.server.apps_ended += 1
        if self.closed:
            return None
        if self._next is None:
            self._leave_screen()
        return self._next

    def register(self, name: str) -> str | None:
        """The welcome screen's choice of a name for this key; None, or why not."""
        if self.guest or self.conn.fingerprint is None:
            return text(self.lang, "guest_sit")
        problem = self.server.accounts.register(self.conn.fingerprint, name, self.lang)
        if problem is None:
            self.name = name.strip()
            log.info("registered %s for key %s from %s", self.name, self.conn.fingerprint, self.conn.peer)
        return problem

    def on_watch(self, table_id: int) -> None:
        """``watch N`` typed in the App: end it and join the table's shared view."""
        if self.closed or self.name is None or table_id not in self.server.club.tables:
            return
        # Count this session in the club before the App's unmount says we left.
        self.server.club.enter(self.name, guest=self.guest)
        self._next = ("watch", table_id)
        if self.app is not None:
            self.app.exit()

    def _leave_screen(self) -> None:
        self.send(b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?2004l\x1b[?1049l")

    # -- the end -----------------------------------------------------------------------------

    def _lost(self) -> None:
        """The client is gone (or going): stop its App or leave its hub; the seat is kept."""
        if self.closed:
            return
        self.closed = True
        if self.app is not None:
            self.app.exit()
        self._end_watch(None)

    def _cleanup(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        duration = time.monotonic() - self.started
        log.info(
            "session peer=%s name=%s key=%s term=%s size=%dx%d lang=%s duration=%.1fs",
            self.conn.peer, self.name or "-", self.conn.fingerprint or ("guest" if self.guest else "-"),
            self.term or "-", self.cols, self.rows, self.lang, duration,
        )
        if self.chan is not None and not self.closed:
            try:
                self.chan.close()
            except (asyncssh.Error, OSError):
                pass
        self.closed = True

    async def close(self, message: str | None = None) -> None:
        """Close from the server's side (shutdown, idle): say why, end the App, wait."""
        if self.closed:
            return
        self._farewell = message
        if self.app is not None:
            self._next = None
            self.app.exit()
        self._end_watch(None)
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass
        self.finish(0, message)


PlayerAppFactory = Callable[[Session], Any]
SpectatorAppFactory = Callable[[HubKey, int, int], Any]


class SuknoServer:
    """The club's SSH server: start, serve sessions, stop (telling everyone)."""

    def __init__(
        self,
        config: Config,
        *,
        club: Any = None,
        accounts: Any = None,
        store: Any = None,
        player_app: PlayerAppFactory | None = None,
        spectator_app: SpectatorAppFactory | None = None,
    ) -> None:
        self.config = config
        self._own_store = store is None
        if store is None:  # ``sukno serve`` opens it itself to report a StoreError; tests need not
            from engine.store import open_store

            config.data.mkdir(parents=True, exist_ok=True)
            store = open_store(config.data, exclusive=True)
        self.store = store
        if club is None:
            from engine.club import Club

            club = Club(config.tables, store=store, now=time.monotonic())
            for game in getattr(club, "skipped", []):
                log.warning("config: no game %r installed; its table is not opened", game)
            for problem in getattr(club, "restore_errors", []):
                log.error("not restored: %s", problem)
            log.info("tables: %s", ", ".join(f"{t.id} {t.game_name}" for t in club.tables.values()))
        self.club = club
        if accounts is None:
            accounts = StoreAccounts(store, config.grant)
        self.accounts = accounts
        self._player_app = player_app or _club_app
        # SpectatorApp leaves its own bottom row empty for the watcher's command line.
        self.hubs = Hubs(spectator_app or self._spectator_app, config.buckets,
                         buffer_limit=config.buffer_limit, reserve_rows=0)
        self.sessions: set[Session] = set()
        self.runtime = Runtime(club)
        self.port = config.port
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._buckets: dict[str, TokenBucket] = {}
        self._guests = 0
        self._sweeper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self.apps_ended = 0
        self.gates: list[Callable[[Session], str | None]] = []
        """Checks on a session once its name is known (bans): a farewell line refuses it."""

    @property
    def shown_host(self) -> str:
        return "localhost" if self.config.host in ("127.0.0.1", "::1", "0.0.0.0", "") else self.config.host

    def make_player_app(self, session: Session) -> Any:
        return self._player_app(session)

    def _spectator_app(self, key: HubKey, cols: int, rows: int) -> Any:
        from tui.spectator import SpectatorApp

        return SpectatorApp(self.club, key.table_id, lang=key.lang, ascii=key.ascii)

    async def start(self) -> None:
        configure_textual()
        config = self.config
        options: dict[str, Any] = dict(
            server_host_keys=[host_key(config.data)],
            line_editor=False,
            encoding=None,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_pty=True,
            keepalive_interval=config.keepalive_interval or None,
            keepalive_count_max=config.keepalive_count_max,
            login_timeout=config.login_timeout or None,
            server_version="sukno",
        )
        if config.ciphers:
            options["encryption_algs"] = config.ciphers
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), config.host, config.port, **options
        )
        sockets = self._acceptor.sockets
        if sockets:
            self.port = sockets[0].getsockname()[1]
        self.runtime.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="sukno sweeper")
        self._collector = asyncio.get_running_loop().create_task(self._collect(), name="sukno collector")
        log.info("sukno listening on %s:%d (data %s)", config.host, self.port, config.data)

    async def _collect(self) -> None:
        """A full GC pass when Apps have ended, at a quiet moment of the tables.

        With the collector tuned to run rarely (``tune_gc``), an ended App's
        cycles (~1 MB) sit in the oldest generation until a full pass, so the
        garbage of ended sessions would pile up.  A full pass with 200 sessions
        took up to ~1 s, which during play became the p99 of every screen
        (881 ms in the bench); so it waits (at most COLLECT_MAX_WAIT s, or until
        COLLECT_MANY Apps have ended) for a moment with no table event for
        COLLECT_QUIET s — a card table has many.
        """
        import gc

        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(COLLECT_EVERY)
            if self.apps_ended:
                waited = 0.0
                while (loop.time() - self.runtime.last_event < COLLECT_QUIET and waited < COLLECT_MAX_WAIT
                       and self.apps_ended < COLLECT_MANY):
                    await asyncio.sleep(0.25)
                    waited += 0.25
                self.apps_ended = 0
                started = time.perf_counter()
                found = gc.collect()
                log.debug("gc: %d objects in %.0f ms", found, (time.perf_counter() - started) * 1000)

    async def _sweep(self) -> None:
        """Show out sessions idle too long or over the time limit (their seats are kept)."""
        config = self.config
        limits = [t for t in (config.idle_timeout, config.max_session_time) if t]
        period = min([5.0] + [t / 4 for t in limits])
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for session in list(self.sessions):
                if config.idle_timeout and now - session.last_input > config.idle_timeout:
                    await session.close(text(session.lang, "idle"))
                elif config.max_session_time and now - session.started > config.max_session_time:
                    await session.close(text(session.lang, "too_long"))

    # -- limits --------------------------------------------------------------------------

    def admit_connection(self, peer: str) -> str | None:
        bucket = self._buckets.get(peer)
        if bucket is None:
            if len(self._buckets) > 10000:
                self._buckets.clear()
            rate = self.config.connections_per_minute
            bucket = self._buckets[peer] = TokenBucket(rate / 60, max(1, rate))
        return None if bucket.take(1) else f"{peer}: too many connections"

    def admit_session(self, session: Session) -> str | None:
        config = self.config
        if len(self.sessions) > config.max_sessions:
            return f"{config.max_sessions} sessions"
        same = sum(1 for s in self.sessions if s.conn.peer == session.conn.peer)
        if same > config.max_sessions_per_address:
            return f"{config.max_sessions_per_address} from {session.conn.peer}"
        return None

    def count_account(self, name: str) -> int:
        return sum(1 for s in self.sessions if s.name == name and not s.closed)

    def guest_name(self) -> str:
        while True:
            self._guests += 1
            name = f"guest-{self._guests}"
            if not self.club.is_online(name):
                return name

    def gate(self, session: Session) -> str | None:
        for check in self.gates:
            refusal = check(session)
            if refusal:
                return refusal
        return None

    def stop_accepting(self) -> None:
        """Take no new connections (a shutdown's grace); the sessions in progress go on."""
        if self._acceptor is not None:
            self._acceptor.close()

    def forget(self, session: Session) -> None:
        self.sessions.discard(session)

    # -- stop ---------------------------------------------------------------------------

    async def stop(self, message: str | None = "closing") -> None:
        """Tell everyone, end every App and hub, close the port, wait for the sessions."""
        if self._acceptor is not None:
            self._acceptor.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._collector is not None:
            self._collector.cancel()
        sessions = list(self.sessions)
        await asyncio.gather(
            *(s.close(text(s.lang, message) if message else None) for s in sessions),
            return_exceptions=True,
        )
        await self.hubs.close()
        await self.runtime.stop()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
            self._acceptor = None
        if self._own_store and self.store is not None:
            self.store.close()
            self.store = None


def _club_app(session: Session) -> Any:
    from net.admin import admin_runner
    from tui.app import ClubApp

    return ClubApp(
        session.server.club,
        session.name,
        lang=session.lang,
        ascii=session.ascii,
        guest=session.guest,
        register=session.register,
        on_watch=session.on_watch,
        admin=admin_runner(session),
    )
