"""A plain-trick card player for the games where everybody plays to every trick (french3, ukr_pairs).

Rules of thumb, as a club player states them:

* remember the cards played in this deal and who showed out of a suit (only
  what the seat's views showed: the trick on the table and the last trick);
* a *boss* is a card no unseen card of its suit beats;
* lead a boss (a trump boss only while opponents may still hold trumps and
  the hand has a second trump), else the lowest card of the longest side suit;
* follow: when the partner already wins and is safe, play low; when last, win
  with the lowest card that does; earlier, win with a boss, or when void in
  the side suit led ruff with the lowest trump that wins; otherwise play the
  lowest card, shedding from the shortest side suit.

The memory restarts whenever the view shows a deal with no completed trick,
so a bot seated in the middle of a deal plays on with what it has seen.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Hashable, Sequence

from engine.bots.base import View, hand_of, played_cards, seat_of
from engine.bots.tricks import beats, natural_power, natural_suit, winning
from engine.cards import Card, deck
from engine.game import Action


class TrickPlayer:
    """Card play for one seat; ``partner`` is None in games without partnerships."""

    def __init__(self, deck_size: int, suit_of: Callable[[Card], Hashable] = natural_suit,
                 power: Callable[[Card], int] = natural_power):
        self.deck = deck(deck_size)
        self.deck_size = deck_size
        self.suit_of = suit_of
        self.power = power
        self.seen: set[Card] = set()
        self.void: dict[int, set[Hashable]] = {}
        self._deal: object = None
        self._tops: dict[Hashable, int] = {}
        self._tops_of: object = None

    # -- memory ----------------------------------------------------------------------

    def observe(self, view: View, in_hands_at_start: int) -> None:
        """Take in the last and the current trick; forget everything at a new deal."""
        key = view["deal_no"]
        fresh = sum(view["hand_counts"]) + len(view["trick"]) == in_hands_at_start
        if key != self._deal or fresh:
            self._deal, self.seen, self.void = key, set(), {}
        for trick in (view["last_trick"], view["trick"]):
            if not trick:
                continue
            led = self.suit_of(trick[0][1])
            for seat, card in trick:
                self.seen.add(card)
                if self.suit_of(card) != led:
                    self.void.setdefault(seat, set()).add(led)

    def unseen(self, hand: Sequence[Card]) -> list[Card]:
        mine = set(hand)
        return [c for c in self.deck if c not in self.seen and c not in mine]

    # -- decisions -------------------------------------------------------------------

    def choose(self, view: View, legal: Sequence[Action], trump: Hashable | None,
               order: Sequence[int], partner: int | None = None) -> Action:
        """``order``: the seats of this trick from its leader (everybody plays every trick)."""
        hand = hand_of(view)
        cards = played_cards(legal)
        out = self.unseen(hand)
        if not view["trick"]:
            card = self._lead(hand, cards, out, trump, view, partner)
        else:
            card = self._follow(hand, cards, out, trump, view, order, partner)
        return Action("play", (card,))

    def boss(self, card: Card, out: Sequence[Card]) -> bool:
        """No card of ``out`` in its suit beats it (``out``'s top per suit kept: the search bot's
        playouts ask this thousands of times a decision)."""
        if self._tops_of is not out:
            tops: dict[Hashable, int] = {}
            for c in out:
                suit, power = self.suit_of(c), self.power(c)
                if power > tops.get(suit, power - 1):
                    tops[suit] = power
            self._tops, self._tops_of = tops, out
        top = self._tops.get(self.suit_of(card))
        return top is None or top <= self.power(card)

    def _opponents(self, view: View, partner: int | None) -> list[int]:
        me = seat_of(view)
        return [s for s in range(len(view["names"])) if s not in (me, partner)]

    def _lead(self, hand: list[Card], cards: list[Card], out: list[Card], trump: Hashable | None,
              view: View, partner: int | None) -> Card:
        suit_of, power = self.suit_of, self.power
        opponents = self._opponents(view, partner)
        trumps_out = trump is not None and any(suit_of(c) == trump for c in out)
        my_trumps = [c for c in hand if suit_of(c) == trump]
        bosses = []
        for card in cards:
            if not self.boss(card, out):
                continue
            suit = suit_of(card)
            if suit == trump:
                if trumps_out and len(my_trumps) >= 2:
                    bosses.append(card)
                continue
            ruffed = trumps_out and any(suit in self.void.get(s, ()) for s in opponents)
            if not ruffed and any(suit_of(c) == suit for c in out):
                bosses.append(card)
        if bosses:
            return max(bosses, key=lambda c: (suit_of(c) == trump, power(c)))
        counts = Counter(suit_of(c) for c in hand)
        side = [c for c in cards if suit_of(c) != trump] or cards
        return min(side, key=lambda c: (-counts[suit_of(c)], power(c), c))

    def _follow(self, hand: list[Card], cards: list[Card], out: list[Card], trump: Hashable | None,
                view: View, order: Sequence[int], partner: int | None) -> Card:
        suit_of, power = self.suit_of, self.power
        trick = view["trick"]
        best_seat, best = winning(trick, trump, suit_of, power)  # type: ignore[misc]
        me = seat_of(view)
        after = list(order[order.index(me) + 1:])
        opponents_after = [s for s in after if s != partner]
        led = suit_of(trick[0][1])
        if best_seat == partner and partner is not None:
            safe = not opponents_after or self._holds(best, led, trump, out, opponents_after)
            if safe:
                return self._shed(hand, cards, trump)
        winners = [c for c in cards if beats(c, best, trump, suit_of, power)]
        if winners:
            if not opponents_after:
                return min(winners, key=lambda c: (suit_of(c) == trump, power(c)))
            holding = [c for c in winners if self._holds(c, led, trump, out, opponents_after)]
            if holding:
                return min(holding, key=lambda c: (suit_of(c) == trump, power(c)))
            ruffs = [c for c in winners if suit_of(c) == trump != led]
            if ruffs:  # void in the side suit led: a trump may be overtrumped, a side card surely loses
                return min(ruffs, key=power)
        return self._shed(hand, cards, trump)

    def _holds(self, card: Card, led: Hashable, trump: Hashable | None, out: Sequence[Card],
               later: Sequence[int]) -> bool:
        """Whether ``card`` should still win after the ``later`` seats play (by what is unseen)."""
        suit_of = self.suit_of
        suit = suit_of(card)
        if suit == trump:
            return self.boss(card, out)
        if not self.boss(card, out):
            return False
        if trump is None or not any(suit_of(c) == trump for c in out):
            return True
        return not any(led in self.void.get(s, ()) for s in later)

    def _shed(self, hand: list[Card], cards: list[Card], trump: Hashable | None) -> Card:
        """The cheapest card: lowest, of a side suit, of the shortest such suit."""
        suit_of, power = self.suit_of, self.power
        counts = Counter(suit_of(c) for c in hand)
        return min(cards, key=lambda c: (suit_of(c) == trump, power(c), counts[suit_of(c)], c))
