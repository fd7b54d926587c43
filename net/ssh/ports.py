"""The server, a connection and a session as the modes, the steps and the limits see them.

A leaf: ``net.ssh.server`` makes sessions and ``net.ssh.session`` runs the modes, so whatever a mode or a
step needs of them is named here as a Protocol, never imported from above (that would tie every module
the session runs into one circle with it).  ``Session`` and ``SuknoServer`` implement these for real.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from engine.store.base import Store
    from engine.table.club import Club
    from engine.table.pending import Pending
    from net.config import Config
    from net.ssh.carry import KeyFeed
    from net.ssh.identity import StoreAccounts
    from net.ssh.limits import Limits, StartQueue
    from net.ssh.offloop import StoreThread
    from net.ssh.runtime import Runtime


class ServerPort(Protocol):
    """The club's SSH server: its club, store, config, limits and the shared places of its sessions."""

    config: Config
    club: Club
    store: Store
    accounts: StoreAccounts
    limits: Limits
    app_starts: StartQueue
    runtime: Runtime
    hubs: Any
    """The watchers' hubs (``net.modes.spectate.Hubs``)."""
    hall_board: Any
    """The hall doors' shared board (``net.modes.hallview``)."""
    hall_doors: bool
    port: int
    apps_ended: int
    sessions: set[Any]
    arrivals: StoreThread | None
    """Reads an arriving key's account off the loop, once started (``net.ssh.arrival``)."""

    @property
    def shown_host(self) -> str: ...

    def make_player_app(self, session: Any) -> Any: ...

    def guest_name(self) -> str: ...

    def off_loop(self, work: Callable[[Any], Any]) -> asyncio.Future[Any]: ...

    def gate(self, session: Any) -> str | None: ...

    def forget(self, session: Any) -> None: ...


class ConnectionPort(Protocol):
    """One SSH connection: who it is (the key's fingerprint), from where, and whether it is refused."""

    peer: str
    fingerprint: str | None
    guest: bool
    refused: str | None
    arriving: bool
    username: str
    client_version: str

    def session_opened(self, session: Any) -> None: ...


class SessionPort(Protocol):
    """One terminal: who he is, his window, the bytes to him, the mode that holds it and the steps' carry."""

    server: ServerPort
    conn: ConnectionPort
    chan: Any
    term: str
    command: str
    cols: int
    rows: int
    has_pty: bool
    lang: str
    ascii: bool
    name: str | None
    guest: bool
    mode: Any
    """The ``net.ssh.mode.Mode`` holding the terminal now."""
    input_ended: bool
    driver: Any
    watch: Any
    """His place among a table's watchers (``net.modes.watch.Watch``)."""
    closed: bool
    started: float
    last_input: float
    next_step: tuple[str, Any] | None
    farewell: str | None
    prefs: Any
    first_line: str | None
    carried: list[Any]
    arrival: Any
    naming: Any
    holds: int

    @property
    def wants_bot(self) -> bool: ...

    @property
    def paused(self) -> bool: ...

    @property
    def app(self) -> Any: ...

    @property
    def door(self) -> Any: ...

    @property
    def text(self) -> Any: ...

    def hand_over(self, mode: Any) -> None: ...

    def driver_made(self, driver: KeyFeed) -> None:
        """His App's driver is made: the keys typed before it go to it first (``net.ssh.driver.Link``)."""
        ...

    def app_size(self) -> tuple[int, int]: ...

    def read_off_loop(self, work: Callable[[Any], Any], op: str) -> Pending: ...

    def register(self, name: str) -> str | None | Pending: ...

    def switch_mode(self, mode: str) -> bool: ...

    def on_watch(self, table_id: int) -> None: ...

    def exit_app(self) -> None: ...

    def lost(self) -> None: ...

    def buffered(self) -> int: ...

    def send(self, data: bytes) -> None: ...

    def write_line(self, line: str) -> None: ...

    def leave_screen(self) -> None: ...

    def flush_now(self) -> None: ...

    def _schedule_poll(self) -> None: ...

    def finish(self, status: int = 0, message: str | None = None) -> None: ...

    def push_early(self, data: bytes) -> None: ...

    def take_early(self) -> bytes: ...

    def hold(self) -> None: ...

    def release_hold(self) -> None: ...

    async def close(self, message: str | None = None) -> None:
        """Close from the server's side (shutdown, idle), saying why."""
        ...
