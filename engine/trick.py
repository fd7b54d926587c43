"""Who wins a trick: ranking helpers shared by the trick games.

There is no one shared "follow suit" function on purpose: every game has
its own duty to follow (Game B must trump when void, Game C plays anything,
Стуколка must head the trick …), so legality stays in each game's module.
What the games do share is the last step: once the cards lie on the table,
the highest trump wins, else the highest card of the suit led.  A game says
what "suit" and "high" mean for its cards (Game C's jacks are trumps, not
members of their printed suit), and this module does the comparison —
the only place it is written: the games (``trick_winner``, Стуколка's
running ``best``), the bots (``engine.bots.tricks`` re-exports ``beats`` and
``winning``) and, through each game's view (``best``: the card winning the
trick so far), the felt.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Hashable, Sequence

from engine.cards import Card
from engine.game import Event
from engine.holder import Holder

Play = tuple[int, Card]  # (seat, card) in play order


def natural_suit(card: Card) -> Hashable:
    """The printed suit: the suit for following in games without special trumps."""
    return card.suit


def natural_power(card: Card) -> int:
    """Ace high."""
    return int(card.rank)


SuitOf = Callable[[Card], Hashable]
Power = Callable[[Card], int]


def beats(card: Card, best: Card, trump: Hashable | None,
          suit_of: SuitOf = natural_suit, power: Power = natural_power) -> bool:
    """Whether ``card`` played now takes the trick from ``best``, which leads it so far.

    ``suit_of`` maps a card to the suit it belongs to for this game (the same
    value as ``trump`` for a trump card); ``power`` ranks cards within one such
    suit.  The one rule of every trick game here (games, bots and the felt): a
    higher card of the same suit, or a trump over a non-trump; nothing else."""
    if suit_of is natural_suit and power is natural_power:  # the plain deck: the engine bench's path
        number = card >> 4  # the suit's number (engine.cards: suit * 16 + rank), without the Suit lookup
        if number == best >> 4:
            return card > best  # same suit: the rank decides
        return number == trump
    suit, best_suit = suit_of(card), suit_of(best)
    if suit == best_suit:
        return power(card) > power(best)
    return trump is not None and suit == trump


def winning(plays: Sequence[Sequence], trump: Hashable | None,
            suit_of: SuitOf = natural_suit, power: Power = natural_power) -> tuple[int, Card] | None:
    """The (seat, card) winning a trick so far (``[(seat, card), …]`` in play order), or None if empty."""
    if not plays:
        return None
    best_seat, best = plays[0][0], plays[0][1]
    for seat, card in plays[1:]:
        if beats(card, best, trump, suit_of, power):
            best_seat, best = seat, card
    return best_seat, best


def trick_winner(plays: Sequence[Play], trump: Hashable | None,
                 suit_of: SuitOf = natural_suit, power: Power = natural_power) -> int:
    """The seat that takes a whole trick: highest trump if any, else highest of the suit led."""
    won = winning(plays, trump, suit_of, power)
    if won is None:
        raise ValueError("an empty trick has no winner")
    return won[0]


class RoundTricks:
    """Trick bookkeeping where every seat plays each trick in turn and the winner leads (Games B and C).

    The game keeps every card in ``cards`` (``engine.holder``: one place per card): seat ``s``'s hand
    at place ``s``, the cards of the tricks he won at ``TAKEN + s``, the trick on the table at
    ``TRICK`` (``cards.plays`` says who played each).  It also keeps ``n``,
    ``last_trick`` (the trick just taken, as it was played: a record, not a place), ``tricks``,
    ``leader`` and ``turn``; it says who takes a full trick (``_trick_winner``) and scores the deal
    once the hands are empty (``_score_deal``).  Legality stays in the game.
    """

    __slots__ = ()  # a mixin: the game's own slots hold what it names (an instance dict would come back)

    TAKEN: ClassVar[int]
    TRICK: ClassVar[int]
    n: int
    cards: Holder
    last_trick: list[Play]
    tricks: list[int]
    leader: int | None
    turn: int | None

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's hand (read only: ``cards`` moves cards)."""
        return self.cards.piles[:self.n]

    @property
    def taken(self) -> list[list[Card]]:
        """The cards of the tricks each seat won."""
        return self.cards.piles[self.TAKEN:self.TAKEN + self.n]

    @property
    def trick(self) -> list[Play]:
        """The trick on the table, (seat, card) in play order."""
        return self.cards.plays(self.TRICK)

    def _trick_winner(self) -> int:
        raise NotImplementedError

    def _score_deal(self) -> list[Event]:
        raise NotImplementedError

    def _play_card(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` (already checked legal); close the trick when everyone has played."""
        cards = self.cards
        cards.play(card, self.TRICK, seat)
        events = [Event("play", seat, {"card": card})]
        if len(cards.piles[self.TRICK]) < self.n:
            self.turn = (seat + 1) % self.n  # type: ignore[misc]  # a mixin's slots are the game's own
            return events
        winner = self._trick_winner()
        self.tricks[winner] += 1
        self.last_trick = self.trick  # type: ignore[misc]  # a mixin's slots are the game's own
        cards.take_all(self.TRICK, self.TAKEN + winner)
        self.leader = self.turn = winner  # type: ignore[misc]  # a mixin's slots are the game's own
        events.append(Event("trick", winner, {"tricks": self.tricks[winner]}))
        if not cards.piles[winner]:
            events += self._score_deal()
        return events
