"""Cards and money read aloud: ``Q♠`` → "queen of spades" / "дама пик", ``1 р. 20 к.`` → "1 рубль 20 копеек".

The ``cards words`` setting.

Every text of the club writes cards in symbols (``Q♠``, ``10♥``) or ASCII
(``QS``); rather than thread a third notation through every catalogue entry,
a finished line in symbols is rewritten here: cards first, then lone suits
("you must follow ♣" → "you must follow clubs").  A screen reader says
"Q black spade suit" for ``Q♠``; words are what a person says at a table.
"""

from __future__ import annotations

import re

from engine.cards import Card, Suit
from tui.i18n.plural import choose

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
_MONEY_RE = {"en": re.compile(r"(?<![\w.])(-?\d+) (r|k)\.(?=\W|$)"), "ru": re.compile(r"(?<![\w.])(-?\d+) (р|к)\.(?=\W|$)")}
MONEY_WORDS: dict[str, dict[str, tuple[str, ...]]] = {  # one|other, one|few|many (tui.i18n.plural)
    "en": {"r": ("# ruble", "# rubles"), "k": ("# kopeck", "# kopecks")},
    "ru": {"р": ("# рубль", "# рубля", "# рублей"), "к": ("# копейка", "# копейки", "# копеек")},
}


def card_words(card: Card, lang: str) -> str:
    """One card in words: "queen of spades", "дама пик"."""
    lang = lang if lang in RANK_WORDS else "en"
    return f"{RANK_WORDS[lang][int(card.rank)]} {SUIT_OF[lang][card.suit]}"


def suit_words(suit: Suit, lang: str) -> str:
    lang = lang if lang in SUIT_ALONE else "en"
    return SUIT_ALONE[lang][suit]


_RED = re.compile(r"(?:10|[2-9JQKAВДКТ])?[♦♥]")


def in_colour(text: str) -> str:
    """Red suits in red (``colour on``): the one escape sequence the text mode sends, and only when asked."""
    return _RED.sub(lambda m: f"\x1b[31m{m.group(0)}\x1b[39m", text)


def money_words(text: str, lang: str) -> str:
    """``1 r. 20 k.`` → ``1 ruble 20 kopecks`` (a screen reader says "r dot" otherwise)."""
    lang = lang if lang in MONEY_WORDS else "en"

    def amount(match: re.Match[str]) -> str:
        said = choose(lang, int(match.group(1)), MONEY_WORDS[lang][match.group(2)])
        rest = match.string[match.end():]
        ends = not rest or (rest[0] == " " and rest[1:2].isupper())  # its dot also ended the sentence
        return said + ("." if ends else "")

    return _MONEY_RE[lang].sub(amount, text)


def in_words(text: str, lang: str) -> str:
    """A line with every card, suit symbol and sum of money said in words."""
    lang = lang if lang in RANK_WORDS else "en"
    text = money_words(text, lang)
    if not _SUIT_RE.search(text):
        return text

    def card(match: re.Match[str]) -> str:
        return f"{RANK_WORDS[lang][_RANK[match.group(1)]]} {SUIT_OF[lang][_SYMBOL[match.group(2)]]}"

    text = _CARD_RE.sub(card, text)
    return _SUIT_RE.sub(lambda m: SUIT_ALONE[lang][_SYMBOL[m.group(0)]], text)


SHORT_RANK = {"en": {"J": "J", "Q": "Q", "K": "K", "A": "A"}, "ru": {"J": "В", "Q": "Д", "K": "К", "A": "Т"}}
SHORT_SUIT = {"en": {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}, "ru": {"♠": "П", "♣": "Т", "♦": "Б", "♥": "Ч"}}


def in_short(text: str, lang: str) -> str:
    """``cards short``: ``Q♠`` → ``QS`` / ``ДП`` (two cells of a braille line, and typed back as they are);
    a suit named alone is said in words."""
    lang = lang if lang in SHORT_RANK else "en"
    if not _SUIT_RE.search(text):
        return text

    def card(match: re.Match[str]) -> str:
        rank = match.group(1)
        return SHORT_RANK[lang].get(rank, rank) + SHORT_SUIT[lang][match.group(2)]

    text = _CARD_RE.sub(card, text)
    return _SUIT_RE.sub(lambda m: SUIT_ALONE[lang][_SYMBOL[m.group(0)]], text)


def in_symbols(text: str, lang: str) -> str:
    """``cards symbols`` in Russian: court ranks in Russian letters (``Q♠`` → ``Д♠``), so a Russian voice
    does not read them as English letters; the suit symbols stay, and ``Д♠`` is valid input as it is."""
    if lang != "ru" or not _SUIT_RE.search(text):
        return text
    return _CARD_RE.sub(lambda m: SHORT_RANK["ru"].get(m.group(1), m.group(1)) + m.group(2), text)
