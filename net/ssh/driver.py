"""A Textual driver whose terminal is one SSH channel.

Why not ``LinuxDriver``: it installs process-wide signal handlers, changes the
server's own terminal and can suspend the whole server.  This driver touches
nothing outside its channel: frames go to a :class:`Link`, the client's bytes
come back through :meth:`SSHDriver.feed`, window changes through
:meth:`SSHDriver.resize`.

Backpressure: while the link is paused (the client stopped reading) frames are
dropped, not queued; on resume the whole current screen is sent again, so a
slow reader costs the server nothing while paused and still ends up exact.

Input is paced: the client's bytes are parsed ``PARSE_SLICE`` characters and
handed to the App ``PUMP_SLICE`` events per turn of the event loop, within the
session's event rate; so one session flooding keys costs every other session
one slice of its work, not all of it.

Textual builds the driver itself (``driver_class(app, debug=, mouse=, size=)``)
so the link reaches the driver by a hand-off (``textual_compat.DriverHandoff``):
:func:`attach` gives it before ``run_async()``, the driver takes it when made and
hands itself to the link (``Link.driver_made``).
"""

from __future__ import annotations

import asyncio
import codecs
from collections import deque
from pathlib import Path
from typing import Any, BinaryIO, Literal, Protocol, TextIO

from textual import constants, events
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from net.ssh.limits import TokenBucket
from net import textual_compat as tc

_LINKS: tc.DriverHandoff[Link] = tc.DriverHandoff()  # the link each attached App's driver takes
_HOLD_AFTER = frozenset({"enter", "tab", "shift+tab"})

PARSE_SLICE = 512
"""Characters parsed per turn of the event loop (~3 ms of Textual's parser)."""
PUMP_SLICE = 4
"""Events handed to the App per turn of the event loop."""
PENDING_MAX = 1 << 16
"""Decoded characters waiting to be parsed, at most (more is dropped: the input burst is 64 KB)."""
QUEUE_MAX = 4096
"""Parsed events waiting for the App, at most."""

