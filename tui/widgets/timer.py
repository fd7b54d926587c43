"""A bar for a running timer (a turn clock, Спекулянт's trade window): time as a bar, not a number alone.

The only timer in a session's app: it ticks once a second while a deadline
exists and stops when it is gone, so an idle screen never redraws itself.

The watchers' shared view ticks coarser (``step``): a tick there is a frame to every
watcher of the table, a thousand sends a second for a clock.  With a step of 5 it says ``<45 s``
(an upper bound, so always true) and is drawn again only when that bound goes down, whenever
anything else on the table changes, and each second of the last ``EXACT`` seconds.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from tui.widgets.quiet import show_text

BAR = 10
LOW = 0.25  # under a quarter of the time left the bar turns red, under a half yellow
WHO = 16  # at most this many cells of the name of whose time it is (a name is at most 16)
EXACT = 10.0
"""A coarse bar (``step`` > 1) counts each second again in the last this many seconds."""


GREEN, YELLOW, RED = "#6cbf6c", "#e0c040", "#ff5050"


def bar_style(left: float, span: float) -> str:
    """The bar's colour for the time left: green, then yellow, red when little is left."""
    share = left / span if span > 0 else 0.0
    if share <= LOW or left <= 5:
        return f"bold {RED}"
    if share <= 0.5:
        return YELLOW
    return GREEN


def shown_seconds(left: float, step: float = 1.0) -> str:
    """The seconds a bar says: whole seconds (rounded up), or with a coarse ``step`` ``<45``, a bound.

    The bound is the next multiple of ``step`` above ``left``: true until the next draw, due when
    ``left`` reaches the multiple below it; in the last ``EXACT`` seconds each second again.
    """
    if step <= 1 or left <= EXACT:
        return str(int(left + 0.999))
    return f"<{(math.floor(left / step) + 1) * step:.0f}"


def seconds_to_change(left: float, step: float = 1.0) -> float:
    """Seconds from ``left`` until ``shown_seconds`` says something else (always > 0 while time is left)."""
    if step <= 1 or left <= EXACT:
        whole = int(left + 0.999)
        return max(0.001, left - (whole - 1 + 0.001))
    bound = (math.floor(left / step) + 1) * step
    return max(0.001, left - max(EXACT, bound - step))


class TimerBar(Static):
    """``boris ⏱ ███████░░░ 42 s`` until ``deadline`` (in ``clock()`` time): whose time, how much is left."""

    DEFAULT_CSS = """
    TimerBar { width: 22; height: 1; }
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, step: float = 1.0, **kwargs: Any):
        super().__init__("", **kwargs)
        self.clock = clock
        self.step = max(1.0, step)
        """Seconds between two draws of the clock alone (1: each second; more: an upper bound, ``<45 s``)."""
        self.deadline: float | None = None
        self.span = 1.0
        self.ascii = False
        self.who = ""
        self.unit = "s"
        self._cells = 0
        self._timer: Timer | None = None
        self._due = 0.0  # a coarse bar's timer: when it fires (``clock()`` time)
        self.on_text: Callable[[Text | None, int], Any] | None = None
        """Where the bar's text goes instead of its own widget (``tui.widgets.hintrow``): the text and
        the cells it takes, or None when no timer runs.  The bar's widget is then hidden and never
        changes size, so a timer coming, going or growing is no layout pass."""

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
        if self.step > 1:
            self._draw()  # it schedules its own next draw
            return
        if deadline is None and self._timer is not None:
            self._timer.stop()
            self._timer = None
        elif deadline is not None and self._timer is None:
            self._timer = self.set_interval(1.0, self._draw)
        self._draw()

    def _coarse_draw(self) -> None:
        self._timer = None
        self._draw()

    def _next_draw(self, left: float) -> None:
        """A coarse bar: a one-shot timer for the moment its words change (none after the end).

        A timer already due no later is kept (each move would otherwise stop one and start
        another in every hub): waking early draws the same words, which sends nothing."""
        if self.deadline is None or shown_seconds(left, self.step) == "0":
            self._stop_timer()
            return
        delay = seconds_to_change(left, self.step) + 0.005
        due = self.clock() + delay
        if self._timer is not None and self._due <= due:
            return
        self._stop_timer()
        self._due = due
        self._timer = self.set_timer(delay, self._coarse_draw)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @property
    def cells(self) -> int:
        """The cells the bar takes (0: no timer); it keeps the widest of a timer's texts until that timer ends."""
        return self._cells if self.deadline is not None else 0

    def _draw(self) -> None:
        shown = self.deadline is not None
        if self.on_text is not None:
            if not shown:
                self._cells = 0
                self.on_text(None, 0)
        elif self.display != shown:
            self.display = shown  # a layout pass only when a timer appears or goes
            if not shown:
                self._cells = 0  # the next timer is as wide as its own name again
        if self.deadline is None:
            if self.step > 1:
                self._stop_timer()
            return
        left = max(0.0, self.deadline - self.clock())
        if self.step > 1:
            self._next_draw(left)
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
        text.append(f" {shown_seconds(left, self.step):>3} {self.unit} ", style=style if style != GREEN else "")
        if text.cell_len > self._cells:  # a layout pass only when a longer name (so the width) comes
            self._cells = text.cell_len
            if self.on_text is None:
                self.styles.width = text.cell_len
        elif text.cell_len < self._cells:  # a shorter one keeps the width (a layout pass costs every
            text.pad_left(self._cells - text.cell_len)  # watcher's frame ~40 ms): the bar stays at the right
        if self.on_text is not None:
            self.on_text(text, self._cells)
            return
        show_text(self, text)
