"""One SSH session's life: the pty check, who it is, the hall door, the player's App or a table's watchers, the end.

A known person in the hall runs no App: a hall door (``net.modes.hall``) draws
his screen from the hall's shared rows, and a new key's welcome is a door too
(``net.modes.welcome``); a seated player's session runs his own ``ClubApp`` (his view is private), which gives him back to a door
when he is in the hall again (``hold`` keeps him counted in the club meanwhile); a watcher's
session joins the table's shared rendering (``net.modes.spectate``; his half of the
session is a ``net.modes.watch.Watch`` it owns); a session in the text mode (``ssh host text``, no
pty, a dumb terminal, or ``mode text`` saved) runs no App at all
(``net.modes.text``).  The session is also the link its driver or its
hub writes through: it counts the bytes queued to the client, so a reader who
stopped costs nothing until he reads again.  Leaving a session never frees a
seat: a reconnect with the same key finds it kept.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import TYPE_CHECKING, Any, Callable

import asyncssh

from net import textual_compat as tc
from net.ssh.driver import SSHDriver, attach
from net.ssh.limits import TokenBucket
from net.ssh.logsafe import clean
from net.ssh.mode import AppMode, Between, BotMode, DoorMode, Mode, TextMode, WatchMode
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

START_TURN = 3.0
"""Seconds one App's start may hold the others' turn at most (``Session._run_in_turn``)."""

TERM_MAX = 256
"""Characters of the client's TERM kept (nothing reads more; a 30 KB TERM is cut here)."""


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
        self._driver: SSHDriver | None = None
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
        self._next: tuple[str, Any] | None = None
        self._chan_paused = False
        self._poll: asyncio.TimerHandle | None = None
        self._input = TokenBucket(server.config.input_bytes_per_second, server.config.input_burst)
        self._task: asyncio.Task[None] | None = None
        self._farewell: str | None = None
        self.command = ""
        self.prefs: Any = None  # the person's settings (tui.text.prefs), once his name is known
        self._holds = 0  # club.enter calls made to carry him from one step to the next (``hold``)
        self.carried: list[Any] = []  # his hall log and his App's last words, for his next hall door
        self.arrival: Any = None  # a ``net.ssh.arrival.Arrival``: his account as read on arrival, until used
        self._naming: Any = None  # the ``Pending`` of his name being written (``register``), while it waits

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

    @property
    def driver(self) -> SSHDriver | None:
        """The player's App's driver, while his App runs."""
        return self._driver

    def driver_made(self, driver: SSHDriver) -> None:
        """The App's driver is made (``net.ssh.driver.Link``): the keys typed since the last step go to it first."""
        self._driver = driver
        if self._early:
            asyncio.get_running_loop().call_soon(self._early_to_driver, driver)  # once it is built

    def _early_to_driver(self, driver: SSHDriver) -> None:
        if self._driver is driver and self._early:
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
        self._lost()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        self._lost()
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
            self._lost()
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
            await self._serve()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session of %s failed", clean(self.name or self.conn.peer))
            self._leave_screen()
            self.finish(1, text(self.lang, "failed"))
        finally:
            self.conn.arriving = False
            self.release_hold()
            self._cleanup()

    async def _serve(self) -> None:
        assert self.chan is not None
        # Not arriving any more: from here to a door's first frame the loop does not turn (a bot, the text
        # mode, a refusal and an App's start do not hold the hall's arrivals back either).
        self.conn.arriving = False
        self.lang, self.ascii = locale_of(dict(self.chan.get_environment()))
        if self.wants_bot:
            from net.modes.bot import serve_bot

            return await serve_bot(self)  # sukno-bot/1: JSON lines (docs/bot-protocol.md)
        if not self.has_pty and not self.command.strip():  # ``ssh -T host``; ``ssh host text`` is the text mode
            self.finish(1, text(self.lang, "no_pty", port=self.server.port, host=self.server.shown_host))
            return
        refusal = self.conn.refused or self.server.limits.admit_session(self)
        if refusal:
            self.finish(1, text(self.lang, "full", what=refusal))
            return
        if self.conn.guest or self.conn.fingerprint is None:
            self.guest = True
            self.name = self.server.guest_name()
        else:
            self.arrival = await self._arrive(self.conn.fingerprint)
            if self.closed:  # he left (or sent EOF) while the store was asked: the same end as later on
                self.finish(0, self._farewell)
                return
            self.name = self.arrival.name
            refusal = self.name and self.server.limits.admit_account(self.name)
            if refusal:
                self.finish(1, text(self.lang, "full", what=refusal))
                return
        refusal = self.server.gate(self)
        if refusal:
            self.finish(1, refusal)
            return
        step: tuple[str, Any] | None = self._first_step()
        while step is not None and not self.closed:
            kind, arg = step
            if kind == "text":
                step = await self._run_text(arg)
            elif kind in ("hall", "door"):
                step = await self._run_hall(door=kind == "door")
            elif kind == "app":
                step = await self._run_app(arg)
            else:
                step = await self._run_watch(int(arg))
        self.release_hold()
        self.finish(0, self._farewell)

    async def _arrive(self, fingerprint: str) -> Any:
        """His account, settings, balance and ignore list, read in one job off the loop (``net.ssh.arrival``):
        the loop serves everyone else meanwhile; a ``StoreError`` is raised here as the read raised it."""
        from net.ssh.arrival import Arrival, gather

        server = self.server
        club = server.club
        own = getattr(server.accounts, "store", None)  # the store the job reads (its thread's connection to it)
        balance = own is not None and getattr(club, "store", None) is own  # as ``Club.balance`` reads it
        social = getattr(club, "social", None)
        ignores = own is not None and social is not None and getattr(social, "store", None) is own
        mark = server.hall_board.money_mark() if balance else None
        if server.arrivals is None:  # not started (or no store of accounts): the accounts' own read
            return Arrival(server.accounts.name_for(fingerprint))
        arrival: Arrival = await server.arrivals.run(
            lambda store: gather(store, fingerprint, balance=balance, ignores=ignores))
        arrival.money_mark = mark
        if arrival.name is not None and arrival.ignores is not None and social is not None:
            social.preload(arrival.name, arrival.ignores)
        return arrival

    def arrived_balance(self) -> int | None:
        """His balance as read on arrival, once, if no money changed since (else None: ask the club)."""
        arrival, self.arrival = self.arrival, None
        if arrival is None or arrival.balance is None or arrival.name != self.name:
            return None
        return arrival.balance if self.server.hall_board.money_still(arrival.money_mark) else None

    def _first_step(self) -> tuple[str, Any]:
        """The text mode (net.modes.text), the hall, or a table's watchers for ``watch N`` given as the ssh command."""
        from net.modes.text import command_words, wants_text

        self.prefs = self._load_prefs()
        _asked, rest = command_words(self.command)
        if wants_text(self, self.prefs.mode):
            return ("text", rest)
        match = re.fullmatch(r"\s*(?:watch|смотреть)\s+(\d{1,6})\s*", rest, re.IGNORECASE)
        if match and self.name is not None and int(match.group(1)) in self.server.club.tables:
            self.server.club.enter(self.name, guest=self.guest)  # _watch's end says he left
            return ("watch", int(match.group(1)))
        return ("hall", None)

    async def _run_hall(self, door: bool = False) -> tuple[str, Any] | None:
        """The hall: a light door (``net.modes.hall``) for a known person; his App for a new key, and for one
        who comes back to his seat (the App shows his table), unless ``door`` (he has just left its screen)."""
        server = self.server
        from net.modes.welcome import WelcomeDoor, wants_welcome

        if wants_welcome(self):  # a new key: the doorman asks his name in a door too (no App)
            from net.ssh.keyring import KeyRing

            welcome = WelcomeDoor(self, server.hall_board, keys=KeyRing(self))
            self.hand_over(DoorMode(welcome))
            try:
                step = await welcome.run()
            finally:
                self.hand_over(Between(self))
            if step is None and not self.closed:
                self._leave_screen()
            return None if self.closed else step
        seated = server.club.where(self.name) is not None if self.name is not None else False
        if not server.hall_doors or self.name is None or (seated and not door):
            return await self._run_app()
        from net.house.admin import admin_runner
        from net.modes.hall import HallDoor
        from net.ssh.keyring import KeyRing

        self._next = None
        hall = HallDoor(self, server.hall_board, admin=admin_runner(self), keys=KeyRing(self))
        self.hand_over(DoorMode(hall))
        try:
            step = await hall.run()
        finally:
            self.hand_over(Between(self))
        if self.closed:
            return None
        if step is None:
            self._leave_screen()
        return step

    def hold(self) -> None:
        """Keep him counted in the club while one step ends and the next starts (no leave, no stand-in)."""
        if self.name is not None:
            self.server.club.enter(self.name, guest=self.guest)
            self._holds += 1

    def release_hold(self) -> None:
        """The next step counts him itself now."""
        while self._holds > 0:
            self._holds -= 1
            if self.name is not None:
                self.server.club.leave(self.name, now=time.monotonic())

    def on_hall(self) -> None:
        """His App is back in the hall (or a new key just chose his name): a door from now on."""
        app = self.app
        if self.closed or app is None or not self.server.hall_doors:
            return
        if getattr(app, "entered", False):  # tui.app.ClubApp.entered
            self.hold()
        self.carried.extend(getattr(app, "said", ()))  # "You stand up…": told in the door's log too
        self._next = ("door", None)
        app.exit()

    async def _run_app(self, first_line: str | None = None) -> tuple[str, Any] | None:
        """Run the player's own App until it ends; what to do next (watch a table, or nothing)."""
        self._next = None
        app = self.server.make_player_app(self)
        if first_line and hasattr(app, "first_line"):
            app.first_line = first_line
        if self.server.hall_doors and hasattr(app, "on_hall"):
            app.on_hall = self.on_hall
        attach(app, self)
        self.hand_over(AppMode(self, app))
        failure: BaseException | None = None
        try:
            await self._run_in_turn(app)
        except Exception as err:  # raised by the App's own shutdown (a broken unmount)
            failure = err
        finally:
            self.hand_over(Between(self))
            self._driver = None
            self.server.apps_ended += 1
            self._left_club(app)
        failure = tc.app_failure(app) or failure
        if failure is not None:  # the App died of a bug: the session ends like a dropped connection
            log.error("the App of %s failed (%s: %s); the session ends, the seat is kept for a stand-in",
                      self.name or self.conn.peer, type(failure).__name__, str(failure)[:200])
            self._leave_screen()
            self.finish(1, text(self.lang, "failed"))
            self._lost()
            return None
        if self.closed:
            return None
        if self._next is None:
            self._leave_screen()
        return self._next

    async def _run_watch(self, table_id: int) -> tuple[str, Any] | None:
        """Among table ``table_id``'s watchers until he leaves; what next."""
        self.hand_over(WatchMode(self, self.watch))
        try:
            return await self.watch.run(table_id)
        finally:
            self.hand_over(Between(self))

    async def _run_text(self, first: str) -> tuple[str, Any] | None:
        """The text mode until the player quits or asks for the screen; what next."""
        from net.modes.text import TextChannel

        self._next = None
        channel = TextChannel(self, first=first, prefs=self.prefs)
        self.hand_over(TextMode(channel))
        try:
            run = asyncio.ensure_future(channel.run())
            await asyncio.sleep(0)  # its club.start counted him: the step before may let go
            self.release_hold()
            early = self.take_early()
            if early:
                channel.feed(early)  # lines a script sent before the text mode was up
            if self.input_ended:
                channel.input_ended()
            await run
        finally:
            self.hand_over(Between(self))
        return None if self.closed else self._next

    def _load_prefs(self) -> Any:
        """The account's saved settings (a guest's, and a new key's until it has a name, are only for now)."""
        from tui.text.prefs import Prefs

        prefs = Prefs()
        arrival = self.arrival
        read = arrival.settings if arrival is not None and arrival.name == self.name else None
        self.saved_prefs(prefs, read)
        return prefs

    def saved_prefs(self, prefs: Any, read: Any = None) -> None:
        """Read and keep ``prefs`` in the store for this session's account (if it has one); ``read``: his
        settings as read off the loop on arrival (``net.ssh.arrival``), or the error that read met."""
        store, name = self.server.store, self.name
        if self.guest or name is None or store is None or not hasattr(store, "settings"):
            return
        try:
            if isinstance(read, BaseException):
                raise read
            loaded = type(prefs).load(store.settings(name) if read is None else read)
        except Exception:
            log.exception("settings of %s could not be read", name)
            return
        prefs.mode, prefs.bell, prefs.brief, prefs.cards = loaded.mode, loaded.bell, loaded.brief, loaded.cards
        prefs.colour = loaded.colour
        prefs.save = lambda key, value: self._keep_setting(name, key, value)

    def _keep_setting(self, name: str, key: str, value: str) -> None:
        """``mode``, ``bell``…: the screen says the new setting at once; the store's write is made off the
        loop (``SuknoServer.off_loop``), and if it fails (or the store is silent ``STORE_WAIT`` s before
        the write begins) he is told so in his inbox, in his language, on whatever screen he has then (it holds
        for this visit); a write begun but slow is not told as failed: only its real failure is."""
        from net.ssh.offloop import as_pending

        def failed(err: BaseException) -> None:
            log.warning("the setting %s of %s was not kept: %s", key, clean(name), err)
            self.server.club.social.notify(name, "note", {"key": "pref.not_kept", "params": {"verb": key}})

        as_pending(self.server.off_loop(lambda own: own.set_setting(name, key, value)), "setting", failed)

    def switch_mode(self, mode: str) -> bool:
        """``mode screen`` typed in the text mode, ``mode text`` on the screen: change now if this terminal can."""
        from net.modes.text import term_is_plain

        if mode == "screen" and self.text is not None:
            if not self.has_pty or term_is_plain(self.term):
                return False
            self._next = ("hall", None)
            self.text.finish()
            return True
        if mode == "text" and self.app is not None:
            self._next = ("text", "")
            self.app.exit()
            return True
        if mode == "text" and self.door is not None:
            self.door.finish(("text", ""))
            return True
        return False

    def _left_club(self, app: Any) -> None:
        """An App that ended without its unmount (a crash) still leaves the club: away, then a stand-in."""
        leave = getattr(app, "leave_club", None)  # tui.app.ClubApp.leave_club: a no-op once it left
        if leave is None:
            return
        try:
            leave()
        except Exception:
            log.exception("the club could not hear that %s left", getattr(app, "player", None))

    def read_off_loop(self, work: Callable[[Any], Any], op: str) -> Pending:
        """``work(store)`` in the accounts' store thread, as a ``Pending`` of its result; a store
        that fails or is silent before the job begins answers ``cmd.failed`` (a catalogue key, what a store
        error always showed); a job begun but slow is told as still being made, and its outcome awaited."""
        from net.ssh.offloop import as_pending

        def failed(err: BaseException) -> str:
            log.warning("%s of %s: the store failed: %s", op, clean(self.name or "-"), err)
            return "cmd.failed"

        return as_pending(self.server.off_loop(work), op, failed, still=lambda: self.tell_now("store.still"))

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
        """The welcome's choice of a name for this key: a refusal now (a text), or an
        ``engine.table.pending.Pending`` answered with None (written) or the refusal once the store's thread has
        written it (``SuknoServer.off_loop``: the loop serves everyone meanwhile).  While one
        waits, another is refused: a second Enter never makes a second account."""
        if self.guest or self.conn.fingerprint is None:
            return text(self.lang, "guest_sit")
        accounts, fingerprint, lang = self.server.accounts, self.conn.fingerprint, self.lang
        name = name.strip()
        if not hasattr(accounts, "write"):  # another book of names (tools, tests): as it answers
            problem = accounts.register(fingerprint, name, lang)
            if problem is None:
                self._named(name)
            return problem
        if self._naming is not None:
            return text(lang, "naming")
        problem = accounts.precheck(name, lang)
        if problem:
            return problem
        from net.ssh.offloop import as_pending

        def failed(err: BaseException) -> str:
            log.error("cannot register %s: %s", clean(name), err)
            return str(accounts.store_failed(lang))

        def answered(problem: str | None) -> str | None:
            self._naming = None
            if problem is None:
                accounts.named(name)
                self._named(name)
            return problem

        pending = as_pending(self.server.off_loop(lambda own: accounts.write(own, fingerprint, name, lang)),
                             "register", failed, still=lambda: self.tell_now("store.still")).map(answered)
        self._naming = pending
        return pending

    def _named(self, name: str) -> None:
        """His name is in the book: this session is his, his settings kept from now on."""
        self.name = name
        social = getattr(self.server.club, "social", None)
        if social is not None:
            social.preload(name, [])  # a new account ignores nobody: no read of the store for it
        if self.prefs is not None:
            self.saved_prefs(self.prefs, {})  # from now on his settings are kept (a new account has none)
        log.info("registered %s for key %s from %s", clean(name), self.conn.fingerprint, self.conn.peer)

    def on_watch(self, table_id: int) -> None:
        """``watch N`` typed in the App: end it and join the table's shared view."""
        if self.closed or self.name is None or table_id not in self.server.club.tables:
            return
        # Count this session in the club before the App's unmount says we left.
        self.server.club.enter(self.name, guest=self.guest)
        self._next = ("watch", table_id)
        if self.app is not None:
            self.app.exit()
        if self.door is not None:
            self.door.finish(("watch", table_id))

    def _leave_screen(self) -> None:
        self.send(b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?2004l\x1b[?1049l")

    # -- the end -----------------------------------------------------------------------------

    def _lost(self) -> None:
        """The client is gone (or going): stop its App or leave its hub; the seat is kept."""
        if self.closed:
            return
        self.closed = True
        self.mode.close(None)

    async def _run_in_turn(self, app: Any) -> None:
        """Run the App; its start waits its turn: one App mounts at a time, server-wide.

        Mounting a ``ClubApp`` holds the loop 20-60 ms a step for ~0.15 s; ten
        sessions starting at once (a storm's admitted ones, ten guests) put all
        their steps in each turn of the loop, and everyone else waited 1.6 s for
        an answer.  In turn (``net.ssh.limits.StartQueue``: addresses round robin),
        the others wait behind one App's step at most.
        """
        starts = self.server.app_starts
        await starts.turn(self.conn.peer)
        try:
            if self.closed:  # gone while waiting: no App to start
                return
            run = asyncio.ensure_future(app.run_async(size=self.app_size()))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + START_TURN
            try:
                while not run.done() and not _app_ready(app, self._holds > 0) and loop.time() < deadline:
                    await asyncio.sleep(0.005)
            except asyncio.CancelledError:
                run.cancel()
                raise
            self.release_hold()  # the App counts him now
        finally:
            starts.release()
        await run

    def exit_app(self, since: float | None = None) -> None:
        """End the App once its first screen is mounted (3 s at most).

        Textual's ``exit`` while a screen is still mounting removes its children
        under its ``on_mount`` (NoMatches, a traceback on the server's terminal):
        ``ssh -tt host </dev/null`` sends EOF before the first screen is up.
        """
        app = self.app
        if app is None:
            return
        loop = asyncio.get_running_loop()
        since = loop.time() if since is None else since
        if _app_ready(app) or loop.time() - since > 3:
            app.exit()
        else:
            loop.call_later(0.02, self.exit_app, since)

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
        self._farewell = message
        self._next = None
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


def _app_ready(app: Any, entered: bool = False) -> bool:
    """The App has mounted its first screen (Textual's exit is safe; the next App may start);
    with ``entered``, it has also counted him in the club (a hold may be let go)."""
    try:
        mounted = tc.app_mounted(app) and app.screen.is_mounted
        return bool(mounted) and (not entered or getattr(app, "entered", True))  # tui.app.ClubApp.entered
    except Exception:  # no screen at all: nothing to wait for
        return True


def _club_app(session: Session) -> Any:
    """The player's own App: the club's ``ClubApp`` wired to this session (the default)."""
    from net.house.admin import admin_runner
    from net.ssh.keyring import KeyRing
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
        prefs=session.prefs,
        ring=lambda: session.send(b"\x07"),
        on_mode=session.switch_mode,
        keys=KeyRing(session),
        store_read=session.read_off_loop,
    )
