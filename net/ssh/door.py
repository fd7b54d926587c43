"""The club's door: every TCP connection is checked as it is accepted, before SSH begins.

A refused connection (too many from its address, too fast, the club full)
costs one ``accept``, one short line and one ``close``: no key exchange, no
login, no App.  Refused after login, as before, a storm of 200 connections in
5 s from one address made a player from another address wait 9 s for his
first screen.

asyncssh has no hook before the key exchange, but it listens through any
object with a ``create_server(factory, host, port)`` coroutine (its
``tunnel`` option): ``Door`` is one, and listens itself with a protocol that
consults the limits, then hands an admitted connection to asyncssh.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any, Callable
from weakref import WeakKeyDictionary

from net.ssh.limits import Limits
from net.modes.texts import text


QUICKACK = getattr(socket, "TCP_QUICKACK", None)
"""Linux's TCP_QUICKACK (None elsewhere): see ``_Gate.quick_ack``."""


class _Gate(asyncio.Protocol):
    """One accepted TCP connection: refused here, or passed through to asyncssh's connection."""

    def __init__(self, limits: Limits, factory: Callable[[str, int], Any]) -> None:
        self.limits = limits
        self.factory = factory
        self.inner: Any = None
        self.peer = "?"
        self.sock: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.sock = transport.get_extra_info("socket") if QUICKACK is not None else None
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        refusal = self.limits.admit_connection(self.peer)
        if refusal is not None:
            # RFC 4253 §4.2 lets a server send lines before its version; clients show or skip them.
            lines = "".join(f"{text(lang, 'full', what=refusal)}\r\n" for lang in ("en", "ru"))
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(lines.encode("utf-8"))
            transport.close()
            return
        self.inner = self.factory("", 0)
        assert isinstance(transport, asyncio.Transport)
        self.inner.connection_made(OneSend(transport))

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)
        self.quick_ack()

    def quick_ack(self) -> None:
        """ACK the client's next packet at once, not 40 ms later (Linux re-arms delayed ACKs by itself).

        OpenSSH leaves Nagle on until it has a pty: during the key exchange and the login it holds a
        small packet until the last one is ACKed, and a delayed ACK held it 40 ms each time — an
        OpenSSH client's first frame, one connecting alone, took 59-150 ms, and 26-56 ms with this
        (load 10; tests/bench/connect_bench.py).  One system call per read; nothing is sent.
        """
        if self.sock is not None:
            try:
                self.sock.setsockopt(socket.IPPROTO_TCP, QUICKACK, 1)
            except OSError:
                self.sock = None  # not a TCP socket after all: never asked again

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.limits.connection_closed(self.peer)
            self.inner.connection_lost(exc)
            self.inner = None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class _Batch:
    """The connections written to in this turn of the loop, each sent once at its end by one callback.

    A callback per connection (``call_soon``: a handle and a copy of the context each) cost ~2 µs
    of every watcher's frame; one for all of them costs that once a turn."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: list[OneSend] = []
        self.handle: asyncio.Handle | None = None

    def add(self, transport: OneSend) -> None:
        self.waiting.append(transport)
        if self.handle is None:
            self.handle = self.loop.call_soon(self.run)

    def run(self) -> None:
        self.handle = None
        waiting, self.waiting = self.waiting, []
        for transport in waiting:
            transport.flush()  # one flushed meanwhile (FLUSH_AT, closed) has nothing left: a no-op


_BATCHES: WeakKeyDictionary[asyncio.AbstractEventLoop, _Batch] = WeakKeyDictionary()


def _batch() -> _Batch:
    loop = asyncio.get_running_loop()
    batch = _BATCHES.get(loop)
    if batch is None:
        batch = _BATCHES[loop] = _Batch(loop)
    return batch


class OneSend(asyncio.Transport):
    """The connection's transport, with every write of one turn of the loop sent in one go.

    asyncssh writes an SSH_MSG_IGNORE packet before each packet it sends, each a
    ``transport.write`` and so a ``send`` system call of its own: two per frame per
    person.  With the hall drawn for 300 people those calls were a third of the
    server's time (tests/bench/hall_bench.py); joined, a frame costs one.  The
    connections written to in a turn are sent at its end by one callback (``_Batch``).
    """

    FLUSH_AT = 1 << 16
    """Bytes waiting that are sent at once, without waiting for the end of the turn."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self._inner = transport
        self._pending: list[bytes] = []
        self._size = 0
        self._queued = False  # in this turn's batch

    def write(self, data: Any) -> None:
        if not data:
            return
        self._pending.append(bytes(data))
        self._size += len(data)
        if self._size >= self.FLUSH_AT:
            self.flush()
        elif not self._queued:
            self._queued = True
            _batch().add(self)

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def flush(self) -> None:
        self._queued = False
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            self._size = 0
            if not self._inner.is_closing():
                self._inner.write(data)

    def close(self) -> None:
        self.flush()
        self._inner.close()

    def abort(self) -> None:
        self._pending.clear()
        self._size = 0
        self._inner.abort()

    def write_eof(self) -> None:
        self.flush()
        self._inner.write_eof()

    def can_write_eof(self) -> bool:
        return self._inner.can_write_eof()

    def is_closing(self) -> bool:
        return self._inner.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._inner.get_extra_info(name, default)

    def get_write_buffer_size(self) -> int:
        return self._inner.get_write_buffer_size() + self._size

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._inner.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._inner.set_write_buffer_limits(high, low)

    def pause_reading(self) -> None:
        self._inner.pause_reading()

    def resume_reading(self) -> None:
        self._inner.resume_reading()

    def is_reading(self) -> bool:
        return self._inner.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._inner.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._inner.get_protocol()


class Door:
    """What asyncssh listens through (its ``tunnel=``): our own listening socket with a ``_Gate`` each."""

    def __init__(self, limits: Limits, backlog: int = 256, reuse_port: bool = False) -> None:
        self.limits = limits
        self.backlog = backlog
        self.reuse_port = reuse_port
        """``SO_REUSEPORT``: the port is shared with the other workers of ``--workers N`` (net/cluster/workers.py)."""

    async def create_server(self, factory: Callable[[str, int], Any], host: str, port: int) -> asyncio.Server:
        loop = asyncio.get_running_loop()
        return await loop.create_server(lambda: _Gate(self.limits, factory), host or None, port,
                                        backlog=self.backlog, reuse_address=True,
                                        reuse_port=self.reuse_port or None)


__all__ = ["Door", "OneSend"]
