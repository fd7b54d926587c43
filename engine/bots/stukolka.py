"""Rule-of-thumb Стуколка: knock on trumps and aces, take the golets on a bad hand, buy sensibly.

The one number behind every decision is a card's chance to take a trick
(``chance``): a trump by how many higher trumps the others may hold, a plain
card by how many higher cards of its suit are out and how likely somebody
void trumps it.  A hand worth playing is one whose expected trick money beats
its remiz risk, in units of the pot P: ``Σp/3 − Π(1 − p)`` > 0 (a forced
dealer or a compulsory deal has no remiz risk to weigh).  The golets, a buy,
a razrez are valued by the same sum averaged over ``SAMPLES`` replacement
hands from the unseen cards, drawn with a fixed seed so that the bot is a
pure function of its view.

Defaults at the turn clock (``default``): ``pass`` wherever it is legal
(declaring, razrez), ``shlejf`` for the 58.в dealer (the rules' default),
``buy`` alone (stand pat); a lone legal action (the forced ``knock``);
the forced dealer's knock-or-golets, discards and cards by the rule bot.
"""

from __future__ import annotations

import random
from math import prod
from typing import Sequence

from engine.bots.base import Bot, View, hand_of, played_cards, seat_of
from engine.bots.tricks import beats, unseen
from engine.cards import Card, Suit
from engine.game import Action
from engine.games.stukolka import BUY_PAT, BUY_SHLEJF, GOLETS, IN_PLAY, KNOCK, LOOK, PASS, RAZREZ_ACT, SHLEJF, Stukolka
from engine.games.stukolka import buying as stukolka_buys

DECK = Stukolka.deck_size
SAMPLES = 60
"""Sampled replacement hands per valuation (a fixed seed: same view, same answer)."""
KNOCK_MARGIN = 0.0
"""Knock when the hand's value in pots exceeds this."""

IN = IN_PLAY  # the declarations that put a seat in the play, as the game counts them


_DOWN: dict[int, list[tuple[int, Card]]] = {int(suit): [(rank, Card.of(rank, suit)) for rank in range(14, 1, -1)]
                                             for suit in Suit}
"""Each suit's cards from the ace down (``_all_chances`` walks them for every decision)."""


class Situation:
    """What the seat knows at this moment: its cards, the trump, the unseen cards and the opposition."""

    def __init__(self, view: View):
        self.view = view
        self.seat = seat_of(view)
        self.hand = hand_of(view)
        self.trump: Suit | None = view["trump"]
        known = list(self.hand) + [c for _, c in view["played"]] + [c for _, c in view["trick"]]
        if view.get("trump_card") is not None:
            known.append(view["trump_card"])
        self.unseen = unseen(DECK, known)
        self.opponents = self._opponents()
        holding = 3 * self.opponents
        self.share = min(1.0, holding / max(1, len(self.unseen)))  # chance a given unseen card is against me
        trumps_out = sum(1 for c in self.unseen if c.suit == self.trump)
        has_trump = 1 - (1 - trumps_out / max(1, len(self.unseen))) ** 3
        self.trump_risk = 0.4 * has_trump  # a given opponent is void in a plain suit and trumps it
        self._chances = self._all_chances()

    def _opponents(self) -> float:
        """Opponents in play now, or expected (half of those yet to declare) during declarations."""
        view, seat = self.view, self.seat
        declared = view["declared"]
        others = [s for s in range(len(declared)) if s != seat]
        if view["phase"] in ("play", "done"):
            return float(sum(1 for s in others if declared[s] in IN))
        known_in = sum(1 for s in others if declared[s] in IN)
        pending = sum(1 for s in others if declared[s] == "")
        return max(1.0, known_in + 0.5 * pending)

    def _all_chances(self) -> dict[Card, float]:
        """``chance`` of every card of the deck at once: counts of higher unseen cards per suit."""
        above: dict[int, list[int]] = {int(suit): [0] * 16 for suit in Suit}
        for card in self.unseen:
            above[card >> 4][card & 15] += 1  # Card is an int: suit * 16 + rank (engine.cards)
        plain = 0.8 * (1 - self.trump_risk) ** self.opponents
        out: dict[Card, float] = {}
        for suit, counts in above.items():
            higher = 0
            trump = suit == self.trump
            for rank, card in _DOWN[suit]:
                clear = (1 - self.share) ** higher
                out[card] = clear if trump else plain * clear
                higher += counts[rank]
        return out

    def chance(self, card: Card) -> float:
        """Rough chance that ``card`` takes a trick (module docstring)."""
        return self._chances[card]

    def value(self, hand: Sequence[Card], at_risk: bool = True) -> float:
        """A hand's expected trick money less its remiz risk, in pots (module docstring)."""
        chances = [self.chance(c) for c in hand]
        gain = min(3.0, sum(chances)) / 3
        return gain - (prod(1 - p for p in chances) if at_risk else 0.0)

    def sampled(self, keep: Sequence[Card], draw: int, choose: int = 3, at_risk: bool = True) -> float:
        """Mean value of ``keep`` plus ``draw`` unseen cards, keeping the best ``choose`` of them."""
        pool = self.unseen
        total = 0.0
        for picks in _picks(len(pool), draw):
            cards = list(keep) + [pool[i] for i in picks]
            if len(cards) > choose:
                cards = sorted(cards, key=self.chance, reverse=True)[:choose]
            total += self.value(cards, at_risk)
        return total / SAMPLES

    def best_buy(self) -> tuple[float, tuple[Card, ...]]:
        """The discard (weakest cards first) with the best sampled value after buying."""
        ranked = sorted(self.hand, key=self.chance)
        best: tuple[float, tuple[Card, ...]] = (self.value(self.hand), ())
        for k in (1, 2, 3):
            drop = tuple(ranked[:k])
            value = self.sampled(ranked[k:], k)
            if value > best[0] + 0.02:
                best = (value, drop)
        return best


