"""Cards read aloud: ``Q♠`` → "queen of spades" / "дама пик" (the ``cards words`` setting).

Every text of the club writes cards in symbols (``Q♠``, ``10♥``) or ASCII
(``QS``); rather than thread a third notation through every catalogue entry,
a finished line in symbols is rewritten here: cards first, then lone suits
("you must follow ♣" → "you must follow clubs").  A screen reader says
"Q black spade suit" for ``Q♠``; words are what a person says at a table.
"""

from __future__ import annotations

import re

from engine.cards import Card, Suit

RANK_WORDS = {
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
           10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"},
    "ru": {2: "двойка", 3: "тройка", 4: "четвёрка", 5: "пятёрка", 6: "шестёрка", 7: "семёрка",
           8: "восьмёрка", 9: "девятка", 10: "десятка", 11: "валет", 12: "дама", 13: "король", 14: "туз"},
}
SUIT_OF = {  # the suit after a rank: "of spades" / "пик"
    "en": {Suit.SPADES: "of spades", Suit.CLUBS: "of clubs", Suit.DIAMONDS: "of diamonds",
           Suit.HEARTS: "of hearts"},
    "ru": {Suit.SPADES: "пик", Suit.CLUBS: "треф", Suit.DIAMONDS: "бубен", Suit.HEARTS: "червей"},
}
SUIT_ALONE = {  # a suit named alone: "clubs" / "трефы"
    "en": {Suit.SPADES: "spades", Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts"},
    "ru": {Suit.SPADES: "пики", Suit.CLUBS: "трефы", Suit.DIAMONDS: "бубны", Suit.HEARTS: "черви"},
}
_SYMBOL = {"♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS}
_RANK = {"J": 11, "Q": 12, "K": 13, "A": 14, **{str(n): n for n in range(2, 11)}}
_CARD_RE = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♣♦♥])")
_SUIT_RE = re.compile(r"[♠♣♦♥]")


def card_words(card: Card, lang: str) -> str:
    """One card in words: "queen of spades", "дама пик"."""
    lang = lang if lang in RANK_WORDS else "en"
    return f"{RANK_WORDS[lang][int(card.rank)]} {SUIT_OF[lang][card.suit]}"


def suit_words(suit: Suit, lang: str) -> str:
    lang = lang if lang in SUIT_ALONE else "en"
    return SUIT_ALONE[lang][suit]


def in_words(text: str, lang: str) -> str:
    """A line with every card and suit symbol said in words."""
    if not _SUIT_RE.search(text):
        return text
    lang = lang if lang in RANK_WORDS else "en"

    def card(match: re.Match[str]) -> str:
        return f"{RANK_WORDS[lang][_RANK[match.group(1)]]} {SUIT_OF[lang][_SYMBOL[match.group(2)]]}"

    text = _CARD_RE.sub(card, text)
    return _SUIT_RE.sub(lambda m: SUIT_ALONE[lang][_SYMBOL[m.group(0)]], text)
