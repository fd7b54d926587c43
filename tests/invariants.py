"""The invariants every game keeps, written once: the shared random test over every registered
game (tests/engine/test_every_game_random.py) and each game's own random test call them.

Importable from any test folder (``tests/`` is on ``sys.path`` through its ``conftest.py``).
"""

from __future__ import annotations

from engine.cards import deck
from engine.game import Game
from engine.holder import NOWHERE, Holder


def assert_cards_in_one_place(game: Game, size: int) -> None:
    """Every card of the ``size``-card deck lies in exactly one of ``places()`` (once dealt)."""
    holder = getattr(game, "cards", None)
    if isinstance(holder, Holder):  # a game on one holder per card (engine.holder)
        assert_holder_agrees(holder)
    places = game.places()
    if places:
        every = [c for cards in places.values() for c in cards]
        assert sorted(every) == sorted(deck(size)), "a card is lost or in two places"


def assert_holder_agrees(holder: Holder) -> None:
    """A holder's ``where`` names, for every card, the one pile it lies in (and no pile holds a card twice)."""
    listed = {}
    for place, pile in enumerate(holder.piles):
        for card in pile:
            assert card not in listed, f"{card} lies in {holder.names[listed[card]]} and {holder.names[place]}"
            listed[card] = place
    for card, place in enumerate(holder.where):
        assert place == listed.get(card, NOWHERE), f"where[{card}] says {place}, the piles {listed.get(card)}"


def assert_money_kept(game: Game, start_money: int) -> None:
    """No kopeck is made or lost: the players' balances and the pot add up to what they started at."""
    assert sum(game.balances) + game.pot == start_money, "money not conserved"


def assert_turns(game: Game, seats: range | None = None) -> None:
    """Legal actions exactly for the seats ``to_act`` names, in a deal; nobody to act only when it is over."""
    to_act = set(game.to_act())
    assert bool(to_act) == game.in_deal, f"to act {sorted(to_act)} but in deal is {game.in_deal}"
    for seat in seats if seats is not None else range(len(game.names)):
        assert bool(game.legal_actions(seat)) == (seat in to_act), f"seat {seat}'s legal actions"


def assert_shared(game: Game, size: int, start_money: int) -> None:
    """The three above."""
    assert_cards_in_one_place(game, size)
    assert_money_kept(game, start_money)
    assert_turns(game)
