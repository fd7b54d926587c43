"""«Стуколка» (game 58): the base game 58.а and variants 58.б, 58.в, 58.г.

Every rule below cites its resolution.

Game kind: 4–7 players (by variant), 52 cards, imperfect information, money
(integer kopecks) through a pot that carries remiz from deal to deal.

One deal goes through phases (OpenSpiel style, a ``_legal_<phase>`` /
``_apply_<phase>`` pair each):

``trump_mode`` (58.в only: the dealer says ``shlejf`` or ``open`` before the
deal) → ``declare`` (knock / pass / golets / look / dark) → ``buy`` (58.б,
58.в) → ``razrez`` (58.в with the option) → ``play`` (three tricks) → settled.
A pending ``discard`` (after a dark ``buy``, ``buy shlejf`` or ``razrez``) is a
sub-step of the phase it belongs to.

A session is a sequence of deals: the pot carries, the deal passes clockwise
(R2), and with the option ``rounds`` the session ends per R44.  With
``variant v`` and ``open`` a deal is played exactly as 58.б (R50): the code
asks ``self.closed`` (the trump lies face down) instead of the variant letter
wherever the two differ.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.cards import Card, Rank, Suit, deck
from engine.game import (ADMIN, Lot, NO_DATA, Action, Event, Game, IllegalAction, Option, Viewer, card_action, make_event,
                         refuse)
from engine.holder import Holder
from engine.trick import beats

# Phases of a deal.
TRUMP_MODE = "trump_mode"
DECLARE = "declare"
BUY = "buy"
RAZREZ = "razrez"
PLAY = "play"
DONE = "done"

# Interned actions: legal_actions builds lists of these, so equality tests are cheap.
KNOCK = Action("knock")
PASS = Action("pass")
GOLETS = Action("golets")
LOOK = Action("look")
DARK = Action("dark")
SHLEJF = Action("shlejf")
OPEN = Action("open")
BUY_PAT = Action("buy")
BUY_SHLEJF = Action("buy", ("shlejf",))
RAZREZ_ACT = Action("razrez")
_PLAY = {c: card_action("play", c) for c in deck(52)}  # the interned `play C` of every card

# Where a card lies (``engine.holder``): seats 0–6 hold their hands, then the places of the table.
SEATS = 7
STOCK, TRUMP, BURNED, DISCARDS, PLAYED, TRICK, UNDEALT = range(SEATS, SEATS + 7)
_PLACE_NAMES = ("stock", "trump_card", "burned", "discards", "played", "trick", "undealt")


def _place_names(n: int) -> tuple[str | None, ...]:
    """The names ``places()`` reports: a seat nobody sits in has no hand (None)."""
    return tuple(f"hand:{s}" if s < n else None for s in range(SEATS)) + _PLACE_NAMES


def _buys(hand: list[Card]) -> list[Action]:
    """Every 0–3 card discard of a hand, cards in ascending order (R47)."""
    cards = sorted(hand)
    out = [BUY_PAT]
    size = len(cards)
    for mask in range(1, 1 << size):
        out.append(Action("buy", tuple(cards[i] for i in range(size) if mask >> i & 1)))
    return out


_ORDERS = {(n, dealer): tuple((dealer + 1 + i) % n for i in range(n)) for n in range(1, 8) for dealer in range(n)}
"""Seats clockwise from the eldest, the dealer last (R1), by (players, dealer): asked on every declaration."""

_INS = frozenset({"knock", "golets", "dark", "razrez"})
"""The declarations of a non-dealer who is in (``Stukolka._ins``)."""

IN_PLAY = frozenset({"knock", "golets", "dark", "razrez", "compelled", "shlejf"})
"""The declarations that put a seat in the play (every other seat has passed or not yet spoken)."""

PLAYERS = {"a": (4, 7), "b": (4, 5), "v": (4, 6), "g": (4, 5)}  # R45, R46, R49, R56

OPTIONS = (
    Option("variant", "a", "58.а base, 58.б buying, 58.в shlejf, 58.г compulsory", str, choices=("a", "b", "v", "g")),
    Option("a", 30, "ante «за сдачу» paid by each dealer (R34); a multiple of 3", minimum=3, multiple_of=3),
    Option("b", 30, "58.г: each player's ante in a compulsory deal (R57); a multiple of 3", minimum=3, multiple_of=3),
    Option("rounds", None, "full dealer rotations in a session, then play on until the pot is empty (R44)",
           minimum=1, optional=True),
    Option("dark", False, "58.в: allow «в тёмную» (R52)", bool),
    Option("razrez", False, "58.в: allow «разрез» (R53)", bool),
    Option("remiz_cap", 0, "house limit on one remiz payment, 0 = none (a multiple of 3)", minimum=0, multiple_of=3),
)


def buying(variant: str) -> bool:
    """Whether a variant lets players buy from the stock: 58.б and 58.в do (§5.9, R47), 58.а and 58.г do not."""
    return variant in ("b", "v")


class _StakeOrP:
    """``Stukolka.stake``: on the class ``Game.stake(options)`` (the least one risks at once), on a game P.

    P (R43), the pot when play starts, was an instance attribute named ``stake`` that shadowed the
    classmethod; a slot of that name would hide the classmethod from the class too.
    """

    def __get__(self, game: "Stukolka | None", cls: type | None = None) -> Any:
        if game is None:
            return Game.stake.__func__.__get__(cls, cls)  # type: ignore[attr-defined]
        return game._stake  # read only: the game writes its slot ``_stake``


class Stukolka(Game):
    """Стуколка: one session at a table."""

    # Every attribute in a slot (``Game`` slots the session's): with its 42 in an instance dict the
    # object outgrows CPython's shared key layout (30 keys) and every read and write of the hot path
    # takes the slow dict lookup (the engine bench: ≥ 12,000 deals/s). Pickle and copy carry slots
    # (the search bot's worlds); ``stake`` reads the slot ``_stake`` (``_StakeOrP``).
    __slots__ = ("variant", "completed", "last_pot_empty", "phase", "_names", "cards", "deck", "trump",
                 "trump_card", "trump_ace", "trump_where", "closed", "best", "turn", "declared", "looked",
                 "queue", "pending", "golets_taken", "forced", "compulsory", "_stake", "tricks", "active",
                 "leader", "_lead_at", "remiz")

    stake = _StakeOrP()
    name = "stukolka"
    memo_legal = True  # listed once a state: the engine bench's hot path (≥ 12,000 deals/s)
    title = {"ru": "Стуколка", "en": "Stukolka"}
    options_spec = OPTIONS
    verbs = {
        "knock": "", "pass": "", "golets": "", "look": "", "dark": "", "shlejf": "", "open": "",
        "buy": "cards|shlejf", "razrez": "", "discard": "card", "play": "card",
    }
    deck_size = 52  # R32
    stake_option = "a"  # the ante «за сдачу» (R34)
    variant_labels = {"a": "а", "b": "б", "v": "в", "g": "г"}  # 58.а–58.г
    min_players = 4
    max_players = 7

    @classmethod
    def player_range(cls, options: Mapping[str, Any]) -> tuple[int, int]:
        return PLAYERS[options["variant"]]

    @classmethod
    def draw_first_dealer(cls, players: int, rng: Lot) -> tuple[int, list[Event]]:
        """R33: each draws a card; the lowest (2 low, ace high) deals first; a tie for lowest redraws.

        The players keep the seats they chose (a lobby seats them), so
        only the dealer comes from the draw.
        """
        contenders = list(range(players))
        events: list[Event] = []
        while True:
            cards = deck(52)
            rng.shuffle(cards)
            drawn = dict(zip(contenders, cards))
            events.append(Event("draw_for_deal", None, {"draws": [[s, drawn[s]] for s in contenders]}))
            low = min(c.rank for c in drawn.values())
            contenders = [s for s in contenders if drawn[s].rank == low]
            if len(contenders) == 1:
                events.append(Event("first_dealer", contenders[0]))
                return contenders[0], events

    def __init__(self, names: Sequence[str], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
                 pot: int = 0) -> None:
        super().__init__(names, options, dealer=dealer, pot=pot)
        self.variant: str = self.options["variant"]
        self.completed = 0  # deals settled in this session (R44)
        self.last_pot_empty = False
        self.phase = DONE
        self._names = _place_names(self.n)
        self._clear_deal()
        self.cards = Holder(self._names)  # every card's one place; each deal deals a new one (``_deal``)

    # ------------------------------------------------------------------ deal state

    def _clear_deal(self) -> None:
        n = self.n
        self.trump: Suit | None = None
        self.trump_card: Card | None = None
        self.trump_where = ""  # "up" (on the stock), "aside" (out of play, shown), "shlejf" (face down), "hand"
        self.closed = False  # 58.в shlejf: the trump lies face down and the dealer always plays (R51, R54)
        self.best: tuple[int, Card] | None = None  # the card now winning the trick, and its seat
        self.turn = 0  # in play: the seat to play now
        self.declared: list[str] = [""] * n  # "", knock, golets, dark, pass, razrez, compelled, shlejf
        self.looked = [True] * n  # False only while a 58.в dark-option player has not looked (R52)
        self.queue: list[int] = []  # seats still to act in this phase, the first acts now
        self.pending: int | None = None  # a seat that must `discard` one card
        self.golets_taken = False
        self.forced: int | None = None  # R39 forced dealer
        self.compulsory = False  # 58.г compulsory deal (R57)
        self._stake = 0  # P, the pot when play starts (R43)
        self.tricks = [0] * n
        self.active: list[int] = []  # seats in play, in trick order from the first leader
        self.leader: int | None = None
        self._lead_at = 0  # the leader's index in ``active``
        self.remiz: list[int] = []

    def _start_deal(self) -> list[Event]:
        self._clear_deal()
        events: list[Event] = []
        self.deck = self._draw_deck()
        if self.variant == "g":
            self.compulsory = self.pot == 0  # R57, R59: an empty pot makes the deal compulsory
            if self.compulsory:
                for seat in range(self.n):
                    self._to_pot(seat, self.options["b"])
                events.append(Event("antes", None, {"each": self.options["b"], "pot": self.pot}))
        else:
            self._to_pot(self.dealer, self.options["a"])  # R34: every dealer antes, never again on a redeal
            events.append(make_event(("ante", self.dealer, {"amount": self.options["a"], "pot": self.pot})))
        if self.variant == "v":
            self.phase = TRUMP_MODE  # the dealer must choose before dealing
            self.queue = [self.dealer]
            # Every card's one place (hands, stock, trump card, burned, discards, played, trick, undealt).
            self.cards = Holder(self._names, {UNDEALT: self.deck})
            return events
        return events + self._deal()

    def _eldest_order(self) -> tuple[int, ...]:
        """Seats clockwise from the eldest, the dealer last (R1)."""
        return _ORDERS[self.n, self.dealer]

    def _deal(self) -> list[Event]:
        """Deal from the current deck order (§9.3); an open ace turned up redeals (R35)."""
        events: list[Event] = []
        while True:
            n, cards = self.n, self.deck
            dealt = 3 * n
            self.trump_card = cards[dealt]
            piles = {STOCK: cards[dealt + 1:], TRUMP: (self.trump_card,)}
            for k, seat in enumerate(self._eldest_order()):  # three each, one at a time from the eldest (R1)
                piles[seat] = cards[k:dealt:n]
            self.cards = Holder(self._names, piles)
            self.trump = self.trump_card.suit
            self.trump_ace = Card.of(Rank.ACE, self.trump)
            if self.closed:  # R51: the shlejf lies face down; an ace causes no redeal
                self.trump_where = "shlejf"
                events.append(Event("shlejf_trump", self.dealer, {"trump": self.trump}))
                break
            self.trump_where = "up"
            if self.trump_card.rank != Rank.ACE:
                events.append(make_event(("trump_turned", self.dealer, {"card": self.trump_card})))
                break
            events.append(Event("redeal", self.dealer, {"card": self.trump_card}))  # R35
            self.deck = self._draw_deck()
        return events + self._begin_declarations()

    def _begin_declarations(self) -> list[Event]:
        order = self._eldest_order()
        if self.compulsory:  # R57: everyone plays, the eldest leads, no declarations
            for seat in order:
                self.declared[seat] = "compelled"
            return self._begin_play(order[0])
        self.phase = DECLARE
        if self.closed:
            self.declared[self.dealer] = "shlejf"  # R54: the dealer always plays
            self.queue = list(order[:-1])
            if self.options["dark"]:
                for seat in self.queue:
                    self.looked[seat] = False
        else:
            self.queue = list(order)
        return []

    # ------------------------------------------------------------------ protocol hooks

    def _to_act(self) -> tuple[int, ...]:
        """Who acts now; () out of a deal too (before the first, and once settled: phase DONE, queue empty)."""
        if self.phase == PLAY:  # nobody discards in play (``pending`` is set while buying or in a razrez)
            return (self.turn,)
        if self.pending is not None:
            return (self.pending,)
        if self.queue:
            return (self.queue[0],)
        return ()

    to_act = _to_act  # the base's ``in_deal`` test around it would say the same: one call a turn fewer (the bench)

    def _legal(self, seat: int) -> list[Action]:
        """Listed once per state by the base (``memo_legal``): a turn lists them, ``apply`` checks against them."""
        phase = self.phase
        if phase == PLAY:  # nobody discards in play (``pending`` is set while buying or in a razrez)
            return self._legal_play(seat)
        if self.pending is not None:
            return [card_action("discard", c) for c in self.cards.piles[seat]]
        if phase == DECLARE:
            return self._legal_declare(seat)
        if phase == BUY:
            return self._legal_buy(seat)
        if phase == RAZREZ:
            return [RAZREZ_ACT, PASS]
        if phase == TRUMP_MODE:
            return [SHLEJF, OPEN]
        return []

    def _normalize(self, action: Action) -> Action:
        if action.verb == "buy" and action.args and action.args != ("shlejf",):
            return Action("buy", tuple(sorted(action.args)))
        return action

    def _apply(self, seat: int, action: Action) -> list[Event]:
        phase = self.phase
        if phase == PLAY:  # nobody discards in play (``pending`` is set while buying or in a razrez)
            return self._apply_play(seat, action.args[0])
        if self.pending is not None:
            return self._apply_discard(seat, action.args[0])
        if phase == DECLARE:
            return self._apply_declare(seat, action)
        if phase == BUY:
            return self._apply_buy(seat, action)
        if phase == RAZREZ:
            return self._apply_razrez(seat, action)
        return self._apply_trump_mode(seat, action)

    # ------------------------------------------------------------------ 58.в: shlejf or open

    def _apply_trump_mode(self, seat: int, action: Action) -> list[Event]:
        self.closed = action is SHLEJF or action == SHLEJF  # R50: `open` plays the deal as 58.б
        event = Event("shlejf" if self.closed else "open", seat)
        self.queue = []
        return [event] + self._deal()

    # ------------------------------------------------------------------ declarations

    def _golets_free(self) -> bool:
        return self.variant == "a" and not self.golets_taken  # R36, R46: golets only in 58.а, once

    def _ins(self) -> list[int]:
        """Non-dealers who are in, clockwise from the eldest (a plain loop: asked on every declaration)."""
        declared = self.declared
        out = []
        for seat in _ORDERS[self.n, self.dealer][:-1]:
            if declared[seat] in _INS:
                out.append(seat)
        return out

    def _legal_declare(self, seat: int) -> list[Action]:
        if seat == self.dealer and not self.closed:
            lone = len(self._ins()) == 1  # R39: a lone knocker forces the dealer to play
            out = [KNOCK] if lone else [KNOCK, PASS]
            if self._golets_free():
                out.append(GOLETS)
            return out
        if not self.looked[seat]:
            return [LOOK, DARK, KNOCK, PASS]  # §9.2: knock/pass without look counts as looking
        out = [KNOCK, PASS]
        if self._golets_free():
            out.append(GOLETS)
        return out

    def _apply_declare(self, seat: int, action: Action) -> list[Event]:
        verb = action.verb
        if verb == "look":
            self.looked[seat] = True
            return [Event("look", seat)]
        self.looked[seat] = verb != "dark"
        self.queue.pop(0)
        events: list[Event]
        if verb == "golets":
            events = self._take_golets(seat)
        elif verb == "pass":
            self.declared[seat] = "pass"
            self.cards.take_all(seat, DISCARDS)  # §9.2: a passer discards his hand face down
            events = [make_event(("pass", seat, NO_DATA))]
        else:
            self.declared[seat] = verb  # knock or dark (R52: dark is committed)
            events = [make_event((verb, seat, NO_DATA))]
        if seat == self.dealer and not self.closed:
            if verb != "pass" and len(self._ins()) == 1:
                self.forced = seat  # R39
                events.append(Event("forced_dealer", seat))
            return events + self._after_declarations()
        if not self.queue:
            return events + self._after_declarations()
        if self.queue[0] == self.dealer and not self._ins():
            return events + self._dealer_takes_pot()  # R38: all pass
        return events

    def _take_golets(self, seat: int) -> list[Event]:
        """R37: discard 3, burn the trump card (shown aside) and the next card, take the next 3."""
        self.golets_taken = True
        self.declared[seat] = "golets"
        cards = self.cards
        cards.take_all(seat, DISCARDS)
        self.trump_where = "aside"
        cards.take(STOCK, 1, BURNED)
        cards.take(STOCK, 3, seat)
        return [Event("golets", seat)]

    def _after_declarations(self) -> list[Event]:
        if not buying(self.variant):  # no buying in 58.а and 58.г
            return self._begin_play(self._first_leader())
        if self.closed:
            ins = self._ins()
            if not ins and not self.options["razrez"]:
                return self._dealer_takes_pot()  # R54: alone, he takes the pot
            self.queue = ins + [self.dealer]
        else:
            self.trump_where = "aside"  # R47: the turned card goes out of play, shown aside
            self.queue = [s for s in self._eldest_order() if s in self._ins() or
                          (s == self.dealer and self.declared[s] in ("knock", "golets"))]
        self.phase = BUY
        return [Event("buying", None)]

    def _first_leader(self) -> int:
        """R40: the golets taker, else the first knocker clockwise from the eldest."""
        order = self._eldest_order()
        for seat in order:
            if self.declared[seat] == "golets":
                return seat
        for seat in order:
            if self.declared[seat] in ("knock", "dark"):
                return seat
        raise AssertionError("no player is in")

    def _dealer_takes_pot(self) -> list[Event]:
        """R38 / R54: nobody plays against the dealer, so he takes the whole pot without play."""
        amount = self.pot
        self._to_pot(self.dealer, -amount)
        self.queue = []
        return [Event("dealer_takes_pot", self.dealer, {"amount": amount})] + self._settle()

    # ------------------------------------------------------------------ buying (58.б, 58.в)

    def _legal_buy(self, seat: int) -> list[Action]:
        if self.closed and seat == self.dealer:
            return [BUY_PAT, BUY_SHLEJF]  # R51: all or nothing
        if self.declared[seat] == "dark":
            return [BUY_PAT]  # R52: his 3 unseen cards go, 4 come
        return _buys(self.cards.piles[seat])

    def _apply_buy(self, seat: int, action: Action) -> list[Event]:
        self.queue.pop(0)
        cards = self.cards
        if action.args == ("shlejf",):
            cards.take_all(seat, DISCARDS)
            cards.take(STOCK, 3, seat)  # R51: three from the stock, the shlejf card last
            cards.move(self.trump_card, seat)  # type: ignore[arg-type]
            self.trump_where = "hand"
            self.pending = seat
            return [Event("buy_shlejf", seat)]
        if self.declared[seat] == "dark":
            cards.take_all(seat, DISCARDS)
            cards.take(STOCK, 4, seat)  # R52
            self.looked[seat] = True
            self.pending = seat
            return [Event("buy_dark", seat)]
        cards.move_many(action.args, DISCARDS)
        count = len(action.args)
        cards.take(STOCK, count, seat)
        events = [Event("buy", seat, {"count": count})]
        if not self.queue:
            events += self._after_buying()
        return events

    def _apply_discard(self, seat: int, card: Card) -> list[Event]:
        self.cards.move(card, DISCARDS)
        self.pending = None
        events = [Event("discard", seat)]
        if self.phase == BUY and not self.queue:
            events += self._after_buying()
        elif self.phase == RAZREZ and not self.queue:
            events += self._after_razrez()
        return events

    def _after_buying(self) -> list[Event]:
        if self.closed and self.options["razrez"]:
            passers = [s for s in self._eldest_order()[:-1] if self.declared[s] == "pass"]
            if passers:
                self.phase = RAZREZ
                self.queue = passers
                return [Event("razrez_round", None)]
            return self._after_razrez()
        return self._begin_play(self._first_leader())

    # ------------------------------------------------------------------ razrez (58.в)

    def _apply_razrez(self, seat: int, action: Action) -> list[Event]:
        self.queue.pop(0)
        if action.verb == "pass":
            events = [Event("razrez_declined", seat)]
            return events + (self._after_razrez() if not self.queue else [])
        self.declared[seat] = "razrez"  # R53: a full participant
        self.cards.take(STOCK, 4, seat)  # his hand went to the discards when he passed
        self.pending = seat
        return [Event("razrez", seat)]

    def _after_razrez(self) -> list[Event]:
        if not self._ins():
            return self._dealer_takes_pot()  # R54
        razrez = [s for s in self._eldest_order()[:-1] if self.declared[s] == "razrez"]
        leader = razrez[-1] if razrez else self._first_leader()  # R53/R55: the last razrez buyer leads
        return self._begin_play(leader)

    # ------------------------------------------------------------------ play

    def _begin_play(self, leader: int) -> list[Event]:
        self.phase = PLAY
        self.queue = []
        self._stake = self.pot  # R43: P, always a multiple of 3
        n, declared = self.n, self.declared
        active: list[int] = []  # the seats in play, clockwise from the leader
        for i in range(n):
            seat = (leader + i) % n
            if declared[seat] in IN_PLAY:
                active.append(seat)
        self.active = active
        self.leader = self.turn = leader
        self._lead_at = 0
        return [make_event(("play_starts", leader,
                            {"stake": self._stake, "share": self._stake // 3, "players": list(self.active)}))]

    def _legal_play(self, seat: int) -> list[Action]:
        """R41 (head the trick; trump and overtrump when void) and R42 (lead the trump ace), as ``play C``.

        The interned actions are picked in the same pass that picks the cards: the hot path of the bench.
        """
        cards = self.cards
        hand = cards.piles[seat]
        trick = cards.piles[TRICK]
        if not trick:
            ace = self.trump_ace
            if cards.where[ace] == seat:
                return [_PLAY[ace]]
            return [_PLAY[c] for c in hand]
        led = trick[0] >> 4  # suits as numbers (engine.cards: suit * 16 + rank)
        best = self.best[1]  # type: ignore[index]
        trump = self.trump
        follow: list[Card] = []
        trumps: list[Card] = []
        for card in hand:  # one plain pass (a comprehension is a frame of its own on 3.11)
            suit = card >> 4
            if suit == led:
                follow.append(card)
            elif suit == trump:
                trumps.append(card)
        must = follow or trumps  # follow suit; void, trump (R41)
        if not must:
            return [_PLAY[c] for c in hand]
        if best >> 4 == must[0] >> 4:  # the best card is of that suit: head it if he can (overtrump, R41)
            higher = []
            for card in must:
                if card > best:
                    higher.append(_PLAY[card])
            if higher:
                return higher
        return [_PLAY[c] for c in must]  # can't head it, or the lead was trumped: no plain card can head it

    def _winning_card(self) -> Card:
        return self.best[1]  # type: ignore[index]

    def _apply_play(self, seat: int, card: Card) -> list[Event]:
        cards = self.cards
        cards.play(card, TRICK, seat)
        down = len(cards.piles[TRICK])
        # The current winner is kept as cards fall, so legality (R41) never rescans the trick;
        # the highest trump wins, else the highest card of the suit led (§5.6): ``engine.trick.beats``.
        if down == 1 or beats(card, self.best[1], self.trump):  # type: ignore[index]
            self.best = (seat, card)
        events = [make_event(("play", seat, {"card": card}))]
        active = self.active
        size = len(active)
        if down < size:
            self.turn = active[(self._lead_at + down) % size]
            return events
        winner = self.best[0]  # type: ignore[index]
        self.tricks[winner] += 1
        taken = cards.take_all(TRICK, PLAYED)
        number = len(cards.piles[PLAYED]) // size
        share = self._stake // 3
        self._to_pot(winner, -share)
        events.append(make_event(("trick_won", winner, {"number": number, "cards": taken, "amount": share})))
        self.leader = self.turn = winner
        self._lead_at = active.index(winner)
        if number == 3:
            events += self._settle_play()
        return events

    def _settle_play(self) -> list[Event]:
        """R43: every player in with no trick, except a forced dealer, pays P into the pot."""
        events: list[Event] = []
        cap = self.options["remiz_cap"]
        amount = min(self._stake, cap) if cap else self._stake
        for seat in self.active:
            if self.tricks[seat] == 0 and seat != self.forced:
                self.remiz.append(seat)
                self._to_pot(seat, amount)
                events.append(make_event(("remiz", seat, {"amount": amount})))
        return events + self._settle()

    def _settle(self) -> list[Event]:
        self.phase = DONE
        self.queue = []
        self.completed += 1
        self.last_pot_empty = self.pot == 0
        self._end_deal()
        return [make_event(("deal_end", None, {"pot": self.pot}))]

    # ------------------------------------------------------------------ explanations

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        if self.pending is not None and action.verb == "discard":
            return refuse("refuse.not_held", f"You do not hold {action.args[0]}.", card=action.args[0])
        if self.phase == PLAY and action.verb == "play":
            return self._explain_play(seat, action.args[0])
        if self.phase == BUY and action.verb == "buy":
            return self._explain_buy(seat, action)
        if self.phase == DECLARE and seat == self.dealer and action.verb == "pass" and not self.closed:
            return refuse("stukolka.forced", "Exactly one player is in, so the dealer must play (R39).")
        return None

    def _explain_buy(self, seat: int, action: Action) -> IllegalAction:
        if self.closed and seat == self.dealer:
            return refuse("stukolka.dealer_buy",
                          "The dealer either stands pat ('buy') or takes the shlejf ('buy shlejf') (R51).")
        if self.declared[seat] == "dark":
            return refuse("stukolka.dark_buy", "A dark player buys blind: write 'buy' alone, then discard one card (R52).")
        if action.args == ("shlejf",):
            return refuse("stukolka.shlejf_dealer_only", "Only the dealer may take the shlejf (R51).")
        missing = [c for c in action.args if c not in self.cards.piles[seat]]
        if missing:
            return refuse("refuse.not_held", f"You do not hold {missing[0]}.", card=missing[0])
        return refuse("stukolka.buy_limit", "You may discard at most 3 different cards of your hand (R47).")

    def _explain_play(self, seat: int, card: Card) -> IllegalAction:
        hand = self.cards.piles[seat]
        if card not in hand:
            return refuse("refuse.not_held", f"You do not hold {card}.", card=card)
        trick = self.cards.piles[TRICK]
        if not trick:
            return refuse("stukolka.lead_ace", "You hold the ace of trumps and are on lead, so you must lead it (R42).",
                          card=self.trump_ace)
        led = trick[0].suit
        best = self._winning_card()
        if any(c.suit == led for c in hand):
            if card.suit != led:
                return refuse("stukolka.follow", f"You hold {led}, so you must follow {led} (R41).", suit=led)
            return refuse("stukolka.head", f"You can beat {best}, so you must head the trick with a higher {led} (R41).",
                          card=best, suit=led)
        if card.suit != self.trump:
            return refuse("stukolka.trump", f"You have no {led} but hold trumps, so you must trump (R41).", suit=led)
        return refuse("stukolka.overtrump", f"You can overtrump {best}, so you must play a higher trump (R41).",
                      card=best)

    # ------------------------------------------------------------------ session

    def is_over(self) -> bool:
        """R44: after `rounds` full rotations, the first deal that ends with an empty pot ends the session."""
        rounds = self.options["rounds"]
        if rounds is None or self.in_deal:
            return False
        return self.completed >= rounds * self.n and self.last_pot_empty

    def natural_end(self) -> bool:
        if self.in_deal or not self.deals:
            return False
        return self.options["rounds"] is None or self.is_over()

    # ------------------------------------------------------------------ views

    def places(self) -> dict[str, list[Card]]:
        if not self.deals:
            return {}
        return self.cards.places()

    # Reads of the holder under the names the views, the bots' tests and the rule tests use.

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's hand in the order its cards came (read only: ``self.cards`` moves cards)."""
        return self.cards.piles[:self.n]

    @property
    def stock(self) -> list[Card]:
        return self.cards.piles[STOCK]

    @property
    def burned(self) -> list[Card]:
        """Hidden burned cards (the golets' second card, R37)."""
        return self.cards.piles[BURNED]

    @property
    def discards(self) -> list[Card]:
        """Face down: passed hands, exchanges."""
        return self.cards.piles[DISCARDS]

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The trick on the table, (seat, card) in play order."""
        return self.cards.plays(TRICK)

    @property
    def played(self) -> list[tuple[int, Card]]:
        """The completed tricks in order, (seat, card)."""
        return self.cards.plays(PLAYED)

    def _sees_hand(self, viewer: Viewer, seat: int) -> bool:
        if viewer == ADMIN:
            return True
        return viewer == seat and self.looked[seat]

    def _view(self, viewer: Viewer) -> dict[str, Any]:
        n = self.n
        piles = self.cards.piles
        trump_card = None
        if self.trump_card is not None and self.phase != TRUMP_MODE:
            if self.trump_where in ("up", "aside") or viewer == ADMIN:
                trump_card = self.trump_card
            elif self.trump_where == "shlejf" and viewer == self.dealer:
                trump_card = self.trump_card  # only the dealer saw the shlejf (§5.10)
        status = []
        for seat in range(n):
            word = self.declared[seat]
            if seat == self.forced:
                word = "forced"
            if seat in self.remiz:
                word = "remiz"
            status.append(word)
        return {
            "phase": self.phase,
            "variant": self.variant,
            "closed": self.closed,
            "hands": [list(piles[s]) if self._sees_hand(viewer, s) else None for s in range(n)],
            "hand_counts": [len(piles[s]) for s in range(n)],
            "looked": list(self.looked),
            "trick": [[s, c] for s, c in self.trick],
            "best": self.best[1] if piles[TRICK] and self.best is not None else None,  # winning the trick so far
            "played": [[s, c] for s, c in self.played],
            "trump": self.trump if self.phase != TRUMP_MODE else None,
            "trump_card": trump_card,
            "trump_where": self.trump_where,
            "tricks": list(self.tricks),
            "status": status,
            "declared": list(self.declared),
            "stake": self._stake if self.phase in (PLAY, DONE) else self.pot,
            "stock_count": len(piles[STOCK]),
            "discard_count": len(piles[DISCARDS]),
            "burned": list(piles[BURNED]) if viewer == ADMIN else None,
            "discards": list(piles[DISCARDS]) if viewer == ADMIN else None,
            "stock": list(piles[STOCK]) if viewer == ADMIN else None,
            "golets_free": self._golets_free() and self.phase == DECLARE,
            "forced": self.forced,
            "compulsory": self.compulsory,
            "leader": self.leader,
            "pending_discard": self.pending,
            "remiz": list(self.remiz),
            "completed": self.completed,
        }


GAME = Stukolka
