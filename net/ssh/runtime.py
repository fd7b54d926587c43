"""The club's clock: wake tables at their deadlines (the engine never reads a clock).

One task sleeps until ``club.next_deadline()`` and calls ``club.tick(now)``.
Any table event may move a deadline (a new turn starts a timer), so the task
is poked by every table's events and recomputes; it never polls.  Time is
``loop.time()``, which is ``time.monotonic()``, the clock the tables expect.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

log = logging.getLogger("sukno.runtime")


class Runtime:
    """Wakes ``club``'s tables on time while started."""

    def __init__(self, club: Any) -> None:
        self.club = club
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        self._watched: set[int] = set()
        self.ticks = 0
        self._stopping = False
        self.last_event = 0.0
        """When a table last changed (loop time): housekeeping waits for a quiet moment."""

    def start(self) -> None:
        self._unsubscribe.append(self.club.subscribe(self._club_event))
        self._watch_tables()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="sukno runtime")

    def _watch_tables(self) -> None:
        for table_id, table in list(self.club.tables.items()):
            if table_id not in self._watched:
                self._watched.add(table_id)
                self._unsubscribe.append(table.subscribe(self._poke))

    def _club_event(self, events: list[Any]) -> None:
        if any(getattr(e, "kind", "") == "table_open" for e in events):
            self._watch_tables()
        self._poke(events)

    def wake(self) -> None:
        """Look at the deadlines again now (a table's clocks came from elsewhere: a node's takeover)."""
        self._poke()

    def _poke(self, _events: object = None) -> None:
        self.last_event = self.now()
        self._wake.set()

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    async def _run(self) -> None:
        last: float | None = None
        while not self._stopping:
            self._wake.clear()
            deadline = self.club.next_deadline()
            now = self.now()
            if deadline is not None and deadline <= now:
                if deadline == last:  # a tick that did not move the deadline: do not spin
                    await asyncio.sleep(0.05)
                last = deadline
                try:
                    self.club.tick(self.now())
                    self.ticks += 1
                except Exception:  # a broken table must not stop every other table's clock
                    log.exception("tick failed")
                    await asyncio.sleep(0.5)
                continue
            timeout = None if deadline is None else deadline - now
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except asyncio.TimeoutError:
                pass

    async def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        if self._task is not None:
            # Python 3.11's wait_for swallows a cancel that meets a wake-up: the flag ends the loop anyway.
            self._stopping = True
            self._wake.set()
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
