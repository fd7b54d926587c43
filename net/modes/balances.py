"""The hall doors' balances, read by the accounts' store thread, many names in one job.

A hall door's header shows his balance; it is read again whenever money may have moved (any event
but an arrival or a chat line: a seat taken, a deal's end, a player back at the hall from his table).
Read on the loop (``Club.balance``: his account, then the ledger) that was two round trips to
PostgreSQL per door each time, so one deal's end in a hall of 500 held every session for 1,000 of
them.  ``BalanceReads.ask`` queues the name; one job of the server's ``off_loop`` reads every name
queued, in one statement (``Store.balances``; the next job takes those asked meanwhile), and each
door hears its value on the loop.  A door asking again before it is told (money moved again
meanwhile) replaces its own ask, so it is told once, and ``forget`` drops a closed door's ask.  A
name with no account (a guest) is the money at the tables, as ``Club.balance`` counts it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

log = logging.getLogger("sukno.server")

Then = Callable[[int | None], None]


class BalanceReads:
    """Names waiting for their balance, and whether a job reading some is under way."""

    def __init__(self, club: Any, off_loop: Callable[[Callable[[Any], Any]], asyncio.Future[Any]]) -> None:
        self.club = club
        self.off_loop = off_loop
        self.wanted: dict[str, dict[object, Then]] = {}
        """Name → who asked (a door) → what to tell him: one ask per door, however often money moved."""
        self.busy = False
        self.jobs = 0

    def ask(self, name: str, then: Then, door: object | None = None) -> None:
        """``then(balance)`` on the loop once read (None: the store failed; the last value holds).
        ``door``: who asks; his earlier ask not yet sent to the store is replaced (told once, not N times)."""
        self.wanted.setdefault(name, {})[then if door is None else door] = then
        if not self.busy:
            self._start()

    def forget(self, door: object) -> None:
        """A door that closed: its asks not yet sent are dropped (a read under way tells it once, unseen)."""
        for name in [n for n, asks in self.wanted.items() if door in asks]:
            del self.wanted[name][door]
            if not self.wanted[name]:
                del self.wanted[name]

    def _start(self) -> None:
        wanted, self.wanted = self.wanted, {}
        names = list(wanted)
        self.busy = True
        self.jobs += 1

        def work(store: Any) -> dict[str, int | None]:  # in the store's thread
            return store.balances(names)  # one statement for every door queued

        self.off_loop(work).add_done_callback(lambda done: self._done(done, wanted))

    def _done(self, done: asyncio.Future[Any], wanted: dict[str, dict[object, Then]]) -> None:
        self.busy = False
        failed = done.cancelled() or done.exception() is not None
        if failed:
            log.warning("the balances of %d door(s) could not be read: %s", len(wanted),
                        "cancelled" if done.cancelled() else done.exception())
        got: dict[str, int | None] = {} if failed else done.result()
        for name, thens in wanted.items():
            value: int | None = None
            if not failed:
                value = got.get(name)
                if value is None:  # no account: the money at the tables (no store call)
                    value = sum(t.balance(name) for t in self.club.tables.values())
            for then in thens.values():
                try:
                    then(value)
                except Exception:  # one door's bug must not keep the others from their balance
                    log.exception("a door's balance could not be shown")
        if self.wanted:
            self._start()


__all__ = ["BalanceReads"]
