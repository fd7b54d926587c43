"""Card notation of RULES.md §9.1: every accepted form parses, canonical forms format."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.cards import Card, CardError, Rank, Suit, deck, format_cards, parse_card

QS = Card.of(Rank.QUEEN, Suit.SPADES)
TH = Card.of(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize("text", ["Q♠", "QS", "qs", "Д♠", "дп", "  q♠ ", "Q♤", "дП"])
def test_queen_of_spades_in_every_form(text: str) -> None:
    assert parse_card(text) is QS


@pytest.mark.parametrize("text", ["10♥", "10h", "th", "TH", "10ч", "Т♥".replace("Т", "T")])
def test_ten_of_hearts_in_every_form(text: str) -> None:
    assert parse_card(text) is TH


def test_russian_ranks_and_suits() -> None:
    """В Д К Т = J Q K A; п т/к б ч = ♠ ♣ ♦ ♥ (Cyrillic «т» as a rank is the ace)."""
    assert str(parse_card("вб")) == "J♦"
    assert str(parse_card("кк")) == "K♣"
    assert str(parse_card("тт")) == "A♣"
    assert str(parse_card("Тч")) == "A♥"
    assert str(parse_card("7п")) == "7♠"


@pytest.mark.parametrize("text", ["", "Q", "1♠", "11♠", "QX", "♠Q", "10", "ZZ", "Q♠♠", "0s", "A♠x"])
def test_garbage_is_refused_with_what_was_expected(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert "expected a rank" in str(err.value)


def test_formats() -> None:
    assert QS.text() == "Q♠" and QS.text(ascii=True) == "QS"
    assert TH.text(ascii=True) == "10H"
    assert format_cards([QS, TH], ascii=True) == "QS 10H"
    assert f"{QS:>4}" == "  Q♠"


def test_cards_round_trip_through_both_forms() -> None:
    for card in deck(52):
        assert parse_card(card.text()) is card
        assert parse_card(card.text(ascii=True)) is card


def test_decks() -> None:
    assert len(deck(32)) == 32 and min(c.rank for c in deck(32)) == Rank.SEVEN
    assert len(deck(36)) == 36 and min(c.rank for c in deck(36)) == Rank.SIX
    assert len(deck(48)) == 48 and min(c.rank for c in deck(48)) == Rank.THREE
    assert len(set(deck(52))) == 52
    with pytest.raises(ValueError):
        deck(40)


def test_cards_are_interned_and_survive_copy_and_pickle() -> None:
    assert copy.deepcopy(QS) is QS
    assert pickle.loads(pickle.dumps(QS)) is QS
    assert QS.rank is Rank.QUEEN and QS.suit is Suit.SPADES
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red
