"""Issue 14: a game state copies whole — ``pickle`` (the search bot's worlds) and ``copy.deepcopy``.

``Game`` keeps the session in ``__slots__`` and every game its own state too (no instance dict: the
engine bench's attribute reads; on 3.13 a dict under a slotted base loses its inline values); a slot
a copy forgot, or one left unset, would show here as a different view, a different legal list or a
different continuation of the same moves.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine.game import ADMIN, Game, ShuffledDecks
from engine.games import registry
from engine.games.stukolka import Stukolka

UNCLOCKED = sorted((name, variant, cls) for name, cls in registry().items() if not cls.clocked
                   for variant in ([o for o in cls.options_spec if o.name == "variant"][:1] and
                                   [o for o in cls.options_spec if o.name == "variant"][0].choices or (None,)))


def _copies(game: Game) -> list[Game]:
    return [pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL)), pickle.loads(pickle.dumps(game)),
            copy.deepcopy(game)]


def _same(a: Game, b: Game) -> None:
    assert a.view(ADMIN) == b.view(ADMIN)
    assert a.places() == b.places()
    assert a.to_act() == b.to_act()
    for seat in a.to_act():
        assert a.legal_actions(seat) == b.legal_actions(seat)
    assert (a.pot, a.balances, a.deal_no, a.in_deal, len(a.deals)) == (b.pot, b.balances, b.deal_no, b.in_deal,
                                                                       len(b.deals))


@pytest.mark.parametrize(("name", "variant", "cls"), UNCLOCKED, ids=[f"{n}-{v}" for n, v, _ in UNCLOCKED])
def test_a_copy_mid_deal_is_the_same_game_and_plays_on_the_same(name: str, variant: str | None, cls: type) -> None:
    options = cls.make_options({} if variant is None else {"variant": variant})
    low, _high = cls.player_range(options)
    game = cls([f"p{i}" for i in range(low)], options)
    rng = random.Random(11)
    decks = ShuffledDecks(cls.deck_size, 4)
    copied = 0
    for _deal in range(3):
        if not game.can_start_deal():
            break
        game.start_deal(decks)
        while game.in_deal:
            seat = sorted(game.to_act())[0]
            if rng.random() < 0.3:  # a copy here, played on with the very moves the original makes
                twins = _copies(game)
                for twin in twins:
                    _same(twin, game)
                moves = 0
                while game.in_deal and moves < 6:
                    seat = sorted(game.to_act())[0]
                    action = rng.choice(game.legal_actions(seat))
                    events = game.apply(seat, action)
                    for twin in twins:
                        assert twin.apply(seat, action) == events
                        _same(twin, game)
                    moves += 1
                copied += 1
                continue
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert copied >= 3


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_game_keeps_its_state_in_slots(name: str) -> None:
    """A game class that forgot ``__slots__`` (or a mixin without ``__slots__ = ()``) brings the dict back."""
    cls = registry()[name]
    options = cls.make_options({})
    game = cls([f"p{i}" for i in range(cls.player_range(options)[0])], options)
    assert not hasattr(game, "__dict__")


def test_stukolka_keeps_every_attribute_in_a_slot_and_its_stake_both_ways() -> None:
    """No instance dict (every attribute at a fixed offset); ``stake`` is still the class's rule and P on a game."""
    game = Stukolka([f"p{i}" for i in range(5)], {"variant": "a", "a": 60})
    assert not hasattr(game, "__dict__")
    assert Stukolka.stake(Stukolka.make_options({"a": 60})) == 60  # Game.stake: the least one risks at once
    assert game.stake == 0
    decks = ShuffledDecks(52, 2)
    rng = random.Random(3)
    for _deal in range(20):  # until a deal reaches its play: P is the pot then (R43)
        game.start_deal(decks)
        while game.in_deal and game.phase != "play":
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.in_deal:
            break
    assert game.phase == "play" and game.stake == game.pot
    assert game.stake > 0 and game.stake % 3 == 0
    assert game.view(ADMIN)["stake"] == game.stake
    with pytest.raises(AttributeError):
        game.extra = 1  # type: ignore[attr-defined]
