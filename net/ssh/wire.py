"""The bytes a session sends its client: counted, paused while the client does not read, ended once.

A driver, a door, the text mode and a table's watchers all write through their session; the bytes queued
in the channel and the connection's transport are counted, so a reader who stopped costs nothing until he
reads again (``paused``), and the writer is told when he does (``drained``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from net.ssh.carry import KeyFeed
from net.ssh.sshcompat import transport_of

RESET_SCREEN = b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?2004l\x1b[?1049l"
"""Plain attributes, the cursor shown, line wrap and normal paste back, the main screen again."""


class ClientWire:
    """The writing half of a session: its channel, the bytes queued to it, the exit status."""

    chan: asyncssh.SSHServerChannel[Any] | None
    conn: Any  # the server's ``_Connection``: its ``conn`` is asyncssh's
    driver: KeyFeed | None
    closed: bool
    buffer_limit: int

    def start_wire(self, buffer_limit: int) -> None:
        self.chan = None
        self.buffer_limit = buffer_limit
        self._gone = False  # the channel is lost: nothing more can be written
        self._finished = False  # the exit status is sent
        self._chan_paused = False
        self._poll: asyncio.TimerHandle | None = None

    def lost(self) -> None:
        """The client is gone (or going); the session says what that ends."""
        raise NotImplementedError

    def drained(self) -> None:
        """The client reads again: whoever writes may send what he skipped."""
        raise NotImplementedError

    # asyncssh's flow control
    def pause_writing(self) -> None:
        self._chan_paused = True

    def resume_writing(self) -> None:
        self._chan_paused = False
        self.drained()

    @property
    def paused(self) -> bool:
        return self._chan_paused or self.buffered() > self.buffer_limit

    def buffered(self) -> int:
        """Bytes queued to this client: in the channel and in the connection's transport."""
        if self.chan is None:
            return 0
        size = self.chan.get_write_buffer_size()
        transport = transport_of(self.conn.conn)
        if transport is not None:
            size += transport.get_write_buffer_size()
        return size

    def send(self, data: bytes) -> None:
        if self._gone or self._finished or self.chan is None:
            return
        try:
            self.chan.write(data)
        except (asyncssh.Error, OSError, BrokenPipeError):
            self.lost()
        if self.driver is not None and self.paused:
            self._schedule_poll()

    def write_line(self, line: str) -> None:
        self.send((line.replace("\n", "\r\n") + "\r\n").encode("utf-8", "replace"))

    def leave_screen(self) -> None:
        self.send(RESET_SCREEN)

    def flush_now(self) -> None:
        """Hand what is written so far to the socket at once, not at the end of this turn of the loop
        (``net.ssh.door.OneSend``): a newcomer's first frame goes before the hall is drawn for the others."""
        flush = getattr(transport_of(self.conn.conn), "flush", None)
        if flush is not None:
            flush()

    def _schedule_poll(self) -> None:
        if self._poll is None and not self.closed:
            self._poll = asyncio.get_running_loop().call_later(0.1, self._polled)

    def _polled(self) -> None:
        self._poll = None
        if self.paused:
            self._schedule_poll()
        else:
            self.drained()

    def finish(self, status: int = 0, message: str | None = None) -> None:
        """Say goodbye (if anything to say) and close with an exit status (once)."""
        if self._finished or self._gone or self.chan is None:
            return
        if message:
            self.write_line(message)
        self._finished = True
        try:
            self.chan.exit(status)
        except (asyncssh.Error, OSError):
            pass

    def close_wire(self) -> None:
        """No more polling; the channel closed unless it is lost already."""
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.chan is not None and not self._gone:
            try:
                self.chan.close()
            except (asyncssh.Error, OSError):
                pass
