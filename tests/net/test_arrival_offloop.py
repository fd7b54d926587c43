"""A known key's arrival reads the store off the loop (issue 15/16, ``net.ssh.arrival``).

The account by its key, the ``touch``, his settings, his balance and his ignore list were read on
the event loop as his session began: a slow store stalled every session of the node for each of
them.  Here a real SQLite store sits behind a double whose arrival reads wait at a gate the test
holds closed: while Boris's arrival waits at it, Anna's chat line reaches Cleo (the loop is free),
and the reads were made by the ``sukno arrivals`` thread, never by the loop's.  A store that
refuses on arrival is told to him (the club cannot reach its books), and nothing is made.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sshclient import Client, connect, make_config, new_key, running, until

from engine.store.base import StoreError, make_data_folder
from engine.store.opening import open_store
from net.modes.texts import text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

READS = ("account_by_key", "touch", "settings", "balance", "ignores")


class GatedStore:
    """A store whose ``READS`` wait while ``gate`` is closed; every such call's thread is noted."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.gate = threading.Event()
        self.gate.set()
        self.refuse = False
        self._lock = threading.Lock()
        self.hanging = 0
        self.calls: list[tuple[str, str, str]] = []  # (call, its first argument, thread name)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name not in READS:
            return attr

        def read(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.calls.append((name, str(args[0]) if args else "", threading.current_thread().name))
            if self.refuse and name == "account_by_key":
                raise StoreError("the database is gone")
            if not self.gate.is_set():
                with self._lock:
                    self.hanging += 1
                try:
                    self.gate.wait(30)
                finally:
                    with self._lock:
                        self.hanging -= 1
            return attr(*args, **kwargs)

        return read


def gated(tmp_path) -> tuple[Any, Any]:
    data = tmp_path / "club"
    make_data_folder(data)
    real = open_store(data, new=True, exclusive=True)
    return make_config(data), GatedStore(real)


async def register(port: int, name: str, key: Any) -> Client:
    client = await connect(port, key=key)
    await client.wait("book of names", timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client


async def test_a_known_keys_arrival_waits_for_the_store_off_the_loop(tmp_path) -> None:
    config, store = gated(tmp_path)
    boris_key = new_key()
    fingerprint = boris_key.get_fingerprint("sha256")
    clients: list[Client] = []
    try:
        async with running(config, store=store) as server:
            anna = await register(server.port, "Anna", new_key())
            cleo = await register(server.port, "Cleo", new_key())
            boris = await register(server.port, "Boris", boris_key)
            clients += [anna, cleo]
            anna.line("say hello all")  # everyone's ignore list is read now, as a first line is heard
            await cleo.wait("Anna says: hello all", timeout=20)
            await boris.wait("Anna says: hello all", timeout=20)
            boris.line("ignore Cleo")
            await boris.wait("Cleo", timeout=20)
            await boris.close()
            await until(lambda: not server.club.is_online("Boris"), timeout=20, what="Boris gone")

            store.gate.clear()  # from now on the arrival's reads hang
            store.calls.clear()
            boris = await connect(server.port, key=boris_key)
            clients.append(boris)
            await until(lambda: store.hanging >= 1, timeout=20, what="Boris's arrival waiting at the store")
            anna.line("say ping while Boris's account is read")
            await cleo.wait("Anna says: ping while Boris's account is read", timeout=20)
            assert store.hanging >= 1 and not store.gate.is_set()  # still waiting: the chat did not wait for it

            store.gate.set()
            await boris.wait("Boris ·", timeout=20)
            cleo.line("say hello Boris")
            anna_sees = await anna.wait("Cleo says: hello Boris", timeout=20)
            assert "Boris ·" in boris.text()
            his = [(call, thread) for call, arg, thread in store.calls if arg in ("Boris", fingerprint)]
            assert {call for call, _thread in his} == set(READS), store.calls  # every read of his arrival
            assert {thread for _call, thread in his} == {"sukno arrivals"}, store.calls  # none on the loop
            assert "hello Boris" in anna_sees
            assert server.club.social.ignored("Boris") == {"cleo"}  # his list as read on arrival
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


async def test_a_store_that_refuses_on_arrival_is_told_to_him_and_nothing_is_made(tmp_path) -> None:
    config, store = gated(tmp_path)
    key = new_key()
    async with running(config, store=store) as server:
        boris = await register(server.port, "Boris", key)
        await boris.close()
        store.refuse = True
        again = await connect(server.port, key=key)
        try:
            await again.wait("cannot reach its books", timeout=20)  # text('en', 'books_away'), wrapped
            assert "Boris ·" not in again.text()
            assert ("account_by_key", key.get_fingerprint("sha256"), "sukno arrivals") in store.calls
        finally:
            await again.close()
