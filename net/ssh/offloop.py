"""The store calls a timer makes, off the event loop: a thread with its own connection.

Every 2 s a node writes its presence beat and reads the club's back, and reads the bans and mutes
again.  Made on the loop, a slow or unreachable store (a lock held, a database restarting, a lost
network) would stall every session of the node for as long as the call waits.  A ``StoreThread``
makes them in a daemon thread instead, on a store connection of its own (PostgreSQL: a new
``PgStore`` on the same URL, as the leases' thread of ``net.cluster.node`` does; any other store,
e.g. SQLite, is used as it is: its calls are local and take its lock briefly), and hands each result
to the loop with ``call_soon_threadsafe``, where it is applied like everything else of the club.

A job is ``(work, then)``: ``work(store)`` runs in the thread; ``then(result)`` on the loop.  A
``StoreError`` is logged once until the job works again; the job is tried at the next round.

``run(work)`` asks for one job once (an admin's ban, a mute, an expired mute cleared): it is done
before the next round, and its result (or its ``StoreError``) comes back as an ``asyncio.Future``
the loop awaits, so the loop never waits for the store itself.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections import deque
from functools import partial
from typing import Any, Callable

from engine.table.pending import Pending
from engine.store.base import StoreError

log = logging.getLogger("sukno.store")

Work = Callable[[Any], Any]
Then = Callable[[Any], None]

STORE_WAIT = 10.0
"""Seconds a person's store job (a name written, a setting kept) may take before he is told it failed
(still queued: dropped) or that it is still being made (begun: it lands, and he hears how)."""


class Job(asyncio.Future[Any]):
    """A ``StoreThread.run`` job's future, which knows whether the thread has begun it: the asker who
    gives up waiting can drop a queued job for good, but a begun one lands, and saying it failed is untrue."""

    def __init__(self, *, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop=loop)
        self._job_lock = threading.Lock()
        self._begun = False
        self._dropped = False

    def begin(self) -> bool:
        """In the thread, before the work: False if its asker dropped it (never to be made)."""
        with self._job_lock:
            if self._dropped or self.cancelled():
                return False
            self._begun = True
            return True

    def drop(self) -> bool:
        """On the loop: True if the job is now never to be made; False if the thread has begun it."""
        with self._job_lock:
            if self._begun:
                return False
            self._dropped = True
            return True


def own_store(store: Any, timeout: float, role: str = "thread") -> tuple[Any, bool]:
    """A store connection for a thread, and whether it is a new one (to be closed after); ``role`` names
    it in PostgreSQL's ``application_name`` (``sukno/NODE/ROLE``)."""
    pg = sys.modules.get("engine.store.postgres")
    if pg is not None and isinstance(store, pg.PgStore):
        return pg.PgStore(store.url, synchronous_commit=store.synchronous_commit, statement_timeout=timeout,
                          connect_timeout=timeout, role=role), True
    return store, False


