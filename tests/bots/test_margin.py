"""The decision margin (issue 19, engine.bots.margin): the rule bot's choice is left only for a clear gain.

A constructed case checks the rule itself — a candidate within k standard errors of
the anchor, or measured over too few worlds, or over worlds whose weights leave too
few effective ones, is not taken; one beyond it is — and a whole deal checks that a
search bot whose margin cannot be met searches yet plays exactly the rule bot's moves.
"""

from __future__ import annotations

import math
import random

import pytest

from engine.bots import make_bot
from engine.bots.arena import Arena
from engine.bots.margin import Margin
from engine.bots.search import SearchBot
from engine.bots.speculator_search import best as speculator_best
from engine.game import Action, ShuffledDecks
from engine.games import get_game

RULED, OTHER, THIRD = Action("pass"), Action("knock"), Action("golets")


def rows_of(diffs: list[float], anchor_value: float = 5.0) -> list[dict[Action, float]]:
    """One row a world: the anchor's result and the other candidate's, ``diff`` apart."""
    return [{RULED: anchor_value, OTHER: anchor_value + d} for d in diffs]


def lower_bound(diffs: list[float], k: float) -> float:
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean - k * sd / math.sqrt(n)


def test_a_candidate_within_the_margin_is_not_taken():
    diffs = [3.0, -1.0, 4.0, 0.0]  # mean +1.5, SE 1.19: within 2 SE of nothing gained
    assert 0 < lower_bound(diffs, 1.0) and lower_bound(diffs, 2.0) < 0
    assert Margin(2.0, 4).choose(rows_of(diffs), RULED, [RULED, OTHER]) == RULED
    assert Margin(1.0, 4).choose(rows_of(diffs), RULED, [RULED, OTHER]) == OTHER  # a looser margin would
    assert Margin(0.0, 4).choose(rows_of(diffs), RULED, [RULED, OTHER]) == OTHER


def test_a_candidate_beyond_the_margin_is_taken_and_the_clearest_wins():
    rows = [{RULED: 0.0, OTHER: 2.0 + e, THIRD: 1.0 + e} for e in (0.1, -0.1, 0.2, -0.2)]
    assert Margin(2.0, 4).choose(rows, RULED, [OTHER, RULED, THIRD]) == OTHER
    assert Margin(2.0, 4).choose(rows, RULED, [THIRD, RULED, OTHER]) == OTHER  # not the first listed


def test_too_few_worlds_leave_the_anchor_however_large_the_gain():
    rows = rows_of([10.0, 11.0, 12.0])
    assert Margin(2.0, 4).choose(rows, RULED, [RULED, OTHER]) == RULED
    assert Margin(2.0, 3).choose(rows, RULED, [RULED, OTHER]) == OTHER
    partial = rows + [{RULED: 5.0}]  # a fourth world where time ran out before the other was weighed
    assert Margin(2.0, 4).choose(partial, RULED, [RULED, OTHER]) == RULED


def test_a_loss_or_a_tie_never_leaves_the_anchor():
    assert Margin(0.0, 2).choose(rows_of([-1.0, -2.0, -3.0, -1.0]), RULED, [RULED, OTHER]) == RULED
    assert Margin(0.0, 2).choose(rows_of([0.0, 0.0, 0.0, 0.0]), RULED, [RULED, OTHER]) == RULED


def test_uneven_weights_count_as_fewer_worlds():
    rows = rows_of([4.0, 5.0, 4.5, 5.5])
    assert Margin(2.0, 4).choose(rows, RULED, [RULED, OTHER], [1.0, 1.0, 1.0, 1.0]) == OTHER
    lopsided = [1.0, 1e-4, 1e-4, 1e-4]  # one world explains the others' choices: ~1 effective world
    assert Margin(2.0, 4).choose(rows, RULED, [RULED, OTHER], lopsided) == RULED


def test_the_variance_floor_widens_the_margin():
    rows = rows_of([1.0, 1.0, 1.0, 1.1])  # all but agree: a tiny spread
    assert Margin(2.0, 4).choose(rows, RULED, [RULED, OTHER]) == OTHER
    assert Margin(2.0, 4).choose(rows, RULED, [RULED, OTHER], floor=4.0) == RULED  # SE at least 1
    assert speculator_best(rows, RULED, pot=20) == RULED  # Спекулянт's floor: 0.3 of the pot


def test_a_gain_the_same_in_every_world_is_taken_at_any_finite_k_but_never_at_infinity():
    rows = rows_of([30.0, 30.0, 30.0, 30.0])  # no spread: the standard error is 0
    assert Margin(1e9, 4).choose(rows, RULED, [RULED, OTHER]) == OTHER
    assert Margin(math.inf, 4).choose(rows, RULED, [RULED, OTHER]) == RULED


@pytest.mark.parametrize("k,n", [(-1.0, 4), (math.nan, 4), (2.0, 1)])
def test_a_margin_that_means_nothing_is_refused(k, n):
    with pytest.raises(ValueError):
        Margin(k, n)


def play_with(margin: Margin, seat_bot_seed: int = 3) -> tuple[SearchBot, list[Action], list[Action]]:
    """Six deals of Стуколка a with a search bot in seat 0: its moves and a rule bot's in lockstep."""
    cls = get_game("stukolka")
    game = cls([f"P{i}" for i in range(4)], {"variant": "a"})
    bot = SearchBot("stukolka", seat_bot_seed, budget=None, iterations=4, margin=margin)
    twin = make_bot("stukolka", "rule", seat_bot_seed)  # the search bot's own rule bot, same seed
    chosen: list[Action] = []
    ruled: list[Action] = []

    class Pair:
        may_wait = False

        def observe(self, events):
            bot.observe(events)

        def choose(self, view, legal):
            want = twin.choose(view, legal)
            got = bot.choose(view, legal)
            ruled.append(want)
            chosen.append(got)
            return got

    seats = [Pair()] + [make_bot("stukolka", "rule", s) for s in range(1, 4)]
    arena = Arena(game, seats, rng=random.Random(1))
    decks = ShuffledDecks(cls.deck_size, 77)
    for _ in range(6):
        if not game.can_start_deal():
            break
        arena.play_deal(decks)
    return bot, chosen, ruled


@pytest.mark.slow  # six deals searched at 4 worlds a move twice: about 4 s under load
def test_an_infinite_margin_plays_the_rule_bots_moves_and_a_zero_margin_leaves_them():
    strict, chosen, ruled = play_with(Margin(math.inf, 4))
    assert strict.searched >= 5 and strict.departed == 0
    assert chosen == ruled  # every move the rule bot's, though every decision was searched
    loose, chosen, ruled = play_with(Margin(0.0, 2))
    assert loose.searched >= 5 and loose.departed >= 1
    assert chosen != ruled
