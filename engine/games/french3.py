"""The French three-hander with a widow (working id «Французская игра втроём», Game B).

Resolutions R18–R24 are the binding reading.

Game kind: exactly 3 players, 48 cards (no twos), imperfect information, a
points game: the score sheet (above / below the line, per player) is what a
deal changes; money moves only when a *game* is settled (R24).

A session is a sequence of games.  A game is a sequence of deals numbered
n = 1, 2, …; the trump of deal n is ♠ ♣ ♦ ♥ NT by (n − 1) mod 5, and five
deals make a partiya (R21).  The first player with ``target`` points below
the line is the winner (R23), the partiya is played out, then the winner
collects ``above + max(0, target − below)`` × ``u`` from each other player
(R24) and a new game starts with clean sheets.

One deal: ``exchange`` (E, M, D in turn each write ``buy [cards]``, R19) →
``play`` (12 tricks; follow suit, else must trump, R20) → ``done``.

Why ``_allows`` checks a ``buy`` by rule: ``buy`` may name any subset of a
12-card hand up to the widow's size, 4096 actions for the eldest.
``legal_actions`` still lists them all (a millisecond or two, kept until the
state changes) for the TUI and bots, but ``apply`` need not build that list
to accept one.
"""

from __future__ import annotations

from itertools import chain, combinations, islice, repeat
from math import comb
from typing import Any, Iterator, Mapping, Sequence, overload

from engine.cards import Card, Suit
from engine.game import ADMIN, Action, Event, Game, IllegalAction, Option, Viewer, card_action, refuse
from engine.holder import Holder
from engine.trick import RoundTricks, trick_winner, winning
from engine.view import LineSheet

# Phases of a deal.
EXCHANGE = "exchange"
PLAY = "play"
DONE = "done"

TRUMPS: tuple[Suit | None, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)  # R21
PARTIYA = len(TRUMPS)  # deals in one partiya, the last one no-trump (R21)
HAND = 12
ROLES = ("E", "M", "D")  # eldest, middle, dealer: the order of buying (R19)

def trump_of_deal(n: int) -> Suit | None:
    """The trump of deal n (1-based) of a game: ♠ ♣ ♦ ♥ then no-trump (R21)."""
    return TRUMPS[(n - 1) % PARTIYA]


def deal_score(tricks: int, bought: int, par: int) -> tuple[int, int]:
    """(above, below) that one deal adds to a player's sheet (R22)."""
    return bought + max(0, par - tricks), max(0, tricks - par)


OPTIONS = (
    Option("u", 1, "money (kopecks) per point at the settlement of a game (R24)", minimum=0),
    Option("target", 10, "points below the line that win the game (R23)", minimum=1),
    Option("par", 4, "tricks that score nothing; fewer go above the line, more below (R22)",
           minimum=0, maximum=12),
)


# Where a card lies (``engine.holder``): hands 0–2, the tricks each took 3–5, then the table.
TAKEN, TRICK, WIDOW, DISCARDS = 3, 6, 7, 8  # DISCARDS + seat: a seat's exchanged cards, face down
PLACE_NAMES = ("hand:0", "hand:1", "hand:2", "taken:0", "taken:1", "taken:2", "trick", "widow",
               "discards:0", "discards:1", "discards:2")


