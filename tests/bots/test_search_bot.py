"""The search bot (issue 19): it searches, plays only legal actions, and decides from its seat's view only.

The hidden-information check is the rule bots' (test_hidden_information): three
search bots of one seed, in lockstep, are shown the seat's own view, the ADMIN
view shaped as the seat's, and the same with every hand in it; they hear the
same public events, search a fixed number of imagined deals (``iterations``:
no clock, so a run repeats) and must choose alike.  A planted cheat that looks
at a neighbour's hand when it can is caught.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import pytest
from test_hidden_information import seat_like_admin_view

from engine.bots import make_bot
from engine.bots.arena import Arena
from engine.bots.search import SearchBot
from engine.game import Action, Game, ShuffledDecks
from engine.games import get_game

CONFIGS = [("stukolka", 4, {"variant": "a"}), ("stukolka", 5, {"variant": "b"}), ("ukr_pairs", 4, {}),
           ("french3", 3, {})]


class SearchTriplet:
    """Three search bots of one seed answering the three views; they must agree."""

    def __init__(self, game: Game, bots: list[SearchBot]):
        self.game = game
        self.bots = bots
        self.decisions = 0
        self.hidden_shown = 0

    def observe(self, events: Sequence[Any]) -> None:
        for bot in self.bots:
            bot.observe(events)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action | None:
        seat = view["viewer"]
        stripped = seat_like_admin_view(self.game, seat, other_hands=False)
        full = seat_like_admin_view(self.game, seat, other_hands=True)
        self.hidden_shown += full != view
        answers = [bot.choose(v, legal) for bot, v in zip(self.bots, (view, stripped, full))]
        assert answers[0] == answers[1] == answers[2], (seat, view.get("phase"), answers)
        self.decisions += 1
        return answers[0]


def play(name: str, players: int, options: dict[str, Any], deals: int, make) -> tuple[list[Any], Game]:
    cls = get_game(name)
    game = cls([f"P{i}" for i in range(players)], options)
    seats = [make(game, i) for i in range(players)]
    arena = Arena(game, seats, rng=random.Random(1))
    decks = ShuffledDecks(cls.deck_size, 77)
    for _ in range(deals):
        if not game.can_start_deal():
            break
        arena.play_deal(decks)
    return seats, game


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("name,players,options", CONFIGS, ids=[f"{c[0]}-{c[1]}" for c in CONFIGS])
def test_hidden_cards_change_no_search_decision(name, players, options):
    def make(game, seat):
        if seat == 0:
            return SearchTriplet(game, [SearchBot(name, 5, budget=None, iterations=3) for _ in range(3)])
        return make_bot(name, "rule", seat)

    seats, _ = play(name, players, options, 3, make)
    triplet = seats[0]
    assert triplet.decisions >= 5
    assert triplet.hidden_shown > triplet.decisions // 2  # the richer views did hold hidden cards
    bot = triplet.bots[0]
    assert bot.searched >= 1 and bot.samples >= 3  # it did search, not only fall back on the rules


class PeekingSearch(SearchBot):
    """A cheat: when it can see its neighbour's hand it plays its last legal action."""

    def _choose(self, view, legal):
        if view["hands"][(view["viewer"] + 1) % len(view["names"])] is not None:
            return legal[-1]
        return super()._choose(view, legal)


def test_the_check_catches_a_search_bot_that_peeks():
    def make(game, seat):
        return SearchTriplet(game, [PeekingSearch("ukr_pairs", 5, budget=None, iterations=1) for _ in range(3)])

    with pytest.raises(AssertionError):
        play("ukr_pairs", 4, {}, 2, make)


def test_it_searches_nearly_every_decision():
    bots: list[SearchBot] = []

    def make(game, seat):
        bot = SearchBot("stukolka", seat, budget=None, iterations=4)  # its time per move: tests/bench
        bots.append(bot)
        return bot

    seats, game = play("stukolka", 4, {"variant": "a"}, 4, make)
    searched = sum(b.searched for b in bots)
    fell_back = sum(b.fallbacks for b in bots)
    assert searched >= 10 and fell_back <= searched // 4, (searched, fell_back)
    assert sum(game.balances) + game.pot == 0  # no kopeck made or lost


def test_games_it_cannot_replay_are_played_by_the_rules():
    bots: list[SearchBot] = []

    def make(game, seat):
        bot = SearchBot("kopilka", seat, budget=None, iterations=2)
        bots.append(bot)
        return bot

    play("kopilka", 4, {}, 2, make)
    assert all(b.searched == 0 for b in bots) and sum(b.fallbacks for b in bots) > 0
