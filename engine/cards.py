"""Suits, ranks, cards, decks and the card notation records use.

A card is an ``int`` subclass (``suit * 16 + rank``).  That makes cards
immutable, hashable and as cheap to compare, sort and put in sets as plain
integers, which the random-play benchmarks need, while ``isinstance(x, Card)``
still tells a card from a number (views are scanned for hidden cards that way).
Every card is interned: ``Card.of(rank, suit)`` always returns the same object.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Callable, Iterable


class Suit(IntEnum):
    """The four suits in the notation's order (♠ ♣ ♦ ♥)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The ASCII letter used when a terminal lacks Unicode suits."""
        return "SCDH"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def text(self, ascii: bool = False) -> str:
        return self.letter if ascii else self.symbol

    def __str__(self) -> str:
        return _SUIT_SYMBOLS[self]

    __format__ = object.__format__  # type: ignore[assignment]  # f"{suit}" is its symbol, not the Enum's name


_SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")


class Rank(IntEnum):
    """Natural ranks, ace high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


_RANK_LABELS = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}


class CardError(ValueError):
    """A text that is not a card in any accepted notation; ``text`` is what was typed."""

    def __init__(self, message: str, text: str = ""):
        super().__init__(message)
        self.text = text


class Card(int):
    """One playing card; see the module docstring for why it is an ``int``."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: int) -> "Card":  # pragma: no cover - use Card.of
        raise TypeError("use Card.of(rank, suit) or parse_card(text)")

    @staticmethod
    def of(rank: int, suit: int) -> "Card":
        return _CARDS[int(suit) * 16 + int(rank)]

    @property
    def rank(self) -> Rank:
        return _RANKS[self & 15]

    @property
    def suit(self) -> Suit:
        return _SUITS[self >> 4]

    def text(self, ascii: bool = False) -> str:
        """Canonical Unicode (``10♥``) or ASCII (``10H``) form."""
        return _ASCII_TEXT[self] if ascii else _UNICODE_TEXT[self]

    def __str__(self) -> str:
        return _UNICODE_TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_UNICODE_TEXT[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_UNICODE_TEXT[self], spec)

    def __reduce__(self) -> tuple[Callable[[int, int], Card], tuple[int, int]]:  # pickling/copy keep the interned object
        return (Card.of, (int(self) & 15, int(self) >> 4))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict) -> "Card":
        return self


_RANKS = {int(r): r for r in Rank}
_SUITS = {int(s): s for s in Suit}
_CARDS: dict[int, Card] = {}
_UNICODE_TEXT: dict[int, str] = {}
_ASCII_TEXT: dict[int, str] = {}
for _s in Suit:
    for _r in Rank:
        _c = int.__new__(Card, _s * 16 + _r)
        _CARDS[int(_c)] = _c
        _UNICODE_TEXT[int(_c)] = _r.label + _s.symbol
        _ASCII_TEXT[int(_c)] = _r.label + _s.letter


def deck(size: int) -> list[Card]:
    """A fresh deck in canonical order (suits ♠♣♦♥, ranks low to high).

    32 = 7..A, 36 = 6..A, 48 = 3..A (the three-hander has no twos), 52 = 2..A.
    """
    cards = _DECKS.get(size)
    if cards is None:
        raise ValueError(f"no {size}-card deck: sukno knows 32, 36, 48 and 52")
    return list(cards)


def deck_set(size: int) -> frozenset[Card]:
    """The cards of a deck as a set (checking a deck order needs it once per deal)."""
    cards = _DECK_SETS.get(size)
    if cards is None:
        deck(size)  # says which sizes there are
    return cards  # type: ignore[return-value]


_DECKS = {size: tuple(Card.of(r, s) for s in Suit for r in range(low, 15))
          for size, low in ((32, 7), (36, 6), (48, 3), (52, 2))}
_DECK_SETS = {size: frozenset(cards) for size, cards in _DECKS.items()}


# --- notation -------------------------------------------------

_RANK_WORDS: dict[str, int] = {str(n): n for n in range(2, 11)}
_RANK_WORDS.update({"t": 10, "j": 11, "q": 12, "k": 13, "a": 14})
# Russian: валет, дама, король, туз.  Cyrillic «т» (туз) differs from Latin «t».
_RANK_WORDS.update({"в": 11, "д": 12, "к": 13, "т": 14})

_SUIT_WORDS: dict[str, Suit] = {
    "♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS,
    "♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS,
    # пики, трефы / крести, бубны, черви
    "п": Suit.SPADES, "т": Suit.CLUBS, "к": Suit.CLUBS, "б": Suit.DIAMONDS, "ч": Suit.HEARTS,
}

EXPECTED_CARD = (
    "a rank (2–10, T, J, Q, K, A or В, Д, К, Т) followed by a suit "
    "(♠ ♣ ♦ ♥, S C D H or п т к б ч), e.g. Q♠, 10h, дп"
)

_PARSE_CACHE: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Parse one card in any accepted form; raise ``CardError`` saying what was expected."""
    cached = _PARSE_CACHE.get(text)
    if cached is not None:
        return cached
    word = text.strip().lower().replace("\ufe0f", "")  # drop emoji variation selectors
    if len(word) < 2:
        raise CardError(f"{text!r} is not a card: expected {EXPECTED_CARD}", text)
    suit = _SUIT_WORDS.get(word[-1])
    rank = _RANK_WORDS.get(word[:-1])
    if suit is None or rank is None:
        raise CardError(f"{text!r} is not a card: expected {EXPECTED_CARD}", text)
    card = Card.of(rank, suit)
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[text] = card
    return card


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def format_cards(cards: Iterable[Card], ascii: bool = False, sep: str = " ") -> str:
    return sep.join(c.text(ascii) for c in cards)
