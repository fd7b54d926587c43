"""The ban gate at connect reads nothing from the store (issue 15): the bans are read by their thread.

``SuknoServer.gate`` asks ``AdminCommands._gate`` → ``BanList.matching``, whose ``refresh`` and
``prune`` once read and wrote the store on the loop.  Under ``sukno serve`` (``start_admin`` →
``watch_store``) the list is fed by the "sukno bans" thread, so the gate only reads memory.  Here
that thread's read of the bans is held at a gate: a banned key is still refused at once with the
ban's words, a new key still meets the doorman, another person's chat line still arrives, and no
read of the bans was made by the loop's thread.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gatedstore import gated_store
from sshclient import Client, connect, make_config, named, new_key, running, until  # noqa: F401

from net.modes.texts import text

sys.path.insert(0, str(Path(__file__).parent.parent / "admin"))
from adminkit import admin_server  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def test_a_ban_is_checked_at_connect_without_the_store(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("bans", "prune_bans"))
    boris_key = new_key()
    clients: list[Client] = []
    try:
        async with admin_server(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            boris = await named(server.port, "Boris", boris_key)
            clients += [anna, cleo]
            reply = await server.admin.run(["ban", "Boris", "cheating"], "unix:test")
            assert reply.ok, reply.text
            await until(lambda: boris.session.closed.is_set(), timeout=20, what="Boris shown out")
            store.calls.clear()  # the list read once at start (``BanList``), on the loop, before anyone came
            store.gate.clear()
            await until(lambda: store.hanging >= 1, timeout=20, what="the bans thread waiting at the store")

            again = await connect(server.port, key=boris_key)
            clients.append(again)
            await again.wait(text("en", "banned_ever", reason="cheating"), timeout=20)
            newcomer = await connect(server.port, key=new_key())
            clients.append(newcomer)
            await newcomer.wait("book of names", timeout=20)
            anna.line("say ping while the bans are read")
            await cleo.wait("Anna says: ping while the bans are read", timeout=20)
            assert store.hanging >= 1  # all of it while the store was not answering
            store.gate.set()
            threads = {thread for call in ("bans", "prune_bans") for _arg, thread in store.named(call)}
            assert "MainThread" not in threads and threads, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()