_PICKS: dict[tuple[int, int], list[list[int]]] = {}


def _picks(size: int, draw: int) -> list[list[int]]:
    """The indices ``random.Random(7).sample`` draws ``SAMPLES`` times from a pool of ``size``: they
    depend on the sizes only, so they are drawn once (the search bot's playouts value many buys)."""
    picks = _PICKS.get((size, draw))
    if picks is None:
        rng = random.Random(7)
        pool = list(range(size))
        picks = _PICKS[(size, draw)] = [rng.sample(pool, draw) for _ in range(SAMPLES)]
    return picks


class StukolkaBot(Bot):
    """The rule-of-thumb player (module docstring)."""

    kind = "rule"

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        verbs = {a.verb for a in legal}
        if "discard" in verbs:
            return self._discard(view, legal)
        phase = view["phase"]
        if phase == "trump_mode":
            return SHLEJF
        if phase == "declare":
            return self._declare(view, legal)
        if phase == "buy":
            return self._buy(view, legal)
        if phase == "razrez":
            return self._razrez(view)
        return self._play(view, legal)

    # -- before play ----------------------------------------------------------------

    def _declare(self, view: View, legal: Sequence[Action]) -> Action:
        if LOOK in legal:
            return LOOK  # R52: never dark; look, then knock or pass
        sit = Situation(view)
        forced = PASS not in legal  # a forced dealer (R39): no remiz risk
        buying = stukolka_buys(view["variant"])
        own = sit.best_buy()[0] if buying else sit.value(sit.hand, not forced)
        options = [(own, KNOCK)]
        if not forced:
            options.append((KNOCK_MARGIN, PASS))
        if GOLETS in legal:
            options.append((sit.sampled([], 3, at_risk=not forced), GOLETS))
        return max(options, key=lambda o: o[0])[1]

    def _buy(self, view: View, legal: Sequence[Action]) -> Action:
        if BUY_SHLEJF in legal:
            sit = Situation(view)  # the dealer sees the shlejf card: it is his if he takes it
            card = view.get("trump_card")
            if card is None:
                return BUY_PAT
            shlejf = sit.sampled([card], 3, choose=3)
            return BUY_SHLEJF if shlejf > sit.value(sit.hand) + 0.02 else BUY_PAT
        if len(legal) == 1:
            return legal[0]
        _, drop = Situation(view).best_buy()
        return Action("buy", tuple(sorted(drop)))

    def _razrez(self, view: View) -> Action:
        sit = Situation(view)
        return RAZREZ_ACT if sit.sampled([], 4) > KNOCK_MARGIN + 0.05 else PASS

    def _discard(self, view: View, legal: Sequence[Action]) -> Action:
        sit = Situation(view)
        return min(legal, key=lambda a: (sit.chance(a.args[0]), a.args[0]))

    # -- play ------------------------------------------------------------------------

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        sit = Situation(view)
        cards = played_cards(legal)
        trick = view["trick"]
        if not trick:
            card = max(cards, key=lambda c: (sit.chance(c), c))
            return Action("play", (card,))
        best = view["best"]  # the card winning the trick so far, as the game judges it
        winners = [c for c in cards if beats(c, best, sit.trump)]
        active = sum(1 for d in view["declared"] if d in IN)
        last = len(trick) == active - 1
        if winners:
            if last:
                card = min(winners, key=lambda c: (c.suit == sit.trump, c.rank))
            else:
                card = max(winners, key=lambda c: (sit.chance(c), c.rank))
        else:
            card = min(cards, key=lambda c: (sit.chance(c), c.rank))
        return Action("play", (card,))


def default(view: View, legal: Sequence[Action]) -> Action:
    """The turn clock's choice (module docstring)."""
    for safe in (PASS, SHLEJF, BUY_PAT):
        if safe in legal:
            return safe
    if len(legal) == 1:
        return legal[0]
    action = StukolkaBot("stukolka").choose(view, legal)
    assert action is not None
    return action
