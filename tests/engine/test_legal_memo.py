"""Issue 14: the base ``Game`` owns the one legal-action memo (French ``buy``, Стуколка's hot path).

The memo is keyed by a count of changes (``apply``, ``start_deal``): after every
change it lists afresh, a caller's copy can be changed without touching it, and a
refusal leaves it as it was.  Only games whose state changes there alone opt in.
"""

from __future__ import annotations

import pickle
import random

import pytest

from engine.game import Action, IllegalAction, ShuffledDecks
from engine.games import registry

MEMO_CONFIGS = [("french3", {}, 3), ("stukolka", {"variant": "a"}, 5), ("stukolka", {"variant": "v", "dark": True}, 4),
                ("stukolka", {"variant": "g"}, 4)]


def test_only_unclocked_games_opt_in_and_the_two_that_did() -> None:
    memo = {name for name, cls in registry().items() if cls.memo_legal}
    assert memo == {"french3", "stukolka"}
    assert all(not registry()[name].clocked for name in memo)  # time would change them behind the memo


@pytest.mark.parametrize(("name", "options", "players"), MEMO_CONFIGS)
def test_the_memo_lists_afresh_after_every_change(name: str, options: dict, players: int) -> None:
    cls = registry()[name]
    rng = random.Random(5)
    game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
    decks = ShuffledDecks(cls.deck_size, 9)
    checked = 0
    for _deal in range(4):
        if not game.can_start_deal():
            break
        game.start_deal(decks)
        while game.in_deal:
            seat = sorted(game.to_act())[0]
            legal = game.legal_actions(seat)
            assert legal == game._legal(seat), "the memo is stale"  # a fresh listing of this state
            legal.append(Action("nonsense"))  # the caller's copy: the memo keeps its own
            assert Action("nonsense") not in game.legal_actions(seat)
            with pytest.raises(IllegalAction):
                game.apply(seat, Action("nonsense"))
            assert game.legal_actions(seat) == game._legal(seat)  # a refusal changed nothing
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("name", "options", "players"), MEMO_CONFIGS)
def test_a_listed_action_is_still_refused_to_another_seat_and_after_the_state_moved(
        name: str, options: dict, players: int) -> None:
    """``apply`` takes a listed action at once (the hot path): only for the seat and state it was listed for."""
    cls = registry()[name]
    rng = random.Random(11)
    game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
    decks = ShuffledDecks(cls.deck_size, 3)
    game.start_deal(decks)
    checked = 0
    while game.in_deal:
        seat = sorted(game.to_act())[0]
        legal = game.legal_actions(seat)
        other = (seat + 1) % players
        if other not in game.to_act():
            before = (game.view(-2), len(game.deals[-1].actions))
            with pytest.raises(IllegalAction) as refused:
                game.apply(other, legal[0])  # the memo is this seat's: another is told it is not his turn
            assert refused.value.key == "refuse.not_turn"
            assert (game.view(-2), len(game.deals[-1].actions)) == before  # and nothing changed
            checked += 1
        action = rng.choice(legal)
        game.apply(seat, action)
        if game.in_deal and seat in game.to_act() and action not in game._legal(seat):
            with pytest.raises(IllegalAction):
                game.apply(seat, action)  # listed in the state before: not legal in this one
    assert checked > 5


def test_stukolka_to_act_is_the_base_answer_in_and_out_of_a_deal() -> None:
    """Стуколка answers ``to_act`` with its own hook (one call a turn fewer): () whenever no deal runs."""
    from engine.game import Game
    cls = registry()["stukolka"]
    for options, players in (({"variant": "a"}, 5), ({"variant": "b"}, 4), ({"variant": "v", "dark": True,
                                                                               "razrez": True}, 5),
                             ({"variant": "g"}, 4)):
        rng = random.Random(2)
        game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
        assert game.to_act() == Game.to_act(game) == ()
        decks = ShuffledDecks(cls.deck_size, 4)
        for _deal in range(30):
            game.start_deal(decks)
            while game.in_deal:
                assert game.to_act() == Game.to_act(game) != ()
                seat = game.to_act()[0]
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            assert game.to_act() == Game.to_act(game) == ()


@pytest.mark.parametrize(("name", "options", "players"), MEMO_CONFIGS)
def test_a_copy_leaves_the_memo_behind_and_plays_on_the_same(name: str, options: dict, players: int) -> None:
    """The memo is a cache: a pickled copy (the search copies worlds by pickle) does not carry it, so listing
    the legal actions does not make the copy bigger (a French exchange's 4096 buys were most of one), and
    the copy lists and takes the same actions."""
    cls = registry()[name]
    rng = random.Random(13)
    game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
    game.start_deal(ShuffledDecks(cls.deck_size, 4))
    checked = 0
    while game.in_deal:
        seat = sorted(game.to_act())[0]
        size = len(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
        legal = game.legal_actions(seat)
        copy = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
        assert len(pickle.dumps(game, pickle.HIGHEST_PROTOCOL)) == size
        assert copy.legal_actions(seat) == legal
        action = rng.choice(legal)
        assert copy.apply(seat, action) == game.apply(seat, action)
        assert copy.view(-2) == game.view(-2)
        checked += 1
    assert checked > 5
