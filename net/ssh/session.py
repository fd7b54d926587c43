"""One SSH session: the channel's callbacks, the bytes to and from the client, and the end.

What the terminal shows is one mode at a time (``net.ssh.mode``), run as steps (``net.ssh.steps``): a door,
the player's App, a table's watchers, the text mode or the bot protocol.  The session is also the link its
driver or hub writes through: it counts the bytes queued to the client, so a reader who stopped costs nothing
until he reads again.  Leaving a session never frees a seat: a reconnect with the same key finds it kept.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Callable

import asyncssh

from net.ssh.driver import SSHDriver
from net.ssh.limits import TokenBucket
from net.ssh.logsafe import clean
from net.ssh import account, steps
from net.ssh.mode import AppMode, Between, BotMode, DoorMode, Mode, TextMode
from net.ssh.sshcompat import transport_of
from net.modes.spectate import Member
from net.modes.texts import text
from net.modes.watch import Watch

if TYPE_CHECKING:
    from engine.table.pending import Pending
    from net.modes.bot import BotLink
    from net.modes.hall import HallDoor
    from net.modes.text import TextChannel
    from net.ssh.server import SuknoServer, _Connection

log = logging.getLogger("sukno.server")

START_TIMEOUT = 30.0
"""Seconds a channel may stay open without asking for a shell (when the config has no login timeout)."""

TERM_MAX = 256
"""Characters of the client's TERM kept (nothing reads more; a 30 KB TERM is cut here)."""


