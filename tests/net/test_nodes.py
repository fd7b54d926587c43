"""Several nodes, one club (issue 15): ``sukno serve --node NAME --store postgresql://…``.

Real nodes (child processes, ``tests/net/nodekit.py``) on the real PostgreSQL of ``tests/pgkit.py``
(skipped with one line without it), real SSH clients read through pyte.  Node A starts first and
owns table 1; the players on node B and the watcher on node C reach it over the bus and see it
through their replicas (LISTEN/NOTIFY on the journal).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest
from nodekit import Node, game_of, grown, journal, mark, next_move, table_state
from sshclient import Client, connect, new_key

from engine.game import SPECTATOR

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

NAMES = ("Anna", "Boris", "Vera", "Gleb")
CARD = re.compile(r"(?:10|[2-9TJQKA]|[ВДК]|Т)[♠♣♥♦]")


async def register(port: int, name: str, key) -> Client:
    client = await connect(port, key=key)
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


def hidden_cards(store, but: str) -> set[str]:
    """Cards in the hands of everyone but ``but`` now that the spectator's view does not show."""
    game = game_of(store)
    if game is None or not game.in_deal:
        return set()
    public = str(game.view(SPECTATOR))
    held = {str(card) for seat in range(game.n) if game.names[seat] != but
            for card in game.view(seat)["hands"][seat]}
    return {card for card in held if card not in public}


def felt_and_play(screen: str) -> str:
    """The screen without the lines of the draw for the first dealer (R3: a lot's own deck, public) and
    of an ace turned up before a redeal (ev.redeal: public, and the redeal may put that card in a hand)."""
    return "\n".join(row for row in screen.splitlines()
                     if "drawn for the deal" not in row and "turned up the ace" not in row)


async def test_players_on_two_nodes_play_a_deal_a_watcher_on_a_third_sees_it(tmp_path: Path, pg_url: str) -> None:
    from engine.store.postgres import PgStore

    rng = random.Random(15)
    nodes: list[Node] = []
    clients: list[Client] = []
    store = PgStore(pg_url)  # the test's own reader; it never writes
    try:
        for name in "ABC":
            nodes.append(Node(name, tmp_path, pg_url))
            await nodes[-1].ready()
        assert store.lease(1)[0] == "A"
        a, b, c = (n.port for n in nodes)
        seated: dict[str, Client] = {}
        for name, port in zip(NAMES, (a, b, a, b)):  # Anna and Vera on A, Boris and Gleb on B
            client = await register(port, name, new_key())
            client.line("sit 1")
            await client.wait("Table 1 ·")
            seated[name] = client
            clients.append(client)
        deadline = time.monotonic() + 15
        while sorted(n for n in table_state(store).get("seats", []) if n) != sorted(NAMES):
            assert time.monotonic() < deadline, table_state(store)
            await asyncio.sleep(0.02)
        watcher = await connect(c, key=None, command="watch 1")
        clients.append(watcher)
        await watcher.wait("Table 1")
        everyone = [*seated.values(), watcher]
        at = mark(store)
        played = 0
        while True:
            name, line = next_move(store, rng, NAMES)
            seated[name].line(line)
            at = await grown(store, at)
            played += 1
            game = game_of(store)
            if line.startswith("play") and game is not None and game.in_deal and game.deals[-1].actions:
                seat, action = game.deals[-1].actions[-1]
                told = f"{game.names[seat]} plays {action.args[0]}."
                # the public event reaches both nodes' players and the third node's watcher
                await asyncio.gather(*(client.wait(told, timeout=10) for client in everyone))
            for who, client in [*seated.items(), ("a watcher", watcher)]:
                secret = hidden_cards(store, but=who)
                leaked = secret & set(CARD.findall(felt_and_play(client.text())))
                assert not leaked, f"{who} saw others' hidden cards {leaked}:\n{client.text()}"
            if game is not None and game.deals and not game.in_deal:
                break
        # the end of the deal, as the owner's node tells it, is told on the other nodes too: the
        # deal checked against its seal and the next deal sealed (the last lines of the log; the
        # seed's own line is above the result now, a PageUp away at 80x24)
        fair = [e.payload for e in journal(store) if e.kind == "fair"][-1]
        for told in (f"against seal {fair['seal'][:8]}", "The deal is over", "The next deal is sealed"):
            await asyncio.gather(*(client.wait(told, timeout=15) for client in everyone))
        store.check_ledger()
        assert store.ledger_sum() == 0
        assert played > 10
    finally:
        for client in clients:
            client.conn.abort()
        for node in nodes:
            node.kill()
        store.close()


