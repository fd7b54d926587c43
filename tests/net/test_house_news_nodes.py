"""The house's news across nodes: two ``sukno serve --node`` children on one PostgreSQL.

A report made on node A reaches the admins online on node B at once (and A's own admin, in Russian),
numbered as ``admin reports`` lists it, its words shown as text, never markup; what travels is the bus's
typed ``report`` message.  Real nodes (tests/net/nodekit.py), real SSH clients read through pyte.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from nodekit import CONFIG, Node
from net.cluster.notices import Notices
from nodeadmin import admin, close_all, register
from sshclient import Client, connect, new_key, until

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


def write_config(folder: Path, *admin_keys: str) -> None:
    """The nodes' one config (as ``nodekit.Node`` writes it), with the house's admin keys."""
    text = CONFIG.format(ttl=3.0).replace("[node]\n", "[node]\ncall_timeout = 2.0\n")
    text += "[store]\nwrite_wait = 0.05\n[admin]\nkeys = [" + ", ".join(f'"{k}"' for k in admin_keys) + "]\n"
    (folder / "sukno.toml").write_text(text, "utf-8")


async def test_a_report_on_one_node_reaches_the_admins_on_every_node(tmp_path: Path, pg_url: str) -> None:
    vera_key, gleb_key = new_key(), new_key()
    write_config(tmp_path, vera_key.get_fingerprint("sha256"), gleb_key.get_fingerprint("sha256"))
    nodes: list[Node] = []
    clients: list[Client] = []
    bus: list[str] = []
    listener = Notices(pg_url)  # what the nodes tell each other, read as a third party
    listener.on("sukno_bus", bus.append)
    await listener.start()
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        vera = await register(b.port, "Vera", key=vera_key)  # the house, online on the other node
        gleb = await register(a.port, "Gleb", key=gleb_key, lang="ru_RU.UTF-8")  # and on this one, in Russian
        boris = await register(a.port, "Boris")
        anna = await register(a.port, "Anna")
        clients += [vera, gleb, boris, anna]
        boris.line("say you play like a mule")
        await anna.wait("you play like a mule", timeout=15)
        anna.line("report Boris [b]rude[/b] in the hall")
        await anna.wait("the house has your report about Boris", timeout=15)

        await vera.wait("Report #1 from Anna about Boris: [b]rude[/b] in the hall", timeout=15)
        await gleb.wait("Жалоба №1 от Anna на Boris: [b]rude[/b] in the hall", timeout=15)
        for client in (boris, anna):
            assert "Report #1" not in client.text()  # told to the house only
        await until(lambda: any(json.loads(p).get("t") == "report" for p in bus), timeout=15, what="the bus message")
        [sent] = [json.loads(p) for p in bus if json.loads(p).get("t") == "report"]
        assert (sent["node"], sent["id"], sent["reporter"], sent["target"], sent["words"]) == (
            "A", 1, "Anna", "Boris", "[b]rude[/b] in the hall")
        status, reply = await admin(tmp_path / "data-B", "reports")
        assert status == 0 and [(r["id"], r["reporter"], r["target"]) for r in reply["data"]["reports"]] == [
            (1, "Anna", "Boris")]
    finally:
        await listener.stop()
        await close_all(clients, nodes)


async def test_a_code_made_on_one_node_links_a_key_on_another_once(tmp_path: Path, pg_url: str) -> None:
    """The house's ``key-code`` typed on node A is spent on node B; a member's own ``key add`` on B links on
    A; a spent code is refused on either node, in the person's language."""
    import re

    from engine.store.postgres import PgStore
    from tui.i18n import tr

    write_config(tmp_path)
    nodes: list[Node] = []
    clients: list[Client] = []
    store = PgStore(pg_url)  # the test's own reader
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        anna = await register(a.port, "Anna")
        clients.append(anna)
        status, reply = await admin(tmp_path / "data-A", "account", "Anna", "key-code")
        assert status == 0 and "on any node" in reply["text"], reply
        code = reply["data"]["code"]
        assert store.live_link_codes("Anna") == 1
        fresh = new_key()
        there = await connect(b.port, key=fresh)
        clients.append(there)
        await there.wait("book of names", timeout=20)
        there.line(f"key link {code}")
        await there.wait("Anna ·", timeout=20)  # linked on the other node
        assert fresh.get_fingerprint("sha256") in store.account("Anna").keys
        again = await connect(a.port, key=new_key(), lang="ru_RU.UTF-8")
        clients.append(again)
        await again.wait("КОД", timeout=20)
        again.line(f"ключ связать {code}")
        await again.wait(tr("ru", "social.key_bad")[:30], timeout=20)  # spent once, for every node
        assert "Anna ·" not in again.text() and len(store.account("Anna").keys) == 2

        there.line("key add")  # a member's own code, made on B
        screen = await there.wait("Your code: ", timeout=20)
        own = re.findall(r"Your code: ([A-Z0-9]{4}-[A-Z0-9]{4})", screen)[-1]
        third = await connect(a.port, key=new_key())
        clients.append(third)
        await third.wait("book of names", timeout=20)
        third.line(f"key link {own}")
        await third.wait("Anna ·", timeout=20)
        assert len(store.account("Anna").keys) == 3 and store.live_link_codes("Anna") == 0
    finally:
        store.close()
        await close_all(clients, nodes)


async def test_a_rename_on_one_node_is_known_to_the_others_book_of_names_at_once(tmp_path: Path, pg_url: str) -> None:
    """Renamed on node A, Anna's old name is free on node B at once: its book of names heard it over the bus
    (it used to wait for a restart, refusing the freed name as taken); her new name is refused there."""
    from engine.store.postgres import PgStore

    write_config(tmp_path)
    with PgStore(pg_url) as store:  # known to both nodes' books of names from their start
        store.create_account("Anna", key="SHA256:anna", grant=10)
    nodes: list[Node] = []
    clients: list[Client] = []
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        taken = await connect(b.port, key=new_key())
        clients.append(taken)
        await taken.wait("book of names", timeout=20)
        taken.line("Anna")
        await taken.wait("taken", timeout=20)  # B's book has her name
        status, reply = await admin(tmp_path / "data-A", "account", "Anna", "rename", "Anya")
        assert status == 0 and reply["data"]["name"] == "Anya", reply
        status, _ = await admin(tmp_path / "data-A", "account", "Anya")
        assert status == 0
        newcomer = await connect(b.port, key=new_key())
        clients.append(newcomer)
        await newcomer.wait("book of names", timeout=20)
        newcomer.line("Anya")
        await newcomer.wait("taken", timeout=20)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while True:  # B hears the notice a moment after A's answer: until it has, "Anna" reads as taken there
            other = await connect(b.port, key=new_key())
            clients.append(other)
            await other.wait("book of names", timeout=20)
            other.line("Anna")
            screen = await other.wait(lambda s: "Anna ·" in s or "taken" in s, timeout=20)
            if "Anna ·" in screen:
                break
            assert loop.time() < deadline, f"B never let the old name go:\n{screen}"
            await other.close()
            await asyncio.sleep(0.2)
        audit = [json.loads(line) for line in (tmp_path / "data-A" / "audit.log").read_text("utf-8").splitlines()]
        assert ["account", "Anna", "rename", "Anya"] in [e["command"] for e in audit]
    finally:
        await close_all(clients, nodes)
