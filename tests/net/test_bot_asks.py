"""Asks that cannot race: Спекулянт's trade windows through ``sukno-bot/1`` (R64), in this process.

Four protocol clients at one Спекулянт table, a clock of the test's own; the
deal's card order is whatever the shuffle gives, so each test drives the game to
its first trade window and reads who holds the best card from the view.
"""

from __future__ import annotations

from botharness import Wire, club_with_store
from schemacheck import check


def window(tmp_path):
    """Four seated wires at a Спекулянт table, the first trade window open; (club, wires, holder seat)."""
    club, accounts = club_with_store(tmp_path, [{"game": "speculator", "seats": 4, "clock": 0, "think": 0,
                                                 "options": {"W": 30, "Wmax": 60}}])
    now = [0.0]
    wires = [Wire(club, accounts, f"SHA256:asks{i}", lambda: now[0], on_send=check) for i in range(4)]
    for i, wire in enumerate(wires):
        wire.session.hello()
        wire.send({"type": "hello", "name": f"Asker{i}"})
        wire.send({"type": "sit", "table": 1, "seat": i})
    for wire in wires:
        wire.send({"type": "start", "table": 1})
    game = club.tables[1].game
    while not game.window_open:  # a K♠ turned up first deals again (R65): the next reveal opens a window
        revealer = game.revealer
        turn = [m for m in wires[revealer].take() if m["type"] == "turn"][-1]
        assert turn["legal"] == ["reveal"]
        wires[revealer].send({"type": "act", "table": 1, "ask": turn["ask"], "action": "reveal"})
    return club, wires, game.holder, now


def turns(wire):
    return [m for m in wire.take() if m["type"] == "turn"]


def test_a_bid_gives_the_holder_a_new_ask_and_nobody_else_one(tmp_path):
    club, wires, holder, _ = window(tmp_path)
    first = {i: turns(w)[-1] for i, w in enumerate(wires)}
    assert all("ready" in t["legal"] for t in first.values())
    bidder = (holder + 1) % 4
    wires[bidder].send({"type": "act", "table": 1, "ask": first[bidder]["ask"], "action": "bid 3"})
    after = {i: turns(w) for i, w in enumerate(wires)}
    assert [t["legal"] for t in after[holder]] == [["sell", "sell 1", f"accept Asker{bidder}", "ready"]]
    others = [i for i in range(4) if i not in (holder, bidder)]
    assert all(after[i] == [] for i in others), "another seat's bid does not end their asks"
    # the bidder's own bid was acknowledged, and its ready went with it: a new ask
    assert [t["legal"] for t in after[bidder]] == [["bid 1", "ready"]]
    # the others answer the asks they had before the bid: accepted, acknowledged
    for i in others:
        wires[i].send({"type": "act", "table": 1, "ask": first[i]["ask"], "action": "ready"})
        assert any(m["type"] == "ack" and m["ask"] == first[i]["ask"] for m in wires[i].take())


def test_the_holder_may_answer_the_ask_a_bid_superseded(tmp_path):
    club, wires, holder, _ = window(tmp_path)
    first = turns(wires[holder])[-1]
    bidder = (holder + 2) % 4
    wires[bidder].send({"type": "act", "table": 1, "ask": turns(wires[bidder])[-1]["ask"], "action": "bid 5"})
    newer = turns(wires[holder])[-1]
    assert newer["ask"] > first["ask"]
    wires[holder].send({"type": "act", "table": 1, "ask": first["ask"], "action": "ready"})
    got = wires[holder].take()
    assert [m["type"] for m in got if m["type"] in ("ack", "error")] == ["ack"]
    assert holder in club.tables[1].game.ready_seats
    # the newer ask is still open: the bid may be accepted on it
    wires[holder].send({"type": "act", "table": 1, "ask": newer["ask"], "action": f"accept Asker{bidder}"})
    assert [m["type"] for m in wires[holder].take() if m["type"] in ("ack", "error")] == ["ack"]
    # but the first one is over: the holder acted on a newer ask
    wires[holder].send({"type": "act", "table": 1, "ask": first["ask"], "action": "sell"})
    errors = [m for m in wires[holder].take() if m["type"] == "error"]
    assert [e["key"] for e in errors] == ["bot.stale_ask"]


def test_an_act_for_a_window_that_closed_is_stale_never_the_engines_refusal(tmp_path):
    club, wires, holder, now = window(tmp_path)
    asks = {i: turns(w)[-1]["ask"] for i, w in enumerate(wires)}
    now[0] = 31.0  # past W: the window closes by time
    club.tick(now[0])
    assert not club.tables[1].game.window_open
    for i, wire in enumerate(wires):
        wire.take()
        action = "bid 2" if i != holder else "sell"
        wire.send({"type": "act", "table": 1, "ask": asks[i], "action": action})
        errors = [m for m in wire.take() if m["type"] == "error"]
        assert [e["key"] for e in errors] == ["bot.stale_ask"], errors
        assert "over" in errors[0]["text"]


def test_a_duplicate_answer_is_stale_and_an_act_may_name_the_seq_it_saw(tmp_path):
    club, wires, holder, _ = window(tmp_path)
    seat = (holder + 1) % 4
    turn = turns(wires[seat])[-1]
    wires[seat].send({"type": "act", "table": 1, "seq": turn["seq"], "action": "ready"})
    got = wires[seat].take()
    assert [m["type"] for m in got if m["type"] in ("ack", "error")] == ["ack"]
    wires[seat].send({"type": "act", "table": 1, "ask": turn["ask"], "action": "ready"})
    assert [m["key"] for m in wires[seat].take() if m["type"] == "error"] == ["bot.stale_ask"]
    # a seq from before any ask of this decision answers nothing
    wires[seat].send({"type": "act", "table": 1, "seq": 0, "action": "bid 4"})
    assert [m["key"] for m in wires[seat].take() if m["type"] == "error"] == ["bot.stale_ask"]


def test_the_view_tells_seconds_left_never_the_servers_clock(tmp_path):
    club, wires, holder, now = window(tmp_path)
    view = turns(wires[holder])[-1]["view"]
    assert "clock" not in view and "deadline" not in view
    assert view["seconds_left"] == 30.0
    now[0] = 12.5
    club.tick(now[0])
    wires[holder].send({"type": "sync", "table": 1})
    state = [m for m in wires[holder].take() if m["type"] == "state"][-1]
    assert state["view"]["seconds_left"] == 17.5


def test_a_ping_is_answered_with_its_data(tmp_path):
    club, wires, holder, _ = window(tmp_path)
    wires[0].take()
    wires[0].send({"type": "ping", "data": "t1"})
    wires[0].send({"type": "ping"})
    assert wires[0].take() == [{"type": "pong", "data": "t1"}, {"type": "pong"}]
