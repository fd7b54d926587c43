"""Test clients that see what a person would see: asyncssh with a pty, read through pyte.

Tests wait for a screen condition with a deadline (polling), never for a fixed
time: CI machines are small and shared.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import asyncssh
import pyte

from net.config import Config


class Screen(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """The client's terminal: every byte fed to a pyte screen."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self.frames = 0
        self.on_data: Callable[[], None] | None = None

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.raw += data
        self.frames += 1
        self.stream.feed(data)
        if self.on_data:
            self.on_data()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)


class Client:
    """One person at a terminal: a connection, a pty session, a screen."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: Any, session: Screen) -> None:
        self.conn = conn
        self.chan = chan
        self.session = session

    @property
    def screen(self) -> pyte.Screen:
        return self.session.screen

    def text(self) -> str:
        return self.session.text()

    def type(self, keys: str) -> None:
        self.chan.write(keys.encode())

    def line(self, keys: str) -> None:
        self.type(keys + "\r")

    async def wait(self, predicate: Callable[[str], bool] | str, timeout: float = 10.0) -> str:
        """Poll the screen until ``predicate`` holds (or the text appears); fail with the screen."""
        check = (lambda t: predicate in t) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"screen condition not met in {timeout}s; the screen:\n{screen}")
            await asyncio.sleep(0.03)

    async def close(self) -> None:
        self.conn.close()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        except asyncio.TimeoutError:
            pass


async def connect(
    port: int,
    *,
    key: asyncssh.SSHKey | None = None,
    cols: int = 80,
    rows: int = 24,
    lang: str | None = "en_US.UTF-8",
    pty: bool = True,
    window: int | None = None,
    command: str | None = None,
    local_addr: str | None = None,
) -> Client:
    """A client with a key (or a guest without one) and a pty of the given size.

    ``local_addr`` (e.g. ``127.0.0.2``, a loopback alias) makes it come from another address.
    """
    options: dict[str, Any] = dict(known_hosts=None, username="tester", agent_path=None)
    if local_addr:
        options["local_addr"] = (local_addr, 0)
    if key is not None:
        options["client_keys"] = [key]
    else:
        options["client_keys"] = None
        options["password"] = ""  # lets asyncssh answer an empty keyboard-interactive challenge
    conn = await asyncssh.connect("127.0.0.1", port, **options)
    env = {"LANG": lang} if lang else {}
    extra: dict[str, Any] = {}
    if window:
        extra["window"] = window
    if command:
        extra["command"] = command
    chan, session = await conn.create_session(
        lambda: Screen(cols, rows),
        term_type="xterm-256color" if pty else None,
        term_size=(cols, rows) if pty else None,
        env=env,
        encoding=None,
        **extra,
    )
    return Client(conn, chan, session)


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def make_config(data: Path, **over: Any) -> Config:
    config = Config(port=0, data=data, tables=[{"game": "stukolka", "options": {}}])
    config.idle_timeout = 0
    config.connection_burst = 60  # tests connect many clients at once; the door's own tests lower it
    # Test clients type faster than people; the flood tests set the defaults back.
    config.input_events_per_second, config.input_event_burst = 10_000, 10_000
    for key, value in over.items():
        setattr(config, key, value)
    return config


@asynccontextmanager
async def running(config: Config, **kwargs: Any) -> AsyncIterator[Any]:
    """A real server on port 0 with a temp data folder, stopped always."""
    from net.ssh.server import SuknoServer

    server = SuknoServer(config, **kwargs)
    await server.start()
    try:
        yield server
    finally:
        await server.stop(message=None)


async def until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout}s")
        await asyncio.sleep(0.02)


async def named(port: int, name: str, key: asyncssh.SSHKey | None = None) -> Client:
    """A newcomer (a fresh key unless one is given) who answers the book of names with ``name`` and is
    in the hall once his own row (``name ·``) is on his screen."""
    client = await connect(port, key=key or new_key())
    await client.wait("book of names", timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client
