"""``key link``, ``key list`` and ``key remove`` make their store calls off the event loop (issue 15).

``net.ssh.keyring.KeyRing`` called ``add_key``, ``account`` and ``remove_key`` on the loop.  Here each
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
    store = gated_store(tmp_path, gated=("put_link_code", "spend_link_code", "account", "remove_key"))
    first, second = new_key(), new_key()
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna", first)
            cleo = await named(server.port, "Cleo")
            dima = await named(server.port, "Dima")
            clients += [anna, cleo, dima]
            store.gate.clear()
            anna.line("key add")  # the code is kept by the store's thread, the loop free meanwhile
            await until(lambda: store.hanging >= 1, timeout=20, what="key add waiting at the store")
            cleo.line("say ping 0")
            await dima.wait("Cleo says: ping 0", timeout=20)
            store.gate.set()
            screen = await anna.wait("Your code: ", timeout=20)
            code = re.findall(r"Your code: ([A-Z0-9]{4}-[A-Z0-9]{4})", screen)[-1]
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
            calls = ("put_link_code", "spend_link_code", "account", "remove_key")
            threads = {thread for call in calls for _arg, thread in store.named(call)}
            assert threads == {"sukno arrivals"}, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


async def test_a_store_that_refuses_a_link_says_so_and_leaves_the_code_usable(tmp_path) -> None:
    """The code was spent before the store bound the key: a refused (or silent) store left him with a
    used code and no link.  Now it is spent only once the key is bound: typed again, it works."""
    store = gated_store(tmp_path)
    async with running(make_config(tmp_path / "club"), store=store) as server:
        anna = await named(server.port, "Anna")
        other = await connect(server.port, key=new_key())
        try:
            code = await code_of(anna)
            await other.wait("key link CODE", timeout=20)
            store.refused.add("spend_link_code")
            other.line(f"key link {code}")
            await other.wait(tr("en", "cmd.failed")[:40], timeout=20)
            assert "Anna ·" not in other.text() and len(store._store.account("Anna").keys) == 1
            assert [thread for _arg, thread in store.named("spend_link_code")] == ["sukno arrivals"]
            store.refused.clear()
            other.line(f"key link {code}")
            await other.wait("Anna ·", timeout=20)
            assert len(store._store.account("Anna").keys) == 2
            assert store._store.live_link_codes("Anna") == 0 and not server.club.social.held(code)  # spent now
        finally:
            await other.close()
            await anna.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_two_connections_typing_one_code_at_once_only_one_links(tmp_path, lang) -> None:
    """While the first bind waits at the store, a second key typing the same code is told the code is in
    use (in his language) and is not linked; once the first is bound the code is spent for everyone."""
    store = gated_store(tmp_path, gated=("spend_link_code",))
    async with running(make_config(tmp_path / "club"), store=store) as server:
        anna = await named(server.port, "Anna")
        locale = f"{lang}_RU.UTF-8" if lang == "ru" else "en_US.UTF-8"
        first = await connect(server.port, key=new_key())
        second = await connect(server.port, key=new_key(), lang=locale)
        try:
            code = await code_of(anna)
            await first.wait("key link CODE", timeout=20)
            await second.wait("CODE" if lang == "en" else "КОД", timeout=20)
            store.gate.clear()
            first.line(f"key link {code}")
            await until(lambda: store.hanging >= 1, timeout=20, what="the first bind waiting at the store")
            second.line(f"{'key link' if lang == 'en' else 'ключ связать'} {code}")
            await second.wait(tr(lang, "social.key_busy")[:30], timeout=20)
            store.gate.set()
            await first.wait("Anna ·", timeout=20)
            second.line(f"{'key link' if lang == 'en' else 'ключ связать'} {code}")
            await second.wait(tr(lang, "social.key_bad")[:30], timeout=20)
            assert len(store._store.account("Anna").keys) == 2  # Anna's first key and the first connection's
        finally:
            store.gate.set()
            await first.close()
            await second.close()
            await anna.close()