class French3(RoundTricks, Game):
    """One session of Game B at a table: successive games of 5-deal partiyas."""

    # Its state in slots, as ``Game`` keeps the session's: a class with slots anywhere has no inline
    # attribute values on 3.13, so a game with an instance dict under a slotted base reads slower.
    __slots__ = ("above", "below", "bought", "cards", "game_no", "history", "last_trick", "leader", "n_in_game",
                 "order", "phase", "queue", "settled", "settlement", "tricks", "trump", "turn", "winner")

    name = "french3"
    memo_legal = True  # the buy list: up to 4096 discards of a 12-card hand
    title = {"ru": "Французская игра втроём", "en": "French three-hander"}
    options_spec = OPTIONS
    verbs = {"buy": "cards", "play": "card"}
    deck_size = 48  # §3.3: 52 cards without the twos
    stake_option = "u"  # money per point (R24)
    stake_per_point = True
    min_players = 3
    max_players = 3

    def __init__(self, names: Sequence[str], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
                 pot: int = 0) -> None:
        super().__init__(names, options, dealer=dealer, pot=pot)
        self.game_no = 0  # games begun in this session
        self.settled = False  # the last deal ended a game (a record's ``over``)
        self.settlement: list[int] = [0] * self.n  # money of the last settled game
        self._new_game()
        self.phase = DONE
        self._clear_deal()

    # ------------------------------------------------------------------ game and deal state

    def _new_game(self) -> None:
        """Clean sheets and deal counter n = 0 (§3.7: a new game after the settlement)."""
        self.game_no += 1
        self.n_in_game = 0
        self.above = [0] * self.n
        self.below = [0] * self.n
        self.winner: int | None = None
        self.history: list[dict[str, Any]] = []  # one row per deal of this game

    TAKEN, TRICK = TAKEN, TRICK

    def _clear_deal(self) -> None:
        n = self.n
        self.cards = Holder(PLACE_NAMES)  # every card's one place: hands, taken, trick, widow, discards
        self.bought: list[int | None] = [None] * n  # k per seat, None before his turn
        self.trump: Suit | None = None
        self.order: list[int] = []  # E, M, D
        self.queue: list[int] = []  # buyers still to act, the first acts now
        self.turn: int | None = None
        self.leader: int | None = None
        self.last_trick: list[tuple[int, Card]] = []
        self.tricks = [0] * n

    def _start_deal(self) -> list[Event]:
        if self.settled:
            self._new_game()
        self.settled = False
        self.settlement = [0] * self.n
        self._clear_deal()
        self.n_in_game += 1
        self.trump = trump_of_deal(self.n_in_game)
        self.order = [(self.dealer + i) % self.n for i in (1, 2, 3)]
        cards = self._draw_deck()
        self._deal(cards)
        self.phase = EXCHANGE
        self.queue = list(self.order)
        return [Event("dealt", self.dealer, {
            "game": self.game_no, "deal": self.n_in_game, "trump": self._trump_word(), "widow": len(self.widow),
        })]

    def _deal(self, cards: list[Card]) -> None:
        """Packets of 3 to E, M, D and the widow, four rounds (R18, §9.3); hands are kept sorted."""
        places = list(self.order) + [WIDOW]
        piles: dict[int, list[Card]] = {place: [] for place in places}
        for i in range(0, len(cards), 3):
            piles[places[(i // 3) % 4]].extend(cards[i:i + 3])
        for seat in self.order:
            piles[seat].sort()
        self.cards = Holder(PLACE_NAMES, piles)

    @property
    def widow(self) -> list[Card]:
        """The widow, top first (read only: ``cards`` moves cards)."""
        return self.cards.piles[WIDOW]

    @property
    def discards(self) -> list[list[Card]]:
        """Each seat's exchanged cards, face down."""
        return self.cards.piles[DISCARDS:DISCARDS + self.n]

    def _trump_word(self) -> str:
        return self.trump.symbol if self.trump is not None else "NT"

    # ------------------------------------------------------------------ protocol

    def _to_act(self) -> tuple[int, ...]:
        if self.phase == EXCHANGE:
            return (self.queue[0],)
        if self.phase == PLAY and self.turn is not None:
            return (self.turn,)
        return ()

    def _legal(self, seat: int) -> list[Action]:
        """Listed once per state by the base (``memo_legal``), since a buy list can be long."""
        if self.phase == EXCHANGE:
            return self._legal_buy(seat)
        return [card_action("play", c) for c in self._playable(seat)]

    def _normalize(self, action: Action) -> Action:
        """``buy`` names its cards in any order; the legal list has them ascending."""
        if action.verb == "buy" and all(isinstance(c, Card) for c in action.args):
            return Action("buy", tuple(sorted(action.args)))
        return action

    def _allows(self, seat: int, action: Action) -> bool:
        """A ``buy`` is checked by R19 directly instead of against the 4096-long list."""
        if self.phase == EXCHANGE and action.verb == "buy":
            return self._buy_allowed(seat, action.args)
        return action in self._legal_now(seat)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.verb == "buy":
            return self._apply_buy(seat, action.args)
        return self._apply_play(seat, action.args[0])

    # ------------------------------------------------------------------ exchange (R19)

    def _legal_buy(self, seat: int) -> list[Action]:
        """Discard any k cards, 0 ≤ k ≤ what the widow still has (R19)."""
        hand = self.hands[seat]  # kept sorted, so every combination is ascending
        legal: list[Action] = []
        for k in range(min(len(self.widow), len(hand)) + 1):
            # tuple.__new__ straight from C: Action("buy", combo) without a Python call per action.
            legal.extend(map(tuple.__new__, repeat(Action), zip(repeat("buy"), combinations(hand, k))))
        return legal

    def legal_sequence(self, seat: int) -> Sequence[Action]:
        """At the exchange, the buys as ``Buys`` (looked up by R19, never listed); else the list."""
        if self.in_deal and self.phase == EXCHANGE and seat in self._to_act():
            return Buys(self, seat)
        return self.legal_actions(seat)

    def _buy_allowed(self, seat: int, cards: tuple) -> bool:
        """Distinct cards of the hand, ascending as ``_normalize`` writes them, at most the widow's size (R19)."""
        hand = self.hands[seat]
        return (
            len(cards) <= len(self.widow)
            and all(isinstance(c, Card) and c in hand for c in cards)
            and all(a < b for a, b in zip(cards, cards[1:]))
        )

    def _apply_buy(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        """Discard first, then take the top k of the widow, unseen by the others (R19)."""
        k = len(cards)
        held = self.cards
        held.move_many(cards, DISCARDS + seat)
        held.take(WIDOW, k, seat)
        held.sort(seat)
        self.bought[seat] = k  # written above the line at the deal's end (R22)
        self.queue.pop(0)
        events = [Event("buy", seat, {"k": k, "widow": len(self.widow)})]
        if not self.queue:
            self.phase = PLAY
            self.leader = self.turn = self.order[0]  # §3.5: E leads the first trick
            events.append(Event("play_begins", self.leader, {"trump": self._trump_word()}))
        return events

    # ------------------------------------------------------------------ play (R20)

    def _playable(self, seat: int) -> list[Card]:
        """Follow suit; if void, any trump; if none, any card (R20, §3.5)."""
        hand = self.cards.piles[seat]
        trick = self.cards.piles[TRICK]
        if not trick:
            return list(hand)
        led = trick[0].suit
        follow = [c for c in hand if c.suit == led]
        if follow:
            return follow
        trumps = [c for c in hand if c.suit == self.trump]
        return trumps or list(hand)

    def _apply_play(self, seat: int, card: Card) -> list[Event]:
        return self._play_card(seat, card)

    def _trick_winner(self) -> int:
        return trick_winner(self.trick, self.trump)

    def _best_card(self) -> Card | None:
        won = winning(self.trick, self.trump)
        return None if won is None else won[1]

    # ------------------------------------------------------------------ scoring (R22–R24)

    def _score_deal(self) -> list[Event]:
        par = self.options["par"]
        row_above, row_below = [], []
        for seat in range(self.n):
            above, below = deal_score(self.tricks[seat], self.bought[seat] or 0, par)  # R22
            self.above[seat] += above
            self.below[seat] += below
            row_above.append(above)
            row_below.append(below)
        self.history.append({
            "deal": self.n_in_game, "trump": self._trump_word(), "tricks": list(self.tricks),
            "bought": [k or 0 for k in self.bought], "above": list(self.above), "below": list(self.below),
        })
        events = [Event("deal_scored", None, {
            "tricks": list(self.tricks), "above": list(self.above), "below": list(self.below),
        })]
        events += self._fix_winner()
        if self.winner is not None and self.n_in_game % PARTIYA == 0:
            events += self._settle()
        self.phase = DONE
        self.turn = None
        self._end_deal()
        return events

    def _fix_winner(self) -> list[Event]:
        """The first deal end with someone ≥ target below fixes the winner for good (R23)."""
        if self.winner is not None:
            return []
        target = self.options["target"]
        reached = [s for s in self.order if self.below[s] >= target]
        if not reached:
            return []
        # Higher below, then lower above, then the deal's order E, M, D (R23).
        self.winner = min(reached, key=lambda s: (-self.below[s], self.above[s], self.order.index(s)))
        return [Event("winner", self.winner, {"below": self.below[self.winner], "play_to_deal": self._partiya_end()})]

    def _partiya_end(self) -> int:
        """The deal number that ends the current partiya (its no-trump deal, R21)."""
        return -(-self.n_in_game // PARTIYA) * PARTIYA

    def _settle(self) -> list[Event]:
        """Each loser pays the winner u × (above + max(0, target − below)) (R24)."""
        assert self.winner is not None
        u, target = self.options["u"], self.options["target"]
        for seat in range(self.n):
            if seat == self.winner:
                continue
            amount = u * (self.above[seat] + max(0, target - self.below[seat]))
            if amount:
                self._transfer(seat, self.winner, amount)
            self.settlement[seat] -= amount
            self.settlement[self.winner] += amount
        self.settled = True
        return [Event("game_settled", self.winner, {"game": self.game_no, "money": list(self.settlement)})]

    # ------------------------------------------------------------------ explanations

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        if self.phase == EXCHANGE and action.verb == "buy":
            return self._explain_buy(seat, action.args)
        if self.phase == EXCHANGE and action.verb == "play":
            return refuse("french3.exchange_first",
                          "The exchange comes first: write 'buy' with the cards you discard, or 'buy' alone (R19).")
        if self.phase == PLAY and action.verb == "play" and action.args:
            return self._explain_play(seat, action.args[0])
        return None

    def _explain_buy(self, seat: int, cards: tuple) -> IllegalAction:
        hand = self.hands[seat]
        missing = [c for c in cards if c not in hand]
        if missing:
            return refuse("french3.discard_not_held",
                          f"You do not hold {missing[0]}; name cards of your hand to discard.", card=missing[0])
        twice = [c for i, c in enumerate(cards) if c in cards[:i]]
        if twice:
            return refuse("french3.named_twice", f"You named {twice[0]} twice.", card=twice[0])
        left = len(self.widow)
        if left == 0:
            return refuse("french3.widow_empty", "The widow is empty, so you cannot exchange: write 'buy' alone (R19).")
        if left == 1:
            return refuse("french3.widow_one",
                          "The widow has only 1 card left, so you may exchange at most 1 (R19).", left=left)
        return refuse("french3.widow_left",
                      f"The widow has only {left} cards left, so you may exchange at most {left} (R19).", left=left)

    def _explain_play(self, seat: int, card: Card) -> IllegalAction:
        hand = self.hands[seat]
        if card not in hand:
            return refuse("refuse.not_held", f"You do not hold {card}.", card=card)
        led = self.trick[0][1].suit
        if any(c.suit == led for c in hand):
            return refuse("french3.follow",
                          f"{led.symbol} was led and you hold {led.symbol}, so you must follow suit (R20).", suit=led)
        assert self.trump is not None
        return refuse("french3.trump",
                      f"You have no {led.symbol} but hold a trump, so you must play a trump {self.trump.symbol} (R20).",
                      suit=led, trump=self.trump)

    # ------------------------------------------------------------------ session

    def natural_end(self) -> bool:
        """A game has just been settled: a record ends here."""
        return not self.in_deal and self.settled

    @classmethod
    def score_view(cls, view: Mapping[str, Any]) -> LineSheet | None:
        """Above and below the line per seat (R22, R23), as ``_view`` puts them in ``sheet``."""
        sheet = view.get("sheet")
        if not isinstance(sheet, Mapping) or not isinstance(sheet.get("above"), list):
            return None
        return LineSheet(tuple(sheet["above"]), tuple(sheet.get("below") or ()))

    def score(self) -> dict[str, Any]:
        """The sheet of the current game, or of the game just settled (§9.4)."""
        return {name: {"above": self.above[s], "below": self.below[s]} for s, name in enumerate(self.names)}

    # ------------------------------------------------------------------ views

    def places(self) -> dict[str, list[Card]]:
        if not self.deals:
            return {}
        return self.cards.places()

    def _status(self, seat: int) -> str:
        if seat in self._to_act():
            return "to buy" if self.phase == EXCHANGE else "to play"
        if self.phase == EXCHANGE:
            k = self.bought[seat]
            return "waits" if k is None else f"bought {k}"
        if self.phase == PLAY:
            return f"{self.tricks[seat]} tricks"
        if self.settled and seat == self.winner:
            return "won the game"
        return "winner" if seat == self.winner else ""

    def _view(self, viewer: Viewer) -> dict[str, Any]:
        n = self.n
        sees = [viewer == ADMIN or viewer == s for s in range(n)]
        roles = [""] * n
        for role, seat in zip(ROLES, self.order):
            roles[seat] = role
        return {
            "phase": self.phase,
            "hands": [list(self.hands[s]) if sees[s] else None for s in range(n)],
            "hand_counts": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "best": self._best_card(),  # the card winning the trick so far (the felt marks it)
            "last_trick": [[s, c] for s, c in self.last_trick],
            "trump": self.trump,
            "tricks": list(self.tricks),
            "status": [self._status(s) for s in range(n)],
            "roles": roles,
            "leader": self.leader,
            "widow_count": len(self.widow),
            "widow": list(self.widow) if viewer == ADMIN else None,
            "discards": [list(self.discards[s]) if sees[s] else None for s in range(n)],
            "discard_counts": [len(d) for d in self.discards],
            "bought": list(self.bought),
            "game_no": self.game_no,
            "deal_in_game": self.n_in_game,
            "partiya": (self.n_in_game - 1) // PARTIYA + 1 if self.n_in_game else 0,
            "sheet": {"above": list(self.above), "below": list(self.below)},
            "history": [dict(row) for row in self.history],
            "winner": self.winner,
            "settled": self.settled,
            "settlement": list(self.settlement),
            "target": self.options["target"],
            "par": self.options["par"],
        }


class Buys(Sequence[Action]):
    """A seat's legal buys in ``_legal_buy``'s order, counted and looked up without listing them.

    Why: a rule bot's look at the exchange (``len``, ``legal[0]``, its choice ``in legal``) listed up
    to 4096 actions each time; a search's playouts look thousands of times a decision."""

    def __init__(self, game: French3, seat: int):
        self.game, self.seat = game, seat
        self.hand = tuple(game.hands[seat])
        self.most = min(len(game.widow), len(self.hand))

    def __len__(self) -> int:
        return sum(comb(len(self.hand), k) for k in range(self.most + 1))

    def __iter__(self) -> Iterator[Action]:
        combos = chain.from_iterable(combinations(self.hand, k) for k in range(self.most + 1))
        return map(tuple.__new__, repeat(Action), zip(repeat("buy"), combos))

    def __contains__(self, action: object) -> bool:
        return (isinstance(action, tuple) and len(action) == 2 and action[0] == "buy"
                and isinstance(action[1], tuple) and self.game._buy_allowed(self.seat, action[1]))

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        at = index + size if index < 0 else index
        if not 0 <= at < size:
            raise IndexError("buy index out of range")
        return next(islice(iter(self), at, None))


GAME = French3
