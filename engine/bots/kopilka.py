"""Rule-of-thumb Копилка: shed first, take at least one trick, win the dear suits.

The money of a deal is ``S`` from everybody but the first to shed, ``Z`` from
everybody without a trick, and at the partiya's end each trick's value plus,
for the fourth deal's first shedder, the whole rest of the kitty.  So:

* lead a card that will win, or else a low card of the suit the others hold
  most (a lead nobody follows fails and gives nothing); the winner leads again,
  so winning tricks also sheds cards;
* follow with the lowest card that takes the trick when last, with the
  highest that takes it otherwise, and with the lowest card when it cannot;
* void: the A♠ takes any trick, so play it on a dear suit (♦ ♥), when the
  hand is nearly out or for a first trick; with no trick yet draw (a card of
  the suit may take this one and save ``Z``), else pass;
* the partiya's fourth deal is a race: its first shedder takes the kitty's
  whole rest, so void the bot never draws and plays the A♠ at once;
* exchange: takes are blind (the first free place); discard the lowest card.

Defaults at the turn clock (``default``): ``pass`` when void, the first free
place to ``take``; discards, leads and follows by the rule bot.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.bots.base import Bot, View, hand_of, played_cards, seat_of
from engine.bots.tricks import unseen
from engine.cards import Card, Suit
from engine.game import Action
from engine.games.kopilka import ACE_OF_SPADES, PARTIYA_DEALS, PLAYERS, SUIT_VALUE_OPTIONS, Kopilka

DECK = Kopilka.deck_size
PASS, DRAW = Action("pass"), Action("draw")
LAST_DEAL = PARTIYA_DEALS
"""The partiya's last deal: its first shedder takes the kitty's whole rest (R16)."""


def _value(view: View, suit: Suit) -> int:
    return view["options"][SUIT_VALUE_OPTIONS[suit]]


class KopilkaBot(Bot):
    """The rule-of-thumb player (module docstring)."""

    kind = "rule"

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        verb = legal[0].verb
        if verb == "take":
            return legal[0]
        if verb == "discard":
            return self._discard(view, legal)
        if not view["trick"]:
            return self._lead(view, legal)
        return self._follow(view, legal)

    def _discard(self, view: View, legal: Sequence[Action]) -> Action:
        hand = hand_of(view)
        counts = Counter(c.suit for c in hand)
        # Keep high cards and the A♠; of the low ones drop the loneliest, cheapest.
        return min(legal, key=lambda a: (a.args[0] == ACE_OF_SPADES, a.args[0].rank,
                                         counts[a.args[0].suit], _value(view, a.args[0].suit)))

    def _lead(self, view: View, legal: Sequence[Action]) -> Action:
        hand = hand_of(view)
        out = unseen(DECK, hand + [c for _, c in view["last_trick"]])
        cards = played_cards(legal)

        def top(card: Card) -> bool:
            """No unseen card of its suit is higher (the A♠ aside): likely to win if followed."""
            return card == ACE_OF_SPADES or not any(
                c.suit == card.suit and c.rank > card.rank and c != ACE_OF_SPADES for c in out)

        def followed(card: Card) -> int:
            return sum(1 for c in out if c.suit == card.suit)

        winners = [c for c in cards if top(c) and c != ACE_OF_SPADES]
        if winners:
            card = max(winners, key=lambda c: (_value(view, c.suit), followed(c)))
        else:
            spare = [c for c in cards if c != ACE_OF_SPADES] or cards
            card = max(spare, key=lambda c: (followed(c), -c.rank))
        return Action("play", (card,))

    def _follow(self, view: View, legal: Sequence[Action]) -> Action:
        cards = [c for c in played_cards(legal) if c != ACE_OF_SPADES or c.suit == view["led"]]
        led = view["led"]
        if cards and cards[0].suit == led:
            return self._follow_suit(view, cards)
        return self._void(view, legal)

    def _follow_suit(self, view: View, cards: list[Card]) -> Action:
        best = view["best"]  # the card winning the trick so far, as the game judges it (R11: the A♠ takes any)
        if best == ACE_OF_SPADES:
            return Action("play", (min(cards),))
        winners = [c for c in cards if c.rank > best.rank or c == ACE_OF_SPADES]
        if not winners:
            return Action("play", (min(cards, key=lambda c: (c == ACE_OF_SPADES, c.rank)),))
        still = _still_to_act(view)
        card = min(winners, key=lambda c: c.rank) if still == 0 else max(winners, key=lambda c: c.rank)
        return Action("play", (card,))

    def _void(self, view: View, legal: Sequence[Action]) -> Action:
        me = seat_of(view)
        ace = Action("play", (ACE_OF_SPADES,))
        # The deal's number from the plain view (the bot protocol's dict): the typed sheet has it too
        # (``Kopilka.score_view(view).deal``), but building it costs ~16 µs, this whole move 0.3–3 µs.
        if view["partiya_deal"] == LAST_DEAL:  # the race to shed: never add a card
            return ace if ace in legal else PASS
        if ace in legal:
            dear = _value(view, view["led"]) >= 3
            if dear or view["hand_counts"][me] <= 2 or not view["tricks"][me]:
                return ace
        if DRAW in legal and not view["tricks"][me]:
            return DRAW
        return PASS


def _still_to_act(view: View) -> int:
    """Players after this seat in the current trick (a place each, the leader's first)."""
    trick = view["trick"]
    leader = trick[0][0]
    me = seat_of(view)
    return PLAYERS - 1 - (me - leader) % PLAYERS


def default(view: View, legal: Sequence[Action]) -> Action:
    """The turn clock's choice (module docstring)."""
    if PASS in legal:
        return PASS
    action = KopilkaBot("kopilka").choose(view, legal)
    assert action is not None
    return action
