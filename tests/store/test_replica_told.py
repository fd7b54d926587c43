"""A replica tells what the owner told, read from the owner's ``told`` notes (engine/table/told.py):
over whole sessions of every game, seats taken and given up (a session's end, Копилка's kitty paid
out at it, R16), cuts of sealed deals, the host's rules and invitations, with the replica reading
after a random number of operations and, now and then, from the journal's start (as after a gap):
its subscribers hear the owner's events, each once, in order, with the same data."""

from __future__ import annotations

import random
import time
from typing import Any, Callable

import pytest

from engine.cards import Card
from engine.game import Event
from engine.table.club import Club
from engine.table.owner import Table
from engine.table.replica import Replica
from engine.table.told import decode_events, encode_events

RELAYED = ("say", "away", "back", "stepped_away", "watch", "unwatch", "rail")  # the bus carries these
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha")
GAMES = [("stukolka", {"variant": "b"}, 4), ("kopilka", {}, 4), ("french3", {}, 3), ("ukr_pairs", {}, 4)]
# (Спекулянт's random trading seldom ends a deal in a few thousand moves; the notes are the same for every game)


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_replica_hears_what_the_owner_told(open_again: Callable[..., Any], game: str, options: dict,
                                               seats: int) -> None:
    owner_store, reader = open_again(), open_again()
    try:
        club = Club([{"game": game, "options": options, "seats": seats}], store=owner_store,
                    now=time.monotonic(), seed=11)
        table = club.tables[1]
        heard_owner: list[Event] = []
        table.subscribe(heard_owner.extend)
        copy = Table(1, game, options, seats)
        replica = Replica(reader, copy)
        replica.prime(time.monotonic())
        heard: list[Event] = []
        copy.subscribe(heard.extend)
        rng = random.Random(game)
        names = NAMES[:seats]
        for name in NAMES:
            owner_store.create_account(name, grant=1_000_000)

        def operation(ops: list[int]) -> None:
            ops[0] += 1
            if rng.random() < 0.3:
                replica.sync(time.monotonic())
            if rng.random() < 0.05:  # as after a gap: the journal read from its start
                events = replica.apply(replica.fetch(from_start=True), time.monotonic())
                assert events is not None

        ops = [0]
        for name in names:
            club.sit(name, 1)
            operation(ops)
        host = table.seating.host
        assert host is not None
        table.invite(host, "Dasha")
        operation(ops)
        sessions = 0
        while sessions < 2 and ops[0] < 3_000:
            live = table.game
            if live is None or not live.in_deal:
                if live is not None and live.deals and rng.random() < 0.4:
                    leaver = rng.choice(table.seated())  # a session's end, then a seat taken again
                    table.stand(leaver)
                    operation(ops)
                    club.sit(leaver, 1)
                    operation(ops)
                    sessions += 1
                    continue
                if rng.random() < 0.3:
                    table.cut(rng.choice(names), f"верба {rng.randrange(100)}")
                    operation(ops)
                for name in names:
                    if name not in table.ready and (table.game is None or not table.game.in_deal):
                        table.start(name, time.monotonic())
                        operation(ops)
                continue
            seat = live.to_act()[0]
            table.act(live.names[seat], rng.choice(live.legal_actions(seat)).text(), time.monotonic())
            operation(ops)
        replica.sync(time.monotonic())
        assert sessions == 2
        assert [e for e in heard if e.kind != "table"] == [e for e in heard_owner if e.kind not in RELAYED]
        kinds = {e.kind for e in heard}
        assert {"sit", "stand", "invite", "table_ready", "deal_over", "session_over", "fair_seal"} <= kinds, kinds
        assert table.view_for(None)["balances"] == copy.view_for(None)["balances"]
    finally:
        owner_store.close()
        reader.close()


def test_the_events_data_come_back_as_they_were() -> None:
    queen = Card.of(12, 1)
    events = [Event("play", 2, {"card": queen, "cards": [queen, Card.of(14, 3)], "pair": (1, queen)}),
              Event("deal_over", None, {"money": {"Анна": -30, "$x": 5}, "pot": 0}),
              Event("knock", 0), Event("odd", 1, {"what": object})]
    back = decode_events(encode_events(events))
    assert back[:3] == events[:3]
    assert isinstance(back[0].data["card"], Card) and str(back[0].data["card"]) == str(queen)
    assert back[3] == Event("odd", 1, {"what": str(object)})  # an unknown type keeps its words


def test_a_note_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError):
        decode_events({"events": [["play", "two", {}]]})


def test_a_read_from_the_start_is_replayed_where_it_is_read(open_again: Callable[..., Any],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's thread replays a whole journal; the loop (``apply``) only installs the game."""
    import threading

    import engine.table.keeper as keeper_module
    import engine.table.replica as replica_module

    owner_store, reader = open_again(), open_again()
    try:
        club = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic(), seed=4)
        table = club.tables[1]
        for name in NAMES[:4]:
            owner_store.create_account(name, grant=100_000)
            club.sit(name, 1)
        for name in NAMES[:4]:
            table.start(name, time.monotonic())
        rng = random.Random(4)
        for _ in range(12):
            game = table.game
            assert game is not None and game.in_deal
            seat = game.to_act()[0]
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), time.monotonic())
        copy = Table(1, "stukolka", None, 4)
        replica = Replica(reader, copy)
        got: list[Any] = []
        worker = threading.Thread(target=lambda: got.append(replica.fetch(from_start=True, now=time.monotonic())))
        worker.start()
        worker.join(30)
        assert got and got[0].replayed is not None

        def not_here(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("replayed on the loop")

        monkeypatch.setattr(replica_module, "replay", not_here)
        monkeypatch.setattr(keeper_module, "replay_journal", not_here)
        assert replica.apply(got[0], time.monotonic(), tell=False) is not None
        assert copy.view_for(None) == table.view_for(None)
        assert copy.view_for(NAMES[0]) == table.view_for(NAMES[0])
    finally:
        owner_store.close()
        reader.close()
