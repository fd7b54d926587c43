"""Spectators: render a table once, send the same bytes to every watcher.

One App per spectator does not scale (100 watchers: over a second per event),
and every watcher of a table sees the same public view anyway.  So a
:class:`Hub` per (table, size bucket, language, ASCII) runs one input-free
spectator App; its driver's ``flush()`` (once per frame) encodes the frame
once and writes it to every :class:`Member`.

- Late joiners get a full screen rendered from the compositor without side
  effects (``full_frame``), cached until the next frame, sent in the same loop
  step as they are added, so no diff can fall between.
- A member whose channel or connection buffer is over the limit is *stale*:
  his frames are skipped (he costs nothing) and he gets the cached full screen
  once his buffers drain.
- Each watcher's own note and command line are the bottom two rows of his window, drawn here
  with plain escape sequences; his keys never reach the shared App.
- Window sizes are bucketed (the widest configured width and the tallest configured
  height that fit; the view sits top-left), because each extra group costs a render per event.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from rich.cells import cell_len
from textual import events
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size

from net import textual_compat as tc
from net.ssh.driver import full_frame, quiet_app
from net.modes.lineedit import LineEditor
from tui.limits import COMMAND_MAX

log = logging.getLogger("sukno.spectate")

_HUBS: tc.DriverHandoff[Hub] = tc.DriverHandoff()  # the hub each spectator App's driver takes
ENTER_WATCH_MODE = "\x1b[?1049h\x1b[?7l\x1b[?2004h\x1b[?25h\x1b[H\x1b[2J"  # the cursor shown: see ``caret``
MAX_LINE = COMMAND_MAX  # the watcher's row holds what the club's command line does
SLICE = 64
"""Watchers sent a frame per turn of the event loop.  A send costs ~40 µs (SSH packet, encryption),
so a frame to a thousand watchers in one go held every seated player's frame and keys ~40 ms; in
slices, they come in between.  Frames keep their order: a new one first ends the last."""


def bucket_for(cols: int, rows: int, buckets: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The frame for a window: the widest configured width and the tallest configured height that fit.

    Widths and heights are taken apart (a grid of the configured sizes), so a 160×24 window gets a
    160-column frame, not an 80-column one; None if the window is smaller than every bucket.
    """
    widths = [b[0] for b in buckets if b[0] <= cols]
    heights = [b[1] for b in buckets if b[1] <= rows]
    if not widths or not heights:
        return None
    return max(widths), max(heights)


class Wire(Protocol):
    """A member's way out: bytes to the client and how much is still queued."""

    def send(self, data: bytes) -> None: ...

    def buffered(self) -> int: ...


@dataclass(frozen=True)
class HubKey:
    table_id: int
    cols: int
    rows: int
    lang: str
    ascii: bool
    hide: frozenset[str] = frozenset()  # names these watchers ignore: their own frame


class HubDriver(Driver):
    """The spectator App's driver: no input; each frame goes to the hub once."""

    def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=debug, mouse=False, size=size)
        self.app: App[Any] = app
        """The spectator App (Textual's own reference is private)."""
        self._hub: Hub = _HUBS.take(app)
        self._buffer: list[str] = []

    def write(self, data: str) -> None:
        self._buffer.append(data)

    def flush(self) -> None:
        if self._buffer:
            data = "".join(self._buffer)
            self._buffer.clear()
            self._hub.broadcast(data)

    def start_application_mode(self) -> None:
        width, height = tc.driver_window(self) or (80, 24)
        size = Size(width, height)
        self.app.post_message(events.Resize(size, size))

    def stop_application_mode(self) -> None:
        self._buffer.clear()

    def disable_input(self) -> None:
        pass

    def send_message(self, message: Any) -> None:
        self.app.post_message(message)

    def open_url(self, url: str, new_tab: bool = True) -> None:
        pass

    def deliver_binary(self, binary: Any, **kwargs: Any) -> None:
        binary.close()


