"""«Копилка» (The Kitty): resolutions R6–R17.

Four players, 32 cards, no trumps, 5-card hands and a drawing stock.  A deal
has up to three phases, one ``_legal_<phase>`` / ``_apply_<phase>`` pair each:

* ``take`` — the mandatory long-suit exchange (R7, R8): every giver's suit is
  laid out at once, then takers pick places blind, giver by giver;
* ``discard`` — after the givers' refills, each taker discards one card per
  card taken;
* ``play`` — tricks: follow suit, or when void draw / pass / play the A♠.

Money moves only through the kitty (the game's ``pot``): deposits at the start
of a partiya (R6), ``S`` and ``Z`` after each deal (R15), the payout after the
4th deal (R16).  A session is any number of partiyas; ``natural_end`` is true
right after a settlement, and ``is_over`` never (a table stops between
partiyas), as for Стуколка without ``rounds``.

Every card of a deal lies in exactly one list (hands, stock, layouts, trick,
played, discards); ``places`` exposes them so tests can prove it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, NamedTuple, Sequence

from engine.cards import Card, Rank, Suit
from engine.game import ADMIN, Action, Event, Game, IllegalAction, Option, OptionError, Viewer, refuse
from engine.holder import Holder
from engine.view import LaidRow, PartiyaSheet, SuitTally

ACE_OF_SPADES = Card.of(Rank.ACE, Suit.SPADES)
PLAYERS = 4
HAND = 5
PARTIYA_DEALS = 4  # R17: each player deals once
FAILED_LEADS_LIMIT = 4  # R14: the deadlock guard
MONEY_MAX = 10**9  # option ceiling: keeps every sum far from 64-bit limits

SUIT_VALUE_OPTIONS = {Suit.SPADES: "V♠", Suit.CLUBS: "V♣", Suit.DIAMONDS: "V♦", Suit.HEARTS: "V♥"}
OPTION_ALIASES = {  # ASCII spellings for terminals and config files; records keep the canonical names
    "VS": "V♠", "VC": "V♣", "VD": "V♦", "VH": "V♥",
    "vs": "V♠", "vc": "V♣", "vd": "V♦", "vh": "V♥",
    "A♠ multiplier": "M", "m": "M", "d": "D", "s": "S", "z": "Z",
}

TAKE, DISCARD, PLAY, DONE = "take", "discard", "play", "done"

_SUIT_NAMES = {Suit.SPADES: "spades", Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts"}


def _money(name: str, default: int, doc: str, minimum: int = 0) -> Option:
    return Option(name, default, doc, minimum=minimum, maximum=MONEY_MAX)


class TrickRecord(NamedTuple):
    """One trick on the score sheet (§2.6): its led suit, whether the A♠ won it, its value."""

    deal: int
    suit: Suit
    doubled: bool
    value: int


# Where a card lies (``engine.holder``): hands 0–3, then the table; LAYOUT + giver: a giver's row.
STOCK, DISCARDS, TRICK, PLAYED, LAYOUT = 4, 5, 6, 7, 8
PLACE_NAMES = tuple(f"hand:{s}" for s in range(4)) + ("stock", "discards", "trick", "played") + tuple(
    f"layout:{g}" for g in range(4))


@dataclass
class Layout:
    """A giver's face-down row (R7): places keep their numbers, a taken place stays empty.

    Its cards lie in the deal's holder at ``LAYOUT + giver`` until taken or taken back; ``row``
    is the order they were laid out in, so ``places`` says which numbered place is empty.
    """

    giver: int
    suit: Suit
    row: tuple[Card, ...]
    cards: Holder = field(repr=False, compare=False)
    taken_by: list[int | None] = field(init=False)  # the taker of each place

    def __post_init__(self) -> None:
        self.taken_by = [None] * len(self.row)

    @property
    def places(self) -> list[Card | None]:
        where, here = self.cards.where, LAYOUT + self.giver
        return [c if where[c] == here else None for c in self.row]


def long_suit(hand: list[Card]) -> Suit | None:
    """The suit a dealt hand holds 3+ cards of (a 5-card hand has at most one), else None."""
    counts = Counter(card.suit for card in hand)
    suit, count = max(counts.items(), key=lambda item: item[1]) if counts else (None, 0)
    return suit if count >= 3 else None


class Kopilka(Game):
    """«Копилка»: one session of partiyas of 4 deals at a 4-player table."""

    # Its state in slots, as ``Game`` keeps the session's: a class with slots anywhere has no inline
    # attribute values on 3.13, so a game with an instance dict under a slotted base reads slower.
    __slots__ = ("cards", "drew", "eldest", "failed", "first_shedder", "followers", "last_settlement", "last_trick",
                 "layouts", "leader", "led", "must_avoid", "owed", "partiya_deal", "passed", "phase", "settled",
                 "sheet", "take_queue", "tricks")

    name = "kopilka"
    title = {"ru": "Копилка", "en": "The Kitty"}
    options_spec = (
        _money("D", 20, "deposit of each player into the kitty at the start of each partiya (R6)"),
        _money("S", 5, "paid per deal by each player who was not first to shed his cards (R15)"),
        _money("Z", 5, "fine for taking no trick in a deal (R15)"),
        _money("V♠", 1, "value of a spade trick"),
        _money("V♣", 2, "value of a club trick"),
        _money("V♦", 3, "value of a diamond trick"),
        _money("V♥", 4, "value of a heart trick"),
        Option("M", 2, "the A♠ multiplier: a trick won by the A♠ counts this many times (R11)",
               minimum=1, maximum=100),
    )
    verbs = {"play": "card", "pass": "", "draw": "", "take": "int", "discard": "card"}
    deck_size = 32
    stake_option = "S"  # paid per deal by all but the first to shed (R15)
    pot_name = "kitty"
    min_players = PLAYERS
    max_players = PLAYERS

    @classmethod
    def make_options(cls, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Accept ASCII spellings (``VS``, ``vh``, ``m``) for the suit values and the multiplier."""
        canonical: dict[str, Any] = {}
        for key, value in dict(raw or {}).items():
            name = OPTION_ALIASES.get(key, key)
            if name in canonical:
                raise OptionError(f"option {name!r} is given twice (also as {key!r})")
            canonical[name] = value
        return super().make_options(canonical)

    def __init__(
        self,
        names: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        dealer: int = 0,
        pot: int = 0,
    ):
        super().__init__(names, options, dealer=dealer, pot=pot)
        self.partiya_deal = 0  # 1..4 while a partiya runs; 4 after its last deal
        self.settled = False  # a partiya has just been settled (a record's ``over``)
        self.sheet: list[list[TrickRecord]] = [[] for _ in range(PLAYERS)]
        self.last_settlement: list[int] | None = None
        self._clear_deal()

    # -- deal state -----------------------------------------------------------------

    def _clear_deal(self) -> None:
        self.phase = DONE
        self.eldest = (self.dealer + 1) % PLAYERS
        self.cards = Holder(PLACE_NAMES)  # every card's one place: hands, stock, discards, trick, played, rows
        self.layouts: dict[int, Layout] = {}  # giver → row, in take order
        self.take_queue: list[tuple[int, int]] = []  # (taker, giver)
        self.owed = [0] * PLAYERS  # discards still owed (R8)
        self.leader = self.eldest
        self.must_avoid: Suit | None = None  # R13
        self.led: Suit | None = None
        self.followers: list[int] = []  # still to act on this trick, in order
        self.drew = [0] * PLAYERS  # draws in the current trick (status)
        self.passed: set[int] = set()
        self.failed = 0  # consecutive failed leads (R14)
        self.last_trick: list[tuple[int, Card]] = []
        self.tricks: list[list[TrickRecord]] = [[] for _ in range(PLAYERS)]
        self.first_shedder: int | None = None

    def _order(self, start: int) -> list[int]:
        """Seats clockwise from ``start`` (R1)."""
        return [(start + i) % PLAYERS for i in range(PLAYERS)]

    # -- dealing and the exchange (R6, R7, R8) -----------------------------------------

    def _start_deal(self) -> list[Event]:
        self._clear_deal()
        events = self._open_partiya() if self.partiya_deal in (0, PARTIYA_DEALS) else []
        self.partiya_deal += 1
        self.settled = False
        cards = self._draw_deck()
        dealt = PLAYERS * HAND  # §9.3: one at a time from the eldest
        piles = {(self.eldest + k) % PLAYERS: cards[k:dealt:PLAYERS] for k in range(PLAYERS)}
        piles[STOCK] = cards[dealt:]
        self.cards = Holder(PLACE_NAMES, piles)
        events.append(Event("dealt", self.dealer, {"partiya_deal": self.partiya_deal}))
        return events + self._lay_out()

    def _open_partiya(self) -> list[Event]:
        """R6: a new partiya, a new deposit of ``D`` from everybody."""
        self.partiya_deal = 0
        self.sheet = [[] for _ in range(PLAYERS)]
        self.last_settlement = None
        deposit = self.options["D"]
        events = [Event("partiya_start", None, {"deposit": deposit})]
        if deposit:
            for seat in self._order(self.eldest):
                self._to_pot(seat, deposit)
        return events

    def _lay_out(self) -> list[Event]:
        """R7: every giver lays out his whole long suit at once, in dealt order."""
        events: list[Event] = []
        for giver in self._order(self.eldest):
            suit = long_suit(self.hands[giver])
            if suit is None:
                continue
            row = tuple(c for c in self.hands[giver] if c.suit == suit)
            self.cards.move_many(row, LAYOUT + giver)
            self.layouts[giver] = Layout(giver, suit, row, self.cards)
            self.take_queue += [((giver + k) % PLAYERS, giver) for k in (1, 2, 3)]
            events.append(Event("lay_out", giver, {"cards": len(row)}))  # face down: no suit
        self.phase = TAKE if self.take_queue else PLAY
        return events

    def _legal_take(self, seat: int) -> list[Action]:
        row = self.layouts[self.take_queue[0][1]]
        return [Action("take", (i + 1,)) for i, card in enumerate(row.places) if card is not None]

    def _apply_take(self, seat: int, action: Action) -> list[Event]:
        taker, giver = self.take_queue.pop(0)
        row = self.layouts[giver]
        place = action.args[0] - 1
        card = row.places[place]
        assert card is not None
        row.taken_by[place] = taker
        self.cards.move(card, taker)
        self.owed[taker] += 1
        events = [Event("take", taker, {"from": self.names[giver], "place": place + 1})]
        if not self.take_queue:
            events += self._refill()
        return events

    def _refill(self) -> list[Event]:
        """R7/R8: givers take back their untaken cards and draw what was taken (the stock may run short)."""
        events: list[Event] = []
        for giver, row in self.layouts.items():
            back = [c for c in row.places if c is not None]
            self.cards.move_many(back, giver)
            taken = sum(t is not None for t in row.taken_by)
            drawn = self.cards.take(STOCK, taken, giver)
            events.append(Event("refill", giver, {"back": len(back), "drew": len(drawn)}))
        self.phase = DISCARD
        return events

    def _discarder(self) -> int:
        return next(s for s in self._order(self.eldest) if self.owed[s])

    def _legal_discard(self, seat: int) -> list[Action]:
        return [Action("discard", (c,)) for c in sorted(self.hands[seat])]

    def _apply_discard(self, seat: int, action: Action) -> list[Event]:
        card = action.args[0]
        self.cards.move(card, DISCARDS)
        self.owed[seat] -= 1
        events = [Event("discard", seat, {"left": self.owed[seat]})]  # face down: no card
        if not any(self.owed):
            self.layouts = {}
            self.phase = PLAY
            events.append(Event("exchange_done", None, {"stock": len(self.stock)}))
        return events

    # -- trick play (R9–R14) ---------------------------------------------------------

    def _actor(self) -> int:
        return self.followers[0] if self.trick else self.leader

    def _legal_play(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if not self.trick:
            return [Action("play", (c,)) for c in self._leads(hand)]
        follow = sorted(c for c in hand if c.suit == self.led)
        if follow:  # R10: must follow (a drawn card of the suit too, R9)
            return [Action("play", (c,)) for c in follow]
        actions = [Action("play", (ACE_OF_SPADES,))] if ACE_OF_SPADES in hand else []  # R11
        if self.stock:
            actions.append(Action("draw"))  # R9
        return actions + [Action("pass")]

    def _leads(self, hand: list[Card]) -> list[Card]:
        """R13: the trick's winner leads another suit than the one just won, if he can."""
        cards = sorted(hand)
        if self.must_avoid is None:
            return cards
        other = [c for c in cards if c.suit != self.must_avoid]
        return other or cards

    def _apply_play(self, seat: int, action: Action) -> list[Event]:
        if action.verb == "draw":
            self.cards.take(STOCK, 1, seat)
            self.drew[seat] += 1
            return [Event("draw", seat, {"stock": len(self.stock)})]  # the card stays hidden
        if action.verb == "pass":
            self.passed.add(seat)
            self.followers.pop(0)
            return [Event("pass", seat)] + self._maybe_resolve()
        card = action.args[0]
        leads = not self.cards.piles[TRICK]
        self.cards.play(card, TRICK, seat)
        if leads:
            self.led = card.suit
            self.must_avoid = None
            self.followers = self._order(seat)[1:]
            return [Event("lead", seat, {"card": card})]
        self.followers.pop(0)
        return [Event("play", seat, {"card": card})] + self._maybe_resolve()

    def _maybe_resolve(self) -> list[Event]:
        if self.followers:
            return []
        return self._resolve() if len(self.trick) > 1 else self._fail_lead()

    def _best(self) -> Card | None:
        """§2.6, R11: the A♠ wins any trick it is in; otherwise the highest card of the led suit."""
        cards = [c for _, c in self.trick]
        if ACE_OF_SPADES in cards:
            return ACE_OF_SPADES
        return max((c for c in cards if c.suit == self.led), default=None)

    def _resolve(self) -> list[Event]:
        """A trick with at least one contribution counts; the A♠ doubles its value (R11)."""
        assert self.led is not None
        trick = self.trick
        cards = [c for _, c in trick]
        doubled = ACE_OF_SPADES in cards
        best = self._best()
        winner = next(s for s, c in trick if c == best)
        value = self.options[SUIT_VALUE_OPTIONS[self.led]] * (self.options["M"] if doubled else 1)
        record = TrickRecord(self.partiya_deal, self.led, doubled, value)
        self.tricks[winner].append(record)
        self.sheet[winner].append(record)
        self.cards.take_all(TRICK, PLAYED)
        self.last_trick = trick
        events = [Event("trick", winner, {"suit": self.led.symbol, "doubled": doubled, "value": value})]
        emptied = [s for s, _ in trick if not self.hands[s]]
        led = self.led
        self._next_trick(winner)
        self.failed = 0
        if emptied:  # R14: the earliest in the trick's order is first
            return events + self._finish_deal(emptied[0])
        self.must_avoid = led  # R13
        return events

    def _fail_lead(self) -> list[Event]:
        """R12: nobody contributed; the leader takes his card back and the next player leads freely."""
        seat, card = self.trick[0]
        self.cards.move(card, seat)
        self.failed += 1
        self._next_trick((seat + 1) % PLAYERS)
        events = [Event("lead_failed", seat, {"card": card})]
        if self.failed >= FAILED_LEADS_LIMIT:  # R14: the deadlock guard
            return events + self._finish_deal(None)
        return events

    def _next_trick(self, leader: int) -> None:
        self.leader = leader  # the trick's cards are taken or back in the leader's hand
        self.followers = []
        self.led = None
        self.must_avoid = None
        self.drew = [0] * PLAYERS
        self.passed = set()

    # -- money (R15, R16) --------------------------------------------------------------

    def _finish_deal(self, shedder: int | None) -> list[Event]:
        """R15: S from all but the first shedder, Z from each player without a trick."""
        self.first_shedder = shedder
        self.phase = DONE
        events = [Event("deal_end", shedder, {"end": "shed" if shedder is not None else "deadlock"})]
        for seat in self._order(self.eldest):
            stake = 0 if seat == shedder else self.options["S"]
            fine = 0 if self.tricks[seat] else self.options["Z"]
            if stake + fine:
                self._to_pot(seat, stake + fine)
                paid = {"amount": stake + fine, "stake": stake, "fine": fine}  # only the parts paid: told as such
                events.append(Event("pays", seat, {k: v for k, v in paid.items() if v}))
        if self.partiya_deal == PARTIYA_DEALS:
            events += self._settle(shedder)
        self._end_deal()
        return events

    def won(self) -> list[int]:
        """W per seat over the partiya so far (§2.8 step 1)."""
        return [sum(t.value for t in tricks) for tricks in self.sheet]

    def _settle(self, shedder: int | None) -> list[Event]:
        """R16: pay W from the kitty (pro rata when short); the rest to the 4th deal's first shedder."""
        won = self.won()
        total, kitty = sum(won), self.pot
        pay = list(won) if kitty >= total else [w * kitty // total for w in won]
        rest = kitty - sum(pay)
        if shedder is not None:
            pay[shedder] += rest
        else:  # equal split; the indivisible units stay for the next partiya
            pay = [p + rest // PLAYERS for p in pay]
        events = [Event("settlement", shedder, {"kitty": kitty, "won": sum(won)})]
        for seat in self._order(self.eldest):
            if pay[seat]:
                self._to_pot(seat, -pay[seat])
                events.append(Event("receives", seat, {"amount": pay[seat], "won": won[seat]}))
        self.last_settlement = pay
        self.settled = True
        return events

    def _close(self) -> list[Event]:
        """A player leaves between deals, so the partiya cannot go on: R16 settles it now, as if the
        last deal played were its 4th — each player his tricks' worth W (pro rata when the kitty is
        short), the rest to that deal's first shedder, or split equally when it had none.  Nobody is
        left a kitty to inherit: the units an equal split cannot divide (and a carry of R16's) go one
        each clockwise from the next eldest."""
        kitty = self.pot
        if kitty <= 0:
            return []
        unsettled = not self.settled
        won = self.won() if unsettled else [0] * PLAYERS
        total = sum(won)
        pay = list(won) if kitty >= total else [w * kitty // total for w in won]
        rest = kitty - sum(pay)
        shedder = self.first_shedder if unsettled else None
        if shedder is not None:
            pay[shedder] += rest
        else:
            pay = [p + rest // PLAYERS for p in pay]
            for seat in self._order((self.eldest + 1) % PLAYERS)[:rest % PLAYERS]:
                pay[seat] += 1
        kind = "kitty_closed" if shedder is not None else "kitty_split" if unsettled else "kitty_carry_split"
        events = [Event(kind, shedder, {"kitty": kitty, "won": total, "deal": self.partiya_deal})]
        for seat in self._order((self.eldest + 1) % PLAYERS):
            if pay[seat]:
                self._to_pot(seat, -pay[seat])
                events.append(Event("receives", seat, {"amount": pay[seat], "won": won[seat]}))
        self.last_settlement = pay
        self.settled = True
        return events

    @classmethod
    def score_view(cls, view: Mapping[str, Any]) -> PartiyaSheet | None:
        """The partiya sheet and the rows laid out, typed from ``_view``'s ``sheet``, ``won``, ``layouts``.

        M and the suits' values come from the table's ``options`` in the view (2 and 0 without them)."""
        sheet = view.get("sheet")
        if not isinstance(sheet, list):
            return None
        tallies = []
        for tricks in sheet:
            cells: dict[Suit, list[int]] = {}
            for t in tricks or ():
                cell = cells.setdefault(t["suit"], [0, 0, 0])
                cell[0] += 1
                cell[1] += bool(t["doubled"])
                cell[2] += int(t["value"])
            tallies.append(tuple(SuitTally(suit, *cells[suit]) for suit in Suit if suit in cells))
        options = view.get("options")
        options = options if isinstance(options, Mapping) else {}
        laid = tuple(LaidRow(giver, tuple(c if isinstance(c, Card) else None for c in row.get("places") or ()),
                             tuple(row.get("taken_by") or ()))
                     for giver, row in enumerate(view.get("layouts") or ()) if row)
        stock, taking = view.get("stock_count"), view.get("taking_from")
        return PartiyaSheet(
            deal=int(view.get("partiya_deal") or 0), tallies=tuple(tallies), won=tuple(view.get("won") or ()),
            multiplier=int(options.get("M", 2)),
            suit_values=tuple((suit, int(options.get(key, 0))) for suit, key in SUIT_VALUE_OPTIONS.items()),
            laid=laid, taking_from=taking if isinstance(taking, int) else None,
            stock_count=stock if isinstance(stock, int) and not isinstance(stock, bool) else None)

    def natural_end(self) -> bool:
        """A partiya has just been settled: a record ends here."""
        return self.settled and not self.in_deal

    # -- the protocol hooks -----------------------------------------------------------

    def _to_act(self) -> tuple[int, ...]:
        if self.phase == TAKE:
            return (self.take_queue[0][0],)
        if self.phase == DISCARD:
            return (self._discarder(),)
        if self.phase == PLAY:
            return (self._actor(),)
        return ()

    def _legal(self, seat: int) -> list[Action]:
        return {TAKE: self._legal_take, DISCARD: self._legal_discard, PLAY: self._legal_play}[self.phase](seat)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        return {TAKE: self._apply_take, DISCARD: self._apply_discard, PLAY: self._apply_play}[self.phase](
            seat, action
        )

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        if self.phase == TAKE:
            return self._explain_take(action)
        if self.phase == DISCARD:
            if action.verb == "discard":
                return refuse("kopilka.not_held", f"You do not hold the {action.args[0]}.", card=action.args[0])
            n = self.owed[seat]
            if n > 1:
                return refuse("kopilka.discard_first_n",
                              f"First discard {n} cards (one per card you took, R8): 'discard C'.", n=n)
            return refuse("kopilka.discard_first", "First discard 1 card (one per card you took, R8): 'discard C'.")
        return self._explain_play(seat, action, legal)

    def _explain_take(self, action: Action) -> IllegalAction:
        row = self.layouts[self.take_queue[0][1]]
        giver = self.names[row.giver]
        free = ", ".join(str(a.args[0]) for a in self._legal_take(0))
        if action.verb != "take":
            return refuse("kopilka.take_first",
                          f"Take one of {giver}'s face-down cards first: 'take N', N one of {free} (R7).",
                          giver=giver, free=free)
        place = action.args[0]
        if not 1 <= place <= len(row.places):
            return refuse("kopilka.no_place", f"{giver} laid out {len(row.places)} cards; take one of places {free}.",
                          giver=giver, count=len(row.places), free=free)
        return refuse("kopilka.place_taken", f"Place {place} of {giver}'s row is already taken; take one of {free}.",
                      place=place, giver=giver, free=free)

    def _explain_play(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        hand = self.hands[seat]
        verb = action.verb
        if verb in ("take", "discard"):
            return refuse("kopilka.exchange_over", "The exchange is over; the cards are being played now.")
        if verb == "play" and action.args[0] not in hand:
            return refuse("kopilka.not_held", f"You do not hold the {action.args[0]}.", card=action.args[0])
        if not self.trick:
            if verb != "play":
                return refuse("kopilka.lead_any", "You lead this trick: play any card (a lead cannot pass or draw).")
            if self.must_avoid is not None and action.args[0].suit == self.must_avoid:
                name = _SUIT_NAMES[self.must_avoid]
                return refuse("kopilka.lead_other",
                              f"You won the last trick, led in {name}: lead another suit while you hold one (R13).",
                              suit=self.must_avoid, suit_name=name)
            return None
        led = _SUIT_NAMES[self.led] if self.led is not None else ""
        if any(c.suit == self.led for c in hand):
            return refuse("kopilka.follow", f"You hold {led}, so you must play one of them (R10).",
                          suit=self.led, suit_name=led)
        if verb == "draw":
            return refuse("kopilka.stock_empty", "The stock is empty: pass, or play the A♠ if you hold it.",
                          card=ACE_OF_SPADES)
        if verb == "play":
            choices = " or ".join(a.text() for a in legal)
            return refuse("kopilka.void",
                          f"You have no {led} and a card of another suit cannot be played; "
                          f"you may {choices} (R9, R11).",
                          suit=self.led, suit_name=led, choices=tuple(legal))
        return None

    # -- views ------------------------------------------------------------------------

    def _view(self, viewer: Viewer) -> dict[str, Any]:
        sees = lambda seat: viewer == ADMIN or viewer == seat  # noqa: E731
        view: dict[str, Any] = {
            "phase": self.phase,
            "hands": [sorted(h) if sees(s) else None for s, h in enumerate(self.hands)],
            "hand_counts": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "best": self._best(),  # the card winning the trick so far
            "trump": None,
            "tricks": [len(t) for t in self.tricks],
            "status": [self._status(s) for s in range(PLAYERS)],
            "eldest": self.eldest,
            "partiya_deal": self.partiya_deal,
            "stock_count": len(self.stock),
            "discard_count": len(self.discards),
            "layouts": [self._layout_view(s, sees(s)) for s in range(PLAYERS)],
            "taking_from": self.take_queue[0][1] if self.phase == TAKE else None,
            "owed_discards": list(self.owed),
            "leader": self.leader if self.phase == PLAY else None,
            "led": self.led,
            "must_avoid": self.must_avoid,
            "failed_leads": self.failed,
            "drew": list(self.drew),  # draws in the current trick (R9); the cards stay hidden
            "last_trick": [[s, c] for s, c in self.last_trick],
            "sheet": [[t._asdict() for t in tricks] for tricks in self.sheet],
            "won": self.won(),
            "first_shedder": self.first_shedder,
            "settlement": self.last_settlement,
        }
        if viewer == ADMIN:
            view["stock"] = list(self.stock)
            view["discards"] = list(self.discards)
        return view

    def _layout_view(self, seat: int, visible: bool) -> dict[str, Any] | None:
        row = self.layouts.get(seat) if self.phase == TAKE else None
        if row is None:
            return None
        return {
            "suit": row.suit if visible else None,
            "places": [c if visible else None for c in row.places],
            "taken_by": list(row.taken_by),
        }

    def _status(self, seat: int) -> str:
        """A short state word per seat (the TUI translates ``status.<word>``)."""
        if self.phase == TAKE:
            if seat == self.take_queue[0][0]:
                return "taking"
            return "laid out" if seat in self.layouts else ""
        if self.phase == DISCARD:
            return "discarding" if self.owed[seat] else ""
        if self.phase == DONE:
            return "first out" if seat == self.first_shedder else ""
        if self.trick and seat == self.trick[0][0]:
            return "led"
        if seat in self.passed:
            return "pass"
        if self.drew[seat]:
            return "drew"
        if any(s == seat for s, _ in self.trick):
            return "played"
        return ""

    def places(self) -> dict[str, list[Card]]:
        return self.cards.places()

    # Reads of the holder under the names the views and the tests use (``cards`` moves cards).

    @property
    def hands(self) -> list[list[Card]]:
        return self.cards.piles[:PLAYERS]

    @property
    def stock(self) -> list[Card]:
        """Top first."""
        return self.cards.piles[STOCK]

    @property
    def discards(self) -> list[Card]:
        return self.cards.piles[DISCARDS]

    @property
    def played(self) -> list[Card]:
        """The cards of the tricks taken in this deal, in order."""
        return self.cards.piles[PLAYED]

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The trick on the table, (seat, card) in play order."""
        return self.cards.plays(TRICK)


GAME = Kopilka
