"""Копилка under random play: 2,000+ deals in 500 whole partiyas, invariants checked after every action.

Checked: the 32 cards each lie in exactly one place (hands, stock, discards,
laid-out rows, trick, played) (§8); money is conserved, players + kitty (§8);
legal actions are empty exactly for seats not to act and when no deal runs;
no seat's view shows another seat's hand, another giver's row, the stock or
the discards, and no spectator view shows any of them (§1); every deal's money
is exactly D (first deal), S, Z and the R16 payout; every session's record
replays and rebuilds to the same state (§9.4).
"""

from __future__ import annotations

import pytest

import random
from collections import Counter

from engine.cards import Card
from engine.game import ADMIN, SPECTATOR, ShuffledDecks
from engine.games.kopilka import Kopilka
from engine.record import rebuild, record_of, replay
from invariants import assert_shared
from viewscan import cards_in

pytestmark = pytest.mark.slow  # long random play; tests/engine/test_every_game_random.py keeps the shared invariants in the quick run

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
PARTIYAS = 500
VIEW_SESSIONS = 10  # every 10th session scans the views after every action; the others at each deal's end


def hidden_from(game: Kopilka, viewer: int) -> set[Card]:
    """What ``viewer`` may not see, derived from where the cards lie (§1, §2.5)."""
    hidden: set[Card] = set()
    for name, cards in game.places().items():
        if name in ("stock", "discards"):
            hidden |= set(cards)
        elif name.startswith(("hand:", "layout:")) and int(name.split(":")[1]) != viewer:
            hidden |= set(cards)
    return hidden


def check_views(game: Kopilka) -> None:
    for viewer in (0, 1, 2, 3, SPECTATOR):
        leaked = set(cards_in(game.view(viewer))) & hidden_from(game, viewer)
        assert not leaked, f"viewer {viewer} sees hidden {leaked}"


def check_invariants(game: Kopilka, money: int) -> None:
    assert_shared(game, 32, money)  # cards, money, turns: tests/invariants.py
    assert len(game.to_act()) <= 1
    if game.phase == "play" and game.in_deal:  # R14: only a card just played can have emptied a hand
        in_trick = {seat for seat, _ in game.trick}
        assert all(hand or seat in in_trick for seat, hand in enumerate(game.hands)), "an empty hand goes on"


def expected_deal_money(game: Kopilka, deal_start_pot: int) -> list[int]:
    """R6, R15, R16 recomputed from the deal's outcome."""
    o = game.options
    money = [0] * 4
    for seat in range(4):
        if game.partiya_deal == 1:
            money[seat] -= o["D"]
        if seat != game.first_shedder:
            money[seat] -= o["S"]
        if not game.tricks[seat]:
            money[seat] -= o["Z"]
    if game.partiya_deal == 4:
        kitty = deal_start_pot - sum(money)
        won, total = game.won(), sum(game.won())
        pay = won if kitty >= total else [w * kitty // total for w in won]
        assert game.last_settlement is not None
        assert sum(game.last_settlement) + game.pot == kitty
        assert all(p >= q for p, q in zip(game.last_settlement, pay))
        assert game.pot == 0 if game.first_shedder is not None else game.pot < 4
        money = [m + p for m, p in zip(money, game.last_settlement)]
    return money


SEEN: Counter[str] = Counter()  # which paths random play went through (asserted at the end)


def note(events: list) -> None:
    for event in events:
        SEEN[event.kind] += 1
        if event.kind == "deal_end":
            SEEN["end " + event.data["end"]] += 1
        elif event.kind == "trick" and event.data["doubled"]:
            SEEN["A♠ won"] += 1
        elif event.kind == "settlement" and event.data["kitty"] < event.data["won"]:
            SEEN["pro rata"] += 1


def play_deal(game: Kopilka, rng: random.Random, decks: ShuffledDecks, money: int, views: bool) -> None:
    start_pot = game.pot  # the kitty before this deal
    note(game.start_deal(decks))
    steps = 0
    while game.in_deal:
        seat = game.to_act()[0]
        note(game.apply(seat, rng.choice(game.legal_actions(seat))))
        check_invariants(game, money)
        steps += 1
        if views:
            check_views(game)
        assert steps < 400, "a deal does not end"
    check_views(game)
    assert game.deals[-1].money == expected_deal_money(game, start_pot)


def play_session(seed: int, partiyas: int, views: bool) -> tuple[Kopilka, int]:
    rng = random.Random(seed)
    options = {
        "D": rng.choice([0, 5, 20]), "S": rng.choice([0, 2, 5]), "Z": rng.choice([0, 5]), "M": rng.choice([2, 3]),
    }
    money = rng.choice([0, 0, 3, 100])
    game = Kopilka(NAMES, options, dealer=rng.randrange(4), pot=money)
    decks = ShuffledDecks(32, seed)
    for _ in range(partiyas * 4):
        play_deal(game, rng, decks, money, views)
    assert game.natural_end() and not game.is_over()
    return game, partiyas * 4


def test_random_partiyas_keep_every_invariant() -> None:
    """§8 invariants over 500 partiyas (2,000 deals) of random legal play; records replay exactly (§9.4)."""
    deals = sessions = 0
    while deals < PARTIYAS * 4:
        game, played = play_session(1000 + sessions, 1 + sessions % 3, views=sessions % VIEW_SESSIONS == 0)
        deals += played
        sessions += 1
        record = record_of(game)
        status, out = replay(record)
        assert status == 0 and out["ok"] and out["over"]
        assert list(out["balances"].values()) == game.balances and out["pot"] == game.pot
        if sessions % 5 == 0:
            assert rebuild(record).view(ADMIN) == game.view(ADMIN)
    assert deals >= PARTIYAS * 4 >= 2000
    for path in ("lay_out", "take", "draw", "lead_failed", "A♠ won", "end shed", "end deadlock", "pro rata"):
        assert SEEN[path] > 0, f"random play never reached {path!r}"


def test_random_records_stopped_mid_deal_rebuild() -> None:
    """§9.4: a record may stop anywhere; rebuilding it gives the same state, hidden cards included."""
    rng = random.Random(7)
    for seed in range(40):
        game = Kopilka(NAMES, {"D": 5}, dealer=seed % 4)
        decks = ShuffledDecks(32, seed)
        for _ in range(rng.randrange(1, 6)):
            game.start_deal(decks)
            stop = rng.randrange(60)
            while game.in_deal and stop:
                seat = game.to_act()[0]
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                stop -= 1
            if game.in_deal:
                break
        copy = rebuild(record_of(game))
        assert copy.view(ADMIN) == game.view(ADMIN)
        assert copy.places() == game.places()
        out = replay(record_of(game))[1]
        assert out["over"] == game.natural_end()
