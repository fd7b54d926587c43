"""The SSH door of the club: asyncssh server, identity by key, one session per channel.

A public key is a person: a new key chooses a name on the welcome screen, a
known key goes straight to the hall; a client with no key may enter as a
guest (keyboard-interactive with no questions) who can watch and chat.  Each
channel is a ``net.ssh.session.Session``; the door's limits are ``net.ssh.limits``,
the collector's tuning ``net.ssh.collector``.

asyncssh's defaults are changed where they are a trap for a TUI: no line
editor, no agent or X11 forwarding, keepalives, a login timeout, and channels
in bytes (``encoding=None``) decoded here with ``errors="replace"`` — one bad
byte must never drop a connection, and watchers get the same encoded frame.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path
from typing import Any, Callable

import asyncssh
from asyncssh.kex import get_kex_algs
from asyncssh.mac import get_mac_algs

from net.ssh.collector import collect_when_quiet, tune_gc
from net.config import Config
from net.ssh.door import Door
from net.ssh.hostkey import HOST_KEY_NAME, club_host_key
from net.ssh.hostkey import data_folder_key as host_key
from net.ssh.identity import StoreAccounts
from net.ssh.limits import Limits, StartQueue
from net.ssh.offloop import StoreThread
from net.ssh.runtime import Runtime
from net.ssh.session import START_TIMEOUT, Session
from net.ssh.startup import start_services, stop_services
from net.ssh.warm import warm_imports
from net.ssh.steps import club_app as _club_app
from net.ssh.steps import locale_of
from net.modes.spectate import Hubs, HubKey
from net.ssh.sshcompat import lighten
from net.modes.texts import text
from net.textual_compat import keep_tasks_lazy, strips_without_cycles

# ``locale_of`` lives with the session's steps now; it is still importable from here, as before.
__all__ = ["HOST_KEY_NAME", "PlayerAppFactory", "Session", "SpectatorAppFactory", "SuknoServer",
           "configure_textual", "host_key", "locale_of"]

log = logging.getLogger("sukno.server")


KEX_ALGS = [
    "curve25519-sha256", "curve25519-sha256@libssh.org", "mlkem768x25519-sha256", "curve448-sha512",
    "ecdh-sha2-nistp521", "ecdh-sha2-nistp384", "ecdh-sha2-nistp256",
    "diffie-hellman-group-exchange-sha256", "diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512",
    "diffie-hellman-group14-sha256",
]
"""Key exchanges offered, in this order; no SHA-1 (``diffie-hellman-group14-sha1`` is gone).

``curve25519-sha256`` comes first because Dropbear sends its first key
exchange packet on a guess (``first_kex_packet_follows``) and, by RFC 4253
§7, the guess is right only when both sides list the same method first.
asyncssh's default list starts with ``mlkem768x25519-sha256``: Dropbear took
its guess for wrong and sent the packet again, asyncssh (which judges the
guess by the method chosen) had already used the first one and aborted with
"Key exchange not in progress".  With the same first method both agree.
"""

MAC_ALGS = [
    "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
]
"""MACs for the non-AEAD ciphers (AES-CTR: Dropbear, and OpenSSH, whose first choice of our ciphers it is):
SHA-2 only, no SHA-1 or MD5, and no UMAC.  The client's order decides (RFC 4253 §7.1), and OpenSSH puts
``umac-64-etm`` first: offered, it was every OpenSSH client's MAC, which asyncssh computes through
ctypes at 5.1 µs a packet with AES-CTR against 2.4 µs for ``hmac-sha2-256-etm`` (AES-GCM: 2.7 µs),
for every packet of every frame to every OpenSSH person (tests/bench/connect_bench.py);
its 64-bit tag was the weakest MAC offered too."""


def configure_textual() -> None:
    """Process-wide Textual settings that must not vary between sessions."""
    from textual import constants

    if not os.environ.get("TEXTUAL_COLOR_SYSTEM"):
        constants.COLOR_SYSTEM = "256"  # type: ignore[misc]  # clients send no COLORTERM
    keep_tasks_lazy(asyncio.get_running_loop())  # asyncssh needs lazy tasks (net/textual_compat.py)
    strips_without_cycles()  # a frame's lines are freed when drawn, not by the cyclic GC
    tune_gc()


def _known(wanted: list[str], known: list[bytes]) -> list[str]:
    """The names of ``wanted`` this asyncssh build has (post-quantum ones may be missing)."""
    return [name for name in wanted if name.encode() in known]


class _Connection(asyncssh.SSHServer):
    """One SSH connection: who it is (key fingerprint or guest) and where from."""

    def __init__(self, server: SuknoServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.fingerprint: str | None = None
        self.guest = False
        self.refused: str | None = None
        self.accepted = time.monotonic()
        self.arriving = True
        """Between the TCP accept and his first screen (``SuknoServer.connecting``)."""
        self.open_sessions: set[Session] = set()
        self._door_timer: asyncio.TimerHandle | None = None
        self.username = ""
        self.client_version = ""
        """The client's user name and version string: its own words, logged only through
        ``net.ssh.logsafe.clean``."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        lighten(conn)  # no empty IGNORE packet before each packet: the club's ciphers need none (net.ssh.sshcompat)
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        self.server.connections.add(self)  # admitted by the door (net.ssh.door) before SSH began

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None
        self.arriving = False
        self.server.connections.discard(self)
        self._disarm()

    # -- a connection holds sessions, or is closed ----------------------------------------

    def auth_completed(self) -> None:
        self._arm()  # logged in: now it must open a session in time

    def session_opened(self, session: Session) -> None:
        self.open_sessions.add(session)
        self._disarm()

    def session_closed(self, session: Session) -> None:
        self.open_sessions.discard(session)
        if not self.open_sessions and self.conn is not None:
            self._arm()

    def _arm(self) -> None:
        """Close this connection if it holds no session for the login timeout (it costs a place)."""
        self._disarm()
        wait = self.server.config.login_timeout or START_TIMEOUT
        self._door_timer = asyncio.get_running_loop().call_later(wait, self._no_session)

    def _disarm(self) -> None:
        if self._door_timer is not None:
            self._door_timer.cancel()
            self._door_timer = None

    def _no_session(self) -> None:
        self._door_timer = None
        if not self.open_sessions and self.conn is not None:
            log.info("connection from %s opened no session; closed", self.peer)
            self.conn.close()

    def begin_auth(self, username: str) -> bool:
        self.username = username[:256]
        if self.conn is not None:
            self.client_version = str(self.conn.get_extra_info("client_version", ""))[:256]
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


