"""Random play over every Стуколка variant and player count, checking invariants at every step.

Seeded loops (reproducible): at least 2,000 deals in the default run.  Checked after
every action: each card in exactly one place; money conserved (players + pot); the
pot a multiple of 3 when play starts (R43); legal actions empty exactly for seats
not to act and when the deal is over; no seat's view holds another seat's hidden
card, no spectator view any hidden card.  At the end of each session its record
replays to the same final state.
"""

from __future__ import annotations

import random
import zlib

import pytest

from engine.cards import Card
from engine.game import ADMIN, SPECTATOR, ShuffledDecks
from engine.games.stukolka import Stukolka
from engine.record import rebuild, record_of, replay
from invariants import assert_shared
from viewscan import cards_in

pytestmark = pytest.mark.slow  # long random play; tests/engine/test_every_game_random.py keeps the shared invariants in the quick run


CONFIGS = [
    ("a", n, {}) for n in range(4, 8)
] + [
    ("b", n, {}) for n in (4, 5)
] + [
    ("v", n, opts) for n in range(4, 7)
    for opts in ({}, {"dark": True}, {"razrez": True}, {"dark": True, "razrez": True})
] + [
    ("g", n, {}) for n in (4, 5)
]


def hidden_from(game: Stukolka, viewer: int) -> set[Card]:
    """Cards a viewer may not see, derived from where the cards lie (RULES.md §1, §5.10)."""
    places = game.places()
    hidden = set(places.get("stock", [])) | set(places.get("burned", [])) | set(places.get("discards", []))
    hidden |= set(places.get("undealt", []))
    for seat in range(game.n):
        if seat != viewer or not game.looked[seat]:
            hidden |= set(places.get(f"hand:{seat}", []))
    if game.trump_where == "shlejf" and viewer != game.dealer:
        hidden |= set(places.get("trump_card", []))
    return hidden


def check_invariants(game: Stukolka, start_money: int) -> None:
    assert_shared(game, 52, start_money)  # cards, money, turns: tests/invariants.py
    for viewer in range(game.n):
        leaked = set(cards_in(game.view(viewer))) & hidden_from(game, viewer)
        assert not leaked, f"seat {viewer} sees hidden {leaked}"
    leaked = set(cards_in(game.view(SPECTATOR))) & hidden_from(game, SPECTATOR)
    assert not leaked, f"a spectator sees hidden {leaked}"


def play_session(variant: str, n: int, options: dict, seed: int, deals: int) -> tuple[Stukolka, int]:
    rng = random.Random(seed)
    pot = rng.choice([0, 0, 30, 90])
    game = Stukolka([f"P{i}" for i in range(n)], {"variant": variant, **options}, dealer=rng.randrange(n), pot=pot)
    decks = ShuffledDecks(52, seed)
    played = 0
    while played < deals and game.can_start_deal():
        for event in game.start_deal(decks):
            assert event.kind != "play_starts" or game.pot % 3 == 0
        check_invariants(game, pot)
        while game.in_deal:
            seat = rng.choice(game.to_act())
            action = rng.choice(game.legal_actions(seat))
            for event in game.apply(seat, action):
                if event.kind == "play_starts":
                    assert event.data["stake"] % 3 == 0, "R43: P must divide by 3"
            check_invariants(game, pot)
        assert game.legal_actions(game.dealer) == []
        played += 1
    return game, played


@pytest.mark.parametrize("variant,n,options", CONFIGS, ids=lambda v: str(v))
def test_random_sessions_keep_every_invariant(variant: str, n: int, options: dict) -> None:
    total = 0
    sessions = 0
    seed = zlib.crc32(f"{variant}{n}{sorted(options)}".encode()) & 0xFFFF
    while total < 2000 // len(CONFIGS) + 1:
        game, played = play_session(variant, n, options, seed + sessions, deals=6)
        total += played
        sessions += 1
        record = record_of(game)
        status, out = replay(record)
        assert status == 0 and out["ok"]
        assert list(out["balances"].values()) == game.balances and out["pot"] == game.pot
        assert rebuild(record).view(ADMIN) == game.view(ADMIN)
    assert total * len(CONFIGS) >= 2000


def test_sessions_with_rounds_end_on_an_empty_pot() -> None:
    """R44 under random play: a finished session ends with an empty pot after its rounds."""
    ended = 0
    for seed in range(60):
        game, _ = play_session("a", 4, {"rounds": 1}, seed, deals=40)
        if game.is_over():
            ended += 1
            assert game.pot == 0 and game.completed >= 4
            assert replay(record_of(game))[1]["over"] is True
    assert ended >= 30