ENTER_APP_MODE = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?1000h\x1b[?1003h\x1b[?1006h"  # mouse: clicks, motion, SGR coordinates
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap: a full last cell must not scroll the screen
    "\x1b[?25h"  # show the cursor: Textual puts it on the command line's caret after every frame,
    # and screen readers and braille displays follow it
)
LEAVE_APP_MODE = (
    "\x1b[?2004l\x1b[?1006l\x1b[?1003l\x1b[?1000l\x1b[?7h\x1b[0m\x1b[?25h\x1b[?1049l"
)


class Link(Protocol):
    """What a driver needs from its session: a byte pipe with a pause flag."""

    @property
    def paused(self) -> bool:
        """True while the client is not reading (the channel's buffer is over its limit)."""

    def send(self, data: bytes) -> None:
        """Queue bytes for the client."""

    def driver_made(self, driver: SSHDriver) -> None:
        """The App's driver exists: from now on the link hands it the client's bytes and resizes."""

    # Optional: ``event_rate`` (events per second, burst) the driver hands the App at most;
    # a session gives the config's ``input_events_per_second`` and ``input_event_burst``.


def attach(app: App[Any], link: Link) -> None:
    """Make ``app`` run on ``link``: set the driver class and hand it the link."""
    _LINKS.give(app, link)
    app.driver_class = SSHDriver
    quiet_app(app)


class _Passthrough:
    """Stands in for Textual's print capture so it swaps nothing process-wide."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def quiet_app(app: App[Any]) -> None:
    """Stop ``app`` from redirecting the process's stdout/stderr to itself.

    Textual swaps ``sys.stdout`` for each running app; apps ending out of order
    would leave the server's stdout pointing at a dead one.  Pointing
    the capture at the real streams makes the swap a no-op.
    """
    import sys

    tc.quiet_streams(app, sys.__stdout__, sys.__stderr__)
    commands = app.get_system_commands

    def without_screenshot(screen: Any) -> Any:
        # The palette's "Screenshot" writes an SVG file to the server's disk.
        return (c for c in commands(screen) if c.title != "Screenshot")

    app.get_system_commands = without_screenshot  # type: ignore[method-assign]  # Textual has no hook for it


def full_frame(app: App[Any]) -> str:
    """The whole current screen of ``app`` as escape sequences, without side effects.

    ``render_update(full=True)`` would clear the compositor's dirty regions and
    the next diff would miss them; rendering the strips does not.
    Must run inside the app's context (``with textual_compat.app_context(app)``).
    """
    screen = app.screen
    console = app.console
    strips = tc.render_strips(screen)
    out = ["\x1b[0m\x1b[H\x1b[2J"]
    for y, strip in enumerate(strips):
        out.append(f"\x1b[{y + 1};1H")
        out.append(strip.render(console))
    out.append("\x1b[0m")
    x, y = screen.outer_size.clamp_offset(app.cursor_position)
    out.append(f"\x1b[{y + 1};{x + 1}H")  # the caret, where Textual's own frames leave the cursor
    return "".join(out)


class SSHDriver(Driver):
    """Textual's terminal on one SSH channel."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.app: App[Any] = app
        """The App this driver serves (Textual's own reference is private)."""
        self.loop = asyncio.get_running_loop()
        self._link: Link = _LINKS.take(app)
        self._parser = tc.new_parser()
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._buffer: list[str] = []
        self._input = True
        self._early: list[bytes | str] | None = []  # keys typed before the first frame
        self._pending = ""  # decoded input not parsed yet (from _pending_at on)
        self._pending_at = 0
        self._parse_handle: asyncio.Handle | None = None
        self._queue: deque[Message] = deque()  # parsed events not yet handed to the App
        self._pump_handle: asyncio.Handle | None = None
        # The config's input_events_per_second / input_event_burst, through the session.
        self._events = TokenBucket(*getattr(self._link, "event_rate", (100, 400)))
        self.dropped = 0
        """Events dropped over the session's event rate (for tests and the bench)."""
        self._holding = False  # after an Enter or Tab: the queue waits for the App's next frame
        self._held_frames = 0
        self._held_since = 0.0
        self._frames = 0
        self._release_handle: asyncio.TimerHandle | None = None
        self._stale = False
        self._tick_handle: asyncio.TimerHandle | None = None
        self._link.driver_made(self)

    # -- output ---------------------------------------------------------------

    def write(self, data: str) -> None:
        self._buffer.append(data)

    def flush(self) -> None:
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer.clear()
        self._frames += 1
        if self._early is not None and tc.app_started(self.app):
            # The first frame is drawn, so the screen can take keys: replay what came early.
            early, self._early = self._early, None
            self.loop.call_soon(self._replay, early)
        if self._link.paused:
            self._stale = True  # dropped a diff: the next resume sends everything
            return
        self._link.send(data.encode("utf-8", "replace"))

    def resume(self) -> None:
        """The client reads again: send the whole screen if frames were dropped."""
        if not self._stale or self._link.paused:
            return
        self._stale = False
        app = self.app
        if not tc.app_live(app):
            return
        try:
            with tc.app_context(app):
                frame = full_frame(app)
        except Exception:  # no screen yet, or the app is ending: nothing to repaint
            return
        self._link.send(frame.encode("utf-8", "replace"))

    def start_application_mode(self) -> None:
        self.write(ENTER_APP_MODE)
        self.flush()
        width, height = tc.driver_window(self) or (80, 24)
        size = Size(width, height)
        self.app.post_message(events.Resize(size, size))

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(LEAVE_APP_MODE)
        self.flush()
        self._drop_parser()

    def _drop_parser(self) -> None:
        """Let the App go: Textual's parser would keep it alive after the session.

        ``XTermParser._parse_extended_key`` is an ``lru_cache`` on a method: it
        keeps up to 1024 parsers (and the Key events it returned, whose sender is
        an App) process-wide; each parser's generator holds its last Key.  So a
        finished session's whole App stayed in memory.  Close the generator and
        empty that cache (it only saves re-parsing a key sequence):
        ``textual_compat.drop_parser``.
        """
        tc.drop_parser(self._parser)

    def disable_input(self) -> None:
        self._input = False
        self._holding = False
        self._queue.clear()
        self._pending, self._pending_at = "", 0
        for handle in (self._parse_handle, self._pump_handle):
            if handle is not None:
                handle.cancel()
        self._parse_handle = self._pump_handle = None
        if self._release_handle is not None:
            self._release_handle.cancel()
            self._release_handle = None
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    # -- input ------------------------------------------------------------------

    def feed(self, data: bytes | str) -> None:
        """Bytes from the client: decoded now, parsed and posted to the App a slice at a time."""
        if not self._input:
            return
        if self._early is not None:
            if len(self._early) < 256:
                self._early.append(data)
            return
        text = self._decode(data) if isinstance(data, bytes) else data
        if not text:
            return
        pending = len(self._pending) - self._pending_at
        room = PENDING_MAX - pending
        if room <= 0:
            return  # already a burst's worth waiting to be parsed: dropped, like a full buffer
        self._pending = self._pending[self._pending_at:] + text[:room]
        self._pending_at = 0
        if self._parse_handle is None:
            self._parse_some()  # the usual few keys: parsed at once, no turn of the loop lost

    def _parse_some(self) -> None:
        """Parse at most ``PARSE_SLICE`` characters, then let the loop serve others before the rest.

        Textual's parser costs ~6 us a character: 64 KB parsed in one go held every
        session for ~0.4 s.
        """
        self._parse_handle = None
        if not self._input:
            return
        chunk = self._pending[self._pending_at:self._pending_at + PARSE_SLICE]
        self._pending_at += len(chunk)
        if self._pending_at >= len(self._pending):
            self._pending, self._pending_at = "", 0
        try:
            for message in self._parser.feed(chunk):
                self._deliver(message)
        except Exception:  # ParseError or worse: a sequence the parser chokes on
            # must not end the session: start afresh.
            self._parser = tc.new_parser()
        if self._pending:
            self._parse_handle = self.loop.call_soon(self._parse_some)
        else:
            self._schedule_tick()

    def _deliver(self, message: Message) -> None:
        """Queue one parsed key/mouse/paste event for the App, within the session's event rate."""
        if not self._events.take(1) or len(self._queue) >= QUEUE_MAX:
            self.dropped += 1  # over the rate: no person types or moves a mouse that fast
            return
        self._queue.append(message)
        if self._pump_handle is None and not self._holding:
            self._pump_handle = self.loop.call_soon(self._pump)

    def _pump(self) -> None:
        """Hand the App a few queued events; the rest wait for the next turn of the loop.

        Textual runs every message queued to an App before it lets the loop go,
        so 16,000 keys posted at once held every session until all were done.
        At most ``PUMP_SLICE`` go at a time, and only when the App has taken the
        last ones: a key costs the others one slice at most.

        Keys that arrive in one burst (typed ahead over a slow link, a paste
        without brackets) reach Textual together, and it runs an Enter's action
        only after the printable keys behind it are inserted: ``sit 1⏎start⏎``
        became ``sit 1start`` twice.  So after Enter or Tab the rest waits until
        the App has drawn and has nothing queued (it acted on the Enter and any
        new screen is mounted), or 0.5 s at most.
        """
        self._pump_handle = None
        if self._holding or not self._input:
            return
        if tc.queued_messages(self.app) >= PUMP_SLICE:  # still busy with the last slice
            self._pump_handle = self.loop.call_later(0.002, self._pump)
            return
        for _ in range(PUMP_SLICE):
            if not self._queue:
                return
            message = self._queue.popleft()
            self.process_message(message)
            if isinstance(message, events.Key) and message.key in _HOLD_AFTER:
                self._holding = True
                self._held_frames = self._frames
                self._held_since = self.loop.time()
                self._release_handle = self.loop.call_later(0.01, self._maybe_release)
                return
        if self._queue:
            self._pump_handle = self.loop.call_soon(self._pump)

    def _settled(self) -> bool:
        """The App drew since the Enter and has nothing queued (a new screen is mounted)."""
        app = self.app
        if self._frames == self._held_frames:
            return False
        try:
            screen = app.screen
        except Exception:
            return True
        pumps = [app, screen, app.focused]
        return screen.is_mounted and all(
            p is None or tc.pump_idle(p) for p in pumps
        )

    def _maybe_release(self) -> None:
        self._release_handle = None
        if not self._holding:
            return
        if self._settled() or self.loop.time() - self._held_since > 0.5:
            self._holding = False
            self._pump()
        else:
            self._release_handle = self.loop.call_later(0.01, self._maybe_release)

    def _replay(self, early: list[bytes | str]) -> None:
        for data in early:
            self.feed(data)

    def _schedule_tick(self) -> None:
        """A lone Escape becomes a key only after the parser's timeout."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if tc.parser_waiting(self._parser):
            delay = constants.ESCAPE_DELAY + 0.005
            self._tick_handle = self.loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self._input:
            return
        try:
            for message in self._parser.tick():
                self._deliver(message)
        except Exception:
            self._parser = tc.new_parser()

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size."""
        tc.set_driver_window(self, width, height)
        size = Size(width, height)
        self.app.post_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        # One loop, one thread: post directly (the base class assumes another thread).
        self.app.post_message(message)

    # -- things that must not happen on the server's machine ----------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Never open a browser on the server; the client cannot be reached this way."""

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refuse file delivery: the default writes to the server's disk."""
        binary.close()
        self.app.post_message(
            events.DeliveryFailed(
                key=delivery_key, exception=PermissionError("no files over ssh"), name=name
            )
        )


__all__ = ["Link", "SSHDriver", "attach", "full_frame", "quiet_app", "ENTER_APP_MODE", "LEAVE_APP_MODE"]
