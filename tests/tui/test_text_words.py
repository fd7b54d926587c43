"""Cards and money read aloud (``cards words``, issue 17): every card of a 52-card deck, both languages."""

from __future__ import annotations

import pytest

from engine.cards import deck
from tui.text.cards import card_words, in_words

RU_RANKS = {2: "двойка", 3: "тройка", 4: "четвёрка", 5: "пятёрка", 6: "шестёрка", 7: "семёрка", 8: "восьмёрка",
            9: "девятка", 10: "десятка", 11: "валет", 12: "дама", 13: "король", 14: "туз"}
RU_SUITS = ["пик", "треф", "бубен", "червей"]
EN_RANKS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
            11: "jack", 12: "queen", 13: "king", 14: "ace"}
EN_SUITS = ["spades", "clubs", "diamonds", "hearts"]


def test_every_card_in_words_in_a_sentence() -> None:
    for card in deck(52):
        ru = f"{RU_RANKS[int(card.rank)]} {RU_SUITS[int(card.suit)]}"
        en = f"{EN_RANKS[int(card.rank)]} of {EN_SUITS[int(card.suit)]}"
        assert card_words(card, "ru") == ru and card_words(card, "en") == en
        assert in_words(f"Boris plays {card.text()}; it wins.", "en") == f"Boris plays {en}; it wins."
        assert in_words(f"Вера кладёт {card.text()}.", "ru") == f"Вера кладёт {ru}."


@pytest.mark.parametrize("lang, text, said", [
    ("en", "You must follow ♣.", "You must follow clubs."),
    ("ru", "Козыри ♦.", "Козыри бубны."),
    ("en", "The pot holds 1 r. 20 k.: each trick is worth 40 k. Boris leads.",
     "The pot holds 1 ruble 20 kopecks: each trick is worth 40 kopecks. Boris leads."),
    ("ru", "На кону 2 р. 21 к.; -5 р. за ремиз.", "На кону 2 рубля 21 копейка; -5 рублей за ремиз."),
    ("en", "anna: 1 k., boris: -11 k.", "anna: 1 kopeck, boris: -11 kopecks."),
    ("en", "Seat 10: nobody.", "Seat 10: nobody."),
])
def test_suits_and_money_in_words(lang: str, text: str, said: str) -> None:
    assert in_words(text, lang) == said