CONNECTING_MAX = 2.0
"""Seconds a connection without a first screen counts as arriving (a stuck one stops counting)."""

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
            from engine.store.base import make_data_folder
            from engine.store.opening import open_store

            fresh = make_data_folder(config.data)
            store = open_store(config.data, exclusive=True, new=fresh or config.new)
        self.store = store
        if club is None:
            from engine.table.club import Club

            club = Club(config.tables, store=store, now=time.monotonic())
            for game in getattr(club, "skipped", []):
                log.warning("config: no game %r installed; its table is not opened", game)
            for problem in getattr(club, "restore_errors", []):
                log.error("not restored: %s", problem)
            log.info("tables: %s", ", ".join(f"{t.id} {t.game_name}" for t in club.tables.values()))
        self.club = club
        from tui.chat import limit_chat

        limit_chat(club, config.chat_lines_per_second, config.chat_burst)
        if accounts is None:
            accounts = StoreAccounts(store, config.grant, reserved=config.admins)
        self.accounts = accounts
        self._player_app = player_app or _club_app
        from net.modes.hall import make_board

        self.hall_doors = player_app is None
        """People in the hall get a light door, not an App; a test's own player App keeps the hall."""
        self.hall_board = make_board(club)
        self.hall_board.connecting = self.connecting  # arrivals are told once the burst has its first frames
        # SpectatorApp leaves its own bottom two rows empty for the watcher's note and command line.
        self.hubs = Hubs(spectator_app or self._spectator_app, config.buckets,
                         buffer_limit=config.buffer_limit, reserve_rows=0)
        self.sessions: set[Session] = set()
        self.app_starts = StartQueue()
        """One player's App mounts at a time, addresses in turn (``net.ssh.steps.run_in_turn``)."""
        self.connections: set[_Connection] = set()
        """Every SSH connection, with or without a session: ``stop`` closes them all."""
        self.limits = Limits(config, self.sessions)
        self.runtime = Runtime(club)
        self.port = config.port
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._guests = 0
        self._sweeper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self.apps_ended = 0
        self.node: Any = None
        """One node of several (``net.cluster.node.Node``, set by ``sukno serve --node``), else None."""
        self.presence: Any = None
        """This node's sessions in the store, every node's read back (``net.cluster.presence``), once started."""
        self.arrivals: StoreThread | None = None
        """``net.ssh.offloop.StoreThread`` reading an arriving key's account off the loop (``net.ssh.arrival``), once started."""
        self.analyst: Any = None  # net.ssh.analyst.Analyst: analyses asked for in the club, in a worker process
        self.metrics: Any = None  # net.metrics.Metrics: the figures for Prometheus and ``sukno admin metrics``
        self.ratings: Any = None  # net.ssh.ratebook.RatingBook: the kept ratings, read off the loop
        self.balances: Any = None
        """``net.modes.balances.BalanceReads``: the hall doors' balances read off the loop, once started."""
        self._later: Callable[[Callable[[Any], Any]], None] | None = None
        """The ``social.later`` this server set (through ``arrivals``): taken off the club again at ``stop``."""
        self.gates: list[Callable[[Session], str | None]] = []
        """Checks on a session once its name is known (bans): a farewell line refuses it."""

    @property
    def shown_host(self) -> str:
        return "localhost" if self.config.host in ("127.0.0.1", "::1", "0.0.0.0", "") else self.config.host

    def make_player_app(self, session: Session) -> Any:
        return self._player_app(session)

    def _spectator_app(self, key: HubKey, cols: int, rows: int) -> Any:
        from tui.spectator import SpectatorApp

        return SpectatorApp(self.club, key.table_id, lang=key.lang, ascii=key.ascii, hide=key.hide)

    async def start(self) -> None:
        configure_textual()
        warm_imports()
        config = self.config
        options: dict[str, Any] = dict(
            server_host_keys=[club_host_key(config.data, self.store, config.host_key)],
            line_editor=False,
            encoding=None,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_pty=True,
            keepalive_interval=config.keepalive_interval or None,
            keepalive_count_max=config.keepalive_count_max,
            login_timeout=config.login_timeout or None,
            server_version="sukno",
            kex_algs=_known(KEX_ALGS, get_kex_algs()),
            mac_algs=_known(MAC_ALGS, get_mac_algs()),
        )
        if config.ciphers:
            options["encryption_algs"] = config.ciphers
        # Listening through the door: over-limit connections are closed before the key exchange.
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), config.host, config.port, tunnel=Door(self.limits, reuse_port=config.reuse_port), **options
        )
        sockets = self._acceptor.sockets
        if sockets:
            self.port = sockets[0].getsockname()[1]
        self.runtime.start()
        start_services(self)
        self._sweeper = asyncio.get_running_loop().create_task(self.limits.sweep(), name="sukno sweeper")
        self._collector = asyncio.get_running_loop().create_task(collect_when_quiet(self), name="sukno collector")
        log.info("sukno listening on %s:%d (data %s)", config.host, self.port, config.data)

    # -- who comes in, who goes ---------------------------------------------------------

    def connecting(self) -> bool:
        """Someone accepted in the last ``CONNECTING_MAX`` seconds has no first screen yet (a burst is
        arriving): the hall tells the arrivals after it (``net.modes.hallview.HallBoard.connecting``)."""
        since = time.monotonic() - CONNECTING_MAX
        return any(c.arriving and c.accepted > since for c in self.connections)

    def guest_name(self) -> str:
        while True:
            self._guests += 1
            name = f"guest-{self._guests}"
            if not self.club.is_online(name):
                return name

    def off_loop(self, work: Callable[[Any], Any]) -> asyncio.Future[Any]:
        """``work(store)`` for one person (his name written, a setting kept, a key linked, his ignore list)
        in the accounts' store thread (``arrivals``: its own PostgreSQL connection), awaited or handed to
        ``net.ssh.offloop.as_pending``: the loop never waits for the store.  Without that thread
        (not started, no store of accounts) it is made now, as before."""
        if self.arrivals is not None:
            return self.arrivals.run(work)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        try:
            future.set_result(work(getattr(self.accounts, "store", None) or self.store))
        except Exception as err:
            future.set_exception(err)
        return future

    def gate(self, session: Session) -> str | None:
        for check in self.gates:
            refusal = check(session)
            if refusal:
                return refusal
        return None

    def forget(self, session: Session) -> None:
        self.sessions.discard(session)
        session.conn.session_closed(session)

    # -- stop ---------------------------------------------------------------------------

    def stop_accepting(self) -> None:
        """Take no new connections (a shutdown's grace); the sessions in progress go on."""
        if self._acceptor is not None:
            self._acceptor.close()

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
        stop_services(self)
        # Python 3.12+ waits in ``wait_closed`` for every connection the acceptor made, so a
        # connection with no session left (kicked, mid-login) must be closed here, not left open.
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        if self._acceptor is not None:
            try:
                await asyncio.wait_for(self._acceptor.wait_closed(), 5)
            except asyncio.TimeoutError:
                log.warning("stop: %d connection(s) did not close in 5 s", len(self.connections))
            self._acceptor = None
        if self._own_store and self.store is not None:
            self.store.close()
            self.store = None
