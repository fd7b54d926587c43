"""Спекулянт under random play: random trades, speculator redeals (R65), live and record clocks.

After every action: money is conserved (players + pot) and the events name no face-down card
(events are public).  At every deal start and end and after a random twentieth of the actions (the
full check costs more than the action): every card of the (re)deal lies in exactly one place, no
seat's or spectator's view shows an unrevealed card (§6.4: the owner neither), every seat in
``to_act`` has something legal to do, and on a live clock no reveal is legal while a window is
open (§6.5).  Random illegal attempts change nothing.  At the end of each session ``record_of`` →
JSON → ``replay`` gives the same money, and ``rebuild`` the same table (§9.4).
"""

from __future__ import annotations

import pytest

import random
from typing import Any

from engine.cards import Card
from collections import Counter

from engine.game import ADMIN, SPECTATOR, Action, IllegalAction, ShuffledDecks
from engine.games.speculator import SPECULATOR, Speculator
from engine.record import load_record, rebuild, record_of, replay
from invariants import assert_cards_in_one_place, assert_money_kept
from viewscan import cards_in

pytestmark = pytest.mark.slow  # long random play; tests/engine/test_every_game_random.py keeps the shared invariants in the quick run

DEALS = 2000
CHECK_SHARE = 0.05
"""Share of states after an action that get the full (costly) check; money is checked after each."""
CLOCK_KEYS = {"clock", "live_clock", "deadline"}
WINDOW_KEYS = CLOCK_KEYS | {"phase", "window", "bids", "selling", "ask", "ready", "status", "to_act"}




def check_invariants(game: Speculator, rng: random.Random) -> None:
    assert_money_kept(game, game.start_pot)  # tests/invariants.py
    assert_cards_in_one_place(game, 36)
    places = game.places()
    hidden = set(places["undealt"]).union(*(places[f"pile {n}"] for n in game.names))
    admin = game.view(ADMIN)
    assert [c for pile in admin["hands"] for c in pile] == [c for n in game.names for c in places[f"pile {n}"]]
    up = sorted(c for cards in admin["up"] for c in cards)
    assert up == sorted(c for _, c in admin["trick"])
    if admin["best"] is not None:
        assert admin["best"] in admin["up"][admin["holder"]]
    # A seat viewer is also how an admin who sits at the table sees it.
    for viewer in (SPECTATOR, rng.randrange(game.n)):
        view = game.view(viewer)
        assert view["hands"] == [None] * game.n
        assert not hidden.intersection(cards_in(view)), f"viewer {viewer} sees a face-down card"
    for seat in game.to_act():
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} must act but has nothing legal"
        assert all(game._allows(seat, a) for a in legal)  # the fast check agrees with the list
    if game.live_clock and game.window_open:
        assert Action("reveal") not in game.legal_actions(game.revealer)  # §6.5
        assert game.deadline() is not None and game.deadline() <= game.clock + game.options["W"]


def try_illegal(game: Speculator, rng: random.Random) -> None:
    """A random action the rules refuse raises ``IllegalAction`` and changes nothing."""
    seat = rng.randrange(game.n)
    action = rng.choice([Action("reveal"), Action("ready"), Action("sell"), Action("bid", (0,)),
                         Action("bid", (rng.randrange(1, 9),)), Action("accept", (rng.choice(game.names),))])
    if action in game.legal_actions(seat):
        return
    before = (list(game.balances), game.pot, len(game.deals[-1].actions), game.view(ADMIN))
    try:
        game.apply(seat, action)
    except IllegalAction as err:
        assert str(err)
    else:
        raise AssertionError(f"seat {seat} was allowed {action.text()}")
    assert before == (list(game.balances), game.pot, len(game.deals[-1].actions), game.view(ADMIN))