class StoreThread:
    """Runs its jobs every ``every`` seconds (or at once when poked) in a thread of its own."""

    def __init__(self, store: Any, name: str, every: float, *, timeout: float = 5.0) -> None:
        self.store = store
        self.name = name
        self.every = every
        self.timeout = timeout
        self.jobs: list[tuple[str, Work, Then | None]] = []
        self.final: Work | None = None
        """Run once in the thread as it stops (a node takes its presence rows out)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing: set[str] = set()
        self._poked = False
        self._asked: deque[tuple[Work, asyncio.Future[Any]]] = deque()
        self._asked_lock = threading.Lock()
        self.rounds = 0

    def add(self, label: str, work: Work, then: Then | None = None) -> None:
        self.jobs.append((label, work, then))

    def start(self) -> None:
        """On the loop: the thread starts with a first round at once."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """A round now (any thread): something changed that the store should hear or be asked about."""
        self._poked = True
        self._wake.set()

    def run(self, work: Work) -> asyncio.Future[Any]:
        """On the loop: ``work(store)`` once, in the thread, soon; awaited for its result (a
        ``StoreError`` is raised by the await; so is one if the thread has stopped)."""
        loop = self._loop or asyncio.get_running_loop()
        future: asyncio.Future[Any] = Job(loop=loop)
        if self._thread is None or self._stop.is_set():
            future.set_exception(StoreError(f"{self.name}: stopped; nothing was written"))
            return future
        with self._asked_lock:
            self._asked.append((work, future))
        self._wake.set()
        return future

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the round in progress (and ``final``), waiting at most ``timeout`` s."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("%s: the store has not answered for %g s; not waiting for it", self.name, timeout)
            self._thread = None

    def _run(self) -> None:
        store: Any = None
        ours = False
        due = 0.0  # when the next round is due (monotonic)
        while True:
            if store is None:
                try:
                    store, ours = own_store(self.store, self.timeout, self.name.removeprefix("sukno ")[:20])
                except StoreError as err:
                    self._failed("connect", err)
                    self._refuse_asked(err)  # whoever awaits a job hears it now, not at the next try
            if store is not None:
                self._serve_asked(store)
                if self._poked or time.monotonic() >= due:
                    self._poked = False
                    self._round(store)
                    due = time.monotonic() + self.every
            if self._stop.is_set():
                break
            self._wake.wait(max(0.0, due - time.monotonic()) if store is not None else self.every)
            self._wake.clear()
        self._refuse_asked()
        if self.final is not None and store is not None:
            try:
                self.final(store)
            except StoreError as err:
                log.warning("%s: %s", self.name, err)
        if ours:
            store.close()

    def _serve_asked(self, store: Any) -> None:
        while True:
            with self._asked_lock:
                if not self._asked:
                    return
                work, future = self._asked.popleft()
            if isinstance(future, Job) and not future.begin():  # its asker gave up (``as_pending``), told him so
                continue  # never made late
            if future.cancelled():
                continue
            try:
                self._hand(partial(_settle, future), work(store))
            except (StoreError, ValueError) as err:  # refused (a bad name is the store's ValueError)
                self._hand(partial(_fail, future), err)
            except Exception as err:  # a bug: the asker hears of it, the thread goes on
                log.exception("%s: a job asked of the store failed", self.name)
                self._hand(partial(_fail, future), err)

    def _refuse_asked(self, why: StoreError | None = None) -> None:
        with self._asked_lock:
            asked, self._asked = list(self._asked), deque()
        for _work, future in asked:
            self._hand(partial(_fail, future),
                       why or StoreError(f"{self.name}: stopped; nothing was written"))

    def _round(self, store: Any) -> None:
        self.rounds += 1
        for label, work, then in list(self.jobs):
            if self._stop.is_set():
                return  # stopping: straight to the last act
            try:
                result = work(store)
            except StoreError as err:
                self._failed(label, err)
                continue
            except Exception:  # a bug in one job must not stop the others
                log.exception("%s: %s failed", self.name, label)
                continue
            if label in self._failing:
                self._failing.discard(label)
                log.debug("%s: %s works again", self.name, label)
            if then is not None:
                self._hand(then, result)

    def _failed(self, label: str, err: StoreError) -> None:
        if label not in self._failing:  # an unreachable store is said once by its outage line
            self._failing.add(label)
            log.log(logging.DEBUG if err.exit_status == 75 else logging.WARNING,
                    "%s: %s: the store did not answer (the last values hold): %s", self.name, label, err)

    def _hand(self, function: Then, result: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(function, result)
            except RuntimeError:  # the loop closed meanwhile
                pass


def _settle(future: asyncio.Future[Any], got: Any) -> None:
    if not future.done():  # its asker may have cancelled it meanwhile
        future.set_result(got)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def as_pending(future: asyncio.Future[Any], op: str, failed: Callable[[BaseException], Any],
               wait: float | None = None, still: Callable[[], None] | None = None) -> Pending:
    """On the loop: a ``StoreThread.run`` job's result as an ``engine.table.pending.Pending``, which the screens
    already wait on (``tui.pending.after``, the bot's ``InOrder``) without holding the loop.  It is resolved
    with the job's result, or with ``failed(error)`` for an error of the job.  After ``wait`` s
    (``STORE_WAIT``) of silence a job not begun is dropped and ``failed`` told (never written a minute after
    he heard it was not); a job the thread has begun will land, so he is not told it failed: ``still()``
    says it is still being made, and the pending waits for its real outcome."""
    pending: Pending[Any] = Pending(op)
    loop = asyncio.get_running_loop()
    wait = STORE_WAIT if wait is None else wait

    def silent() -> None:
        drop = getattr(future, "drop", None)
        if drop is not None and not drop():  # begun: it lands, whatever he is told now
            log.warning("a %s job of the store has taken %g s; still waiting for it", op, wait)
            if still is not None:
                still()
            return
        pending.resolve(failed(StoreError(f"the store has not answered for {wait:g} s")))
        future.cancel()  # a job still queued is then never made (he was told it was not): ``StoreThread``

    timer = loop.call_later(wait, silent)

    def done(got: asyncio.Future[Any]) -> None:
        timer.cancel()
        if pending.settled:
            if not got.cancelled() and got.exception() is None:
                log.info("a %s job of the store was done after its %g s", op, wait)
            return
        error = StoreError("cancelled") if got.cancelled() else got.exception()
        pending.resolve(failed(error) if error is not None else got.result())

    future.add_done_callback(done)
    return pending
