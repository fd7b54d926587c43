"""A store that cannot be reached, told once per change of state (not once per refused write).

During an outage every table, thread and connection of a node fails each of its writes; logged one by
one that was tens of thousands of identical lines in ten seconds, drowning the one line that matters.
``Outage`` is shared by every store connection of a process to one database: the first failure says
"unreachable since …" once, each refusal afterwards is only counted, and the first connection that
works again says "back after … s, N writes refused".  A connection made before that return which fails
afterwards is a stale socket being found out, not a new outage: counted, not told.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("sukno.store")


class Outage:
    """The reachability of one database, as the process's connections to it have found it."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._lock = threading.Lock()
        self.since: float | None = None  # wall clock of the first failure of this outage (None: reachable)
        self._began = 0.0  # … on the monotonic clock
        self.refused = 0
        self.back_at = 0.0  # monotonic: when the database last came back
        self.outages = 0

    @property
    def away(self) -> bool:
        return self.since is not None

    def failed(self, reason: str, made_at: float | None = None) -> None:
        """A connection (made at ``made_at``, monotonic; None: no connection) found the database gone."""
        with self._lock:
            if self.since is not None:
                self.refused += 1
                return
            if made_at is not None and made_at < self.back_at:
                return  # a connection older than the return: a stale socket, already told
            self.since, self._began, self.refused = time.time(), time.monotonic(), 1
            self.outages += 1
        log.warning("%s unreachable since %s: %s", self.what, _clock(self.since), reason)

    def refuse(self) -> None:
        """A write refused at once because the database is away (no wait)."""
        with self._lock:
            if self.since is not None:
                self.refused += 1

    def back(self) -> None:
        """A connection works again."""
        with self._lock:
            if self.since is None:
                return
            self.back_at = time.monotonic()
            since, lasted, refused = self.since, self.back_at - self._began, self.refused
            self.since, self.refused = None, 0
        log.warning("%s back after %.1f s (unreachable since %s), %d writes refused", self.what, lasted,
                    _clock(since), refused)


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


_OUTAGES: dict[str, Outage] = {}
_OUTAGES_LOCK = threading.Lock()


def outage_of(key: str, what: str) -> Outage:
    """The process's one ``Outage`` for a database (``key``: its URL), made on first use."""
    with _OUTAGES_LOCK:
        found = _OUTAGES.get(key)
        if found is None:
            found = _OUTAGES[key] = Outage(what)
        return found
