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
from engine.bots.margin import Margin
from engine.bots.search import TABLE_KINDS, SearchBot
from engine.game import Action, Game, ShuffledDecks
from engine.games import get_game

CONFIGS = [("stukolka", 4, {"variant": "a"}), ("stukolka", 5, {"variant": "b"}), ("ukr_pairs", 4, {}),
           ("french3", 3, {}), ("kopilka", 4, {}), ("speculator", 4, {"W": 5, "Wmax": 10})]


LOOSE = Margin(0.0, 2)
"""A margin that lets three worlds move the bot off the rule bot's choice: the searched choices are then
the ones compared (the default margin asks for more worlds than these tests can afford)."""
LONG = ("french3", "speculator")
"""Games whose one deal is long enough for a test (a French deal's many tricks, Спекулянт's playouts)."""


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


def search_bots_play(name: str, players: int, options: dict[str, Any], deals: int,
                     iterations: int) -> tuple[list[SearchBot], Game]:
    """A search bot in every seat, ``iterations`` worlds a move, playing ``deals`` deals; the bots and the game."""
    bots: list[SearchBot] = []

    def make(game, seat):
        bot = SearchBot(name, seat, budget=None, iterations=iterations)
        bots.append(bot)
        return bot

    _, game = play(name, players, options, deals, make)
    return bots, game


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("name,players,options", CONFIGS, ids=[f"{c[0]}-{c[1]}" for c in CONFIGS])
def test_hidden_cards_change_no_search_decision(name, players, options):
    def make(game, seat):
        if seat == 0:
            return SearchTriplet(game, [SearchBot(name, 5, budget=None, iterations=3, margin=LOOSE)
                                        for _ in range(3)])
        return make_bot(name, "rule", seat)

    deals = 1 if name in LONG else 3 if name == "kopilka" else 6  # a seat that passes decides once a deal
    seats, _ = play(name, players, options, deals, make)
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
    bots, game = search_bots_play("stukolka", 4, {"variant": "a"}, 4, iterations=4)  # its time per move: tests/bench
    searched = sum(b.searched for b in bots)
    fell_back = sum(b.fallbacks for b in bots)
    assert searched >= 10 and fell_back <= searched // 4, (searched, fell_back)
    assert sum(game.balances) + game.pot == 0  # no kopeck made or lost


@pytest.mark.slow  # a partiya of four search bots: about 5 s
def test_kopilka_is_searched_through_its_face_down_lay_outs():
    """Копилка's worlds must deal every seat the real lay-out's shape (engine.bots.kopilka_worlds):
    a whole partiya of search bots searches most decisions, and every kopeck stays accounted for."""
    bots, game = search_bots_play("kopilka", 4, {}, 4, iterations=2)
    searched, fell_back = sum(b.searched for b in bots), sum(b.fallbacks for b in bots)
    assert searched >= 20 and fell_back < searched, (searched, fell_back)
    assert game.natural_end() and sum(game.balances) + game.pot == 0


def test_a_kopilka_hand_has_the_shape_its_lay_out_says():
    from engine.bots.kopilka_worlds import shape_ok
    from engine.cards import parse_cards

    hand = parse_cards(["7♥", "9♥", "A♥", "8♠", "K♣"])
    assert shape_ok(hand, 3) and not shape_ok(hand, None) and not shape_ok(hand, 4)
    two = parse_cards(["7♥", "9♥", "8♠", "A♠", "K♣"])
    assert shape_ok(two, None) and not shape_ok(two, 3)


EVERY_GAME = [("stukolka", 4, {"variant": "a"}), ("stukolka", 4, {"variant": "b"}),
              ("stukolka", 5, {"variant": "v", "dark": True, "razrez": True}), ("stukolka", 4, {"variant": "g"}),
              ("kopilka", 4, {}), ("french3", 3, {}), ("ukr_pairs", 4, {}), ("speculator", 4, {"W": 5, "Wmax": 10})]


@pytest.mark.parametrize("name,players,options", EVERY_GAME,
                         ids=[f"{c[0]}-{c[2].get('variant', c[1])}" for c in EVERY_GAME])
def test_search_bots_play_only_legal_moves_in_every_game(name, players, options):
    """Every seat a search bot (two worlds a move): ``Bot.choose`` refuses an action outside ``legal``
    and ``Game.apply`` an illegal one, so whole deals played out prove every move legal."""
    bots, game = search_bots_play(name, players, options, 1 if name in LONG else 2, iterations=2)
    assert game.deal_no >= 1 and not game.in_deal
    assert sum(b.searched + b.fallbacks for b in bots) > 0
    assert sum(b.searched for b in bots) > 0  # every game is searched (Спекулянт inside its windows)


