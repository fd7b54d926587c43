"""LISTEN/NOTIFY between nodes: one listening thread, callbacks on the asyncio loop.

The engine's store stays synchronous and asyncio-free; this module is the asyncio side.  A
``Notices`` opens two PostgreSQL connections of its own (psycopg 3, synchronous API):

* a **listener**, in a daemon thread: ``LISTEN`` on every channel asked for, then
  ``connection.notifies(timeout=…)``; each notice is handed to the loop with
  ``call_soon_threadsafe``, so callbacks run on the loop like everything else of the club;
* a **sender** for ``notify`` (``SELECT pg_notify``, autocommit: sent at once), guarded by a lock;
* a **poster** for ``post``, on the loop: one task with psycopg's asynchronous connection sends
  the notices in the order posted, so the loop never waits for PostgreSQL (the bus of
  ``net.cluster.node``: a slow or unreachable database stalls no session) and no thread hop
  (each one a wait for the GIL on a loaded machine) is added to a call's round trip.

API (used by ``net.cluster.node`` and by the club-wide hall/admin)::

    notices = Notices(url)
    unsubscribe = notices.on("sukno_journal", callback)   # callback(payload: str), on the loop
    notices.on_thread(channel, callback)  # callback(payload) in the listening thread (quick!)
    notices.on_gap(callback)        # callback(), on the loop: the listener reconnected, so notices
                                    # may have been missed (read what you keep from the store again)
    await notices.start()           # connects, LISTENs; raises NoticeError if it cannot
    notices.notify("sukno_bus", payload)   # any thread; NoticeError if it cannot be sent
    notices.post("sukno_bus", payload, failed)  # on the loop, at once; sent in order by a task;
                                    # failed(reason) on the loop if it could not be sent
    await notices.stop()

Delivery is PostgreSQL's: a notice sent inside a transaction is delivered only when it commits,
in commit order, to every listening session (the sender's own included); a payload is a text of
at most ``MAX_PAYLOAD`` bytes.  A notice is a hint, never the truth: a listener that lost its
connection gets ``on_gap`` and reads the store, and a sequence number that jumps means the same.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Callable

log = logging.getLogger("sukno.cluster")

MAX_PAYLOAD = 7999
"""PostgreSQL's limit on a NOTIFY payload (8000 bytes, less one)."""
POLL = 0.2
"""How often the listening thread looks up from ``notifies`` (new channels, stop)."""
RETRY = (0.2, 1.0)
"""The listener's reconnect delay after a lost connection: first, at most (doubling)."""
SEND_WAIT = 2.0
"""Seconds a notice may take to send before its connection is given up (PostgreSQL paused, a silent
network): the sender's wait is bounded, never for ever."""


def undo_all(offs: list[Callable[[], None]]) -> Callable[[], None]:
    """One unsubscribe for several (the notices of a channel, a table's feeds)."""

    def undo() -> None:
        for off in offs:
            off()

    return undo


class NoticeError(Exception):
    """A notice could not be sent or the listener could not start (the text says why)."""


def _options(url: str, role: str) -> dict[str, Any]:
    """libpq's options for a notices connection: a deadline to connect, its ``sukno/NODE/ROLE`` name,
    and TCP keepalives unless the URL sets them (a cut network is found out, not waited on)."""
    from psycopg import conninfo

    from engine.store.postgres import TCP_DEFAULTS, application_name

    given = conninfo.conninfo_to_dict(url)
    extra = {key: value for key, value in TCP_DEFAULTS.items() if key not in given}
    return {"autocommit": True, "connect_timeout": 5, "application_name": application_name(role), **extra}


def _connect(url: str, role: str, deadline: float | None = None) -> Any:
    from engine.store.postgres import _bounded, _load

    _load()
    db = _bounded().connect(url, **_options(url, role))
    db.deadline = deadline
    return db


