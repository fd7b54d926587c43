"""Where every card of a deal lies: one place per card (OpenSpiel's ``holder_``).

A game that keeps a list per place (each hand, the stock, the discards, the
trick …) can lose a card or put one in two lists when one line forgets the
other half of a move.  ``Holder`` makes that impossible by construction:
``where[card]`` (a list indexed by the card's number) names the one place a
card is in, and ``move``/``take`` are the only writers — they take the card
out of the place ``where`` names before they put it in the new one.  Each
place keeps its cards in the order they came (a hand as it was dealt and
bought, the stock top first, a trick in play order), since views, legal
action lists and the rules (the stock is drawn from its top) depend on it;
``piles[place]`` is that order, to read, never to write; ``by[card]`` the
seat that played a card (``play``), so a trick reads as (seat, card) pairs.
``places()`` is the read the invariant tests check.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.cards import Card

NOWHERE = -1
"""``where[card]`` of a card not in this deal's deck (a 32-card deck's 2♠, say)."""

_SLOTS = 64  # cards are suit * 16 + rank < 64 (engine.cards)


class Holder:
    """The places of one deal, named; ``where[card]`` is the index of the card's place.

    A place named None is not in use (a seat nobody sits in), so a game may keep fixed place numbers.
    """

    __slots__ = ("names", "where", "piles", "by")

    def __init__(self, names: Sequence[str | None], piles: Mapping[int, Iterable[Card]] | None = None):
        """``piles[place]``: the cards that start there, in order (the others start empty); a card starts once."""
        self.names = tuple(names)
        self.piles: list[list[Card]] = [[] for _ in self.names]
        self.where = where = [NOWHERE] * _SLOTS
        self.by = [0] * _SLOTS  # by card: the seat that played it (``play``), for a trick's cards
        if not piles:
            return
        count = 0
        for place, cards in piles.items():
            pile = self.piles[place] = list(cards)
            count += len(pile)
            for card in pile:
                where[card] = place
        if where.count(NOWHERE) != _SLOTS - count:
            raise ValueError("a card starts in two places")

    def move(self, card: Card, to: int) -> None:
        """Put ``card`` last in place ``to``, out of the place it was in."""
        where = self.where
        self.piles[where[card]].remove(card)
        self.piles[to].append(card)
        where[card] = to

    def play(self, card: Card, to: int, seat: int) -> None:
        """``move`` the card ``seat`` plays (to a trick): ``plays`` tells who played each card there."""
        where = self.where
        self.piles[where[card]].remove(card)
        self.piles[to].append(card)
        where[card] = to
        self.by[card] = seat

    def plays(self, place: int) -> list[tuple[int, Card]]:
        """A place of played cards as (seat, card) in the order they came (a trick, the tricks taken)."""
        by = self.by
        return [(by[c], c) for c in self.piles[place]]

    def move_many(self, cards: Iterable[Card], to: int) -> None:
        for card in tuple(cards):
            self.move(card, to)

    def take(self, source: int, count: int, to: int) -> list[Card]:
        """Move the first ``count`` cards of ``source`` (the top of a stock) to the end of ``to``; return them."""
        pile = self.piles[source]
        cards = pile[:count]
        del pile[:count]
        self.piles[to].extend(cards)
        where = self.where
        for card in cards:
            where[card] = to
        return cards

    def take_all(self, source: int, to: int) -> list[Card]:
        """Move every card of ``source`` to the end of ``to``, in order; return them.

        ``take`` of the whole pile, written out: every trick and every passed hand comes this way.
        """
        pile = self.piles[source]
        cards = pile[:]
        pile.clear()  # the same list: a reader holding ``piles[source]`` sees it empty
        self.piles[to].extend(cards)
        where = self.where
        for card in cards:
            where[card] = to
        return cards

    def sort(self, place: int, key: Callable[[Card], Any] | None = None) -> None:
        """Put a place's cards in order (a hand kept sorted): where they are does not change."""
        self.piles[place].sort(key=key)

    def places(self) -> dict[str, list[Card]]:
        """Every place in use by name with its cards in order (copies)."""
        return {name: list(pile) for name, pile in zip(self.names, self.piles) if name is not None}
