"""A bar for a running timer (a turn clock, Спекулянт's trade window): time as a bar, not a number alone.

The only timer in a session's app: it ticks once a second while a deadline
exists and stops when it is gone, so an idle screen never redraws itself.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from tui.widgets.quiet import show_text

BAR = 10
LOW = 0.25  # under a quarter of the time left the bar turns red, under a half yellow
WHO = 16  # at most this many cells of the name of whose time it is (a name is at most 16)


GREEN, YELLOW, RED = "#6cbf6c", "#e0c040", "#ff5050"


def bar_style(left: float, span: float) -> str:
    """The bar's colour for the time left: green, then yellow, red when little is left."""
    share = left / span if span > 0 else 0.0
    if share <= LOW or left <= 5:
        return f"bold {RED}"
    if share <= 0.5:
        return YELLOW
    return GREEN


class TimerBar(Static):
    """``boris ⏱ ███████░░░ 42 s`` until ``deadline`` (in ``clock()`` time): whose time, how much is left."""

    DEFAULT_CSS = """
    TimerBar { width: 22; height: 1; }
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, **kwargs: Any):
        super().__init__("", **kwargs)
        self.clock = clock
        self.deadline: float | None = None
        self.span = 1.0
        self.ascii = False
        self.who = ""
        self.unit = "s"
        self._cells = 0
        self._timer: Timer | None = None

    def set_deadline(self, deadline: float | None, ascii: bool = False, who: str = "", unit: str = "s") -> None:
        """Show the time to ``deadline``; ``who`` names whose time it is (empty: everyone's, e.g. a trade window).

        ``unit`` is the seconds' sign in the player's language (``s``, ``с``).
        """
        self.ascii = ascii
        self.who = who
        self.unit = unit
        if deadline != self.deadline:
            self.deadline = deadline
            if deadline is not None:
                self.span = max(1.0, deadline - self.clock())
        if deadline is None and self._timer is not None:
            self._timer.stop()
            self._timer = None
        elif deadline is not None and self._timer is None:
            self._timer = self.set_interval(1.0, self._draw)
        self._draw()

    def _draw(self) -> None:
        shown = self.deadline is not None
        if self.display != shown:
            self.display = shown  # a layout pass only when a timer appears or goes
            if not shown:
                self._cells = 0  # the next timer is as wide as its own name again
        if self.deadline is None:
            return
        left = max(0.0, self.deadline - self.clock())
        full = round(BAR * min(1.0, left / self.span))
        fill, empty, clock = ("#", ".", "T") if self.ascii else ("█", "░", "⏱")
        style = bar_style(left, self.span)
        text = Text()
        if self.who:
            who = Text(self.who, style="bold")
            who.truncate(WHO, overflow="ellipsis")
            text.append_text(who)
            text.append(" ")
        text.append(f"{clock} ")
        text.append(fill * full, style=style)
        text.append(empty * (BAR - full), style="dim")
        text.append(f" {int(left + 0.999):>3} {self.unit} ", style=style if style != GREEN else "")
        if text.cell_len > self._cells:  # a layout pass only when a longer name (so the width) comes
            self._cells = text.cell_len
            self.styles.width = text.cell_len
        elif text.cell_len < self._cells:  # a shorter one keeps the width (a layout pass costs every
            text.pad_left(self._cells - text.cell_len)  # watcher's frame ~40 ms): the bar stays at the right
        show_text(self, text)
