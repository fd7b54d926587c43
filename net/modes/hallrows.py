"""The hall door's screen: his rows over the board's shared ones, and only the rows that changed sent.

The shared rows (the table list, the hall's event lines) come from ``net.modes.hallview.HallBoard``, drawn
once per width, language and ASCII; his own rows (header, his answers in the log, hint, command line) are
made here, each once per change.  A new log line at the bottom of a full log scrolls the terminal's rows
(DECSTBM and IND) rather than sending the whole log again; a reader who stops reading is skipped and gets
his whole screen when his buffers drain.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from typing import Any, Iterable, Protocol

from rich.cells import cell_len
from rich.text import Text

from engine.game import Event
from net.modes.hallview import CARET, HEADER, HINT, LINE, TITLE, HallBoard, render_row, shared_row, shared_wrap
from net.modes.lineedit import LineEditor
from tui.i18n import money, tr
from tui.widgets.log import KEEP

SCROLL_MAX = 8
"""New log rows at most drawn by scrolling the terminal; more are sent as rows."""


class RowsWire(Protocol):
    """What the rows ask of the session (``net.ssh.session.Session``): who, the window, the wire."""

    server: Any
    name: str | None
    guest: bool
    ascii: bool

    @property
    def paused(self) -> bool: ...

    def app_size(self) -> tuple[int, int]: ...

    def send(self, data: bytes) -> None: ...

    def _schedule_poll(self) -> None: ...


class HallRows:
    """The drawing half of a hall door (``net.modes.hall.HallDoor``): its frame, made and sent."""

    session: RowsWire
    board: HallBoard
    lang: str
    editor: LineEditor
    placeholder: str
    items: deque[tuple[int, Event] | Text]
    done: asyncio.Future[tuple[str, Any] | None]

    def start_rows(self) -> None:
        self.stale = False
        self._sent: list[str] = []
        self._added = 0  # lines ever added to the log (the rows shown are extended by the new ones only)
        self._log_key: tuple[Any, ...] = ()
        self._log_upto = 0
        self._log_shown: list[str] = []
        self._region = (0, 0)  # the log's rows in the frame: [top, bottom)
        self._sent_region = (0, 0)
        self._size = (0, 0)
        self._own_rows: dict[int, tuple[Text, list[str]]] = {}  # by id, with the line itself (ids are reused)
        self._hint_text = ""
        self._hint_row = ""
        self._hint_key: tuple[str, int] = ("", 0)
        self._header_key: tuple[Any, ...] = ()
        self._header_row = ""
        self._header_seen: tuple[Any, ...] = ()
        self._money: tuple[int | None, str, str] = (None, "", "")  # his balance in words, made once per change
        self._tables_now: list[str] = []
        self._tables_sent: list[str] | None = None  # the board's list of table rows in the last frame sent
        self._balance: int | None = None
        self._money_moved = 0  # money moved in the club this many times since the door opened
        self._balance_read = -1  # ``_money_moved`` when ``_balance`` was last asked for
        self._line_key: tuple[Any, ...] = ()
        self._line_row = ""
        self._caret_x = 1

    def size(self) -> tuple[int, int]:
        return self.session.app_size()

    def frame(self) -> list[str]:
        """Every row of his screen now (shared strings where they are shared)."""
        width, height = self._sized()
        board = self.board
        rows = [self._header(width)]
        self._tables_now = board.table_rows(self.lang, self.session.ascii, width)
        rows += self._tables_now
        rows.append(board.rule(width))
        room = height - len(rows) - 2
        if room < 0:  # a tiny window: the command line and what fits above it
            self._region = (0, 0)
            return (rows + [self._hint(width)])[:max(0, height - 1)] + [self._line(width)]
        self._region = (len(rows), len(rows) + room)
        rows += self._log_rows(width, room)
        rows.append(self._hint(width))
        rows.append(self._line(width))
        return rows

    def _sized(self) -> tuple[int, int]:
        """His window's size now; a new size draws every row of his own again."""
        width, height = self.size()
        if (width, height) != self._size:
            self._size = (width, height)
            self._own_rows.clear()
            self._header_key = self._header_seen = self._line_key = ()
            self._hint_key = ("", 0)
            self._sent = []
        return width, height

    def _item_rows(self, item: tuple[int, Event] | Text, width: int) -> list[str]:
        if isinstance(item, Text):
            cached = self._own_rows.get(id(item))
            if cached is None or cached[0] is not item:
                cached = self._own_rows[id(item)] = (item, shared_wrap(item, width))
            return cached[1]
        return self.board.event_rows(item[0], item[1], self.lang, self.session.ascii, width)

    def _log_rows(self, width: int, room: int) -> list[str]:
        """The newest rows that fit ``room``, top-aligned; only the lines added since the last frame are
        looked at, unless the width, height or language changed."""
        board = self.board
        key = (width, room, self.lang, self.session.ascii)
        new = self._added - self._log_upto
        if key == self._log_key and new <= len(self.items):
            shown = self._log_shown
            if new:
                for i in range(len(self.items) - new, len(self.items)):
                    shown = shown + self._item_rows(self.items[i], width)
                shown = shown[-room:] if room else []
        else:
            shown = []
            for item in reversed(self.items):
                if len(shown) >= room:
                    break
                shown[:0] = self._item_rows(item, width)
            shown = shown[-room:] if room else []
        self._log_key, self._log_upto, self._log_shown = key, self._added, shown
        if len(self._own_rows) > 4 * KEEP:  # rows of lines no longer kept
            kept = {id(i) for i in self.items if isinstance(i, Text)}
            self._own_rows = {k: v for k, v in self._own_rows.items() if k in kept}
        return shown + [board.blank(width)] * (room - len(shown))

    def _ask_balance(self) -> None:
        """His balance: as read on arrival if no money moved since, else asked of the store's thread
        (``net.modes.balances``); the last value shows until it comes, then the door repaints."""
        session, club = self.session, self.session.server.club
        asked = self._balance_read = self._money_moved
        arrived = session.arrived_balance() if hasattr(session, "arrived_balance") else None
        if arrived is not None:
            self._balance = arrived
            return
        reads = getattr(session.server, "balances", None)
        if reads is None:  # no store thread (tools, tests without a store): the club counts it here
            self._balance = club.balance(session.name)
            return

        def read(value: int | None) -> None:
            if value is None:
                return  # the store failed: the last value holds until money moves again
            self._balance = value
            if self._money_moved != asked:
                return  # moved again meanwhile: the next frame asks again
            if not self.done.done():
                self.paint()

        reads.ask(str(session.name), read, self)

    def _header(self, width: int) -> str:
        session, club = self.session, self.session.server.club
        online = self.board.online()
        if self._balance_read != self._money_moved and not session.guest:
            self._ask_balance()
        seen = (online, self._balance, self.lang, width)
        if seen == self._header_seen:  # nothing of it changed (a chat line): no words made again
            return self._header_row
        self._header_seen = seen
        if session.guest:
            words = tr(self.lang, "header.guest", name=session.name, online=online)
        else:
            if self._money[:2] != (self._balance, self.lang):
                shown = "…" if self._balance is None else money(self._balance, self.lang)  # not read yet
                self._money = (self._balance, self.lang, shown)
            words = tr(self.lang, "header.hall", name=session.name, money=self._money[2], online=online)
        key = (words, width)
        if key != self._header_key:
            title, title_cells, prefix = self.board.header_title(self.lang)
            words_cells = cell_len(words)
            pad = max(1, width - title_cells - words_cells - 2)
            rest = width - title_cells - pad - words_cells
            if rest >= 0 and words.isprintable():  # every arrival redraws every header: no Rich for the usual case
                self._header_row = f"{prefix}{' ' * pad}{words}{' ' * rest}\x1b[0m"
            else:
                self._header_row = render_row(Text(title, style=TITLE) + Text(" " * pad + words), width, HEADER)
            self._header_key = key
        return self._header_row

    def _hint(self, width: int) -> str:
        if self._hint_key != (self._hint_text, width):
            self._hint_key = (self._hint_text, width)
            self._hint_row = shared_row(self._hint_text, width, HINT)
        return self._hint_row

    def _line(self, width: int) -> str:
        """The command line: one cell of padding, the text scrolled to keep the caret in view, a block caret."""
        editor = self.editor
        key = (editor.text, editor.caret, width, self.placeholder)
        if key == self._line_key:
            return self._line_row
        room = max(1, width - 2)
        before = editor.text[:editor.caret]
        start = 0
        while cell_len(before[start:]) > room - 1 and start < len(before):
            start += 1
        shown_before = before[start:]
        under = editor.text[editor.caret:editor.caret + 1] or " "
        after: str | Text = editor.text[editor.caret + 1:]
        if not editor.text and self.placeholder:  # as the screen's Input: the caret on the dim placeholder
            under, after = self.placeholder[0], Text(self.placeholder[1:], style="dim")
        text = Text(" ") + Text(shown_before) + Text(under, style=CARET) + (
            after if isinstance(after, Text) else Text(after))
        self._line_row = render_row(text, width, LINE)
        self._caret_x = min(width, 2 + cell_len(shown_before))
        self._line_key = key
        return self._line_row

    def paint(self) -> None:
        """Send the rows that changed since his last frame (all of them after a skip)."""
        if self.done.done():
            return
        session = self.session
        if session.paused:
            self.stale = True
            session._schedule_poll()
            return
        rows = self.frame()
        sent = self._sent
        out: list[str] = []
        if not sent or self.stale:
            out.append("\x1b[0m\x1b[H\x1b[2J")
            sent = []
        self.stale = False
        tables = self._tables_now
        if sent and len(sent) == len(rows) and self._region == self._sent_region and self._region[1]:
            # The usual frame: only the rows that can have changed are looked at (the header, the table
            # list unless it is the very list sent last, the log's new rows after a scroll, hint and line).
            top, bottom = self._region
            sent, low = self._scroll(sent, rows, out)
            wanted: Iterable[int] = range(1, top) if tables is not self._tables_sent else range(top - 1, top)
            check: Iterable[int] = itertools.chain((0,), wanted, range(low, len(rows)))
        else:
            check = range(len(rows))
        self._sent_region = self._region
        self._tables_sent = tables
        for y in check:
            row = rows[y]
            if y >= len(sent) or sent[y] is not row and sent[y] != row:
                out.append(f"\x1b[{y + 1};1H{row}")
        self._sent = rows
        if out:
            out.append(f"\x1b[0m\x1b[{len(rows)};{self._caret_x}H")
            session.send("".join(out).encode("utf-8", "replace"))

    def _scroll(self, sent: list[str], rows: list[str], out: list[str]) -> tuple[list[str], int]:
        """New lines at the bottom of a full log: the terminal scrolls the log's rows (DECSTBM and IND),
        so only the new rows are sent, not the whole log again.  The rows as the terminal has them after,
        and the first row of the log that may still differ from them (every row below it is looked at)."""
        top, bottom = self._region
        if rows[top:bottom] == sent[top:bottom]:
            return sent, bottom
        for k in range(1, min(SCROLL_MAX, bottom - top - 1) + 1):
            if rows[top:bottom - k] == sent[top + k:bottom]:
                out.append(f"\x1b[0m\x1b[{top + 1};{bottom}r\x1b[{bottom};1H" + "\x1bD" * k + "\x1b[r")
                return sent[:top] + sent[top + k:bottom] + [""] * k + sent[bottom:], bottom - k
        return sent, top

    def resume(self) -> None:
        """His buffers drained: the whole screen again if frames were skipped."""
        if self.stale and not self.session.paused:
            self.paint()

    def resized(self) -> None:
        self._sent = []
        self.paint()