class Session(asyncssh.SSHServerSession):  # type: ignore[type-arg]
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
        self.mode: Mode = Between(self)
        """What holds his terminal now (``net.ssh.mode``): his App, a door, the text mode, a table, a bot."""
        self._early = bytearray()  # keys typed while one step ends and the next starts (``push_early``)
        self.input_ended = False  # a script's input ran out before or during the text mode
        self.driver: SSHDriver | None = None  # his App's driver, while his App runs
        self.watch = Watch(self)
        """His place among a table's watchers (``net.modes.watch``), used while he watches."""
        self.closed = False
        """Ending: no more input is taken (the client left, sent EOF, or is being shown out)."""
        self._gone = False  # the channel is lost: nothing more can be written
        self._finished = False  # the exit status is sent
        self._cleaned = False  # _cleanup ran (it runs once, whoever calls it first)
        self._start_timer: asyncio.TimerHandle | None = None
        self.started = time.monotonic()
        self.last_input = self.started
        self.next_step: tuple[str, Any] | None = None
        self._chan_paused = False
        self._poll: asyncio.TimerHandle | None = None
        self._input = TokenBucket(server.config.input_bytes_per_second, server.config.input_burst)
        self._task: asyncio.Task[None] | None = None
        self.farewell: str | None = None
        self.command = ""
        self.prefs: Any = None  # the person's settings (tui.text.prefs), once his name is known
        self.holds = 0  # club.enter calls made to carry him from one step to the next (``hold``)
        self.first_line: str | None = None  # the ssh command the hall answers as its first line (once)
        self.carried: list[Any] = []  # his hall log and his App's last words, for his next hall door
        self.arrival: Any = None  # a ``net.ssh.arrival.Arrival``: his account as read on arrival, until used
        self.naming: Any = None  # the ``Pending`` of his name being written (``register``), while it waits

    # -- asyncssh callbacks ---------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self.chan = chan
        chan.set_write_buffer_limits(high=self.server.config.buffer_limit)
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
        # With a pty it is the club (``ssh -t host watch 3`` goes straight to table 3's
        # watchers); without one, a refusal.
        self.command = command or ""
        return True

    @property
    def wants_bot(self) -> bool:
        """``ssh host bot``: the bot protocol, with a pty or without (a bot is never given the people's hall)."""
        return self.command.strip().lower() == "bot"

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
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

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.closed:
            return
        mode = self.mode
        if not mode.own_limits:  # the bot protocol limits its own lines (net/modes/bot.py)
            if not self._input.take(len(data)):
                return  # over the input rate: dropped, like keys pressed into a full buffer
            self.last_input = time.monotonic()
        mode.feed(data)

    def hand_over(self, mode: Mode) -> None:
        """The terminal is ``mode``'s from now on (keys typed meanwhile were kept for it: ``take_early``)."""
        self.mode = mode

    @property
    def app(self) -> Any:
        """The player's own App, while it holds the terminal."""
        return self.mode.app if isinstance(self.mode, AppMode) else None

    @property
    def door(self) -> HallDoor | None:
        """His hall door (or a new key's welcome), while it holds the terminal."""
        return self.mode.door if isinstance(self.mode, DoorMode) else None

    @property
    def text(self) -> TextChannel | None:
        """The text mode's channel, while it holds the terminal."""
        return self.mode.channel if isinstance(self.mode, TextMode) else None

    @property
    def bot(self) -> BotLink | None:
        """The bot protocol's link, once the bot reads its own bytes."""
        return self.mode.link if isinstance(self.mode, BotMode) else None

    # -- keys between two steps ------------------------------------------------------------

    def driver_made(self, driver: SSHDriver) -> None:
        """The App's driver is made (``net.ssh.driver.Link``): the keys typed since the last step go to it first."""
        self.driver = driver
        if self._early:
            asyncio.get_running_loop().call_soon(self._early_to_driver, driver)  # once it is built

    def _early_to_driver(self, driver: SSHDriver) -> None:
        if self.driver is driver and self._early:
            driver.feed(self.take_early())  # it keeps them until its first frame

    def push_early(self, data: bytes) -> None:
        """Keys for the next step (``sit 1⏎start⏎`` typed at once: ``start`` is the table's), 64 KB at most."""
        room = self.server.config.input_burst - len(self._early)
        if room > 0:
            self._early += data[:room]

    @property
    def watching(self) -> int | None:
        """The table he watches (``net.modes.watch``), or None."""
        return self.watch.table_id

    @property
    def member(self) -> Member | None:
        """His row among a table's watchers, while he watches."""
        return self.watch.member

    def take_early(self) -> bytes:
        data, self._early = bytes(self._early), bytearray()
        return data

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.cols, self.rows = max(1, width or 1), max(1, height or 1)
        self.mode.resize(self.cols, self.rows)

    def eof_received(self) -> bool:
        # A script's input ran out (``printf 'who\n' | ssh -T host text``): the text mode answers
        # every line that came, then ends; nothing starts reading after it.  Otherwise the client can
        # type no more (``ssh -tt host </dev/null``): the session ends; the channel stays open for its
        # exit status, and is then closed (it once hung forever).
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

    def flush_now(self) -> None:
        """Hand what is written so far to the socket at once, not at the end of this turn of the loop
        (``net.ssh.door.OneSend``): a newcomer's first frame goes before the hall is drawn for the others."""
        transport = transport_of(self.conn.conn)
        flush = getattr(transport, "flush", None)
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
            self._resumed()

    def _resumed(self) -> None:
        self.mode.resume()

    @property
    def event_rate(self) -> tuple[int, int]:
        """Events per second and at once the player's App is handed (``net.ssh.driver``)."""
        config = self.server.config
        return config.input_events_per_second, config.input_event_burst

    def app_size(self) -> tuple[int, int]:
        """The window, capped: a huge window is drawn in its top-left corner."""
        config = self.server.config
        return min(self.cols, config.max_cols), min(self.rows, config.max_rows)

    # -- life of a session ---------------------------------------------------------------

    def write_line(self, line: str) -> None:
        self.send((line.replace("\n", "\r\n") + "\r\n").encode("utf-8", "replace"))

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

    def arrived_balance(self) -> int | None:
        """His balance as read on arrival, once, if no money changed since (else None: ask the club)."""
        return account.arrived_balance(self)

    def hold(self) -> None:
        """Keep him counted in the club while one step ends and the next starts (no leave, no stand-in)."""
        if self.name is not None:
            self.server.club.enter(self.name, guest=self.guest)
            self.holds += 1

    def release_hold(self) -> None:
        """The next step counts him itself now."""
        while self.holds > 0:
            self.holds -= 1
            if self.name is not None:
                self.server.club.leave(self.name, now=time.monotonic())

    def saved_prefs(self, prefs: Any, read: Any = None) -> None:
        """Read and keep ``prefs`` in the store for his account (``net.ssh.account``)."""
        account.saved_prefs(self, prefs, read)

    def read_off_loop(self, work: Callable[[Any], Any], op: str) -> Pending:
        """``work(store)`` in the accounts' store thread, as a ``Pending`` (``net.ssh.account``)."""
        return account.read_off_loop(self, work, op)

    def switch_mode(self, mode: str) -> bool:
        """``mode screen`` typed in the text mode, ``mode text`` on the screen (``net.ssh.steps.switch_mode``)."""
        return steps.switch_mode(self, mode)

    def on_watch(self, table_id: int) -> None:
        """``watch N`` typed in the App or a door: end it and join the table's shared view."""
        steps.on_watch(self, table_id)

    def tell_now(self, key: str, **params: Any) -> None:
        """A word of the club to him now (a catalogue key, in his language), on whatever screen he has: a
        newcomer has no inbox yet, so a door or the text mode is told directly; an App hears it in his inbox."""
        from tui.i18n import tr

        if self.closed:
            return
        words = tr(self.lang, key, **params)
        if self.mode.notice(words):
            pass
        elif self.name is not None:
            self.server.club.social.notify(self.name, "note", {"key": key, "params": params})
        else:
            log.info("not told (no screen to tell it on): %s", key)

    def register(self, name: str) -> str | None | Pending:
        """The welcome's choice of a name for this key (``net.ssh.account.register``)."""
        return account.register(self, name)

    def leave_screen(self) -> None:
        self.send(b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?2004l\x1b[?1049l")

    # -- the end -----------------------------------------------------------------------------

    def lost(self) -> None:
        """The client is gone (or going): stop its App or leave its hub; the seat is kept."""
        if self.closed:
            return
        self.closed = True
        self.mode.close(None)

    def exit_app(self) -> None:
        """End his App once its first screen is mounted (``net.ssh.steps.exit_app``)."""
        steps.exit_app(self)

    def _cleanup(self) -> None:
        """The session's end, whatever ended it: the channel is closed and the server forgets it."""
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        if self._cleaned:
            return
        self._cleaned = True
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        duration = time.monotonic() - self.started
        log.info(
            "session peer=%s user=%s client=%s name=%s key=%s term=%s size=%dx%d lang=%s duration=%.1fs",
            self.conn.peer, clean(self.conn.username or "-", 32), clean(self.conn.client_version or "-", 64),
            clean(self.name or "-", 32), self.conn.fingerprint or ("guest" if self.guest else "-"),
            clean(self.term or "-", 32), self.cols, self.rows, self.lang, duration,
        )
        self.closed = True
        if self.chan is not None and not self._gone:
            try:
                self.chan.close()
            except (asyncssh.Error, OSError):
                pass
        self.server.forget(self)

    async def close(self, message: str | None = None) -> None:
        """Close from the server's side (shutdown, idle): say why, end the App, wait.

        A session already closed (its client left) may still be ending: its App's unmount takes the
        player out of the club, a journal write, so a shutdown waits for it before the store closes."""
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

