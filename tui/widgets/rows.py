"""A block of rows of text drawn by Textual's line API: each row made once, only changed rows redrawn.

A ``Static`` turns its whole text into Textual's strips on every update and the compositor then
paints every line of it, so a move that moved one card redrew all ten rows of the felt in every
App that shows the table (each seated player's, each spectator hub's:
a move to a thousand watchers).  A :class:`Rows` widget is given its rows as Rich ``Text``s; a row whose text
(plain, spans, style) is the same as the one shown keeps its strip, and only the rows that
changed are marked dirty, so the compositor redraws them alone and a hub's frame holds only them.

A row is turned into its strip exactly as a ``Static`` does it (``Content.from_rich_text`` and
``Visual.to_strips`` with the widget's own style), one row at a time: a row wider than the widget
is cut, never wrapped onto the next row (every caller gives rows that fit).  Strips are kept by
the row's text, so rows that only move (the log, scrolled by a new line) are not made again.
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from rich.text import Span, Text
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

from tui.widgets.quiet import text_key


def flat(row: Text) -> Text:
    """``row`` with its own style as a span over it, as Rich's ``Text.join`` makes it.

    A ``Static`` is given the rows joined; Textual reads a text's base style otherwise (``"cyan"``
    as its own colour, not the terminal theme's), so a row alone is flattened the same way."""
    if not row.style:
        return row
    return Text(row.plain, spans=[Span(0, len(row.plain), row.style), *row.spans])


def make_strip(widget: Widget, row: Text, width: int) -> Strip:
    """One row as ``Static`` would draw it in ``widget`` (its CSS colours and text style)."""
    content = Content.from_rich_text(flat(row), console=widget.app.console)
    strips = Visual.to_strips(widget, content, width, 1, widget.visual_style)
    return strips[0] if strips else Strip.blank(width, widget.visual_style.rich_style)


def changed_spans(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[tuple[int, int]]:
    """The runs of row numbers (start, end) where ``new`` differs from ``old`` (rows past either end too)."""
    runs: list[tuple[int, int]] = []
    start = -1
    for y in range(max(len(old), len(new))):
        same = y < len(old) and y < len(new) and old[y] == new[y]
        if not same and start < 0:
            start = y
        elif same and start >= 0:
            runs.append((start, y))
            start = -1
    if start >= 0:
        runs.append((start, max(len(old), len(new))))
    return runs


class Rows(Widget):
    """Rows of Rich text; ``show_rows`` redraws only those that changed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._row_texts: list[Text] = []
        self._row_keys: list[Hashable] = []
        self._row_strips: dict[Hashable, Strip] = {}
        self._row_env: tuple[int, Any] | None = None  # (width, style) the kept strips were made for
        self.rows_made = 0
        """Rows turned into strips so far (for tests and benches: an unchanged row costs none)."""

    def show_rows(self, rows: Sequence[Text]) -> int:
        """Show ``rows`` (row 0 at the top); the rows that differ from those shown are redrawn. Returns their count."""
        keys: list[Hashable] = [text_key(row) for row in rows]
        runs = changed_spans(self._row_keys, keys)
        self._row_texts, self._row_keys = list(rows), keys
        kept = self._row_strips
        self._row_strips = {key: kept[key] for key in keys if key in kept}
        if runs:
            width = max(1, self.size.width)
            self.refresh(*(Region(0, a, width, b - a) for a, b in runs))
        return sum(b - a for a, b in runs)

    def forget(self) -> None:
        """Drop every kept strip and draw all rows afresh (tests compare the two: a stale cache shows)."""
        self._row_strips = {}
        self._row_env = None
        self.refresh()

    def get_selection(self, selection: Any) -> tuple[str, str] | None:
        """The rows' words under a mouse selection (a ``Static`` gives its text the same way)."""
        return selection.extract("\n".join(row.plain for row in self._row_texts)), "\n"

    def row_texts(self) -> list[Text]:
        """The rows shown (for tests)."""
        return list(self._row_texts)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        env = (width, self.visual_style)
        if env != self._row_env:  # resized or restyled: every strip is made again
            self._row_env = env
            self._row_strips = {}
        if not 0 <= y < len(self._row_texts):
            return Strip.blank(width, self.visual_style.rich_style)
        key = self._row_keys[y]
        if self.text_selection is not None:  # a mouse selection is drawn into the strip: never kept
            made = make_strip(self, self._row_texts[y], width)
            return made.apply_offsets(0, y) if y else made
        strip = self._row_strips.get(key)
        if strip is None:
            strip = self._row_strips[key] = make_strip(self, self._row_texts[y], width)
            self.rows_made += 1
        # Each cell's place in the widget (Textual's text selection reads it) as a Static gives it;
        # a row is made as row 0, and Strip keeps the shifted copy for the row it moves to.
        return strip.apply_offsets(0, y) if y else strip
