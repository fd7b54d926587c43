"""``engine.holder``: one place per card (issue 14 step 7), and Стуколка kept on it."""

from __future__ import annotations

import random

import pytest

from engine.cards import deck, parse_cards
from engine.game import ADMIN, ShuffledDecks
from engine.games.stukolka import DISCARDS, STOCK, TRICK, Stukolka
from engine.holder import NOWHERE, Holder
from invariants import assert_holder_agrees


def cards(text: str):
    return parse_cards(text.split())


def test_a_card_cannot_start_in_two_places() -> None:
    with pytest.raises(ValueError, match="two places"):
        Holder(("a", "b"), {0: cards("Q♠ 10♥"), 1: cards("10♥")})
    with pytest.raises(ValueError, match="two places"):
        Holder(("a",), {0: cards("Q♠ Q♠")})


def test_moves_keep_one_place_and_the_order_cards_came_in() -> None:
    holder = Holder(("hand", "stock", "pile"), {1: cards("2♠ 3♠ 4♠ 5♠ 6♠")})
    assert holder.take(1, 2, 0) == cards("2♠ 3♠")
    holder.move(cards("5♠")[0], 0)
    assert holder.piles == [cards("2♠ 3♠ 5♠"), cards("4♠ 6♠"), []]
    holder.move(cards("2♠")[0], 2)
    holder.move_many(cards("3♠ 6♠"), 2)
    assert holder.piles == [cards("5♠"), cards("4♠"), cards("2♠ 3♠ 6♠")]
    assert holder.take_all(2, 1) == cards("2♠ 3♠ 6♠")
    assert holder.places() == {"hand": cards("5♠"), "stock": cards("4♠ 2♠ 3♠ 6♠"), "pile": []}
    assert holder.where[cards("3♠")[0]] == 1 and holder.where[cards("5♠")[0]] == 0
    assert holder.where[cards("A♥")[0]] == NOWHERE
    assert_holder_agrees(holder)


def test_plays_remember_who_played_each_card() -> None:
    holder = Holder(("hand:0", "hand:1", "trick", "taken"), {0: cards("A♠ 7♥"), 1: cards("K♠")})
    holder.play(cards("A♠")[0], 2, 0)
    holder.play(cards("K♠")[0], 2, 1)
    assert holder.plays(2) == [(0, cards("A♠")[0]), (1, cards("K♠")[0])]
    holder.take_all(2, 3)
    assert holder.plays(3) == [(0, cards("A♠")[0]), (1, cards("K♠")[0])] and holder.plays(2) == []
    assert holder.places() == {"hand:0": cards("7♥"), "hand:1": [], "trick": [], "taken": cards("A♠ K♠")}


def test_a_place_named_none_is_not_reported() -> None:
    holder = Holder(("hand:0", None, "stock"), {2: cards("A♠")})
    assert holder.places() == {"hand:0": [], "stock": cards("A♠")}


def test_places_copy_so_a_reader_cannot_move_a_card() -> None:
    holder = Holder(("a", "b"), {0: cards("A♠ K♠")})
    holder.places()["a"].clear()
    assert holder.piles[0] == cards("A♠ K♠")


@pytest.mark.parametrize("variant,n,options", [("a", 5, {}), ("b", 4, {}), ("v", 5, {"dark": True, "razrez": True}),
                                               ("g", 4, {})])
def test_stukolka_keeps_every_card_in_its_holder(variant: str, n: int, options: dict) -> None:
    """Random deals: after every action the holder's ``where`` and its piles agree, and the piles
    are what the old per-place lists were (hands in order, the stock top first, tricks with seats)."""
    rng = random.Random(3)
    game = Stukolka([f"P{i}" for i in range(n)], {"variant": variant, **options})
    decks = ShuffledDecks(52, seed=4)
    for _ in range(40):
        game.start_deal(decks)
        while game.in_deal:
            holder = game.cards
            assert_holder_agrees(holder)
            assert sorted(c for pile in holder.piles for c in pile) == sorted(deck(52))
            view = game.view(ADMIN)
            assert view["hands"] == [holder.piles[s] for s in range(n)]
            assert view["stock"] == holder.piles[STOCK] and view["discards"] == holder.piles[DISCARDS]
            assert [c for _, c in view["trick"]] == holder.piles[TRICK]
            assert all(holder.where[c] == TRICK and holder.by[c] == s for s, c in game.trick)
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert_holder_agrees(game.cards)


def test_legal_actions_are_a_copy_of_the_remembered_list() -> None:
    """Стуколка lists the legal actions once per state; a caller changing his list changes nothing."""
    game = Stukolka([f"P{i}" for i in range(4)], {"variant": "a"})
    game.start_deal(ShuffledDecks(52, seed=1))
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)
    legal.clear()
    assert game.legal_actions(seat) and game.why_not(seat, game.legal_actions(seat)[0]) is None