async def _bounded_execute(db: Any, sql: str, params: tuple[Any, ...]) -> None:
    """``db.execute`` waited for at most ``SEND_WAIT`` s.  Past it the socket is closed first and only
    then the wait cancelled: psycopg cancels an active query by asking the server, which a paused
    server never answers (its own deadline of seconds, with every notice queued behind it)."""
    task = asyncio.ensure_future(db.execute(sql, params))
    done, _ = await asyncio.wait({task}, timeout=SEND_WAIT)
    if task in done:
        task.result()
        return
    try:
        db.pgconn.finish()
    except Exception:  # pragma: no cover
        pass
    task.cancel()
    try:
        await task
    except BaseException:  # its error is the closed socket's (or the cancel): the one below says it
        pass
    raise NoticeError(f"PostgreSQL did not take a notice within {SEND_WAIT:g} s")


class Notices:
    """LISTEN on channels, NOTIFY on any (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._callbacks: dict[str, list[Callable[[str], object]]] = {}
        self._gaps: list[Callable[[], None]] = []
        self._in_thread: dict[str, list[Callable[[str], None]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._listening: set[str] = set()
        self._wanted_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._sender: Any = None
        self._outbox: asyncio.Queue[tuple[str, str, Callable[[str], None] | None] | None] | None = None
        self._poster: asyncio.Task[None] | None = None
        self._ready = threading.Event()
        self._failed: str | None = None
        self.received = 0

    # -- listening ----------------------------------------------------------------------------

    def on(self, channel: str, callback: Callable[[str], object]) -> Callable[[], None]:
        """Call ``callback(payload)`` on the loop for each notice on ``channel``; returns unsubscribe."""
        if not channel.isidentifier():
            raise ValueError(f"a channel is a plain identifier, not {channel!r}")
        with self._wanted_lock:
            self._callbacks.setdefault(channel, []).append(callback)

        def unsubscribe() -> None:
            with self._wanted_lock:
                listeners = self._callbacks.get(channel, [])
                if callback in listeners:
                    listeners.remove(callback)

        return unsubscribe

    def on_thread(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` in the listening thread itself, before the loop hears it: for
        answers a blocked loop is waiting for.  It must be quick and thread-safe."""
        self.on(channel, lambda payload: None)  # LISTEN on it
        with self._wanted_lock:
            self._in_thread.setdefault(channel, []).append(callback)

    def on_gap(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` on the loop after the listener lost its connection and came back."""
        self._gaps.append(callback)

    async def start(self, timeout: float = 10.0) -> None:
        """Connect and LISTEN (in the thread); ``NoticeError`` if the database cannot be reached."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._listen, name="sukno notices", daemon=True)
        self._thread.start()
        ready = await self._loop.run_in_executor(None, self._ready.wait, timeout)
        if self._failed or not ready:
            self._stop.set()
            raise NoticeError(self._failed or "the notice listener did not start in time")

    async def stop(self) -> None:
        self._stop.set()
        if self._poster is not None and self._outbox is not None:
            self._outbox.put_nowait(None)  # after what was posted before
            try:
                await asyncio.wait_for(asyncio.shield(self._poster), 5)
            except (asyncio.TimeoutError, Exception):
                self._poster.cancel()
            self._poster = None
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join, 5)
            self._thread = None
        with self._send_lock:
            if self._sender is not None:
                try:
                    self._sender.close()
                except Exception:  # pragma: no cover
                    pass
                self._sender = None

    def _listen(self) -> None:
        delay = RETRY[0]
        first = True
        failing = False
        while not self._stop.is_set():
            try:
                db = _connect(self.url, "listen")
            except Exception as err:
                if first:
                    self._failed = f"cannot listen for notices: {str(err).splitlines()[0][:200]}"
                    self._ready.set()
                    return
                if not failing:  # once per outage, not once per try
                    log.warning("notices: cannot reconnect (%s); trying again every %.1f s or less",
                                type(err).__name__, RETRY[1])
                failing = True
                self._stop.wait(delay)
                delay = min(RETRY[1], delay * 2)
                continue
            delay = RETRY[0]
            if failing:
                log.info("notices: listening again")
            failing = False
            self._listening = set()
            try:
                self._subscribe(db)
                if first:
                    first = False
                    self._ready.set()
                else:
                    self._hand(self._gap)
                while not self._stop.is_set():
                    for notice in db.notifies(timeout=POLL):
                        self.received += 1
                        self._in_thread_deliver(notice.channel, notice.payload)
                        self._hand(self._deliver, notice.channel, notice.payload)
                    self._subscribe(db)
            except Exception as err:
                if not self._stop.is_set():
                    log.warning("notices: the listener's connection failed (%s); reconnecting",
                                str(err).splitlines()[0][:200] if str(err) else type(err).__name__)
            finally:
                try:
                    db.close()
                except Exception:  # pragma: no cover
                    pass

    def _subscribe(self, db: Any) -> None:
        from psycopg import sql

        with self._wanted_lock:
            wanted = set(self._callbacks) - self._listening
        for channel in sorted(wanted):
            db.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            self._listening.add(channel)

    def _hand(self, function: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(function, *args)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _in_thread_deliver(self, channel: str, payload: str) -> None:
        with self._wanted_lock:
            listeners = list(self._in_thread.get(channel, []))
        for callback in listeners:
            try:
                callback(payload)
            except Exception:
                log.exception("notices: a thread listener of %s failed", channel)

    def _deliver(self, channel: str, payload: str) -> None:
        with self._wanted_lock:
            listeners = list(self._callbacks.get(channel, []))
        for callback in listeners:
            try:
                callback(payload)
            except Exception:  # one broken listener must not stop the others
                log.exception("notices: a listener of %s failed", channel)

    def _gap(self) -> None:
        for callback in list(self._gaps):
            try:
                callback()
            except Exception:
                log.exception("notices: a gap listener failed")

    # -- sending ------------------------------------------------------------------------------

    def post(self, channel: str, payload: str, failed: Callable[[str], None] | None = None) -> None:
        """On the loop: send one notice soon, in the order posted; never waits.  ``NoticeError`` at
        once if it is too long; ``failed(reason)`` (on the loop) if it cannot be sent."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise NoticeError(f"a notice is at most {MAX_PAYLOAD} bytes")
        if self._poster is None or self._poster.done():
            self._outbox = asyncio.Queue()
            self._poster = asyncio.get_running_loop().create_task(self._post_loop(self._outbox))
        assert self._outbox is not None
        self._outbox.put_nowait((channel, payload, failed))

    async def _post_loop(self, outbox: asyncio.Queue[tuple[str, str, Callable[[str], None] | None] | None]) -> None:
        import psycopg

        db: Any = None
        try:
            while True:
                item = await outbox.get()
                if item is None:
                    return
                channel, payload, failed = item
                for attempt in (1, 2):  # a connection PostgreSQL dropped is made again once
                    try:
                        if db is None or db.closed or db.broken:
                            db = await asyncio.wait_for(psycopg.AsyncConnection.connect(
                                self.url, **_options(self.url, "post")), SEND_WAIT * 3)
                        await _bounded_execute(db, "SELECT pg_notify(%s, %s)", (channel, payload))
                        break
                    except Exception as err:
                        if db is not None:
                            try:
                                await db.close()
                            except Exception:  # pragma: no cover
                                pass
                        db = None
                        if attempt == 2:
                            said = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
                            reason = f"cannot send a notice: {said}"
                            if failed is not None:
                                failed(reason)
                            else:
                                log.warning("notices: a notice on %s was not sent: %s", channel, reason)
        finally:
            if db is not None:
                try:
                    await db.close()
                except Exception:  # pragma: no cover
                    pass

    def notify(self, channel: str, payload: str) -> None:
        """Send one notice now (autocommit); ``NoticeError`` if it is too long or cannot be sent."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise NoticeError(f"a notice is at most {MAX_PAYLOAD} bytes")
        with self._send_lock:
            for attempt in (1, 2):  # a connection PostgreSQL dropped is made again once
                try:
                    if self._sender is None or self._sender.closed or self._sender.broken:
                        self._sender = _connect(self.url, "notify", SEND_WAIT)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (channel, payload))
                    return
                except Exception as err:
                    self._sender = None
                    if attempt == 2:
                        raise NoticeError(f"cannot send a notice: {str(err).splitlines()[0][:200]}") from None

