"""The replicas of one node, kept as the journal says: its notices heard, its entries read off the loop.

A committed entry comes as a notice of its own (``sukno_entry``: played at once, no read) and as a
``sukno_journal`` notice of its seq (read once per burst, by a thread with its own connection, applied
back on the loop).  A replica whose read failed, or whose journal did not replay, is read again from
the start every ``REREAD`` s until it is; the loop never waits for a read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable

from engine.store.base import JournalEntry, StoreError
from engine.table.owner import TableError
from engine.table.replica import Replica
from net.ssh.offloop import StoreThread

log = logging.getLogger("sukno.cluster")

REREAD = 1.0
"""Seconds between reads of a replica whose last read failed (the store away, or what did not replay)."""


class ReplicaReads:
    """Every replica of a node, and when each is read again from its journal (on the loop)."""

    def __init__(self, name: str, store: Any, now: Callable[[], float]) -> None:
        self.name = name
        self.now = now
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the notices are heard on, once the node listens."""
        self.replicas: dict[Any, Replica] = {}
        self.reads = StoreThread(store, "sukno replicas", every=3600.0)
        """Reads the replicas' journals on a connection of its own, off the loop (``Replica.fetch``)."""
        self._dirty: dict[Any, int] = {}  # replica → the highest journal seq heard of since its last read
        self._heard: dict[Any, int] = {}  # replica → the highest journal seq heard of (0: a new session began)
        self._flush_due = False
        self.reading: set[Any] = set()  # replicas whose read is in flight
        self._reread: set[Any] = set()  # replicas heard of again meanwhile: read again after it
        self._waiters: dict[Any, list[Callable[[], None]]] = {}  # run after the next read of a replica
        self._unread: dict[Any, str] = {}  # replicas whose last read failed (why): read again, from the start
        self._reread_due: set[Any] = set()  # … with their next read already timed

    def log_figures(self) -> None:
        if self.replicas:
            followed = sum(r.followed for r in self.replicas.values())
            log.info("node %s: replicas' entries played from their notices %d, journal reads %d", self.name,
                     followed, sum(r.syncs for r in self.replicas.values()) - followed)

    def behind(self, table_id: Any, replica: Replica) -> bool:
        """Does the replica need a read before an answer is shown?  The journal notice of what the
        owner did is committed, so heard, before its answer (PostgreSQL delivers notices in commit
        order); a replica that has read past every notice heard (the burst's read came first) has it."""
        heard, dirty = self._heard.get(table_id, 0), self._dirty.get(table_id)
        return heard == 0 or dirty == 0 or replica.reader.read_seq < max(heard, dirty or 0)

    def entry_notice(self, payload: str) -> None:
        """On the loop: a committed entry itself, heard just before its ``sukno_journal`` notice: a
        replica it follows plays it at once, with no read; that notice then finds the
        replica has it.  Not while a read is in flight or a full read is due (a new session): the read
        brings it.  What does not play on is read from the start."""
        try:
            head, text = payload.split("\n", 1)
            tid_text, seq_text, at_text, kind = head.rsplit(" ", 3)
            table_id, seq, at = json.loads(tid_text), int(seq_text), float(at_text)
        except ValueError:
            return
        replica = self.replicas.get(table_id)
        if replica is None or table_id in self.reading or self._dirty.get(table_id) == 0 \
                or not replica.follows(seq):
            return
        try:
            entry = JournalEntry(seq, at, kind, json.loads(text))
        except ValueError:
            return
        if not isinstance(entry.payload, dict):
            return
        try:
            told = replica.follow(entry, self.now())
        except Exception:
            log.exception("node %s: entry %d of table %s did not play on its replica", self.name, seq, table_id)
            told = None
        if told is None:
            self.read(table_id, from_start=True)

    def journal_notice(self, payload: str) -> None:
        """On the loop: a committed journal entry; replicas of that table read the journal (once per burst)."""
        try:
            text, seq_text = payload.rsplit(" ", 1)
            table_id, seq = json.loads(text), int(seq_text)
        except ValueError:
            return
        if table_id in self.replicas:
            self._heard[table_id] = max(self._heard.get(table_id, 0), seq) if seq > 0 else 0
            # seq 0 (a new session) or -1 (closed): always read; else the highest heard of (a read
            # that has it already, e.g. the one made for our own call's answer, makes it no news)
            self._dirty[table_id] = max(self._dirty.get(table_id, 0), seq) if seq > 0 and \
                self._dirty.get(table_id, 1) > 0 else 0
            if not self._flush_due and self.loop is not None:
                self._flush_due = True
                self.loop.call_soon(self.flush)

    def flush(self) -> None:
        self._flush_due = False
        dirty, self._dirty = self._dirty, {}
        for table_id, seq in dirty.items():
            replica = self.replicas.get(table_id)
            if replica is not None and (seq <= 0 or seq > replica.reader.read_seq):
                self.read(table_id, from_start=seq <= 0)

    def after_read(self, table_id: Any, then: Callable[[], None]) -> None:
        """On the loop: ``then()`` once a read of ``table_id``'s replica begun from now is applied."""
        self._waiters.setdefault(table_id, []).append(then)
        self.read(table_id)

    def read(self, table_id: Any, from_start: bool = False) -> None:
        """On the loop: read the replica's journal in the reader's thread, apply it here when read (one
        read in flight per replica; one asked meanwhile follows it).  The loop never waits for it."""
        replica = self.replicas.get(table_id)
        if replica is None:
            for then in self._waiters.pop(table_id, []):
                then()
            return
        if table_id in self.reading:
            self._reread.add(table_id)
            return
        self.reading.add(table_id)
        waiters = self._waiters.pop(table_id, [])
        now = self.now()  # a read from the start is replayed in the reader's thread too, its clocks shifted to now
        read = self.reads.run(lambda own: replica.fetch(own, from_start=from_start, now=now))
        read.add_done_callback(lambda done: self.read_done(table_id, replica, done, waiters))

    def read_done(self, table_id: Any, replica: Replica, done: asyncio.Future[Any],
                   waiters: list[Callable[[], None]]) -> None:
        self.reading.discard(table_id)
        if self.replicas.get(table_id) is replica and not done.cancelled():
            error = done.exception()
            try:
                if error is not None:
                    raise error
                if replica.apply(done.result(), self.now()) is None:  # stale, or does not play on
                    self._waiters.setdefault(table_id, [])[:0] = waiters
                    self._reread.discard(table_id)
                    self.read(table_id, from_start=True)
                    return
                if self._unread.pop(table_id, None) is not None:
                    log.warning("node %s: replica of table %s read again", self.name, table_id)
            except (StoreError, TableError) as err:
                self.read_later(table_id, getattr(err, "message", str(err)))
            except Exception as err:
                log.exception("node %s: replica of table %s not applied", self.name, table_id)
                self.read_later(table_id, str(err))
        if table_id in self._reread or self._waiters.get(table_id):
            self._reread.discard(table_id)
            self.read(table_id)
        for then in waiters:
            try:
                then()
            except Exception:
                log.exception("node %s: what waited for a read of table %s failed", self.name, table_id)

    def read_later(self, table_id: Any, why: str) -> None:
        """A replica that could not be read, or whose journal did not replay: it never stops there; it
        reads the table again from the journal's start every ``REREAD`` s until it does (logged once)."""
        if table_id not in self._unread:
            log.warning("node %s: replica of table %s not read (read again every %.0f s until it is): %s",
                        self.name, table_id, REREAD, why)
        self._unread[table_id] = why
        if self.loop is not None and table_id not in self._reread_due:
            self._reread_due.add(table_id)

            def again() -> None:
                self._reread_due.discard(table_id)
                if table_id in self._unread and table_id in self.replicas:
                    self.read(table_id, from_start=True)

            self.loop.call_later(REREAD, again)

    def resync_all(self) -> None:
        """The listener came back after a lost connection: notices may have been missed.  Each replica
        reads what follows its last read (``Replica.fetch`` reads from the start itself when a new
        session began or a gap shows): committed entries never change, and a long session's whole
        journal replayed on the loop for every replica at once would stall every session here."""
        self._dirty.update({t: r.reader.read_seq + 1 for t, r in self.replicas.items()})
        self.flush()