class Member:
    """One watcher: where his bytes go, his command line, whether he is behind."""

    def __init__(self, wire: Wire, cols: int, rows: int, *, prompt: str = "> ",
                 on_line: Callable[[str], None] | None = None,
                 on_eof: Callable[[], None] | None = None) -> None:
        self.wire = wire
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        self.prompt = prompt
        self.on_line = on_line
        self.on_eof = on_eof
        self.caret = b""
        """Where the terminal's cursor goes back to after a frame: the caret of this watcher's line."""
        self.stale = False
        self.hub: Hub | None = None
        self.editor = LineEditor(MAX_LINE)
        """His command line: the hall door's own editor (caret, history, paste, the same keys)."""
        self.note = ""

    @property
    def text(self) -> str:
        """What he has typed so far on his command line."""
        return self.editor.text

    # -- the command line -----------------------------------------------------------

    def command_line(self) -> str:
        """The bottom two rows: the note (the answer to the last command, or the house's words) over the prompt.

        The answer never takes the prompt's place: the watcher always sees where he types.
        """
        width = self.cols
        room = max(0, width - cell_len(self.prompt) - 1)
        text, at = self.editor.text, self.editor.caret
        before = _tail(text[:at], room)
        line = _fit(self.prompt, width) + before + _fit(text[at:], room - cell_len(before))
        at_end = at == len(text)
        cursor = "\x1b[7m \x1b[0m" if at_end and cell_len(line) < width else ""
        # The terminal's own cursor on the caret (screen readers follow it), after this row
        # and after every shared frame (``Hub.broadcast``), which would leave it where the App's ends.
        column = cell_len(_fit(self.prompt, width) + before) + 1
        self.caret = f"\x1b[{self.rows};{min(width, column)}H".encode()
        out = f"\x1b[{self.rows};1H\x1b[0m\x1b[2K{line}{cursor}"
        if self.rows >= 2:
            note = self.note if cell_len(self.note) <= width else _fit(self.note, width - 1) + "…"
            out = f"\x1b[{self.rows - 1};1H\x1b[0m\x1b[2K\x1b[33m{note}\x1b[0m" + out
        return out + self.caret.decode()

    def redraw_line(self) -> None:
        if not self.stale:
            self.wire.send(self.command_line().encode("utf-8", "replace"))

    def feed(self, data: bytes) -> None:
        """Keys typed by the watcher, read by the same line editor as the hall door's; Enter runs the line."""
        keys = self.editor.feed(data)
        changed = keys.changed
        if keys.ctrl_c:  # Ctrl+C clears the line, as it always did here
            self.editor.set("")
            changed = True
        for line in keys.lines:
            self.note = ""
            if line.strip() and self.on_line:
                self.on_line(line.strip())
        if keys.eof and not self.editor.text and self.on_eof:  # Ctrl+D on an empty line: leave
            self.on_eof()
            return
        if changed and self.hub is not None:
            self.redraw_line()

    def say_note(self, text: str) -> None:
        """Show one line of answer in the command row until the next key."""
        self.note = " ".join(text.split())
        self.redraw_line()


def _tail(text: str, width: int) -> str:
    """The end of ``text`` that fits ``width`` cells, measured once per character (a key costs O(line))."""
    if cell_len(text) <= width:
        return text
    if text.isascii() and text.isprintable():
        return text[-width:] if width > 0 else ""
    used, start = 0, len(text)
    while start > 0:
        size = cell_len(text[start - 1])
        if used + size > width:
            break
        used += size
        start -= 1
    return text[start:]


def _fit(text: str, width: int) -> str:
    """The start of ``text`` that fits ``width`` cells (each character measured once)."""
    if cell_len(text) <= width:
        return text
    used = 0
    for end, ch in enumerate(text):
        used += cell_len(ch)
        if used > width:
            return text[:end]
    return text


