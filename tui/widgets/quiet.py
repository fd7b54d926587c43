"""Redraw a ``Static`` only when what it shows changed.

``Static.update`` re-renders the widget, and the compositor every line of it, even
for the same text; a move redraws the header, felt, hand, log, hint and timer of
every App that shows the table (each seated player's and each spectator hub's), and
most of them are unchanged (a watcher's empty hand, the header between deals).
Skipping those saves every App's frame a share of its render.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

_LAST = "_sukno_shown"


def text_key(text: Text) -> tuple[Any, ...]:
    """Everything of a ``Text`` that changes how it is drawn (``Text.__eq__`` ignores its own style)."""
    return (text.plain, tuple(text.spans), str(text.style), text.justify, text.overflow, text.no_wrap, text.end)


def show_text(widget: Static, text: Text) -> bool:
    """``widget.update(text, layout=False)`` unless it already shows that text; True if it was redrawn."""
    key = text_key(text)
    if getattr(widget, _LAST, None) == key:
        return False
    setattr(widget, _LAST, key)
    widget.update(text, layout=False)
    return True
