"""No store call on the event loop for presence, bans and mutes (issue 15): a node whose store has
gone slow keeps answering its sessions.

The store here is a real PostgreSQL one behind a double whose presence, bans and mutes calls wait
at a gate the test holds closed (a lock held elsewhere, a database restarting, a lost network look
the same from the node).  While those calls hang, real SSH clients through pyte chat, and a new one
comes in through the ban gate; the calls are still hanging when they are done — so none of it waited
for them.  With the calls on the loop, the loop itself would hang at the gate and nothing would move.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from adminkit import admin_server
from sshclient import Client, connect, make_config, new_key, until

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

SLOW = ("beat", "presence", "leave_presence", "bans", "mutes")


class GatedStore:
    """A store whose ``SLOW`` calls wait while ``gate`` is closed; ``hanging`` counts those waiting."""

    def __init__(self, store: Any, slow: tuple[str, ...] = SLOW) -> None:
        self._store = store
        self._slow = slow
        self.gate = threading.Event()
        self.gate.set()
        self._lock = threading.Lock()
        self.hanging = 0
        self.hung: set[str] = set()
        self.threads: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name not in self._slow:
            return attr

        def slow(*args: Any, **kwargs: Any) -> Any:
            if not self.gate.is_set():
                with self._lock:
                    self.hanging += 1
                    self.hung.add(name)
                    self.threads.add(threading.current_thread().name)
                try:
                    self.gate.wait(60)
                finally:
                    with self._lock:
                        self.hanging -= 1
            return attr(*args, **kwargs)

        return slow


async def register(port: int, name: str) -> Client:
    client = await connect(port, key=new_key())
    await client.wait("book of names", timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client


async def test_a_slow_store_stalls_no_session(pg_url, tmp_path) -> None:
    from engine.store.postgres import PgStore

    real = PgStore(pg_url, exclusive=True)
    store = GatedStore(real)
    config = make_config(tmp_path / "north", tables=[], store_url=pg_url)
    config.node = "north"
    clients: list[Client] = []
    try:
        async with admin_server(config, store=store) as server:
            anna = await register(server.port, "Anna")
            clients.append(anna)
            await until(lambda: [p.name for p in real.presence(60)] == ["Anna"], timeout=20, what="Anna's row")
            store.gate.clear()  # from now on the store hangs for presence, bans and mutes
            await until(lambda: store.hanging >= 2, timeout=20, what="both threads hanging at the store")
            assert store.threads >= {"sukno presence", "sukno bans"}, store.threads
            assert threading.main_thread().name not in store.threads  # the loop never called them

            boris = await register(server.port, "Boris")  # in through the door and the ban gate
            clients.append(boris)
            anna.line("say ping while the store hangs")
            await boris.wait("Anna says: ping while the store hangs", timeout=20)
            boris.line("say pong")
            await anna.wait("Boris says: pong", timeout=20)
            assert store.hanging >= 2 and not store.gate.is_set()  # still hanging: nothing above waited for it

            store.gate.set()
            await until(lambda: sorted(p.name for p in real.presence(60)) == ["Anna", "Boris"], timeout=20,
                        what="the beat written again once the store answers")
            for client in clients:
                await client.close()
            await until(lambda: real.presence(60) == [], timeout=20, what="the rows gone with the sessions")
    finally:
        store.gate.set()
        for client in clients:
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closed already
                pass
        real.close()


WRITES = ("put_ban", "drop_bans", "prune_bans", "set_mute", "clear_mute")


async def test_an_admins_ban_and_mute_and_the_expired_ones_wait_for_a_slow_store_off_the_loop(
        pg_url, tmp_path, monkeypatch) -> None:
    """The admin's own writes (ban, mute) and the clearing of an expired ban (a new connection's gate)
    or mute (a chat line) are made by the store's thread: while the store hangs, the admin's ``ban``
    waits for it, and everyone else goes on; before, the loop made them and hung with them."""
    import json
    import time

    from adminkit import sukno_admin

    from engine.store.postgres import PgStore
    from net.house.commands import AdminCommands

    monkeypatch.setattr(AdminCommands, "STORE_WAIT", 60.0)  # the admin's ban waits as long as the test holds it
    real = PgStore(pg_url, exclusive=True)
    store = GatedStore(real, SLOW + WRITES)
    config = make_config(tmp_path / "north", tables=[], store_url=pg_url)
    config.node = "north"
    clients: list[Client] = []
    try:
        async with admin_server(config, store=store) as server:
            data = server.config.data
            anna, boris = await register(server.port, "Anna"), await register(server.port, "Boris")
            clients += [anna, boris]
            status, out, _ = await sukno_admin(data, "--json", "mute", "Boris", "--for", "1s")
            assert status == 0, out
            muted_until = json.loads(out)["data"]["until"]
            status, out, _ = await sukno_admin(data, "--json", "ban", "Zed", "--for", "1s")
            assert status == 0, out
            ban_until = json.loads(out)["data"]["ban"]["until"]
            await until(lambda: time.time() > max(muted_until, ban_until) + 0.1, timeout=20, what="both expired")

            store.gate.clear()  # the store hangs now, for reads and writes alike
            await until(lambda: store.hanging >= 2, timeout=20, what="both threads hanging at the store")
            banning = asyncio.get_running_loop().create_task(sukno_admin(data, "--json", "ban", "Vera"))
            boris.line("say free again")  # his mute ran out: cleared as he speaks, in the store by the thread
            await anna.wait("Boris says: free again", timeout=20)
            gleb = await register(server.port, "Gleb")  # the gate drops the expired ban of Zed as he comes in
            clients.append(gleb)
            anna.line("say the loop goes on")
            await gleb.wait("Anna says: the loop goes on", timeout=20)
            assert not banning.done()  # the admin's ban waits for the store, and only it
            assert threading.main_thread().name not in store.threads  # the loop never called the store
            assert store.hung >= {"bans"} and not store.gate.is_set()

            store.gate.set()
            status, out, _ = await banning
            assert status == 0 and json.loads(out)["data"]["ban"]["target"] == "Vera", out
            await until(lambda: [b.target for b in real.bans()] == ["Vera"], timeout=20,
                        what="Vera banned and Zed's expired ban gone, in the store")
            await until(lambda: real.mutes() == [], timeout=20, what="Boris's expired mute gone from the store")
    finally:
        store.gate.set()
        for client in clients:
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closed already
                pass
        real.close()


async def test_the_console_closing_gives_the_servers_store_writer_back(tmp_path) -> None:
    """The console puts its own thread's writer in ``social.later`` (an expired mute cleared, an ignore
    kept) while it runs; at its close it used to leave None there, so a server still running wrote those
    on the loop, on its own store connection.  It gives back the server's writer it replaced."""
    from adminkit import admin_server
    from sshclient import make_config

    async with admin_server(make_config(tmp_path / "club")) as server:
        social = server.club.social
        ours = social.later
        assert ours is not None and ours == server.admin._later
        server.admin.close()
        assert social.later is not None and social.later == server._later, social.later
