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

from tui.widgets.rows import Rows

KEEP = 300
TABLE_KEEP = 100
"""Lines a table's log keeps: it shows only the newest that fit, and the tallest window (``[limits]
max_rows`` 100) has fewer rows for it; every seated player's and hub's App holds one (issue 16)."""


class EventLog(Rows):
    """Keeps the last ``KEEP`` lines; shows the newest that fit its height.

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

    def add(self, line: str | Text, style: str = "") -> None:
        self.lines.append(line if isinstance(line, Text) else Text(line, style=style))
        self._draw()

    def clear_lines(self) -> None:
        self.lines.clear()
        self._wrapped.clear()
        self._draw()

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
            if len(shown) >= height:
                break
        self._wrapped = wrapped_now  # only the lines shown: a line dropped from the deque is forgotten
        self.show_rows(shown[-height:])
