"""The pending paths of the watchers and the admin across nodes (issue 15): a watcher's ``sit`` at a
replica, and the admin's ``seat`` typed on a node that does not own the table, each go to the owner
over the bus and come back with its answer — done, or its refusal, in the asker's language and in
order with what he typed next.

Real nodes (``sukno serve --node``, tests/net/nodekit.py) on the real PostgreSQL; real SSH clients
through pyte.  Node A owns table 1; everyone asks on node B.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from nodekit import Node
from sshclient import Client
from test_clubwide_nodes import admin
from test_nodes_tables import register, seats, until

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


def flat(screen: str) -> str:
    return " ".join(screen.split())


async def test_a_watchers_sit_and_the_admins_seat_on_another_node_get_the_owners_answer(
        tmp_path: Path, pg_url: str) -> None:
    from engine.store.postgres import PgStore

    nodes: list[Node] = []
    clients: list[Client] = []
    store = PgStore(pg_url)  # the test's own reader
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        assert store.lease(1)[0] == "A"

        boris = await register(b.port, "Boris")
        clients.append(boris)
        boris.line("watch 1")
        await boris.wait("watching · ", timeout=20)
        boris.line("sit 1")  # from the watchers' prompt, at B's replica: the owner A seats him
        await until(lambda: seats(store, 1)[:1] == ["Boris"], "Boris never sat at seat 1 in the journal")
        await boris.wait(lambda s: "watching · " not in s and "Table 1 ·" in s, timeout=20)  # his seat's screen

        vera = await register(b.port, "Vera")
        clients.append(vera)
        vera.line("lang ru")
        await vera.wait("по-русски", timeout=20)
        vera.line("watch 1")
        await vera.wait("смотрите · ", timeout=20)
        vera.line("look")
        await vera.wait("Стол 1 ·", timeout=20)
        vera.line("sit 1")  # the owner refuses seat 1, in her language (the note replaces the look's)
        shown = await vera.wait(lambda s: "Место 1 занято" in flat(s), timeout=20)
        assert "is taken" not in flat(shown) and "смотрите · " in shown  # still watching
        assert "Vera" not in seats(store, 1)
        vera.line("sit 2")  # a free seat: the owner seats her, and she leaves the watchers for it
        await until(lambda: seats(store, 1)[:2] == ["Boris", "Vera"], "Vera never sat at seat 2")
        await vera.wait(lambda s: "смотрите · " not in s and "Стол 1 ·" in s, timeout=20)

        status, reply = await admin(tmp_path / "data-B", "seat", "1", "3", "bot")  # B asks A
        assert status == 0 and "sits at table 1, seat 3" in reply["text"], reply
        await until(lambda: str(seats(store, 1)[2] or "").startswith("bot"), "the bot never sat at seat 3")
        gleb = await register(a.port, "Gleb")
        clients.append(gleb)
        status, reply = await admin(tmp_path / "data-B", "seat", "1", "1", "Gleb")  # Boris's seat
        assert status == 1 and "Seat 1 is taken" in reply["text"], reply  # the owner's refusal, as said there
        assert "Gleb" not in seats(store, 1)
        status, reply = await admin(tmp_path / "data-B", "seat", "1", "4", "Gleb")
        assert status == 0 and reply["data"] == {"table": 1, "seat": 4, "name": "Gleb"}, reply
        await until(lambda: seats(store, 1)[3] == "Gleb", "Gleb never sat at seat 4")
    finally:
        for client in clients:
            client.conn.abort()
        for node in nodes:
            node.kill()
        store.close()
