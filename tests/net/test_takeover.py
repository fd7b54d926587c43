"""A takeover owns the replica's own game when it can: the new owner reads only the journal entries
its replica had not read (a dead owner's last moves), plays them on, and owns the table as it is, with
no replay of the whole session, so a long session's takeover costs what the last moves cost.  A game
on a live clock (Спекулянт's windows) is replayed at the takeover's time instead, so an open window
gets back the time the takeover took.

In-process: node A is a club on its own PostgreSQL connection holding table 1's lease; node B
(``net.cluster.node.Node``, its bus notices recorded) keeps the table as a replica and takes it over
once A's lease runs out.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

import engine.table.keeper as keeper_module
import net.cluster.takeover as takeover_module
from engine.store.base import replay_journal
from engine.table.club import Club

pytest.importorskip("psycopg")
NAMES = ("Anna", "Boris", "Vera", "Gleb")
TTL = 0.5


async def until(check: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


def play(table: Any, moves: int, rng: random.Random) -> None:
    """``moves`` random legal moves (deals started as they end)."""
    for _ in range(moves):
        game = table.game
        if game is None or not game.in_deal:
            for name in NAMES:
                table.start(name, now=time.monotonic())
            continue
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=time.monotonic())


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many whole-journal replays the takeover makes (its module's ``replay``)."""
    calls: list[int] = []
    real = keeper_module.replay

    def replay(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(takeover_module, "replay", replay)
    return calls


async def taken_over(pg_url: str, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """A plays, B's replica reads part of it, A plays on and dies; B takes table 1 over.
    Returns (B's node, its table, the store, the whole-journal replays counted, the replica's heard events)."""
    from engine.store.postgres import PgStore
    from net.cluster.node import Node

    owner_store, reader = PgStore(pg_url), PgStore(pg_url)
    node = Node("B", reader, pg_url, ttl=600.0)  # its own lease, once taken, outlasts any slow step here
    node.notices.post = lambda channel, payload, failed=None: None  # type: ignore[method-assign]
    replays = counted(monkeypatch)
    owner = Club([game], store=owner_store, now=time.monotonic())
    assert owner_store.acquire_lease(1, "A", 600.0) == 1  # node A owns table 1 (alive: a long lease)
    for name in NAMES:
        owner_store.create_account(name, grant=10**7)
    for seat, name in enumerate(NAMES):
        owner.sit(name, 1, seat)
    rng = random.Random(7)
    play(owner.tables[1], 60, rng)
    node._loop = node.follow.loop = asyncio.get_running_loop()
    node.follow.reads.start()
    node.claim(Club([], store=reader, now=time.monotonic()), time.monotonic())
    replica = node.replicas[1]
    await until(lambda: replica.reader.read_seq == owner_store.journal(1)[-1].seq, "the replica never read")
    heard: list[Any] = []
    node.club.tables[1].subscribe(heard.extend)
    play(owner.tables[1], 12, rng)  # the owner's last moves, never heard by B before it dies
    while not owner.tables[1].game.in_deal:  # it dies mid-deal
        play(owner.tables[1], 1, rng)
    assert replica.reader.read_seq < owner_store.journal(1)[-1].seq
    assert owner_store.acquire_lease(1, "A", TTL) == 1  # A's last renewal, however slow the machine was until now
    await asyncio.sleep(TTL + 0.1)  # A is dead: its lease runs out
    node._take(1, "A")
    await until(lambda: 1 in node.owned, "the table was never taken over")
    return node, node.club.tables[1], owner_store, reader, replays, heard


def same_as_its_journal(table: Any, store: Any) -> None:
    live = next(t for t in store.live_tables() if t.table_id == 1)
    replayed = replay_journal(live, store.journal(1))
    game = table.game
    assert len(game.deals) == len(replayed.game.deals)
    assert game.balances == replayed.game.balances and game.pot == replayed.game.pot
    assert game.in_deal == replayed.game.in_deal
    if game.in_deal:
        assert game.to_act() == replayed.game.to_act()
        seat = game.to_act()[0]
        assert [a.text() for a in game.legal_actions(seat)] == [a.text() for a in replayed.game.legal_actions(seat)]


async def stop(node: Any, *stores: Any) -> None:
    await asyncio.get_running_loop().run_in_executor(None, node.follow.reads.stop, 5.0)
    for store in stores:
        store.close()


async def test_a_takeover_owns_the_replicas_game_reading_only_what_it_had_not_read(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    node, table, store, reader, replays, heard = await taken_over(pg_url, {"game": "stukolka"}, monkeypatch)
    try:
        assert replays == []  # no whole-session replay: the replica's game read on
        same_as_its_journal(table, store)
        assert heard  # its people were told the dead owner's last moves
        before = store.journal(1)[-1].seq
        play(table, 3, random.Random(8))  # the new owner plays on, under its own epoch
        assert store.journal(1)[-1].seq > before
        same_as_its_journal(table, store)
    finally:
        await stop(node, store, reader)


async def test_a_game_on_a_live_clock_is_replayed_at_the_takeovers_time(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    node, table, store, reader, replays, heard = await taken_over(pg_url, {"game": "speculator", "seats": 4}, monkeypatch)
    try:
        assert replays == [1]  # Спекулянт's open window restarts as a restart's does
        same_as_its_journal(table, store)
    finally:
        await stop(node, store, reader)
