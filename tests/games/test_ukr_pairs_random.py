"""Random legal play of Game C (RULES.md §4): 200 whole matches, over 2,000 deals, with invariants.

Checked throughout: every one of the 36 cards is in exactly one place; legal
actions are empty exactly for the seats not to act; the follow rule of R26
(a card of the led suit, the 12 trumps being one suit, else anything); money
is conserved and moves only when a match ends; no view shows a hidden card;
an illegal play is refused with a reason.  Per deal: 9 tricks, and the
records move by the split table (R27–R29).  Per match: the settlement of R29
or R30.  A record cut mid-deal in every session, and two whole sessions'
records, replay and rebuild to the same state.
"""

from __future__ import annotations

import pytest

import random

from engine.game import ADMIN, SPECTATOR, ShuffledDecks
from engine.games.ukr_pairs import UkrPairs, suit_of
from engine.record import rebuild, record_of, replay
from invariants import assert_shared
from viewscan import cards_in
from playkit import try_illegal_play

pytestmark = pytest.mark.slow  # long random play; tests/engine/test_every_game_random.py keeps the shared invariants in the quick run

SESSIONS = 8
MATCHES_PER_SESSION = 25  # 200 matches
WRITE_OFF = {8: 1, 7: 0, 6: 3, 5: 0}  # R28, written here again on purpose


def check_state(game: UkrPairs, views: bool) -> None:
    assert_shared(game, 36, game.start_pot)  # cards, money, turns: tests/invariants.py
    acting = game.to_act()
    assert len(acting) <= 1
    for seat in acting:
        legal = game.legal_actions(seat)
        if game.trick:  # R26: the led suit (trumps one suit) if held, else anything
            led = suit_of(game.trick[0][1])
            follow = [c for c in game.hands[seat] if suit_of(c) == led]
            assert sorted(a.args[0] for a in legal) == sorted(follow or game.hands[seat])
    if views:
        public = {c for pile in game.taken for c in pile} | {c for _, c in game.trick}
        for viewer in (SPECTATOR, 0, 1, 2, 3):
            may_see = public | (set(game.hands[viewer]) if viewer >= 0 else set())
            leaked = set(cards_in(game.view(viewer))) - may_see
            assert not leaked, f"viewer {viewer} sees {leaked}"


def check_deal_end(game: UkrPairs, records0: list[int], balances0: list[int]) -> None:
    """R27–R30 for the deal just played."""
    t_cap, u = game.options["T"], game.options["u"]
    split = game.team_tricks()
    assert sum(split) == 9 and sum(game.tricks) == 9
    best = 0 if split[0] > split[1] else 1
    if split[best] == 9:  # R29: at once, double the whole record, records untouched
        assert game.records == records0
        assert game.natural_end() and game.match_winner == best
        owed = 2 * t_cap * u
    else:
        expected = list(records0)
        expected[best] -= WRITE_OFF[split[best]]
        assert game.records == expected
        assert game.natural_end() is (expected[best] <= 0)
        if not game.natural_end():
            assert game.balances == balances0
            return
        assert game.match_winner == best
        owed = expected[1 - best] * u  # R30: the losers' remaining record
    for seat in range(4):
        sign = 1 if seat % 2 == best else -1
        assert game.balances[seat] - balances0[seat] == sign * owed


def check_replay(game: UkrPairs) -> None:
    record = record_of(game)
    status, out = replay(record)
    assert status == 0 and out["ok"]
    assert out["balances"] == dict(zip(game.names, game.balances))
    assert out["score"] == game.score()
    assert out["over"] is game.natural_end()
    assert rebuild(record).view(ADMIN) == game.view(ADMIN)


def play_session(seed: int) -> tuple[int, int, int]:
    """Play MATCHES_PER_SESSION whole matches; return (deals, matches, replays checked)."""
    rng = random.Random(seed)
    options = {"T": rng.choice([12, 12, 6]), "u": rng.choice([1, 5])}
    game = UkrPairs(["Anna", "Boris", "Vera", "Gleb"], options, dealer=rng.randrange(4), pot=rng.choice([0, 30]))
    decks = ShuffledDecks(36, seed)
    deals = matches = replays = 0
    stop_mid_deal, cut = rng.randrange(5, 30), rng.randrange(1, 36)
    while matches < MATCHES_PER_SESSION:
        game.start_deal(decks)
        deals += 1
        records0, balances0 = list(game.records), list(game.balances)
        views = deals <= 3 or rng.random() < 0.05
        while game.in_deal:
            check_state(game, views)
            seat = game.to_act()[0]
            if views:
                try_illegal_play(game, seat, rng)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            if deals == stop_mid_deal and len(game.deals[-1].actions) == cut:
                check_replay(game)
                replays += 1
        check_state(game, views)
        check_deal_end(game, records0, balances0)
        matches += game.natural_end()
    if seed % 4 == 0:
        check_replay(game)
        replays += 1
    return deals, matches, replays


def test_random_matches_keep_every_invariant() -> None:
    """200 whole matches of random legal play (R25–R31): see the module docstring."""
    deals = matches = replays = 0
    for seed in range(SESSIONS):
        d, m, r = play_session(2000 + seed)
        deals, matches, replays = deals + d, matches + m, replays + r
    assert matches == 200
    assert deals >= 2000
    assert replays == SESSIONS + 2
