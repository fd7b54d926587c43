"""Small card-play helpers the rule-of-thumb bots share: who wins a trick so far, what is unseen.

Each game keeps its own legality (RULES.md §8); a bot never re-derives it and
only picks among ``legal``.  What is shared is judging cards that lie on the
table: the highest trump, else the highest card of the suit led.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Sequence

from engine.cards import Card, deck

SuitOf = Callable[[Card], Hashable]
Power = Callable[[Card], int]


def natural_suit(card: Card) -> Hashable:
    return card.suit


def natural_power(card: Card) -> int:
    return int(card.rank)


def winning(trick: Sequence[Sequence], trump: Hashable | None,
            suit_of: SuitOf = natural_suit, power: Power = natural_power) -> tuple[int, Card] | None:
    """The (seat, card) winning a trick in progress (``[[seat, card], …]``), or None if empty."""
    if not trick:
        return None
    best_seat, best = trick[0][0], trick[0][1]
    for seat, card in trick[1:]:
        if beats(card, best, trump, suit_of, power):
            best_seat, best = seat, card
    return best_seat, best


def beats(card: Card, best: Card, trump: Hashable | None,
          suit_of: SuitOf = natural_suit, power: Power = natural_power) -> bool:
    """Whether ``card`` played now would take the trick from ``best`` (which already leads it)."""
    suit, best_suit = suit_of(card), suit_of(best)
    if suit == best_suit:
        return power(card) > power(best)
    return trump is not None and suit == trump


def unseen(size: int, known: Iterable[Card]) -> list[Card]:
    """The cards of a ``size`` deck not among ``known``: where the others' cards must be."""
    seen = set(known)
    return [c for c in deck(size) if c not in seen]


def lowest(cards: Iterable[Card], power: Power = natural_power) -> Card:
    return min(cards, key=lambda c: (power(c), c))


def highest(cards: Iterable[Card], power: Power = natural_power) -> Card:
    return max(cards, key=lambda c: (power(c), c))
