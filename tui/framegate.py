"""Players first: a table's change is drawn for its watchers after its people's own Apps drew it.

Every App on the one event loop draws a move in turn, and a hub (the shared view of a thousand
watchers) costs as much to draw as a player's App and then sends to each watcher.  Drawn in
whatever order the loop woke them, a player's frame often waited behind every hub's: his
latency grew with how many watched.  So a table's subscribers are two kinds here:

- a person's App *owes* a frame when the table tells it of a change (``owe``), and has *paid*
  once it has drawn it (``paid``: after its next refresh, or at once if its screen shows
  another table);
- a hub asks to draw ``after`` the table's owed frames are paid; it is told at once if none
  is owed, else when the last is paid, or after ``WAIT_MAX`` at most, so an App that is slow
  (or gone) delays the watchers a little, never stops them.

Only the order changes: every App and every hub still draws every change.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable
from weakref import WeakKeyDictionary, WeakSet

log = logging.getLogger("sukno.framegate")

WAIT_MAX = 0.15
"""Seconds a hub waits at most for the players' frames (a busy machine draws four Apps in ~50 ms)."""


class FrameGate:
    """Who owes a frame for which table, and the hubs waiting for them to be paid."""

    def __init__(self, wait_max: float = WAIT_MAX) -> None:
        self.wait_max = wait_max
        self._owed: dict[int, WeakSet[Any]] = {}
        self._waiting: dict[int, list[Callable[[], None]]] = {}
        self._timers: dict[int, asyncio.Handle] = {}  # the look a turn later, then the wait's end
        self.late = 0
        """Times a hub drew before every owed frame was paid (``wait_max`` ran out): for the bench."""
        self._since: dict[int, WeakKeyDictionary[Any, float]] = {}  # when each App was first told, unpaid
        self.on_drawn: list[Callable[[float], None]] = []
        """Told the seconds from a table's change to a person's screen showing it (the operator's metric)."""

    def owe(self, table_id: int, app: Any) -> None:
        """``app`` was told of a change of ``table_id`` and will draw it."""
        self._owed.setdefault(table_id, WeakSet()).add(app)
        self._since.setdefault(table_id, WeakKeyDictionary()).setdefault(app, time.monotonic())

    def drawn(self, table_id: int, app: Any) -> None:
        """``app`` has put ``table_id``'s change on its screen: paid, and its delay told to ``on_drawn``."""
        since = self._since.get(table_id, {}).get(app)
        if since is not None:
            self.shown(since)
        self.paid(table_id, app)

    def shown(self, since: float) -> None:
        """A person's screen shows a change it was told of at ``since`` (``time.monotonic()``): an App's
        frame, or the text mode's sentences sent; its delay told to ``on_drawn``."""
        delay = time.monotonic() - since
        for observer in self.on_drawn:
            observer(delay)

    def paid(self, table_id: int, app: Any) -> None:
        """``app`` has drawn ``table_id``'s change (or will not): the hubs may go once nobody owes."""
        since = self._since.get(table_id)
        if since is not None:
            since.pop(app, None)
            if not since:
                del self._since[table_id]
        owed = self._owed.get(table_id)
        if owed is not None:
            owed.discard(app)
            if not owed:
                del self._owed[table_id]
                self._release(table_id)

    def forget(self, app: Any) -> None:
        """``app`` ends: it owes nothing any more."""
        for table_id in [t for t, owed in self._owed.items() if app in owed]:
            self.paid(table_id, app)

    def owing(self, table_id: int) -> int:
        """How many Apps still owe ``table_id`` a frame."""
        return len(self._owed.get(table_id, ()))

    def after(self, table_id: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` once nobody owes ``table_id`` a frame.

        Looked at a turn of the loop later, not now: the table tells its subscribers one after
        another, and a hub told before the players would otherwise find nobody owing yet.
        """
        waiting = self._waiting.setdefault(table_id, [])
        if callback not in waiting:
            waiting.append(callback)
        if table_id not in self._timers:
            self._timers[table_id] = asyncio.get_running_loop().call_soon(self._look, table_id)

    def _look(self, table_id: int) -> None:
        if not self._owed.get(table_id):
            self._owed.pop(table_id, None)
            self._release(table_id)
            return
        self._timers[table_id] = asyncio.get_running_loop().call_later(self.wait_max, self._ran_out, table_id)

    def _ran_out(self, table_id: int) -> None:
        self._timers.pop(table_id, None)
        if self._owed.pop(table_id, None):
            self.late += 1  # those Apps are late: they owe again only at the next change
        self._release(table_id)

    def _release(self, table_id: int) -> None:
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        for callback in self._waiting.pop(table_id, []):
            try:
                callback()
            except Exception:  # one hub's failure must not keep the others from drawing
                log.exception("a hub's redraw of table %s failed", table_id)


_GATES: WeakKeyDictionary[asyncio.AbstractEventLoop, FrameGate] = WeakKeyDictionary()


def gate() -> FrameGate:
    """The running loop's gate (one loop serves every session; each test has its own loop)."""
    loop = asyncio.get_running_loop()
    found = _GATES.get(loop)
    if found is None:
        found = _GATES[loop] = FrameGate()
    return found
