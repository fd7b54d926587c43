"""A text-mode client: reads the club's lines and answers its prompts, as a script or a screen reader would.

No screen is parsed: the client keeps the raw bytes (to check that no escape
sequence ever came) and the lines, and waits for a line with a deadline.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any, Callable

import asyncssh


class Lines(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.raw = bytearray()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.raw += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


class TextClient:
    """One person in the text mode: ``send`` a line, ``wait`` for a line."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: Any, session: Lines) -> None:
        self.conn, self.chan, self.session = conn, chan, session
        self.read = 0  # lines already consumed by ``wait``

    @property
    def raw(self) -> bytes:
        return bytes(self.session.raw)

    def lines(self) -> list[str]:
        text = self.raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\x07", "")
        return text.split("\n")[:-1]  # the last piece has no newline yet

    def send(self, line: str) -> None:
        self.chan.write((line + "\r").encode())

    async def wait(self, predicate: Callable[[str], bool] | str, timeout: float = 10.0) -> str:
        """The next unread line that matches (lines before it count as read)."""
        check = (lambda t: predicate in t) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            for i in range(self.read, len(lines)):
                if check(lines[i]):
                    self.read = i + 1
                    return lines[i]
            if time.monotonic() > deadline:
                raise AssertionError(f"no such line in {timeout}s; the lines:\n" + "\n".join(lines[-40:]))
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.conn.close()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        except asyncio.TimeoutError:
            pass


async def connect_text(port: int, *, key: asyncssh.SSHKey | None, term: str | None = "dumb",
                       lang: str = "en_US.UTF-8", command: str | None = None, cols: int = 80) -> TextClient:
    """``term`` None: no pty at all (``ssh host text``); else a pty of that TERM."""
    options: dict[str, Any] = dict(known_hosts=None, username="tester", agent_path=None)
    if key is not None:
        options["client_keys"] = [key]
    else:
        options["client_keys"] = None
        options["password"] = ""
    conn = await asyncssh.connect("127.0.0.1", port, **options)
    extra: dict[str, Any] = {}
    if command:
        extra["command"] = command
    if term is not None:
        extra["term_type"] = term
        extra["term_size"] = (cols, 24)
    chan, session = await conn.create_session(Lines, env={"LANG": lang}, encoding=None, **extra)
    return TextClient(conn, chan, session)


_PROMPT = re.compile(r"^(?:Your turn\. You may|Ваш ход\. Можно:) (.*?)(?: — .*?)?\.(?: .*)?$")
"""The choices of a prompt: before its reason (`` — …``) and the facts said after it (``Trumps: ♠.``)."""


def first_choice(prompt: str) -> str | None:
    """The first thing a prompt offers: ``Your turn. You may play 9♣ or 9♦ — …`` → ``play 9♣``."""
    match = _PROMPT.match(prompt)
    if match is None:
        return None
    return re.split(r", | or | или ", match.group(1))[0]
