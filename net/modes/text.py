"""The text mode on an SSH channel: plain lines for screen readers, braille displays, dumb terminals, scripts.

Who gets it (``wants_text``): ``ssh host text`` (with or without ``-t``), a
session without a pty, a client whose ``TERM`` is ``dumb`` or unknown to the
terminal database, and an account whose saved setting is ``mode text``
(``ssh -t host screen`` overrides it for one visit).

What goes out: lines of text ending in CR LF (LF without a pty), BEL when it
becomes the player's turn (if the bell is on) — no alternate screen, no cursor
movement, no colour.  What comes in: lines.  With a pty on a terminal that
can move its cursor, asyncssh's own line editor (through ``net.ssh.sshcompat``: history on
the arrow keys, Ctrl+A/E, Ctrl+U…) edits the line and keeps it below the lines
that arrive meanwhile; on a dumb terminal the hall's own editor (``net.modes.lineedit``)
edits it, echoed plainly (Backspace as ``\\b \\b``); without a pty nothing is echoed.  The club itself is
``tui.text.club.TextClub``; nothing here keeps a screen, so a session costs a
few kilobytes.

A client that stops reading: lines wait (up to ``QUEUE_LINES``; the oldest
are dropped past that, and the player is told how many, with ``log N`` to
hear them again) and go out when it reads again.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import os
import re
from collections import deque
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Iterator

from tui.framegate import gate
from tui.i18n import tr
from tui.limits import COMMAND_MAX
from tui.text.club import TextClub
from tui.text.prefs import Prefs
from tui.text.wrap import wrap
from net.modes.lineedit import LineEditor
from net.ssh.keyring import KeyRing
from net.ssh.sshcompat import line_editor

if TYPE_CHECKING:
    from net.ssh.ports import SessionPort

log = logging.getLogger("sukno.text")

MAX_LINE = COMMAND_MAX
"""Longest line kept from the client (characters, as on the screen's command line); more is not taken."""
ANSWER_WAIT = 10.0
"""Seconds a script's last answers may take to come (a store read) after its input ran out."""
QUEUE_LINES = 400
TEXT_WORDS = ("text", "текст")
SCREEN_WORDS = ("screen", "экран")
PLAIN_TERMS = frozenset({"", "dumb", "unknown", "emacs", "network"})
KNOWN_TERMS = re.compile(
    r"^(xterm|screen|tmux|vt\d+|linux|rxvt|putty|ansi|cygwin|konsole|gnome|alacritty|kitty|foot|wezterm|"
    r"st|iterm|eterm|aterm|cons25|mlterm|terminator|termite|contour|ghostty|ms-terminal|vscode)",
    re.IGNORECASE,
)
TERMINFO_DIRS = ("/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo",
                 "/usr/local/share/terminfo")


@lru_cache(maxsize=256)
def term_is_plain(term: str) -> bool:
    """A terminal that cannot be drawn on: ``dumb``, none, or a name the terminal database does not know."""
    name = term.strip()
    if name.lower() in PLAIN_TERMS:
        return True
    if not re.fullmatch(r"[A-Za-z0-9._+-]{1,64}", name):
        return True
    if KNOWN_TERMS.match(name):
        return False
    dirs = [os.environ.get("TERMINFO", ""), str(Path.home() / ".terminfo"), *TERMINFO_DIRS]
    for folder in filter(None, dirs):
        for sub in (name[0], f"{ord(name[0]):x}"):  # Linux letters, macOS hex
            if (Path(folder) / sub / name).exists():
                return False
    return True


def command_words(command: str) -> tuple[str, str]:
    """``text watch 3`` → ("text", "watch 3"); ``screen`` → ("screen", ""); anything else → ("", command)."""
    word, _, rest = command.strip().partition(" ")
    lowered = word.lower()
    if lowered in TEXT_WORDS:
        return "text", rest.strip()
    if lowered in SCREEN_WORDS:
        return "screen", rest.strip()
    return "", command.strip()


def wants_text(session: SessionPort, saved: str) -> bool:
    """The text mode for this session? (the command, then the terminal, then the saved setting)."""
    asked, _ = command_words(session.command)
    if asked == "text" or not session.has_pty:
        return True
    if term_is_plain(session.term):
        return True
    if asked == "screen":
        return False
    return saved == "text"


class _EditorChannel:
    """What asyncssh's line editor writes to: text for the session's byte link."""

    def __init__(self, out: TextChannel) -> None:
        self._out = out

    def write(self, data: str, datatype: Any = None) -> None:
        self._out.send_raw(data)


class _EditorSession:
    """What asyncssh's line editor tells: whole lines, Ctrl+D on an empty line, Ctrl+C."""

    def __init__(self, out: TextChannel) -> None:
        self._out = out

    def data_received(self, data: str, datatype: Any) -> None:
        self._out.got_line(data[:-1] if data.endswith("\n") else data)  # one line per Enter

    def soft_eof_received(self) -> None:
        self._out.finish()

    def break_received(self, msec: int) -> bool:
        return True  # Ctrl+C: the editor has cleared nothing; the line stays

    def signal_received(self, signal: str) -> None:
        pass


class TextChannel:
    """One session's text mode: input lines to the ``TextClub``, its sentences to the client."""

    def __init__(self, session: SessionPort, *, first: str = "", prefs: Prefs | None = None) -> None:
        self.session = session
        self.pty = session.has_pty
        self.newline = "\r\n" if self.pty else "\n"
        self.plain_term = term_is_plain(session.term) if self.pty else True
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self.line = LineEditor(MAX_LINE)
        """His line on a dumb terminal or without a pty (asyncssh's editor has it otherwise)."""
        self._queue: deque[str] = deque()
        self._batch: list[str] | None = None
        self._dropped = 0
        self._wake: asyncio.Handle | None = None
        self._first = first
        self._tasks: set[asyncio.Task[Any]] = set()
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.editor: Any = None
        self._ending: asyncio.Task[None] | None = None
        if self.pty and not self.plain_term:
            self.editor = line_editor(_EditorChannel(self), _EditorSession(self), True, 100, MAX_LINE,
                                      session.term, session.cols)
        from net.house.admin import admin_runner

        self.club = TextClub(
            session.server.club, session.name, write=self.write_line, lang=session.lang, ascii=session.ascii,
            guest=session.guest, prefs=prefs, register=session.register, admin=admin_runner(session),
            spawn=self._spawn, bell=self.bell, on_quit=self.finish, on_mode=session.switch_mode,
            keys=KeyRing(session),
            store_read=session.read_off_loop,
        )
        self.club.wake = self._schedule
        self.club.arrival = session  # the message of the day once a session, whichever mode he is in

    # -- life ------------------------------------------------------------------------------

    async def run(self) -> None:
        """Until the player quits, the client goes or the server says stop."""
        ticking = asyncio.get_running_loop().create_task(self._clock_ticks())
        try:
            self.club.start()
            if self._first and self.club.player is not None:
                self.got_line(self._first)
            await self.done
        finally:
            ticking.cancel()
            if self._wake is not None:
                self._wake.cancel()
                self._wake = None
            for task in list(self._tasks):
                task.cancel()
            self.club.stop()

    async def _clock_ticks(self) -> None:
        """Each second: his turn's clock warnings (``TextClub.clock_check``)."""
        while not self.done.done():
            await asyncio.sleep(1.0)
            with self._batching():
                try:
                    self.club.clock_check()
                except Exception:  # a warning that fails must not end the session
                    log.exception("clock warning for %s failed", self.session.name)

    def finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def input_ended(self) -> None:
        """A script's input ran out: a last line without its Enter counts, every answer still on its
        way (a balance read from the store) is waited for, at most ``ANSWER_WAIT`` s, then the end."""
        if self.line.text:
            line = self.line.text
            self.line.set("")
            self.got_line(line)
        if self._ending is None:
            self._ending = asyncio.get_running_loop().create_task(self._end_when_answered())

    async def _end_when_answered(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_WAIT
        while self._tasks and loop.time() < deadline and not self.done.done():
            await asyncio.sleep(0.02)
        await asyncio.sleep(0)  # the news their answers scheduled go out first
        self._news()
        self.finish()

    stop = finish

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            await work
            self.club.news()

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule(self) -> None:
        """A table or the hall changed: tell it once this burst of callbacks is over."""
        if self._wake is None and not self.done.done():
            self._wake = asyncio.get_running_loop().call_soon(self._news)

    def _news(self) -> None:
        self._wake = None
        with self._batching():
            try:
                self.club.news()
            except Exception:  # a narration bug must not end the session
                log.exception("text news for %s failed", self.session.name)
        since, self.club.told_since = self.club.told_since, None
        if since is not None:  # the sentences are sent: on his screen, as an App's frame would be
            gate().shown(since)

    @contextmanager
    def _batching(self) -> Iterator[None]:
        """The lines of one burst go out in one write (one SSH packet, not one per line)."""
        if self._batch is not None:
            yield
            return
        self._batch = []
        try:
            yield
        finally:
            lines, self._batch = self._batch, None
            if lines:
                self._emit(lines)

    # -- input --------------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        text = self._decode(data)
        if not text or self.done.done():
            return
        if self.editor is not None:
            self.editor.process_input(text, None)
            return
        for ch in text:
            self._key(ch)

    def _key(self, ch: str) -> None:
        """A dumb terminal or no pty: the club's one line editor (``net.modes.lineedit``), echoed as a dumb
        terminal can show it: the caret kept at the end, a changed line erased back and typed again."""
        line = self.line
        before = line.text
        keys = line.feed(ch.encode("utf-8"))
        line.caret = len(line.text)  # a dumb terminal cannot show a caret moved back
        if keys.too_long:  # said once per line, in his language (tui.limits)
            self.write_line(tr(self.club.lang, "cmd.too_long", limit=MAX_LINE))
        if keys.lines:
            if self.pty:
                self.send_raw("\r\n")
            self.got_line(keys.lines[0])
        elif keys.ctrl_c:
            line.set("")
            if self.pty:
                self.send_raw("\r\n")
        elif keys.eof and not line.text:  # Ctrl+D on an empty line: goodbye
            self.finish()
        elif self.pty and line.text != before:
            common = len(os.path.commonprefix([before, line.text]))
            self.send_raw("\b \b" * (len(before) - common) + line.text[common:])

    def got_line(self, line: str) -> None:
        line = line[:MAX_LINE]
        self.session.last_input = asyncio.get_running_loop().time()
        with self._batching():
            try:
                self.club.line(line)
            except Exception:
                log.exception("text line %r of %s failed", line, self.session.name)
                self.write_line(tr(self.club.lang, "cmd.failed"))

    def resize(self, cols: int) -> None:
        if self.editor is not None:
            self.editor.set_width(cols)

    # -- output -----------------------------------------------------------------------------

    def write_line(self, line: str) -> None:
        """One sentence to the client (with the others of its burst; queued while it does not read)."""
        if self._batch is not None:
            self._batch.append(line)
        else:
            self._emit([line])

    def _emit(self, lines: list[str]) -> None:
        if self.session.paused or self._queue:
            for line in lines:
                if len(self._queue) >= QUEUE_LINES:
                    self._queue.popleft()
                    self._dropped += 1
                self._queue.append(line)
            self.session._schedule_poll()
            return
        self._out(lines)

    def _out(self, lines: list[str]) -> None:
        if self.pty:  # a terminal's width is known: cut at spaces, never inside a word or a card
            lines = [piece for line in lines for piece in wrap(line, self.session.cols)]
        if self.editor is not None:
            self.editor.process_output("\n".join(lines) + "\n")  # the typed line is kept below them
        elif self.line.text and self.pty:
            self.send_raw("\r\n" + "\r\n".join(lines) + "\r\n" + self.line.text)
        else:
            self.send_raw(self.newline.join(lines) + self.newline)

    def resume(self) -> None:
        """The client reads again: what waited goes out (and how much was dropped)."""
        if self._dropped:
            dropped, self._dropped = self._dropped, 0
            self._out([tr(self.club.lang, "text.dropped", count=dropped)])
        while self._queue and not self.session.paused:
            self._out([self._queue.popleft() for _ in range(min(50, len(self._queue)))])
        if self._queue:
            self.session._schedule_poll()

    def bell(self) -> None:
        self.send_raw("\x07")

    def notice(self, message: str) -> None:
        self.club.notice(message)

    def send_raw(self, text: str) -> None:
        self.session.send(text.encode("utf-8", "replace"))
