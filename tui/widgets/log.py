"""The narration of the table or the hall: the newest lines that fit, wrapped.

Not Textual's ``Log``/``RichLog``: ``Log(max_lines=N)`` keeps showing pruned
lines in 8.2.8 (NET.md), and a fixed-height widget redrawn with
``layout=False`` costs far less per update over SSH than a scrolling one.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from tui.widgets.quiet import show_text

KEEP = 300
TABLE_KEEP = 100
"""Lines a table's log keeps: it shows only the newest that fit, and the tallest window (``[limits]
max_rows`` 100) has fewer rows for it; every seated player's and hub's App holds one (issue 16)."""


class EventLog(Static):
    """Keeps the last ``KEEP`` lines; shows the newest that fit its height."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; }
    """

    def __init__(self, *, keep: int = KEEP, **kwargs: Any):
        super().__init__("", **kwargs)
        self.lines: deque[Text] = deque(maxlen=keep)
        self._wrap_console: Console | None = None

    def add(self, line: str | Text, style: str = "") -> None:
        self.lines.append(line if isinstance(line, Text) else Text(line, style=style))
        self._draw()

    def clear_lines(self) -> None:
        self.lines.clear()
        self._draw()

    def plain(self) -> str:
        return "\n".join(t.plain for t in self.lines)

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width, height = self.size.width or 78, self.size.height or 5
        if self._wrap_console is None or self._wrap_console.width != width:
            self._wrap_console = Console(width=width, color_system=None, legacy_windows=False)
        console = self._wrap_console
        shown: list[Text] = []
        for line in reversed(self.lines):
            wrapped = list(line.wrap(console, width))
            shown[:0] = wrapped
            if len(shown) >= height:
                break
        show_text(self, Text("\n").join(shown[-height:]))