async def test_kill_9_of_the_owner_mid_deal_the_deal_finishes_on_another_node(tmp_path: Path, pg_url: str) -> None:
    """Node A owns the table and is killed mid-deal; node B takes the lease over, replays the journal,
    and the deal goes on: A's players reconnect to B and find their seats and hands."""
    from engine.store.postgres import PgStore

    rng = random.Random(9)
    keys = {name: new_key() for name in NAMES}
    clients: dict[str, Client] = {}
    store = PgStore(pg_url)
    a = Node("A", tmp_path, pg_url)
    nodes = [a]
    try:
        await a.ready()
        b = Node("B", tmp_path, pg_url)
        nodes.append(b)
        await b.ready()
        for name, node in zip(NAMES, (a, b, a, b)):  # Anna and Vera on A (the owner), Boris and Gleb on B
            clients[name] = await register(node.port, name, keys[name])
            clients[name].line("sit 1")
            await clients[name].wait("Table 1 ·")
        deadline = time.monotonic() + 15
        while sorted(n for n in table_state(store).get("seats", []) if n) != sorted(NAMES):
            assert time.monotonic() < deadline, table_state(store)
            await asyncio.sleep(0.02)
        at = mark(store)
        while True:  # into the deal, a few cards played
            name, line = next_move(store, rng, NAMES)
            clients[name].line(line)
            at = await grown(store, at)
            game = game_of(store)
            if game is not None and game.in_deal and len(game.deals[-1].actions) >= 6:
                break
        acked = [(e.seq, e.kind, e.payload) for e in journal(store)]
        assert store.lease(1)[0] == "A"
        a.kill()
        for name in ("Anna", "Vera"):
            clients.pop(name).conn.abort()
        deadline = time.monotonic() + 20
        while store.lease(1)[0] != "B":
            assert time.monotonic() < deadline, f"node B did not take table 1 over: {store.lease(1)}"
            await asyncio.sleep(0.05)
        now = [(e.seq, e.kind, e.payload) for e in journal(store)]
        assert now[:len(acked)] == acked, "an acknowledged entry is lost"
        for name in ("Anna", "Vera"):  # back, on the node that is left
            clients[name] = await connect(b.port, key=keys[name])
            await clients[name].wait("Table 1 ·")
            game = game_of(store)
            seat = game.names.index(name)
            hand = [str(card) for card in game.view(seat)["hands"][seat]]
            await clients[name].wait(lambda screen: all(card in screen for card in hand))
        at = mark(store)
        while True:  # the deal goes on to its end on node B
            name, line = next_move(store, rng, NAMES)
            clients[name].line(line)
            at = await grown(store, at)
            game = game_of(store)
            if game is not None and game.deals and not game.in_deal:
                break
        await asyncio.gather(*(client.wait("The next deal is sealed", timeout=15) for client in clients.values()))
        store.check_ledger()
        assert store.ledger_sum() == 0
    finally:
        for client in clients.values():
            client.conn.abort()
        for node in nodes:
            node.kill()
        store.close()


async def test_a_node_restarted_on_a_newer_schema_is_refused(tmp_path: Path, pg_url: str) -> None:
    import psycopg

    from engine.store.postgres import SCHEMA_VERSION

    a = Node("A", tmp_path, pg_url)
    try:
        await a.ready()
        a.stop()
        with psycopg.connect(pg_url, autocommit=True) as db:  # a newer sukno migrated the database meanwhile
            db.execute("INSERT INTO schema_version VALUES (%s, 0)", (SCHEMA_VERSION + 1,))
        again = Node("A", tmp_path, pg_url)
        status, said = await again.ended()
        assert status == 78, said
        assert "written by a newer sukno" in said and f"schema version {SCHEMA_VERSION + 1}" in said
    finally:
        a.kill()


