"""A replica (engine/table/replica.py, issue 15): a table another node owns, kept from its journal.

The owner is a club on one PostgreSQL connection, the replica a bare table read through another;
after every change the replica's every view (each seat's, the spectator's) is the owner's, and its
subscribers hear what the owner's heard, event for event (no event twice, none missing, the same data)."""

from __future__ import annotations

import random
import time

import pytest

from engine.table.club import Club
from engine.table.replica import Replica
from engine.table.owner import Table

pytest.importorskip("psycopg")
NAMES = ("Anna", "Boris", "Vera", "Gleb")
RELAYED = ("say", "away", "back", "stepped_away", "watch", "unwatch", "rail")  # the bus carries these, not the journal


def public(table: Table) -> list:
    """The views a replica must agree on (the timer bar's clock aside)."""
    views = [table.view_for(name) for name in NAMES] + [table.view_for(None)]
    for view in views:
        view.pop("deadline", None)
        view.pop("timer", None)
    return views


@pytest.mark.parametrize(("seed", "moves"), [(3, 5), (7, 11), (13, 2)])
def test_a_replica_keeps_every_view_and_tells_each_event_once(pg_url: str, seed: int, moves: int) -> None:
    from engine.store.postgres import PgStore

    owner_store, reader = PgStore(pg_url), PgStore(pg_url)
    try:
        club = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic(), seed=seed)
        table = club.tables[1]
        heard_owner: list = []
        table.subscribe(heard_owner.extend)
        copy = Table(1, "stukolka", None, 4)
        replica = Replica(reader, copy)
        replica.prime(time.monotonic())
        heard: list = []
        copy.subscribe(heard.extend)
        for name in NAMES:
            owner_store.create_account(name, grant=100_000)
            club.sit(name, 1)
            replica.sync(time.monotonic())
            assert copy.seats == table.seats
        rng = random.Random(moves)
        deals = 0
        while deals < 3:
            game = table.game
            if game is None or not game.in_deal:
                name = next(n for n in NAMES if n not in table.ready)
                table.start(name, time.monotonic())
                was_in_deal = False
            else:
                seat = game.to_act()[0]
                table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), time.monotonic())
                was_in_deal = True
            replica.sync(time.monotonic())
            assert public(copy) == public(table)
            if was_in_deal and not table.in_deal():
                deals += 1
        assert replica.sync(time.monotonic()) == []  # nothing new: nothing told again
        # read on, not replayed: one read from the start (the first) and one per new session's header
        assert replica.rebuilds <= 2 + deals and replica.syncs > 10 * replica.rebuilds, (replica.rebuilds,
                                                                                        replica.syncs)
        fresh = Table(1, "stukolka", None, 4)
        Replica(reader, fresh).prime(time.monotonic())  # the journal read from its start agrees
        assert public(fresh) == public(copy)
        # what the owner told, each event once, in its order, with the same data: read from its journal
        assert heard == [e for e in heard_owner if e.kind not in RELAYED]
        assert {"sit", "table_ready", "deal_over", "fair_open", "fair_seal"} <= {e.kind for e in heard}
        assert copy.view_for(None)["hands"] == table.view_for(None)["hands"]  # backs only
    finally:
        owner_store.close()
        reader.close()
