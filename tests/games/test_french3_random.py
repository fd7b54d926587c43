"""Random legal play of Game B (RULES.md §3): 200 whole games, over 2,000 deals, with invariants.

Checked throughout: every one of the 48 cards is in exactly one place; legal
actions are empty exactly for the seats not to act; money is conserved and
moves only at a game's settlement (R24); no view shows a card its viewer may
not see (hands, the widow, others' discards, R19); an illegal play is refused
with a reason.  Checked per deal: 12 tricks, and the sheet moved by R22.  Per
game: the winner reached the target and the partiya was played out (R23).
A record cut mid-deal in every session, and two whole sessions' records,
replay and rebuild to the same state.
"""

from __future__ import annotations

import pytest

import random
from math import comb

from engine.cards import Card
from engine.game import ADMIN, SPECTATOR, Action, ShuffledDecks
from engine.games.french3 import PARTIYA, French3
from engine.record import rebuild, record_of, replay
from invariants import assert_cards_in_one_place, assert_money_kept
from viewscan import cards_in
from playkit import try_illegal_play

pytestmark = pytest.mark.slow  # long random play; tests/engine/test_every_game_random.py keeps the shared invariants in the quick run

SESSIONS = 8
GAMES_PER_SESSION = 25  # 200 games


def may_see(game: French3, viewer: int) -> set[Card]:
    """Played cards are public; a seat also knows its hand and its own discards."""
    seen = {c for pile in game.taken for c in pile} | {c for _, c in game.trick}
    if viewer >= 0:
        seen |= set(game.hands[viewer]) | set(game.discards[viewer])
    return seen


def check_state(game: French3, start_pot: int, views: bool) -> None:
    assert_cards_in_one_place(game, 48)  # tests/invariants.py
    assert_money_kept(game, start_pot)
    acting = game.to_act()
    assert len(acting) <= 1
    for seat in range(3):
        if seat not in acting or game.phase == "play" or views:  # a buy list is long: sample it
            assert bool(game.legal_actions(seat)) == (seat in acting)
    if views:
        for viewer in (SPECTATOR, 0, 1, 2):
            view = game.view(viewer)
            leaked = set(cards_in(view)) - may_see(game, viewer)
            assert not leaked, f"viewer {viewer} sees {leaked}"
            assert view["widow"] is None
        assert sorted(game.view(ADMIN)["widow"]) == sorted(game.widow)


def random_buy(game: French3, seat: int, rng: random.Random, listed: bool) -> Action:
    """k uniform in 0..widow, then k random cards; with ``listed`` also check R19's list agrees."""
    hand = game.hands[seat]
    k = rng.randint(0, len(game.widow))
    action = Action("buy", tuple(sorted(rng.sample(hand, k))))
    if listed:
        legal = game.legal_actions(seat)
        assert action in legal and len(set(legal)) == len(legal)
        assert all(game._allows(seat, a) for a in legal)
        assert len(legal) == sum(comb(len(hand), j) for j in range(len(game.widow) + 1))
        too_many = Action("buy", tuple(sorted(rng.sample(hand, min(len(hand), len(game.widow) + 1)))))
        if len(game.widow) < len(hand):
            assert too_many not in legal and not game._allows(seat, too_many)
    return action


def check_deal_end(game: French3, before: tuple[list[int], list[int], list[int]]) -> None:
    """R22 per deal, and R23/R24 when a game is settled."""
    above0, below0, balances0 = before
    assert sum(game.tricks) == 12
    for seat in range(3):
        t, k = game.tricks[seat], game.bought[seat] or 0
        assert game.above[seat] - above0[seat] == k + max(0, 4 - t)
        assert game.below[seat] - below0[seat] == max(0, t - 4)
    # Points conserved: the sum of (t − 4) over the table is 12 − 3·4 = 0.
    assert sum(game.below) - sum(below0) == sum(game.above) - sum(above0) - sum(k or 0 for k in game.bought)
    if not game.natural_end():
        assert game.balances == balances0  # money moves only at a settlement (R24)
        return
    winner = game.winner
    assert winner is not None and game.below[winner] >= 10
    assert game.n_in_game % PARTIYA == 0
    for seat in range(3):
        if seat != winner:
            owed = game.options["u"] * (game.above[seat] + max(0, 10 - game.below[seat]))
            assert balances0[seat] - game.balances[seat] == owed
    assert sum(game.balances) == sum(balances0)


def check_replay(game: French3, start_pot: int) -> None:
    record = record_of(game)
    status, out = replay(record)
    assert status == 0 and out["ok"]
    assert out["balances"] == dict(zip(game.names, game.balances))
    assert out["score"] == game.score()
    assert out["over"] is game.natural_end()
    assert out["pot"] == game.pot == start_pot - sum(game.balances)
    again = rebuild(record)
    assert again.view(ADMIN) == game.view(ADMIN)


def play_session(seed: int) -> tuple[int, int, int]:
    """Play GAMES_PER_SESSION whole games; return (deals, games, replays checked)."""
    rng = random.Random(seed)
    start_pot = rng.choice([0, 0, 50])
    game = French3(["Anna", "Boris", "Vera"], {"u": rng.choice([1, 3])}, dealer=rng.randrange(3), pot=start_pot)
    decks = ShuffledDecks(48, seed)
    deals = games = replays = 0
    stop_mid_deal, cut = rng.randrange(10, 40), rng.randrange(1, 39)
    while games < GAMES_PER_SESSION:
        game.start_deal(decks)
        deals += 1
        before = (list(game.above), list(game.below), list(game.balances))
        views = deals <= 3 or rng.random() < 0.03
        while game.in_deal:
            check_state(game, start_pot, views)
            seat = game.to_act()[0]
            if views and game.phase == "play":
                try_illegal_play(game, seat, rng)
            if game.phase == "exchange":
                game.apply(seat, random_buy(game, seat, rng, listed=views))
            else:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            if deals == stop_mid_deal and len(game.deals[-1].actions) == cut:
                check_replay(game, start_pot)  # a record that stops mid-deal rebuilds the same state
                replays += 1
        check_state(game, start_pot, views)
        check_deal_end(game, before)
        games += game.natural_end()
    if seed % 4 == 0:  # replaying doubles the cost: two of the eight sessions
        check_replay(game, start_pot)
        replays += 1
    return deals, games, replays


def test_random_games_keep_every_invariant() -> None:
    """200 whole games of random legal play (R18–R24): see the module docstring."""
    deals = games = replays = 0
    for seed in range(SESSIONS):
        d, g, r = play_session(1000 + seed)
        deals, games, replays = deals + d, games + g, replays + r
    assert games == 200
    assert replays == SESSIONS + 2
    assert deals >= 2000