class CheckedWorlds(SearchBot):
    """After every search, each imagined world of this decision is compared with the real game:
    what the seat sees there must be exactly what it sees at the table (its hand, every public field)."""

    real: Game
    compared = 0

    def _search(self, view, legal, ruled=None):
        chosen = super()._search(view, legal, ruled)
        seat = view["viewer"]
        shown = self.real.view(seat)
        for world in self.worlds:
            if world.at != sum(1 for e in self.events if e.kind not in TABLE_KINDS):
                continue  # a world kept from an earlier decision and not reached this time
            imagined = world.game.view(seat)
            for key, value in shown.items():
                if key == "hands":  # a hand's order is the deal's; the cards must be the same
                    assert sorted(imagined[key][seat] or []) == sorted(value[seat] or []), (key, seat)
                    assert [h is None for h in imagined[key]] == [h is None for h in value]
                else:
                    assert imagined.get(key) == value, (key, imagined.get(key), value)
            self.compared += 1
        return chosen


SEARCHED = [c for c in EVERY_GAME if c[0] in ("stukolka", "french3", "ukr_pairs", "kopilka")]


@pytest.mark.parametrize("name,players,options", SEARCHED,
                         ids=[f"{c[0]}-{c[2].get('variant', c[1])}" for c in SEARCHED])
def test_imagined_worlds_agree_with_the_seat_view_and_the_public_events(name, players, options):
    checked: list[CheckedWorlds] = []

    def make(game, seat):
        if seat == 1:
            bot = CheckedWorlds(name, 3, budget=None, iterations=3)
            bot.real = game
            checked.append(bot)
            return bot
        return make_bot(name, "rule", seat)

    play(name, players, options, 1 if name == "french3" else 3, make)
    assert checked[0].compared >= 5, checked[0].compared


class CheckedWindows(SearchBot):
    """Спекулянт: at every window decision an imagined world (the deal replayed from the public events
    on a record's rules) must show the seat exactly its real view — but the table's clock."""

    real: Game
    compared = 0

    def _speculate(self, view, legal, ruled):
        from engine.bots.speculator_search import world

        if view["window"] and self.events and self.deal_seen == view["deal_no"]:
            imagined = world(view, self.events, random.Random(self.compared))
            assert imagined is not None
            mine = imagined.view(view["viewer"])
            for key, value in self.real.view(view["viewer"]).items():
                if key not in ("deadline", "clock", "live_clock"):
                    assert mine.get(key) == value, (key, mine.get(key), value)
            self.compared += 1
        return super()._speculate(view, legal, ruled)


@pytest.mark.slow  # Спекулянт's playouts: about 10 s
def test_speculator_worlds_agree_with_the_seat_view_and_the_public_events():
    checked: list[CheckedWindows] = []

    def make(game, seat):
        if seat == 1:
            bot = CheckedWindows("speculator", 3, budget=None, iterations=1)
            bot.real = game
            checked.append(bot)
            return bot
        return make_bot("speculator", "rule", seat)

    play("speculator", 4, {"W": 5, "Wmax": 10}, 2, make)
    assert checked[0].compared >= 10 and checked[0].searched >= 5, (checked[0].compared, checked[0].searched)


def test_a_search_bot_keeping_many_worlds_carries_its_session_into_the_next_deal():
    """With more kept worlds than carrying tries, the tries used to go all to those worlds, which a deal's
    later play mostly contradicts: the bot then played the rule bot's move at each later deal's opening."""
    bots, game = search_bots_play("stukolka", 4, {"variant": "g"}, 4, iterations=24)
    searched = sum(b.searched for b in bots)
    assert game.deal_no >= 3 and searched >= 12
    assert sum(b.fallbacks for b in bots) == 0, [(b.searched, b.fallbacks) for b in bots]


@pytest.mark.slow  # a partiya of four search bots: about 4 s
def test_a_kopilka_search_bot_carries_its_session_with_its_own_lay_outs():
    """Carrying the session over a finished Копилка deal needs the seat's own sight of that deal (its
    dealt cards and row, what each take brought): without it the face-down lay-outs could rarely be
    imagined, and the bot played the rules for whole deals."""
    bots, game = search_bots_play("kopilka", 4, {}, 4, iterations=8)
    searched, fell_back = sum(b.searched for b in bots), sum(b.fallbacks for b in bots)
    assert game.deal_no == 4 and searched >= 60
    assert fell_back == 0, [(b.searched, b.fallbacks) for b in bots]
