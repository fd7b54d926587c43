"""The club's clock: tables are woken at their deadlines, and a new deadline is noticed at once."""

from __future__ import annotations

import asyncio

from sshclient import until

from net.ssh.runtime import Runtime


class FakeTable:
    def __init__(self) -> None:
        self.callbacks: list = []

    def subscribe(self, callback):
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)


class FakeClub:
    """Deadlines in loop time; ``tick`` records when it was called and clears what is due."""

    def __init__(self) -> None:
        self.deadlines: list[float] = []
        self.ticks: list[float] = []
        self.tables = {1: FakeTable()}
        self.subscribers: list = []

    def subscribe(self, callback):
        self.subscribers.append(callback)
        return lambda: self.subscribers.remove(callback)

    def next_deadline(self):
        return min(self.deadlines, default=None)

    def tick(self, now: float) -> None:
        self.ticks.append(now)
        self.deadlines = [d for d in self.deadlines if d > now]


async def test_tables_are_woken_at_their_deadline_and_not_before():
    loop = asyncio.get_running_loop()
    club = FakeClub()
    runtime = Runtime(club)
    runtime.start()
    try:
        due = loop.time() + 0.2
        club.deadlines.append(due)
        club.tables[1].callbacks[0]([])  # a table event: the runtime recomputes its sleep
        await until(lambda: club.ticks, timeout=5, what="a tick")
        assert club.ticks[0] >= due
        assert len(club.ticks) == 1
        # A deadline set later and sooner than nothing is noticed through the event.
        club.deadlines.append(loop.time() + 0.05)
        club.tables[1].callbacks[0]([])
        await until(lambda: len(club.ticks) == 2, timeout=5, what="a second tick")
    finally:
        await runtime.stop()
    assert not club.subscribers and not club.tables[1].callbacks
