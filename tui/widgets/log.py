"""The narration of the table or the hall: the newest lines that fit, wrapped.

Not Textual's ``Log``/``RichLog``: ``Log(max_lines=N)`` keeps showing pruned
lines in 8.2.8, and a fixed-height widget redrawn with
``layout=False`` costs far less per update over SSH than a scrolling one.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from rich.console import Console
from rich.text import Text

from tui.widgets.rows import Rows

KEEP = 300
TABLE_KEEP = 100
"""Lines a table's log keeps: it shows only the newest that fit, and the tallest window (``[limits]
max_rows`` 100) has fewer rows for it; every seated player's and hub's App holds one."""


class EventLog(Rows):
    """Keeps the last ``KEEP`` lines; shows the newest that fit its height, or older ones when scrolled
    back (``page``, ``show_last``): nothing said is lost from sight while it is kept.

    Each line is wrapped once per width and each wrapped row made into a strip once
    (``tui.widgets.rows``): a new line shifts the rows, none of the old ones is made again."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; }
    """

    def __init__(self, *, keep: int = KEEP, **kwargs: Any):
        super().__init__(**kwargs)
        self.lines: deque[Text] = deque(maxlen=keep)
        self._wrap_console: Console | None = None
        self._wrapped: dict[int, tuple[Text, list[Text]]] = {}  # id of a line shown → it and its rows at this width
        self.back = 0
        """Rows scrolled back from the newest (PageUp, ``log N``); 0 follows the newest line."""
        self.back_note: Callable[[int], str] = lambda rows: f"▲ {rows} ▼ PgDn"
        """The last row while scrolled back: how far, and the way forward (the screen gives its words)."""

    def add(self, line: str | Text, style: str = "") -> None:
        text = line if isinstance(line, Text) else Text(line, style=style)
        self.lines.append(text)
        if self.back:  # reading back: the rows in view stay where they are
            self.back += len(self._rows_of(text))
        self._draw()

    def clear_lines(self) -> None:
        self.lines.clear()
        self._wrapped.clear()
        self.back = 0
        self._draw()

    def page(self, pages: int) -> None:
        """Scroll back (``pages`` > 0) or forward by whole pages, never past the oldest line kept.

        A page starts at a line's first row: a sentence wrapped over a page's edge is shown whole on the
        next page rather than cut on both (a four-row sentence in a five-row log was never whole)."""
        height = self._height()
        total = sum(len(self._rows_of(line)) for line in self.lines)
        back = max(0, min(self.back + pages * max(1, height - 1), total - height))
        if back:
            top = total - back - height  # the page's first row, counted from the oldest row kept
            start = 0
            for line in self.lines:
                rows = len(self._rows_of(line))
                if start + rows > top:
                    break
                start += rows
            snapped = total - height - start  # the same page, begun at that line's first row
            if (snapped - self.back) * pages > 0:  # only if it still moves the way he asked
                back = snapped
        self.back_to(back)

    def show_last(self, count: int) -> None:
        """``log N``: scroll so the ``count``-th newest line is at the top (no scrolling when all fit)."""
        rows = sum(len(self._rows_of(line)) for line in list(self.lines)[-max(1, count):])
        self.back_to(rows - self._height())

    def back_to(self, back: int) -> None:
        total = sum(len(self._rows_of(line)) for line in self.lines)
        self.back = max(0, min(back, total - self._height()))
        self._draw()

    def _height(self) -> int:
        return self.size.height or 5

    def _rows_of(self, line: Text) -> list[Text]:
        width = self.size.width or 78
        if self._wrap_console is None or self._wrap_console.width != width:
            self._wrap_console = Console(width=width, color_system=None, legacy_windows=False)
            self._wrapped.clear()
        known = self._wrapped.get(id(line))
        if known is not None and known[0] is line:
            return known[1]
        return list(line.wrap(self._wrap_console, width))

    def plain(self) -> str:
        return "\n".join(t.plain for t in self.lines)

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width, height = self.size.width or 78, self.size.height or 5
        if self._wrap_console is None or self._wrap_console.width != width:
            self._wrap_console = Console(width=width, color_system=None, legacy_windows=False)
            self._wrapped.clear()
        console = self._wrap_console
        kept = self._wrapped
        wrapped_now: dict[int, tuple[Text, list[Text]]] = {}
        shown: list[Text] = []
        for line in reversed(self.lines):
            known = kept.get(id(line))
            wrapped = known[1] if known is not None and known[0] is line else list(line.wrap(console, width))
            wrapped_now[id(line)] = (line, wrapped)
            shown[:0] = wrapped
            if len(shown) >= height + self.back:
                break
        self._wrapped = wrapped_now  # only the lines shown: a line dropped from the deque is forgotten
        if not self.back:
            self.show_rows(shown[-height:])
            return
        self.back = min(self.back, max(0, len(shown) - height))
        end = len(shown) - self.back
        rows = shown[max(0, end - height):end]
        if self.back and rows:
            rows[-1] = Text(self.back_note(self.back)[:width], style="reverse")
        self.show_rows(rows)
