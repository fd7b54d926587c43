"""Tables across nodes (issue 15): a table opened at runtime on one node is every node's; a replica
shows who has a stand-in, and the watchers' rail crosses nodes both ways.

Real nodes (``sukno serve --node``, tests/net/nodekit.py) on the real PostgreSQL, real SSH clients
read through pyte.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from nodekit import Node
from sshclient import Client, connect, new_key
from test_clubwide_nodes import admin, until_admin

from engine.store.base import replay_journal

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def register(port: int, name: str) -> Client:
    client = await connect(port, key=new_key())
    await client.wait("book of names", timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client


def live(store: Any, table_id: int) -> Any:
    return next(t for t in store.live_tables() if t.table_id == table_id)


def seats(store: Any, table_id: int) -> list[str | None]:
    state = dict(live(store, table_id).header.extra.get("table", {}))
    for entry in store.journal(table_id):
        if entry.kind == "table":
            state = dict(entry.payload)
    return list(state.get("seats", []))


def game(store: Any, table_id: int) -> Any:
    table = live(store, table_id)
    if not table.header.extra.get("session"):
        return None
    return replay_journal(table, store.journal(table_id)).game


async def until(check: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def seat_words(screen: str, name: str) -> str:
    """The felt's second line of ``name``'s seat (``dealer · away · a bot plays``), '' if not shown."""
    rows = screen.splitlines()
    felt = next((i for i, row in enumerate(rows) if row.strip().startswith("───")), len(rows))
    for i, row in enumerate(rows[:felt - 1]):
        found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", row)
        if found and i > 0:  # not the title row
            return rows[i + 1][max(0, found.start() - 12):found.start() + 40].strip()
    return ""


async def close_all(clients: list[Client], nodes: list[Node]) -> None:
    for client in clients:
        client.conn.abort()
    for node in nodes:
        node.kill()


async def test_a_table_opened_on_one_node_is_watched_and_sat_at_from_the_other(tmp_path: Path, pg_url: str) -> None:
    from engine.store.postgres import PgStore

    nodes: list[Node] = []
    clients: list[Client] = []
    store = PgStore(pg_url)  # the test's own reader
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        status, reply = await admin(tmp_path / "data-A", "open", "stukolka")
        assert status == 0 and reply["data"]["table"] == 2, reply
        assert store.lease(2)[0] == "A"
        await until_admin(tmp_path / "data-B", lambda d: 2 in [t["id"] for t in d["tables"]], "tables")

        watcher = await connect(b.port, key=None, command="watch 2")  # a guest on B watches A's new table
        clients.append(watcher)
        await watcher.wait("Table 2", timeout=20)
        boris = await register(b.port, "Boris")
        clients.append(boris)
        boris.line("sit 2")  # over the bus to node A, which owns it
        await boris.wait("Table 2 ·", timeout=20)
        await until(lambda: "Boris" in seats(store, 2), "Boris never sat at table 2 in the journal")
        await watcher.wait("Boris", timeout=20)  # the seat, on the watcher's replica on B
        anna = await register(a.port, "Anna")
        clients.append(anna)
        anna.line("watch 2")
        await anna.wait("Boris", timeout=20)  # and on the owner's own screen

        status, reply = await admin(tmp_path / "data-B", "open", "stukolka")  # the other way: B opens one
        assert status == 0 and reply["data"]["table"] == 3, reply  # a new number, not A's 2 again
        assert store.lease(3)[0] == "B"
        await until_admin(tmp_path / "data-A", lambda d: 3 in [t["id"] for t in d["tables"]], "tables")
        status, reply = await admin(tmp_path / "data-A", "close", "3")  # closed by its owner when asked
        assert status == 0 and "node B" in reply["text"], reply
        for data in ("data-A", "data-B"):
            await until_admin(tmp_path / data, lambda d: [t["id"] for t in d["tables"]] == [1, 2], "tables")
    finally:
        await close_all(clients, nodes)
        store.close()


async def test_a_replica_shows_stand_ins_and_the_rail_crosses_nodes(tmp_path: Path, pg_url: str) -> None:
    from engine.store.postgres import PgStore

    rng = random.Random(4)
    nodes: list[Node] = []
    clients: list[Client] = []
    store = PgStore(pg_url)
    try:
        for name in "AB":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        a, b = nodes
        assert store.lease(1)[0] == "A"
        anna = await register(a.port, "Anna")
        boris = await register(b.port, "Boris")
        clients += [anna, boris]
        for player in (anna, boris):
            player.line("sit 1")
            await player.wait("Table 1 ·", timeout=20)
        await until(lambda: {"Anna", "Boris"} <= set(seats(store, 1)), "both seated")
        while None in seats(store, 1):
            free = seats(store, 1).count(None)
            anna.line("sit bot")
            await until(lambda: seats(store, 1).count(None) < free, "a bot seated")
        wanda = await register(a.port, "Wanda")  # a watcher on the owner's node
        wolf = await register(b.port, "Wolf")  # a watcher on the replica's
        clients += [wanda, wolf]
        for watcher in (wanda, wolf):
            watcher.line("watch 1")
            await watcher.wait("Table 1", timeout=20)
        anna.line("start")
        boris.line("start")
        await until(lambda: (g := game(store, 1)) is not None and g.in_deal, "the deal never began")

        wolf.line("say psst from B")  # the rail: watchers only, on both nodes
        await asyncio.gather(wanda.wait("[rail] Wolf: psst from B", timeout=20),
                             wolf.wait("[rail] Wolf: psst from B", timeout=20))
        wanda.line("say psst from A")
        await asyncio.gather(wolf.wait("[rail] Wanda: psst from A", timeout=20),
                             wanda.wait("[rail] Wanda: psst from A", timeout=20))
        assert not any("psst" in p.text() for p in (anna, boris))  # never on a player's screen (issue 20)

        anna.conn.abort()  # Anna's last session ends on A: she is away, and a stand-in plays her turns
        clients.remove(anna)
        await wolf.wait(lambda t: "away" in seat_words(t, "Anna"), timeout=20)
        deadline = time.monotonic() + 90
        while "a bot plays" not in seat_words(wolf.text(), "Anna"):  # Boris plays his turns, the bots and the stand-in theirs
            assert time.monotonic() < deadline, f"no stand-in shown on B:\n{wolf.text()}"
            g = game(store, 1)
            assert g is not None and g.in_deal, f"the deal ended before Anna's stand-in played:\n{wolf.text()}"
            seat = g.to_act()[0] if g.to_act() else None
            if seat is not None and g.names[seat] == "Boris":
                before = len(store.journal(1))
                boris.line(rng.choice(g.legal_actions(seat)).text(ascii=True))
                await until(lambda: len(store.journal(1)) > before or not game(store, 1).in_deal, "Boris's move")
            else:
                await asyncio.sleep(0.1)
        await wanda.wait(lambda t: "a bot plays" in seat_words(t, "Anna"), timeout=20)  # as on the owner's
        assert "Anna is away; a bot plays in the meantime." in wolf.text()

        nodes.append(Node("C", tmp_path, pg_url))  # a node started now learns who has a stand-in
        c = await nodes[-1].ready()
        late = await connect(c, key=None, command="watch 1")
        clients.append(late)
        await late.wait(lambda t: "a bot plays" in seat_words(t, "Anna") and "away" in seat_words(t, "Anna"),
                        timeout=30)
    finally:
        await close_all(clients, nodes)
        store.close()
