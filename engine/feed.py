"""A numbered event log with subscribers: what a table and the hall both publish.

Subscribers are plain callbacks (the TUI turns them into Textual messages);
each entry is numbered so a subscriber may coalesce a burst of callbacks and
then read everything after the last number it showed.  One broken subscriber
must not stop a table or the hall: its exception is logged, the others still
hear the events.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Callable, NamedTuple

from engine.game import Event

log = logging.getLogger("sukno.feed")

Callback = Callable[[list[Event]], None]

LOG_KEEP = 500
"""Entries a feed keeps for late joiners."""


class LogEntry(NamedTuple):
    """One event, its number, and the seat names at that moment (narration stays right after seats change)."""

    seq: int
    event: Event
    names: tuple[str, ...]


class Feed:
    """The log and the subscribers of one publisher (a table, or the hall)."""

    def __init__(self, keep: int = LOG_KEEP):
        self._subscribers: list[Callback] = []
        self._log: deque[LogEntry] = deque(maxlen=keep)
        self._seq = 0

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(events)`` after every change; returns the unsubscribe function."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    @property
    def last_seq(self) -> int:
        return self._seq

    def since(self, seq: int = 0) -> list[LogEntry]:
        """Entries after ``seq`` (0: all that are kept).

        Read from the newest end: a subscriber asks for the few entries it has not
        seen yet, hundreds of times per event when many watch (the text mode).
        """
        out: list[LogEntry] = []
        for entry in reversed(self._log):
            if entry.seq <= seq:
                break
            out.append(entry)
        out.reverse()
        return out

    def publish(self, events: list[Event], names: tuple[str, ...] = ()) -> None:
        """Log ``events`` and tell every subscriber."""
        for event in events:
            self._seq += 1
            self._log.append(LogEntry(self._seq, event, names))
        self.notify(events)

    def notify(self, events: list[Event]) -> None:
        """Tell every subscriber without logging (e.g. the hall hearing that a table changed)."""
        for callback in list(self._subscribers):
            try:
                callback(events)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("a subscriber failed on %s", [e.kind for e in events])
