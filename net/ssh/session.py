"""One SSH session: the channel's callbacks, the one mode that holds its terminal, and the end.

What the terminal shows is one mode at a time (``net.ssh.mode``), run as steps (``net.ssh.steps``): a door,
the player's App, a table's watchers, the text mode or the bot protocol.  The bytes to the client go
through ``net.ssh.wire``; his account's jobs are ``net.ssh.account``'s.  Leaving a session never frees a
seat: a reconnect with the same key finds it kept.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Callable

import asyncssh

from net.ssh import account, steps
from net.ssh.driver import SSHDriver
from net.ssh.limits import TokenBucket
from net.ssh.logsafe import clean
from net.ssh.mode import Between, Mode, ModeHolder
from net.ssh.carry import StepCarry
from net.ssh.wire import ClientWire
from net.modes.texts import text
from net.modes.watch import Watch

if TYPE_CHECKING:
    from engine.table.pending import Pending
    from net.ssh.ports import ConnectionPort, ServerPort

log = logging.getLogger("sukno.server")

START_TIMEOUT = 30.0
"""Seconds a channel may stay open without asking for a shell (when the config has no login timeout)."""

TERM_MAX = 256
"""Characters of the client's TERM kept (nothing reads more; a 30 KB TERM is cut here)."""


class Session(ModeHolder, ClientWire, StepCarry, asyncssh.SSHServerSession):
    """One terminal: a player's own App, or a place among a table's watchers."""

    def __init__(self, server: ServerPort, conn: ConnectionPort) -> None:
        self.server, self.conn = server, conn
        self.start_wire(server.config.buffer_limit)
        self.start_carry()
        self.term, self.command = "", ""
        self.cols, self.rows = 80, 24
        self.has_pty = False
        self.lang, self.ascii = "en", False
        self.name: str | None = None
        self.guest = False
        self.mode: Mode = Between(self)  # what holds his terminal now: his App, a door, a table, a bot…
        self.input_ended = False  # a script's input ran out before or during the text mode
        self.driver: SSHDriver | None = None  # his App's driver, while his App runs
        self.watch = Watch(self)  # his place among a table's watchers, used while he watches
        self.closed = False  # ending: no more input is taken (he left, sent EOF, or is shown out)
        self._cleaned = False  # _cleanup ran (it runs once, whoever calls it first)
        self._start_timer: asyncio.TimerHandle | None = None
        self.started = self.last_input = time.monotonic()
        self.next_step: tuple[str, Any] | None = None
        self._input = TokenBucket(server.config.input_bytes_per_second, server.config.input_burst)
        self._task: asyncio.Task[None] | None = None
        self.farewell: str | None = None
        self.prefs: Any = None  # the person's settings (tui.text.prefs), once his name is known
        self.first_line: str | None = None  # the ssh command the hall answers as its first line (once)
        self.carried: list[Any] = []  # his hall log and his App's last words, for his next hall door
        self.arrival: Any = None  # a ``net.ssh.arrival.Arrival``: his account as read on arrival, until used
        self.naming: Any = None  # the ``Pending`` of his name being written (``register``), while it waits

    # -- asyncssh callbacks ---------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[Any]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=self.buffer_limit)
        # Counted and listed from the channel's opening, not from its shell request: a
        # channel that never asks for one is shown out after the login timeout.
        self.server.sessions.add(self)
        self.conn.session_opened(self)
        wait = self.server.config.login_timeout or START_TIMEOUT
        self._start_timer = asyncio.get_running_loop().call_later(wait, self._never_started)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.has_pty = True
        self.term = (term_type or "")[:TERM_MAX]
        self.cols, self.rows = max(1, term_size[0] or 80), max(1, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # With a pty it is the club (``ssh -t host watch 3`` goes straight to table 3's watchers).
        self.command = command or ""
        return True

    def break_received(self, msec: int) -> bool:
        return True

    @property
    def wants_bot(self) -> bool:
        """``ssh host bot``: the bot protocol, with a pty or without (a bot is never given the people's hall)."""
        return self.command.strip().lower() == "bot"

    def session_started(self) -> None:
        self._stop_start_timer()
        if self.closed:  # the channel went away between its opening and its shell request
            self._cleanup()
            return
        self._task = asyncio.get_running_loop().create_task(self._main(), name="sukno session")

    def _never_started(self) -> None:
        """No shell or command was asked for in time: close the channel, free the place."""
        self._start_timer = None
        if self._task is None:
            log.info("session from %s never started; closed", self.conn.peer)
            self.closed = True
            self._cleanup()

    def _stop_start_timer(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.closed:
            return
        mode = self.mode
        if not mode.own_limits:  # the bot protocol limits its own lines (net/modes/bot.py)
            if not self._input.take(len(data)):
                return  # over the input rate: dropped, like keys pressed into a full buffer
            self.last_input = time.monotonic()
        mode.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.cols, self.rows = max(1, width or 1), max(1, height or 1)
        self.mode.resize(self.cols, self.rows)

    def eof_received(self) -> bool:
        # A script's input ran out (``printf 'who\n' | ssh -T host text``): the text mode answers every
        # line that came, then ends.  Otherwise the client can type no more (``ssh -tt host </dev/null``):
        # the session ends; the channel stays open for its exit status, and is then closed.
        if not self.has_pty and not self.wants_bot and not self.closed:
            self.input_ended = True
            if self.text is not None:
                self.text.input_ended()
                return True
            if self._task is not None:
                return True  # the text mode is on its way: it reads what came first
        self.lost()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        self.lost()
        if self._task is None:  # never started: no _main to clean up after it
            self._cleanup()

    @property
    def event_rate(self) -> tuple[int, int]:
        """Events per second and at once the player's App is handed (``net.ssh.driver``)."""
        return self.server.config.input_events_per_second, self.server.config.input_event_burst

    def app_size(self) -> tuple[int, int]:
        """The window, capped: a huge window is drawn in its top-left corner."""
        return min(self.cols, self.server.config.max_cols), min(self.rows, self.server.config.max_rows)

    # -- what his steps ask of the session (``net.ssh.steps``, ``net.ssh.account``) --------------

    def arrived_balance(self) -> int | None:
        return account.arrived_balance(self)

    def read_off_loop(self, work: Callable[[Any], Any], op: str) -> Pending:
        return account.read_off_loop(self, work, op)

    def register(self, name: str) -> str | None | Pending:
        return account.register(self, name)

    def switch_mode(self, mode: str) -> bool:
        return steps.switch_mode(self, mode)

    def on_watch(self, table_id: int) -> None:
        steps.on_watch(self, table_id)

    def exit_app(self) -> None:
        steps.exit_app(self)

    # -- the end -----------------------------------------------------------------------------

    async def _main(self) -> None:
        try:
            await steps.serve(self)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session of %s failed", clean(self.name or self.conn.peer))
            self.leave_screen()
            self.finish(1, text(self.lang, "failed"))
        finally:
            self.conn.arriving = False
            self.release_hold()
            self._cleanup()

    def lost(self) -> None:
        """The client is gone (or going): stop its App or leave its hub; the seat is kept."""
        if self.closed:
            return
        self.closed = True
        self.mode.close(None)

    def _cleanup(self) -> None:
        """The session's end, whatever ended it: the channel is closed and the server forgets it."""
        self._stop_start_timer()
        if self._cleaned:
            return
        self._cleaned = True
        log.info(
            "session peer=%s user=%s client=%s name=%s key=%s term=%s size=%dx%d lang=%s duration=%.1fs",
            self.conn.peer, clean(self.conn.username or "-", 32), clean(self.conn.client_version or "-", 64),
            clean(self.name or "-", 32), self.conn.fingerprint or ("guest" if self.guest else "-"),
            clean(self.term or "-", 32), self.cols, self.rows, self.lang, time.monotonic() - self.started,
        )
        self.closed = True
        self.close_wire()
        self.server.forget(self)

    async def close(self, message: str | None = None) -> None:
        """Close from the server's side (shutdown, idle): say why, end the mode, wait.  A session already
        closed may still be ending (its App's unmount writes to the journal): a shutdown waits for it."""
        if self.closed:
            await self._ended()
            return
        self.farewell = message
        self.next_step = None
        if self.mode.close(message):  # a bot hears the farewell as a JSON ``bye``
            message = None
        await self._ended()
        self.finish(0, message)
        if self._task is None or not self._task.done():  # never started, or its App hangs
            self._cleanup()

    async def _ended(self, timeout: float = 5.0) -> None:
        """Wait (``timeout`` at most) for the session's own task, its App's shutdown included."""
        if self._task is None or self._task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            pass
