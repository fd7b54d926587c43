"""The bus never stalls a node (issue 15): a move sent to a table's owner does not block the loop.

Real nodes (``tests/net/nodekit.py``) on the real PostgreSQL of ``tests/pgkit.py``, real SSH
clients read through pyte.  Node A owns table 1; the four players sit on node B, so every change
they make goes over the bus to A.  With A stopped (SIGSTOP), a move typed on B waits for its
answer, but another player of B gets the answer to ``look`` at once: before, B's loop waited on
the answer (up to ``call_timeout``), and every session of B with it.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import pytest
from nodekit import Node, game_of, grown, mark, next_move, table_state
from sshclient import Client, connect, new_key

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

NAMES = ("Anna", "Boris", "Vera", "Gleb")
CALL_TIMEOUT = 5.0
"""The nodes' ``[node] call_timeout`` here: long, so that a loop waiting for the answer shows plainly."""
NO_ANSWER_RU = "не ответил"  # cluster.no_answer in Russian: «Узел клуба, где идёт этот стол, не ответил…»


def flat(screen: str) -> str:
    """The screen's words in one line (a sentence wrapped over two rows is found whole)."""
    return " ".join(screen.split())


async def register(port: int, name: str) -> Client:
    client = await connect(port, key=new_key())
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def test_a_move_to_a_stopped_owner_stalls_nobody_and_is_refused_in_order(tmp_path: Path, pg_url: str) -> None:
    from engine.store.postgres import PgStore

    rng = random.Random(15)
    store = PgStore(pg_url)  # the test's own reader; it never writes
    # a long lease: nobody takes table 1 over while A sleeps (the refusal is the bus's own)
    a = Node("A", tmp_path, pg_url, ttl=60.0, call_timeout=CALL_TIMEOUT)
    nodes = [a]
    clients: dict[str, Client] = {}
    try:
        await a.ready()
        b = Node("B", tmp_path, pg_url)
        nodes.append(b)
        await b.ready()
        assert store.lease(1)[0] == "A"
        for name in NAMES:
            clients[name] = await register(b.port, name)
        # two quick commands in one packet: ``cut`` waits for the answer to ``sit`` (it is the
        # table's, not the hall's: it runs at the table the sit took), and its own answer, from
        # the owner over the bus, is shown on the table's screen
        for name, client in clients.items():
            client.type(f"sit 1\rcut {name.lower()}42\r")
        for name, client in clients.items():
            await client.wait(lambda s, n=name: f"You cut the next deal with: {n.lower()}42" in flat(s), timeout=20)
            assert "Table 1 ·" in client.text() and "not at a table" not in client.text(), client.text()
        for client in clients.values():
            client.line("start")
        deadline = time.monotonic() + 20
        while (game := game_of(store)) is None or not game.in_deal:
            assert time.monotonic() < deadline, "the deal did not begin"
            await asyncio.sleep(0.02)
        # every screen (B's replica) has told the deal's start up to the trump's reveal, the last line
        # before someone must act: nothing told later pushes the language's answer out of the log's rows
        await asyncio.gather(*(client.wait(" · trump ", timeout=20) for client in clients.values()))
        for client in clients.values():
            client.line("lang ru")
        await asyncio.gather(*(client.wait("по-русски") for client in clients.values()))
        name, move = next_move(store, rng, NAMES)
        assert move != "start"
        mover = clients[name]
        other = clients[next(n for n in NAMES if n != name)]
        before = mark(store)
        actions = len(game_of(store).deals[-1].actions)

        a.proc.send_signal(signal.SIGSTOP)
        try:
            typed = time.monotonic()
            mover.type(move + "\rlook\r")  # his look is typed after the move: it waits for the move's answer
            other.line("look")
            await other.wait("Места:", timeout=CALL_TIMEOUT * 3)
            answered = time.monotonic() - typed
            # B's loop went on: the other player's look was answered long before the move's time ran out
            assert answered < CALL_TIMEOUT / 2, f"look answered {answered:.2f} s after the move was typed"
            assert NO_ANSWER_RU not in flat(mover.text()) and "Места:" not in mover.text()
            shown = await mover.wait(lambda s: NO_ANSWER_RU in flat(s) and "Места:" in s, timeout=CALL_TIMEOUT * 4)
            assert time.monotonic() - typed >= CALL_TIMEOUT * 0.9  # refused when its time ran out, not before
            words = flat(shown)
            assert words.index(NO_ANSWER_RU) < words.index("Места:"), shown  # the move's answer, then his look
            assert "did not answer" not in words  # in his language
        finally:
            a.proc.send_signal(signal.SIGCONT)
        # A wakes, finds the call past its time and refuses it: the move said "nothing happened" and
        # nothing did; typed again, it is played once
        deadline = time.monotonic() + 30
        while not any("came too late" in row for row in a.lines):
            assert time.monotonic() < deadline, "node A did not refuse the late call:\n" + "".join(a.lines[-10:])
            await asyncio.sleep(0.05)
        assert mark(store) == before
        for _attempt in range(10):
            mover.line(move)
            try:
                await grown(store, before, timeout=CALL_TIMEOUT + 2)
                break
            except AssertionError:
                continue
        game = game_of(store)
        assert len(game.deals[-1].actions) == actions + 1
        assert game.deals[-1].actions[-1][0] == game.names.index(name)
        store.check_ledger()
        assert store.ledger_sum() == 0
    finally:
        for client in clients.values():
            client.conn.abort()
        for node in nodes:
            if node.proc.poll() is None:
                node.proc.send_signal(signal.SIGCONT)
            node.kill()
        store.close()