async def test_two_nodes_of_one_name_or_a_lone_server_beside_nodes_are_refused(tmp_path: Path, pg_url: str) -> None:
    a = Node("A", tmp_path, pg_url)
    try:
        await a.ready()
        twin = Node("A", tmp_path / "twin", pg_url)
        status, said = await twin.ended()
        assert status == 75 and "a node named 'A' is running" in said, said
        lone = Node("", tmp_path / "lone", pg_url)
        status, said = await lone.ended()
        assert status == 75 and "several servers on one database each need --node" in said, said
    finally:
        a.kill()


async def test_an_owner_paused_past_its_lease_wakes_as_a_replica(tmp_path: Path, pg_url: str) -> None:
    """SIGSTOP the owner A past its lease: B takes table 1 over and the deal goes on there; SIGCONT A:
    nothing it writes lands (the epoch fences it), it keeps the table as a replica from then on, and
    its player's next move goes to B over the bus."""
    import signal

    from engine.store.postgres import PgStore

    rng = random.Random(21)
    store = PgStore(pg_url)
    a = Node("A", tmp_path, pg_url)
    nodes = [a]
    clients: dict[str, Client] = {}
    try:
        await a.ready()
        b = Node("B", tmp_path, pg_url)
        nodes.append(b)
        await b.ready()
        for name, node in zip(NAMES, (a, b, b, b)):  # Anna on A (the owner), the other three on B
            clients[name] = await register(node.port, name, new_key())
            clients[name].line("sit 1")
            await clients[name].wait("Table 1 ·")
        deadline = time.monotonic() + 15
        while sorted(n for n in table_state(store).get("seats", []) if n) != sorted(NAMES):
            assert time.monotonic() < deadline, table_state(store)
            await asyncio.sleep(0.02)
        at = mark(store)
        while True:  # into a deal, up to a move of someone on B
            name, line = next_move(store, rng, NAMES)
            game = game_of(store)
            if game is not None and game.in_deal and name != "Anna" and len(game.deals[-1].actions) >= 2:
                break
            clients[name].line(line)
            at = await grown(store, at)
        a.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 20
            while store.lease(1)[0] != "B":
                assert time.monotonic() < deadline, f"node B did not take table 1 over: {store.lease(1)}"
                await asyncio.sleep(0.05)
            epoch = store.lease(1)[1]
            clients[name].line(line)  # the deal goes on on B while A sleeps
            at = await grown(store, at)
        finally:
            a.proc.send_signal(signal.SIGCONT)
        while True:  # on until it is Anna's turn (she is on A, now a replica)
            name, line = next_move(store, rng, NAMES)
            game = game_of(store)
            if name == "Anna" and game is not None and game.in_deal:
                break
            clients[name].line(line)
            at = await grown(store, at)
        deadline = time.monotonic() + 20  # A's lease thread, awake, finds its lease taken over
        while not any("it is a replica now" in row for row in a.lines):
            assert time.monotonic() < deadline, "node A did not notice it lost table 1:\n" + "".join(a.lines[-10:])
            await asyncio.sleep(0.05)
        clients["Anna"].line(line)  # from A, through the bus to B
        at = await grown(store, at, timeout=20)
        assert store.lease(1)[:2] == ("B", epoch)  # A never took it back
        game = game_of(store)
        assert game is not None and game.deals[-1].actions[-1][0] == game.names.index("Anna")
        store.check_ledger()
        assert store.ledger_sum() == 0
    finally:
        for client in clients.values():
            client.conn.abort()
        for node in nodes:
            node.proc.send_signal(signal.SIGCONT) if node.proc.poll() is None else None
            node.kill()
        store.close()
