"""Refusals reach the player in his language and card notation, by catalogue key."""

from __future__ import annotations

import pytest

from engine.cards import Card, Rank, Suit, deck
from engine.game import IllegalAction, ShuffledDecks
from engine.games.stukolka import Stukolka
from tui.refusals import explain


def refusal(game: Stukolka, seat: int, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, text)
    return err.value


def playing_game(seed: int = 1) -> Stukolka:
    """A shuffled deal where all four knock."""
    game = Stukolka(["P0", "P1", "P2", "P3"])
    game.start_deal(ShuffledDecks(52, seed))
    for seat in (1, 2, 3, 0):
        game.apply(seat, "knock")
    return game


def test_rule_refusals_are_told_in_russian_with_the_rule() -> None:
    """R41 in Russian: a player holding the led suit must follow it."""
    for seed in range(100):  # find a follower who holds the led suit and another one
        game = playing_game(seed)
        leader = game.to_act()[0]
        lead = game.legal_actions(leader)[0].args[0]
        game.apply(leader, f"play {lead}")
        hand = game.hands[game.to_act()[0]]
        if any(c.suit == lead.suit for c in hand) and any(c.suit != lead.suit for c in hand):
            break
    off = next(c for c in hand if c.suit != lead.suit)
    err = refusal(game, game.to_act()[0], f"play {off}")
    assert err.key == "stukolka.follow"
    assert explain(err, "ru") == f"У вас есть {lead.suit}, нужно ходить в масть {lead.suit} (R41)."
    assert explain(err, "en", ascii=True) == f"You hold {lead.suit.letter}, so you must follow {lead.suit.letter} (R41)."


def test_not_your_turn_and_not_held_in_both_languages_and_ascii() -> None:
    game = playing_game()
    leader = game.to_act()[0]
    other = (leader + 1) % 4
    err = refusal(game, other, "play 2s")
    assert err.key == "refuse.not_turn"
    assert explain(err, "ru").startswith("Сейчас не ваш ход")
    missing = next(c for c in deck(52) if c not in game.hands[leader])
    err = refusal(game, leader, f"play {missing}")
    assert err.key == "refuse.not_held"
    assert explain(err, "en", ascii=True) == f"You do not hold {missing.text(ascii=True)}."
    assert explain(err, "ru") == f"У вас нет {missing}."


def test_bad_card_and_unknown_verb_keys() -> None:
    game = playing_game()
    leader = game.to_act()[0]
    assert refusal(game, leader, "play zz").key == "refuse.not_card"
    err = refusal(game, leader, "fold")
    assert err.key == "refuse.unknown_verb" and "fold" in explain(err, "ru")


def test_a_refusal_without_a_key_is_told_as_written() -> None:
    assert explain(IllegalAction("Plain words."), "ru") == "Plain words."
    assert Card.of(Rank.ACE, Suit.SPADES).text(ascii=True) == "AS"
