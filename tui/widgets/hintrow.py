"""The table's bottom row: the hint at the left, the timer bar at the right, drawn as one row.

They were two widgets side by side, the bar as wide as its text: a timer that came, went or grew
(a longer name) was a layout pass of the whole screen in every App showing the table — each
seated player's and each spectator hub's — at every deal's start and end and at its first turns
(≈ 50 layout passes in 20 moves with 1,000 watchers, each costing a hub or an App
several ms).  Here the bar's text (``TimerBar`` still keeps the clock and says what to show, its
own widget hidden) takes the row's last ``cells`` cells and the hint the rest, exactly where the
two widgets put them, and no change of either needs a layout.  The hint is drawn as the hint
``Static`` drew it (its ``.hint`` colour, cut to its room as a one-row ``Static`` wraps it), the
bar in the colours it had (its parent's).
"""

from __future__ import annotations

from typing import Any

from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

from tui.widgets.quiet import text_key
from tui.widgets.rows import flat


class HintRow(Widget):
    """One row: ``hint`` at the left, the timer's text in the last ``cells`` cells (none: the hint alone)."""

    DEFAULT_CSS = """
    HintRow { height: 1; width: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hint = Text()
        self.clock: Text | None = None
        self.cells = 0
        self._hint_key: Any = text_key(self.hint)
        self._clock_key: Any = None
        self._made: tuple[Any, Strip] | None = None

    def set_hint(self, text: Text) -> bool:
        """The hint's words; True if the row is drawn again."""
        key = text_key(text)
        if key == self._hint_key:
            return False
        self.hint, self._hint_key = text, key
        self.refresh()
        return True

    def set_clock(self, text: Text | None, cells: int) -> bool:
        """The timer bar's text in ``cells`` cells at the right, or None (no timer: the hint has the row)."""
        key = None if text is None else (text_key(text), cells)
        if key == self._clock_key:
            return False
        self.clock, self.cells, self._clock_key = text, (cells if text is not None else 0), key
        self.refresh()
        return True

    def row_text(self) -> str:
        """The row's words (for tests)."""
        return self.hint.plain + (self.clock.plain if self.clock is not None else "")

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        style = self.visual_style
        if y != 0:
            return Strip.blank(width, style.rich_style)
        parent = self.parent
        clock_style = parent.visual_style if isinstance(parent, Widget) else style
        key = (self._hint_key, self._clock_key, width, style, clock_style)
        if self._made is not None and self._made[0] == key:
            return self._made[1]
        cells = min(self.cells, width)
        gap = 1 if cells and self.clock is not None and width - cells > 1 else 0  # "…to give" never runs into "your turn"
        room = width - cells - gap
        parts = []
        if room > 0:
            parts.append(self._part(self.hint, room, style))
        if gap:
            parts.append(Strip.blank(gap, RichStyle(bgcolor=style.rich_style.bgcolor)))
        if cells and self.clock is not None:
            parts.append(self._part(self.clock, cells, clock_style))
        strip = Strip.join(parts) if parts else Strip.blank(width, style.rich_style)
        self._made = (key, strip)
        return strip

    def _part(self, text: Text, width: int, style: Any) -> Strip:
        """``text`` in ``width`` cells as a one-row ``Static`` of that width shows it; a longer text ends in
        ``…`` where it is cut, so nobody takes a cut hint for the whole (the words to type come first)."""
        if text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        strips = Visual.to_strips(self, Content.from_rich_text(flat(text), console=self.app.console), width, 1, style)
        pad = RichStyle(bgcolor=style.rich_style.bgcolor)  # the background alone, as Textual pads a widget's row
        strip = strips[0] if strips else Strip.blank(width, pad)
        return strip.extend_cell_length(width, pad).crop(0, width)
