"""Small card-play helpers the rule-of-thumb bots share: who wins a trick so far, what is unseen.

Each game keeps its own legality; a bot never re-derives it and
only picks among ``legal``.  Judging cards that lie on the table (the highest
trump, else the highest card of the suit led) is ``engine.trick``'s, re-exported here.
"""

from __future__ import annotations

from typing import Iterable

from engine.cards import Card, deck
from engine.trick import Power, SuitOf, beats, natural_power, natural_suit, winning

__all__ = ["Power", "SuitOf", "beats", "highest", "lowest", "natural_power", "natural_suit", "unseen", "winning"]


def unseen(size: int, known: Iterable[Card]) -> list[Card]:
    """The cards of a ``size`` deck not among ``known``: where the others' cards must be."""
    seen = set(known)
    return [c for c in deck(size) if c not in seen]


def lowest(cards: Iterable[Card], power: Power = natural_power) -> Card:
    return min(cards, key=lambda c: (power(c), c))


def highest(cards: Iterable[Card], power: Power = natural_power) -> Card:
    return max(cards, key=lambda c: (power(c), c))