class Hub:
    """One spectator App for a (table, bucket, language) and the watchers it feeds."""

    def __init__(self, key: HubKey, make_app: Callable[[HubKey, int, int], App[Any]], *,
                 buffer_limit: int = 262144, reserve_rows: int = 1,
                 on_empty: Callable[[Hub], None] | None = None) -> None:
        self.key = key
        self.members: list[Member] = []
        self.buffer_limit = buffer_limit
        self.size = (key.cols, max(1, key.rows - reserve_rows))
        self.app = make_app(key, *self.size)
        _HUBS.give(self.app, self)
        self.app.driver_class = HubDriver
        quiet_app(self.app)
        self.ready = asyncio.Event()
        self.frames = 0
        self.bytes_out = 0
        self._full: bytes | None = None
        self._on_empty = on_empty
        self._poll: asyncio.TimerHandle | None = None
        self._frame: tuple[bytes, bool] | None = None  # the frame being sent, slice by slice
        self._to: list[Member] = []  # the members it goes to (those of the moment it came)
        self._at = 0  # how many of them have been given it
        self._slice: asyncio.Handle | None = None
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"hub {key}")

    async def _run(self) -> None:
        try:
            await self.app.run_async(size=self.size, mouse=False)
        except Exception:
            log.exception("spectator app for table %s failed", self.key.table_id)
        finally:
            self.ready.set()
            self._cancel_poll()

    # -- frames -------------------------------------------------------------------------

    def broadcast(self, data: str) -> None:
        """One frame from the App: encoded once, sent to every member that keeps up, ``SLICE`` a turn."""
        self._finish()  # the last frame reaches everyone first
        self._full = None
        self.frames += 1
        payload = data.encode("utf-8", "replace")
        rows = self.size[1]
        # A frame that repaints the App's (empty) bottom rows wipes the note and command line of
        # watchers whose window is exactly the bucket's height: draw theirs again.
        touched = f"\x1b[{rows};" in data or f"\x1b[{rows - 1};" in data
        self._frame, self._to, self._at = (payload, touched), list(self.members), 0
        self._send_slice()
        if not self.ready.is_set() and tc.app_started(self.app):
            self.ready.set()

    def _send_slice(self) -> None:
        """The frame to the next ``SLICE`` members; the rest at the next turn of the loop."""
        self._slice = None
        if self._frame is None:
            return
        payload, touched = self._frame
        rows = self.size[1]
        end = min(len(self._to), self._at + SLICE)
        for member in self._to[self._at:end]:
            if member.stale or member.hub is not self:  # behind, or gone since the frame came
                continue
            if member.wire.buffered() > self.buffer_limit:
                member.stale = True
                continue
            if touched and member.rows == rows:
                member.wire.send(payload + member.command_line().encode("utf-8", "replace"))
            else:
                member.wire.send(payload + member.caret)
            self.bytes_out += len(payload)
        self._at = end
        if end < len(self._to):
            self._slice = asyncio.get_running_loop().call_soon(self._send_slice)
            return
        self._frame, self._to = None, []
        if any(m.stale for m in self.members):
            self._schedule_poll()

    def _finish(self) -> None:
        """Send the frame under way to everyone it has not reached yet, now."""
        if self._slice is not None:
            self._slice.cancel()
            self._slice = None
        while self._frame is not None:
            self._send_slice()
            if self._slice is not None:
                self._slice.cancel()
                self._slice = None

    def full_screen(self) -> bytes:
        """The whole current view (cached until the next frame)."""
        if self._full is None:
            with tc.app_context(self.app):
                self._full = full_frame(self.app).encode("utf-8", "replace")
        return self._full

    def send_full(self, member: Member) -> None:
        member.wire.send(self.full_screen() + member.command_line().encode("utf-8", "replace"))

    async def join(self, member: Member) -> bool:
        """Add a watcher once the App has drawn; False if the App could not start."""
        await self.ready.wait()
        if not tc.app_live(self.app):
            return False
        member.wire.send(ENTER_WATCH_MODE.encode())
        member.stale = False
        member.hub = self
        self.send_full(member)  # then add him, in the same loop step: no diff falls between
        self.members.append(member)
        return True

    def leave(self, member: Member) -> None:
        if member in self.members:
            self.members.remove(member)
        member.hub = None
        if not self.members and self._on_empty is not None:
            self._on_empty(self)

    def check_stale(self) -> None:
        """Repaint members whose buffers drained (also called on channel resume)."""
        self._finish()  # the full screen below is the frame under way's result: no diff after it
        for member in self.members:
            if member.stale and member.wire.buffered() <= self.buffer_limit // 4:
                member.stale = False
                self.send_full(member)
        if any(m.stale for m in self.members):
            self._schedule_poll()

    def _schedule_poll(self) -> None:
        if self._poll is None:
            self._poll = asyncio.get_running_loop().call_later(0.1, self._polled)

    def _polled(self) -> None:
        self._poll = None
        self.check_stale()

    def _cancel_poll(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    async def close(self) -> None:
        self._cancel_poll()
        if self._slice is not None:
            self._slice.cancel()
            self._slice = None
        self._frame, self._to = None, []
        if tc.app_started(self.app):
            self.app.exit()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.task.cancel()


class Hubs:
    """All hubs of the server; a hub starts with its first watcher and ends with its last."""

    def __init__(self, make_app: Callable[[HubKey, int, int], App[Any]], buckets: list[tuple[int, int]],
                 *, buffer_limit: int = 262144, reserve_rows: int = 1) -> None:
        self.make_app = make_app
        self.buckets = sorted(buckets)
        self.buffer_limit = buffer_limit
        self.reserve_rows = reserve_rows
        self.hubs: dict[HubKey, Hub] = {}
        self._closing: set[asyncio.Task[None]] = set()

    def key_for(self, table_id: int, cols: int, rows: int, lang: str, ascii: bool,
                hide: frozenset[str] = frozenset()) -> HubKey | None:
        bucket = bucket_for(cols, rows, self.buckets)
        if bucket is None:
            return None
        return HubKey(table_id, bucket[0], bucket[1], lang, ascii, frozenset(hide))

    def smallest(self) -> tuple[int, int]:
        return min(self.buckets, key=lambda b: b[0] * b[1])

    async def join(self, key: HubKey, member: Member) -> Hub | None:
        """Add ``member`` to the hub of ``key`` (started if needed); None if its App failed."""
        for _attempt in range(2):  # a hub may end while we wait for it: start a new one once
            hub = self.hubs.get(key)
            if hub is None:
                hub = Hub(key, self.make_app, buffer_limit=self.buffer_limit,
                          reserve_rows=self.reserve_rows, on_empty=self._empty)
                self.hubs[key] = hub
            if await hub.join(member):
                return hub
            if self.hubs.get(key) is hub:
                del self.hubs[key]
        return None

    def _empty(self, hub: Hub) -> None:
        if self.hubs.get(hub.key) is hub:
            del self.hubs[hub.key]
        task = asyncio.get_running_loop().create_task(hub.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        hubs = list(self.hubs.values())
        self.hubs.clear()
        for hub in hubs:
            await hub.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
