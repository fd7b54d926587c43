"""A bar for a running timer (a turn clock, Спекулянт's trade window): time as a bar, not a number alone.

The only timer in a session's app: it ticks once a second while a deadline
exists and stops when it is gone, so an idle screen never redraws itself.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from textual.timer import Timer
from textual.widgets import Static

BAR = 10


class TimerBar(Static):
    """``⏱ ███████░░░ 42 s`` until ``deadline`` (in ``clock()`` time)."""

    DEFAULT_CSS = """
    TimerBar { width: 22; height: 1; }
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, **kwargs: Any):
        super().__init__("", **kwargs)
        self.clock = clock
        self.deadline: float | None = None
        self.span = 1.0
        self.ascii = False
        self._timer: Timer | None = None

    def set_deadline(self, deadline: float | None, ascii: bool = False) -> None:
        self.ascii = ascii
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
        if self.deadline is None:
            return
        left = max(0.0, self.deadline - self.clock())
        full = round(BAR * min(1.0, left / self.span))
        fill, empty, clock = ("#", ".", "T") if self.ascii else ("█", "░", "⏱")
        self.update(f"{clock} {fill * full}{empty * (BAR - full)} {int(left + 0.999):>3} s", layout=False)
