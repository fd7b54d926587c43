"""A real store behind a double whose chosen calls wait at a gate the test holds (issue 15's off-loop tests).

While a call waits at the gate, the event loop of the server (and of the test's clients, the same
loop) must go on: a call made on the loop would freeze it until the gate's own timeout, and a chat
line of another person would not arrive meanwhile.  Every gated call's thread is noted, and a call
may be made to refuse with a ``StoreError`` instead.
"""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterable

from engine.store.base import StoreError, make_data_folder
from engine.store.opening import open_store

HOLD = 20.0
"""Seconds a gated call waits at most (the tests open the gate long before)."""


class GatedStore:
    """A store whose ``gated`` calls wait while ``gate`` is closed, and whose ``refused`` calls fail."""

    def __init__(self, store: Any, gated: Iterable[str] = ()) -> None:
        self._store = store
        self.gated = set(gated)
        self.refused: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()
        self._lock = threading.Lock()
        self.hanging = 0
        self.calls: list[tuple[str, str, str]] = []  # (call, its first argument, thread name)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr) or name.startswith("_"):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if name not in self.gated and name not in self.refused:
                return attr(*args, **kwargs)
            with self._lock:
                self.calls.append((name, str(args[0]) if args else "", threading.current_thread().name))
            if name in self.refused:
                raise StoreError("the database is gone")
            if not self.gate.is_set():
                with self._lock:
                    self.hanging += 1
                try:
                    self.gate.wait(HOLD)
                finally:
                    with self._lock:
                        self.hanging -= 1
            return attr(*args, **kwargs)

        return call

    def named(self, call: str) -> list[tuple[str, str]]:
        """(first argument, thread) of each gated or refused ``call`` made."""
        with self._lock:
            return [(arg, thread) for c, arg, thread in self.calls if c == call]


async def held_while_chat(store: GatedStore, by: Any, typed: str, chat: tuple[Any, str, Any], tag: object) -> None:
    """``typed`` by ``by`` waits at the closed gate while ``chat`` — (speaker, his name, hearer) — gets
    a line across (the loop went on); then the gate opens.  ``by``/speaker/hearer: sshclient Clients."""
    from sshclient import until

    speaker, speaker_name, hearer = chat
    store.gate.clear()
    by.line(typed)
    await until(lambda: store.hanging >= 1, timeout=20, what=f"{typed} waiting at the store")
    speaker.line(f"say ping {tag}")
    await hearer.wait(f"{speaker_name} says: ping {tag}", timeout=20)
    assert store.hanging >= 1  # the chat did not wait for the store
    store.gate.set()


@asynccontextmanager
async def gated_hall(tmp_path: Any, gated: Iterable[str], names: Iterable[str]) -> AsyncIterator[tuple[GatedStore, Any, list[Any]]]:
    """A server on a gated store and a newcomer in its hall for each name (sshclient's); at the end the gate
    is opened (so nothing waits on it), everyone is closed and the server stopped."""
    from sshclient import make_config, named, running

    store = gated_store(tmp_path, gated)
    clients: list[Any] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            try:
                for name in names:
                    clients.append(await named(server.port, name))
                yield store, server, clients
            finally:
                store.gate.set()
                for client in clients:
                    await client.close()
    finally:
        store.gate.set()


def gated_store(tmp_path: Any, gated: Iterable[str] = ()) -> GatedStore:
    data = tmp_path / "club"
    make_data_folder(data)
    return GatedStore(open_store(data, new=True, exclusive=True), gated)


__all__ = ["GatedStore", "HOLD", "gated_hall", "gated_store", "held_while_chat"]
