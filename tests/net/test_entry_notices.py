"""A replica plays a committed entry straight from its notice, with no read (issue 15 (b)).

The owner's store sends each journal entry (not a deal's: its decks are hidden) on ``sukno_entry``
just before the entry's ``sukno_journal`` notice, in the same transaction.  Here the owner is a club
on its own PostgreSQL connection holding table 1's lease; node B keeps the table as a replica through
a store whose journal reads wait at a gate the test keeps closed, and the test hands B the notices
PostgreSQL really sent (a LISTEN connection of its own), in their order, as the listener would.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from engine.table.changes import Sit
from engine.table.club import Club
from net.cluster.wire import Reply, encode

pytest.importorskip("psycopg")

from test_replica_reads import GatedReads, until  # noqa: E402


class Heard:
    """Every notice PostgreSQL delivers on the two journal channels, in order."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.db = psycopg.connect(url, autocommit=True)
        self.db.execute("LISTEN sukno_entry")
        self.db.execute("LISTEN sukno_journal")

    def take(self) -> list[tuple[str, str]]:
        return [(n.channel, n.payload) for n in self.db.notifies(timeout=0.5)]


def hand(node: Any, notices: list[tuple[str, str]]) -> None:
    for channel, payload in notices:
        (node.follow.entry_notice if channel == "sukno_entry" else node.follow.journal_notice)(payload)


async def test_an_entry_is_shown_from_its_notice_without_a_read(pg_url: str) -> None:
    from engine.store.postgres import PgStore
    from net.cluster.node import Node

    owner_store, reader = PgStore(pg_url), PgStore(pg_url)
    gated = GatedReads(reader)
    node = Node("B", gated, pg_url, call_timeout=60.0)
    sent: list[dict[str, Any]] = []
    node.notices.post = lambda channel, payload, failed=None: sent.append(json.loads(payload))  # type: ignore
    heard = Heard(pg_url)
    try:
        owner = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic())
        assert owner_store.acquire_lease(1, "A", 60.0) == 1
        for name in ("Anna", "Boris", "Vera", "Gleb"):
            owner_store.create_account(name, grant=10_000)
        node._loop = node.follow.loop = asyncio.get_running_loop()
        node.follow.reads.start()
        node.claim(Club([], store=gated, now=time.monotonic()), time.monotonic())
        replica, table = node.replicas[1], node.club.tables[1]
        heard.take()

        gated.gate.clear()  # from now on a read would hang: whatever shows came with the notice
        told: list[str] = []
        table.subscribe(lambda events: told.extend(e.kind for e in events))
        pending = node.calls.call(1, Sit("Anna", 0))
        call = next(m for m in sent if m.get("t") == "call")
        owner.sit("Anna", 1, 0)
        notices = heard.take()
        # each entry first (the table's state, then what the owner told of it), then its journal notice
        assert [c for c, _ in notices] == ["sukno_entry", "sukno_journal"] * 2
        hand(node, notices)
        assert table.seats[0] == "Anna" and told[0] == "sit" and replica.followed == 2
        node._bus_notice(encode(Reply(call["id"], "B", 1, True, 0)))
        assert pending is not None and pending.settled  # "done" at once: the replica has it already
        await asyncio.sleep(0.05)
        assert gated.waiting == 0 and not node.follow.reading  # and no read was asked for

        owner.sit("Boris", 1, 1)
        notices = heard.take()
        seq = owner_store.journal(1)[-2].seq  # the sit's first entry (its state; then what was told)
        entry = next(p for c, p in notices if c == "sukno_entry")
        node.follow.entry_notice(entry.replace(f" {seq} ", f" {seq + 2} ", 1))  # one that does not follow: ignored
        assert table.seats[1] is None and replica.followed == 2
        hand(node, notices)
        assert table.seats[1] == "Boris" and replica.followed == 4 and gated.waiting == 0

        gated.gate.set()
        owner.sit("Vera", 1, 2)
        owner.sit("Gleb", 1, 3)
        for name in ("Anna", "Boris", "Vera", "Gleb"):
            owner.table(1).start(name, time.monotonic())
        notices = heard.take()
        kinds = [p.split("\n")[0].rsplit(" ", 1)[1] for c, p in notices if c == "sukno_entry"]
        assert "deal" not in kinds and all("decks" not in p for _, p in notices)  # a deal's decks never sent
        assert any(json.loads(p.split(" ")[0]) == 1 for c, p in notices if c == "sukno_journal")
        hand(node, notices)  # the deal's entry is read: the replica reads from there on
        await until(lambda: table.game is not None and table.game.in_deal
                    and replica.reader.read_seq == owner_store.journal(1)[-1].seq, "the deal was never read")
        assert table.view_for(None) == owner.table(1).view_for(None)
        game = owner.table(1).game
        seat = game.to_act()[0]
        action = game.legal_actions(seat)[0]
        owner.table(1).act(game.names[seat], action.text(), time.monotonic())
        before = replica.followed
        hand(node, heard.take())
        assert replica.followed > before and table.view_for(None) == owner.table(1).view_for(None)
    finally:
        gated.gate.set()
        heard.db.close()
        await asyncio.get_running_loop().run_in_executor(None, node.follow.reads.stop, 5.0)
        for waiting in node.calls.waiting.pending():
            waiting.timer.cancel()
        owner_store.close()
        reader.close()
