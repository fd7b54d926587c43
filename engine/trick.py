"""Who wins a trick: ranking helpers shared by the trick games.

RULES.md §8 warns against one shared "follow suit" function: every game has
its own duty to follow (Game B must trump when void, Game C plays anything,
Стуколка must head the trick …), so legality stays in each game's module.
What the games do share is the last step: once the cards lie on the table,
the highest trump wins, else the highest card of the suit led.  A game says
what "suit" and "high" mean for its cards (Game C's jacks are trumps, not
members of their printed suit), and this module does the comparison.
"""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

from engine.cards import Card
from engine.game import Event

Play = tuple[int, Card]  # (seat, card) in play order


def natural_suit(card: Card) -> Hashable:
    """The printed suit: the suit for following in games without special trumps."""
    return card.suit


def natural_power(card: Card) -> int:
    """Ace high, as in RULES.md §1."""
    return int(card.rank)


def trick_winner(
    plays: Sequence[Play],
    trump: Hashable | None,
    suit_of: Callable[[Card], Hashable] = natural_suit,
    power: Callable[[Card], int] = natural_power,
) -> int:
    """The seat that takes the trick: highest trump if any, else highest of the suit led.

    ``suit_of`` maps a card to the suit it belongs to for this game (the
    same value as ``trump`` for a trump card); ``power`` ranks cards within
    one such suit.  Cards of other suits never win.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = suit_of(plays[0][1])
    best_seat = plays[0][0]
    best_key = (-1, -1)
    for seat, card in plays:
        suit = suit_of(card)
        if trump is not None and suit == trump:
            key = (2, power(card))
        elif suit == led:
            key = (1, power(card))
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


class RoundTricks:
    """Trick bookkeeping where every seat plays each trick in turn and the winner leads (Games B and C).

    The game keeps ``n``, ``hands``, ``trick``, ``tricks``, ``taken``,
    ``last_trick``, ``leader`` and ``turn``; it says who takes a full trick
    (``_trick_winner``) and scores the deal once the hands are empty
    (``_score_deal``).  Legality stays in the game (RULES.md §8).
    """

    n: int
    hands: list[list[Card]]
    trick: list[Play]
    last_trick: list[Play]
    tricks: list[int]
    taken: list[list[Card]]
    leader: int
    turn: int

    def _trick_winner(self) -> int:
        raise NotImplementedError

    def _score_deal(self) -> list[Event]:
        raise NotImplementedError

    def _play_card(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` (already checked legal); close the trick when everyone has played."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events = [Event("play", seat, {"card": card})]
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return events
        winner = self._trick_winner()
        self.tricks[winner] += 1
        self.taken[winner].extend(c for _, c in self.trick)
        self.last_trick, self.trick = self.trick, []
        self.leader = self.turn = winner
        events.append(Event("trick", winner, {"tricks": self.tricks[winner]}))
        if not self.hands[winner]:
            events += self._score_deal()
        return events
