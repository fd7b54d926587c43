"""``key link``, ``key list`` and ``key remove`` make their store calls off the event loop (issue 15).

``net.keyring.KeyRing`` called ``add_key``, ``account`` and ``remove_key`` on the loop.  Here each
waits at a gate while another person's chat line still arrives (on the code before, the loop itself
waited there); once the gate opens, the same answer as before is on screen.  A store that refuses a
link says the club's usual "did not work" line and leaves the key a stranger's.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from gatedstore import gated_store, held_while_chat
from sshclient import Client, connect, make_config, named, new_key, running, until

from tui.i18n import tr

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def code_of(client: Client) -> str:
    client.line("key add")
    screen = await client.wait("Your code: ", timeout=20)
    return re.findall(r"Your code: ([A-Z0-9]{4}-[A-Z0-9]{4})", screen)[-1]


async def test_key_link_list_and_remove_wait_for_the_store_off_the_loop(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("add_key", "account", "remove_key"))
    first, second = new_key(), new_key()
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna", first)
            cleo = await named(server.port, "Cleo")
            dima = await named(server.port, "Dima")
            clients += [anna, cleo, dima]
            code = await code_of(anna)
            other = await connect(server.port, key=second)
            clients.append(other)
            await other.wait("key link CODE", timeout=20)

            async def held(typed: str, by: Client, number: int) -> None:
                await held_while_chat(store, by, typed, (cleo, "Cleo", dima), number)

            await held(f"key link {code}", other, 1)
            await other.wait("Anna ·", timeout=20)
            fp_first, fp_second = first.get_fingerprint("sha256"), second.get_fingerprint("sha256")
            await held("key list", anna, 2)
            await anna.wait(f"{fp_first}  (this connection)", timeout=20)
            await anna.wait(fp_second, timeout=20)
            await held(f"key remove {fp_second}", anna, 3)
            await anna.wait(tr("en", "social.key_removed", fp=fp_second)[:30], timeout=20)
            await asyncio.wait_for(other.session.closed.wait(), 20)  # the removed key's session shown out
            assert store._store.account("Anna").keys == (fp_first,)
            threads = {thread for call in ("add_key", "account", "remove_key") for _arg, thread in store.named(call)}
            assert threads == {"sukno arrivals"}, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


async def test_a_store_that_refuses_a_link_says_so(tmp_path) -> None:
    store = gated_store(tmp_path)
    async with running(make_config(tmp_path / "club"), store=store) as server:
        anna = await named(server.port, "Anna")
        other = await connect(server.port, key=new_key())
        try:
            code = await code_of(anna)
            await other.wait("key link CODE", timeout=20)
            store.refused.add("add_key")
            other.line(f"key link {code}")
            await other.wait(tr("en", "cmd.failed")[:40], timeout=20)
            assert "Anna ·" not in other.text() and len(store._store.account("Anna").keys) == 1
            assert [thread for _arg, thread in store.named("add_key")] == ["sukno arrivals"]
        finally:
            await other.close()
            await anna.close()