def choose(game: Speculator, rng: random.Random) -> tuple[int, Action]:
    """A random legal action: mostly ready, sometimes a bid, an ask or an acceptance."""
    if not game.window_open:
        return game.revealer, Action("reveal")
    if not game.live_clock and rng.random() < 0.5:
        return game.revealer, Action("reveal")  # §9.2: in a record the next reveal closes it
    ready = game.ready_seats
    waiting = [s for s in range(game.n) if s not in ready]
    seat = rng.choice(waiting) if waiting and rng.random() < 0.8 else rng.randrange(game.n)
    low, roll = game.options["minPrice"], rng.random()
    if seat == game.holder:
        if game.bids and roll < 0.6:
            return seat, Action("accept", (game.names[rng.choice(list(game.bids))],))
        if roll < 0.75:
            return seat, Action("sell", (rng.randrange(low, low + 60),) if roll < 0.7 else ())
    elif roll < 0.35:
        return seat, Action("bid", (rng.randrange(low, low + 40),))
    if seat in ready:
        return choose(game, rng)
    return seat, Action("ready")


def play(game: Speculator, deals: int, rng: random.Random, closes: Counter, *, stop_mid_deal: bool) -> None:
    """Play ``deals`` deals (the last one perhaps unfinished), counting how windows close."""
    source = ShuffledDecks(36, rng.randrange(2**32))
    now = 0.0
    if game.live_clock:
        game.start_clock(now)
    for number in range(deals):
        game.start_deal(source)
        cut = rng.randrange(1, 40) if stop_mid_deal and number == deals - 1 else None
        steps = 0
        check_invariants(game, rng)
        while game.in_deal and steps != cut:
            events = []
            if game.live_clock and rng.random() < 0.3:
                now += rng.choice((0.5, 4.0, 16.0, 60.0, 60.0))
                events += game.tick(now)
            elif rng.random() < 0.03:
                try_illegal(game, rng)
            else:
                events += game.apply(*choose(game, rng))
                steps += 1
                named = {v for e in events for v in e.data.values() if isinstance(v, Card)}
                assert not any(isinstance(v, (list, tuple, dict)) for e in events for v in e.data.values())
                if named:  # events are public: only face-up cards (and a K♠ just turned up)
                    face_up = {c for cards in game.view(SPECTATOR)["up"] for c in cards}
                    assert named <= face_up | {SPECULATOR}, events
            for event in events:
                if event.kind == "window_closed":
                    closes[event.data["why"]] += 1
            assert sum(game.balances) + game.pot == game.start_pot
            if rng.random() < CHECK_SHARE:
                check_invariants(game, rng)
        check_invariants(game, rng)


def core(view: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in keys}


def check_replay(game: Speculator, full: bool) -> None:
    """§9.4: the record of the session replays to the same money and rebuilds the same table."""
    record = load_record(record_of(game).to_json())
    status, out = replay(record)
    assert status == 0 and out["ok"], out
    assert list(out["balances"].values()) == game.balances and out["pot"] == game.pot
    if not full:
        return
    again = rebuild(record)
    # A live window closed by time stays open in a replay until the next reveal (module docstring).
    ignore = WINDOW_KEYS if game.live_clock and game.in_deal else CLOCK_KEYS
    assert core(again.view(ADMIN), ignore) == core(game.view(ADMIN), ignore)
    assert again.deals[-1].money == game.deals[-1].money


def test_random_play_conserves_money_and_hides_cards() -> None:
    """R60–R67 under random play: ≥ 2,000 deals on 3–10 players, live and record clocks."""
    rng = random.Random(59)
    deals = redeals = trades = 0
    closes: Counter = Counter()
    while deals < DEALS:
        n = rng.choices(range(3, 11), (4, 4, 3, 2, 2, 1, 1, 1))[0]  # R60; small tables play faster
        w = rng.choice((1, 5, 15))
        options = {"s": rng.choice((1, 5, 10)), "W": w, "Wmax": w * rng.choice((1, 2, 4)),
                   "minPrice": rng.choice((1, 1, 3))}
        game = Speculator([f"P{i}" for i in range(n)], options, dealer=rng.randrange(n),
                          pot=rng.choice((0, 0, 13)))
        game.live_clock = rng.random() < 0.5
        count = rng.randint(1, 12)
        play(game, count, rng, closes, stop_mid_deal=rng.random() < 0.3)
        check_replay(game, full=rng.random() < 0.4)  # rebuild costs a replay more: a sample
        deals += count
        for log in game.deals:
            redeals += len(log.decks) - 1
            trades += sum(1 for _, a in log.actions if a.verb == "accept")
    assert redeals > 300 and trades > 1000, (redeals, trades)
    assert closes["time"] > 500 and closes["ready"] > 500, closes
