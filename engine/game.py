"""The protocol every game implements (modelled on OpenSpiel).

A ``Game`` instance is one *session* at a table: the sequence of deals of a
partiya / match / Стуколка session, with the money that moves between deals
(pot, kitty).  The class itself carries the rules' description (name, titles,
player range, option schema, verbs); the registry in ``engine.games`` maps a
game id to its class.

Lifecycle: ``start_deal(decks)`` deals from a ``DeckSource``; then players act
through ``apply(seat, action)`` until ``deal_over()``; the game settles the deal
itself.  ``is_over()`` says the session has reached its natural end.

Why the base class checks legality itself: ``apply`` never trusts the caller
(unlike RLCard); it rejects anything outside ``legal_actions(seat)`` and asks
the game for a reason a player understands.

Events are *public*: they never carry a card that some viewer may not see, so
the log of any event stream can be shown to spectators.  What a player may see
privately comes only through ``view(viewer)``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Iterable, Mapping, MutableSequence, NamedTuple, Protocol, Sequence

from engine.cards import Card, CardError, deck, deck_set, format_cards, parse_card
from engine.step import ACTION, DEAL, TICK, Step
from engine.view import ScoreSheet

SPECTATOR = -1
"""``view(SPECTATOR)``: public information only."""
ADMIN = -2
"""``view(ADMIN)``: everything, every hidden card included."""

Viewer = int  # a seat number, SPECTATOR or ADMIN


class IllegalAction(Exception):
    """An action the rules do not allow now; ``str(err)`` is the reason for the player."""

    def __init__(self, message: str, *, key: str = "", params: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.key = key
        self.params = dict(params or {})


def refuse(key: str, message: str, **params: Any) -> IllegalAction:
    """An ``IllegalAction`` with its catalogue key: ``message`` is the English text of ``key``."""
    return IllegalAction(message, key=key, params=params)


class OptionError(ValueError):
    """A table option that is unknown or has a bad value."""


class DeckError(ValueError):
    """A deck order that is not a full deck of the game, or a missing redeal deck."""


# --- actions -------------------------------------------------------------------

ArgKind = str
"""How a verb's arguments parse: "" none, "card", "cards" (0+), "int", "int?",
"name", "cards|shlejf" (Стуколка's ``buy shlejf``)."""


class Action(NamedTuple):
    """``verb args`` as a record writes them; cards are ``Card``, prices ``int``, names ``str``."""

    verb: str
    args: tuple = ()

    def text(self, ascii: bool = False) -> str:
        parts = [self.verb]
        for arg in self.args:
            parts.append(arg.text(ascii) if isinstance(arg, Card) else str(arg))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()


_CARD_ACTIONS: dict[tuple[str, Card], Action] = {}


def card_action(verb: str, card: Card) -> Action:
    """The interned ``verb C`` action (``play Q♠``): legal lists are rebuilt on every turn, so they stay cheap."""
    action = _CARD_ACTIONS.get((verb, card))
    if action is None:
        action = _CARD_ACTIONS[(verb, card)] = Action(verb, (card,))
    return action


def parse_action(text: str, verbs: Mapping[str, ArgKind]) -> Action:
    """Parse ``verb args`` with a game's verb grammar; raise ``IllegalAction`` on bad syntax."""
    words = text.split()
    if not words:
        raise refuse("refuse.empty", f"Empty action: type a verb such as {_verb_list(verbs)}.",
                     verbs=_verb_list(verbs))
    verb, rest = words[0].lower(), words[1:]
    kind = verbs.get(verb)
    if kind is None:
        raise refuse("refuse.unknown_verb", f"Unknown action '{words[0]}': this game knows {_verb_list(verbs)}.",
                     verb=words[0], verbs=_verb_list(verbs))
    try:
        if kind == "":
            if rest:
                raise refuse("refuse.no_args", f"'{verb}' takes no arguments.", verb=verb)
            return Action(verb)
        if kind == "card":
            if len(rest) != 1:
                raise refuse("refuse.one_card", f"'{verb}' takes exactly one card, e.g. '{verb} Q♠'.", verb=verb)
            return Action(verb, (parse_card(rest[0]),))
        if kind in ("cards", "cards|shlejf"):
            if kind == "cards|shlejf" and [w.lower() for w in rest] == ["shlejf"]:
                return Action(verb, ("shlejf",))
            return Action(verb, tuple(parse_card(w) for w in rest))
        if kind in ("int", "int?"):
            if not rest and kind == "int?":
                return Action(verb)
            if len(rest) != 1 or not rest[0].isdigit():
                raise refuse("refuse.one_number", f"'{verb}' takes one whole number, e.g. '{verb} 10'.", verb=verb)
            return Action(verb, (int(rest[0]),))
        if kind == "name":
            if len(rest) != 1:
                raise refuse("refuse.one_name", f"'{verb}' takes one player's name.", verb=verb)
            return Action(verb, (rest[0],))
    except CardError as err:
        raise refuse("refuse.not_card", str(err), text=err.text) from None
    raise AssertionError(f"unknown argument kind {kind!r}")


def _verb_list(verbs: Iterable[str]) -> str:
    return ", ".join(sorted(verbs))


class Event(NamedTuple):
    """Something that happened, for logs and narration. Public by contract (module docstring)."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = {}

    def text(self, names: Sequence[str]) -> str:
        """A plain English line for records and replays (the TUI narrates from its catalogue)."""
        who = names[self.seat] if self.seat is not None else ""
        parts = [p for p in (who, self.kind.replace("_", " ")) if p]
        for key, value in self.data.items():
            parts.append(f"{key}={_plain(value, names)}")
        return " ".join(parts)


make_event = partial(tuple.__new__, Event)
"""``make_event((kind, seat, data))`` is ``Event(kind, seat, data)`` (all three given) made in C: the named
tuple's generated ``__new__`` is a Python frame, and Стуколка tells some 23 events a deal (the engine bench)."""

NO_DATA: Mapping[str, Any] = Event._field_defaults["data"]
"""The very ``data`` of an ``Event`` told without any (``Event("pass", 2)``), for ``make_event``; never change it."""


def _plain(value: Any, names: Sequence[str]) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Action):
        return value.text()
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Card) for v in value):
            return format_cards(value, sep=",")
        return ",".join(_plain(v, names) for v in value)
    return str(value)


# --- options -------------------------------------------------------------------


class Lot(Protocol):
    """What the first dealer is drawn with: a sealed deal's stream (``engine.shuffle.Stream``) or a seeded
    ``random.Random`` (a test's, a record without a seal)."""

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, items: MutableSequence[Any], /) -> None: ...


@dataclass(frozen=True)
class Option:
    """One table option of a game with its default and its limits."""

    name: str
    default: Any
    doc: str
    kind: type = int
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    optional: bool = False  # None allowed (e.g. Стуколка `rounds`: no fixed end)

    def coerce(self, value: Any) -> Any:
        if value is None and self.optional:
            return None
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on", "да"):
                return True
            if text in ("0", "false", "no", "off", "нет"):
                return False
            raise OptionError(f"option {self.name!r} is on or off, not {value!r}")
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise OptionError(f"option {self.name!r} must be a whole number, not {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise OptionError(f"option {self.name!r} must be a whole number, not {value!r}") from None
            if self.minimum is not None and number < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {number}")
            if self.maximum is not None and number > self.maximum:
                raise OptionError(f"option {self.name!r} must be at most {self.maximum}, not {number}")
            if self.multiple_of and number % self.multiple_of:
                raise OptionError(
                    f"option {self.name!r} must be a multiple of {self.multiple_of}, not {number}"
                )
            return number
        text = str(value).strip().lower()
        if self.choices and text not in self.choices:
            raise OptionError(f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}")
        return text


def validate_options(spec: Sequence[Option], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check every value; unknown names are refused with the known ones listed."""
    known = {o.name: o for o in spec}
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise OptionError(
            f"unknown option {unknown[0]!r}; this game knows: {', '.join(o.name for o in spec)}"
        )
    return {name: opt.coerce(raw[name]) if name in raw else opt.default for name, opt in known.items()}


# --- decks ---------------------------------------------------------------------


class DeckSource(Protocol):
    """Where a deal's deck orders come from: the first for the deal, then one per redeal."""

    def next_deck(self) -> list[Card]: ...


class ShuffledDecks:
    """Decks from a seeded RNG: the seed and every dealt order are kept.

    For engine tests and benches only: a table deals sealed decks (``engine.shuffle``,
    sukno-shuffle/1), since ``random.shuffle``'s output is not promised across Python versions.
    """

    def __init__(self, size: int, seed: int | None = None):
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self._cards = deck(size)

    def next_deck(self) -> list[Card]:
        """``random.Random.shuffle`` of a fresh deck, written out (the same draws, so the same decks).

        Its loop (Fisher–Yates from the end, ``_randbelow`` by rejection on ``getrandbits``) is
        the same on 3.11–3.13; inlined it costs half as much, and the engine bench deals one a deal.
        """
        cards = list(self._cards)
        getrandbits = self._rng.getrandbits
        for i, bits in _FISHER_YATES[len(cards)]:
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


_FISHER_YATES = {size: tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size))) for size in (32, 36, 48, 52)}
"""By deck size: each step's last index ``i`` and the bits ``_randbelow(i + 1)`` draws."""


class GivenDecks:
    """The deck orders of a record, in order."""

    def __init__(self, decks: Sequence[Sequence[Card]]):
        self._decks = [list(d) for d in decks]
        self.used = 0

    def next_deck(self) -> list[Card]:
        if self.used >= len(self._decks):
            raise DeckError(
                f"this deal needs deck order {self.used + 1} (a redeal), but only "
                f"{len(self._decks)} {'is' if len(self._decks) == 1 else 'are'} given"
            )
        self.used += 1
        return list(self._decks[self.used - 1])


def check_deck(cards: Sequence[Card], size: int) -> None:
    """Refuse a deck order that is not exactly the game's deck, saying what is wrong."""
    if len(cards) == size and set(cards) == deck_set(size):
        return
    full = deck(size)
    seen: set[Card] = set()
    dups = [c for c in cards if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
    missing = [c for c in full if c not in seen]
    foreign = [c for c in seen if c not in set(full)]
    problems = [f"{len(cards)} cards instead of {size}"] if len(cards) != size else []
    if missing:
        problems.append("missing " + format_cards(missing))
    if dups:
        problems.append("repeated " + format_cards(dups))
    if foreign:
        problems.append("not in this deck " + format_cards(foreign))
    raise DeckError("the deck order is not a full deck: " + "; ".join(problems))


# --- the game session ------------------------------------------------------------


@dataclass
class DealLog:
    """What determines a deal: its deck orders, dealer and actions."""

    dealer: int
    decks: list[list[Card]]
    actions: list[tuple[int, Action]]
    money: list[int]
    fair: dict[str, str] | None = None  # set by a table when a sealed deal ends (engine.shuffle)


class Game(ABC):
    """One session of a game at a table; subclasses implement the ``_hooks``."""

    # The session's state in slots: a game that slots its own too (Стуколка) has no instance dict, so
    # every attribute is read at a fixed offset (the engine bench's hot path); one that does not keeps
    # its own in a dict as before. Pickle (protocol 2+) and copy carry both.
    __slots__ = ("options", "names", "n", "dealer", "start_pot", "pot", "balances", "deal_no", "in_deal",
                 "deals", "_source", "_changes", "_memo_at", "_memo_seat", "_memo")

    name: ClassVar[str]
    title: ClassVar[Mapping[str, str]]  # {"ru": …, "en": …}
    options_spec: ClassVar[tuple[Option, ...]]
    verbs: ClassVar[Mapping[str, ArgKind]]
    deck_size: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # What the rest of the house would otherwise guess from option names and game ids:
    stake_option: ClassVar[str | None] = None
    """The option holding the stake a player risks at once (its ante, stake or unit); None: none."""
    stake_per_point: ClassVar[bool] = False
    """The stake is money per point of a score sheet (``1 к./pt``), not a sum put down."""
    variant_labels: ClassVar[Mapping[str, str]] = {}
    """The ``variant`` option's values → their label on screens (Стуколка: ``a`` → ``а``); {}: no variants."""
    pot_name: ClassVar[str] = "pot"
    """What the money between deals is called (a catalogue key's tail: ``table.pot``, ``text.kitty``)."""
    clocked: ClassVar[bool] = False
    """The game runs on the table's live clock (Спекулянт's windows): ``start_clock`` is called once it is on."""
    live_clock: bool = False
    """Whether ``start_clock`` has been called (a clocked game's instance sets it)."""
    memo_legal: ClassVar[bool] = False
    """List the legal actions once per state: a turn lists them, then ``apply`` checks the chosen one
    against the same list (French ``buy`` lists up to 4096 discards; Стуколка is the bench's hot path).
    Only for a game whose state changes in ``apply`` and ``start_deal`` alone (not a ``clocked`` one):
    those are where the memo is dropped."""

    # -- rules description ------------------------------------------------------

    @classmethod
    def make_options(cls, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return validate_options(cls.options_spec, raw)

    @classmethod
    def by_ear_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a session with someone at the table who plays by ear (the text mode): the same,
        unless the game's clock would leave him no time to hear a window out before it closes."""
        return dict(options)

    @classmethod
    def player_range(cls, options: Mapping[str, Any]) -> tuple[int, int]:
        """Allowed player counts under these (validated) options."""
        return cls.min_players, cls.max_players

    @classmethod
    def stake(cls, options: Mapping[str, Any]) -> int:
        """The least a player should be able to lose at once under these options, ≥ 1 kopeck."""
        value = options.get(cls.stake_option) if cls.stake_option else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1

    @classmethod
    def variant_label(cls, options: Mapping[str, Any]) -> str:
        """The variant these options choose, as screens show it (``б``); '' for a game without variants."""
        variant = options.get("variant") if cls.variant_labels else None
        return cls.variant_labels.get(variant, variant) if isinstance(variant, str) and variant else ""

    @classmethod
    def wire_actions(cls, actions: list[Action]) -> list[Action]:
        """Legal actions read back from a list of texts (the bot protocol) in the form ``legal_actions`` has."""
        return actions

    @classmethod
    def draw_first_dealer(cls, players: int, rng: Lot) -> tuple[int, list[Event]]:
        """R3: the first dealer of a table by lot; the events tell the draw."""
        dealer = rng.randrange(players)
        return dealer, [Event("first_dealer", dealer)]

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text, cls.verbs)

    # -- construction -------------------------------------------------------------

    def __init__(
        self,
        names: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        dealer: int = 0,
        pot: int = 0,
    ):
        self.options = self.make_options(options)
        low, high = self.player_range(self.options)
        if not low <= len(names) <= high:
            raise OptionError(f"{self.title['en']} is played by {low}–{high} players, not {len(names)}")
        if not 0 <= dealer < len(names):
            raise OptionError(f"the dealer must be a seat 0–{len(names) - 1}, not {dealer}")
        if isinstance(pot, bool) or not isinstance(pot, int) or pot < 0:
            raise OptionError(f"the starting pot must be a whole number ≥ 0, not {pot!r}")
        self.names = list(names)
        self.n = len(names)
        self.dealer = dealer
        self.start_pot = pot
        self.pot = pot
        self.balances = [0] * self.n
        self.deal_no = 0  # deals started in this session
        self.in_deal = False
        self.deals: list[DealLog] = []  # every deal started, the current one last
        self._source: DeckSource | None = None
        self._changes = 0  # counts changes (``apply``, ``start_deal``): the key of the legal-action memo
        self._memo_at = self._memo_seat = -1
        self._memo: list[Action] = []

    def __getstate__(self) -> Any:
        """The session's state without the legal-action memo: a cache, rebuilt on demand, yet it was
        most of a pickled French world at the exchange (4096 buys) and the search copies worlds a lot."""
        state = super().__getstate__()
        if isinstance(state, tuple) and state[1] and "_memo" in state[1]:
            state = (state[0], {**state[1], "_memo": [], "_memo_at": -1, "_memo_seat": -1})
        return state

    def legal_sequence(self, seat: int) -> Sequence[Action]:
        """``legal_actions(seat)`` as a read-only sequence that a game may answer without listing it
        (``in``, ``len``, indexing): for callers that only look an action up or count them, such as the
        search's playouts, where a French exchange's 4096 buys were listed for every rule bot's look."""
        return self.legal_actions(seat)

    # -- deal lifecycle -------------------------------------------------------------

    def can_start_deal(self) -> bool:
        return not self.in_deal and not self.is_over()

    def start_deal(self, decks: DeckSource) -> list[Event]:
        if self.in_deal:
            raise refuse("refuse.deal_running", "A deal is still being played.")
        if self.is_over():
            raise refuse("refuse.session_over", "The session is over; no more deals.")
        if self.deals:
            self.dealer = self._next_dealer()
        self._source = decks
        self.deal_no += 1
        self.in_deal = True
        self.deals.append(DealLog(self.dealer, [], [], [0] * self.n))
        self._changes += 1
        events = [make_event(("deal_start", self.dealer, {"deal": self.deal_no}))] + self._start_deal()
        self._changes += 1
        return events

    def _next_dealer(self) -> int:
        """R2: the deal passes clockwise after a completed deal."""
        return (self.dealer + 1) % self.n

    def _draw_deck(self) -> list[Card]:
        """The next deck order of this deal (the first, or a redeal's), checked and logged."""
        assert self._source is not None
        cards = self._source.next_deck()
        check_deck(cards, self.deck_size)
        self.deals[-1].decks.append(list(cards))
        return cards

    def deal_over(self) -> bool:
        return not self.in_deal

    def _end_deal(self) -> None:
        """Called by a game when its deal is settled."""
        self.in_deal = False

    # -- money ------------------------------------------------------------------

    def _to_pot(self, seat: int, amount: int) -> None:
        """Seat pays ``amount`` into the pot (negative: takes from it)."""
        self.balances[seat] -= amount
        self.deals[-1].money[seat] -= amount
        self.pot += amount

    def _transfer(self, payer: int, payee: int, amount: int) -> None:
        self.balances[payer] -= amount
        self.balances[payee] += amount
        money = self.deals[-1].money
        money[payer] -= amount
        money[payee] += amount

    # -- the protocol -------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several at once in Спекулянт)."""
        return self._to_act() if self.in_deal else ()

    def legal_actions(self, seat: int) -> list[Action]:
        if self._memo_at == self._changes and self._memo_seat == seat:  # listed in this state (so on his turn)
            return list(self._memo)  # a copy: the caller may keep or change it
        if not self.in_deal or seat not in self._to_act():
            return []
        if not self.memo_legal:
            return self._legal(seat)
        self._memo = memo = self._legal(seat)  # ``_relist`` written out: the engine bench's hot path
        self._memo_at, self._memo_seat = self._changes, seat
        return list(memo)

    def _legal_now(self, seat: int) -> list[Action]:
        """``_legal(seat)`` in this state; with ``memo_legal`` listed once per state (never change the list)."""
        if not self.memo_legal:
            return self._legal(seat)
        if self._memo_at != self._changes or self._memo_seat != seat:
            self._relist(seat)
        return self._memo

    def _relist(self, seat: int) -> None:
        self._memo = self._legal(seat)
        self._memo_at, self._memo_seat = self._changes, seat

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Check and perform one action; raise ``IllegalAction`` with a reason otherwise.

        An action found in the memo of this very state and seat (a turn listed it, as a table and a
        bot do) is legal and in its normal form already, and the seat is on turn in a running deal:
        every check below would pass, so it is done at once (the engine bench's hot path).
        """
        if self._memo_at == self._changes and self._memo_seat == seat and action in self._memo:
            self.deals[-1].actions.append((seat, action))
            self._changes += 1
            events = self._apply(seat, action)
            self._changes += 1
            return events
        if isinstance(action, str):
            action = self.parse_action(action)
        action = self._normalize(action)
        if not self.in_deal:
            raise refuse("refuse.no_deal", "No deal is being played now.")
        if not 0 <= seat < self.n:
            raise refuse("refuse.no_seat", f"There is no seat {seat} at this table.", seat=seat)
        if seat not in self._to_act():
            waiting = ", ".join(self.names[s] for s in self._to_act())
            raise refuse("refuse.not_turn", f"It is not your turn; waiting for {waiting}.", names=waiting)
        if not self._allows(seat, action):
            raise self._why_illegal(seat, action, list(self._legal_now(seat)))
        self.deals[-1].actions.append((seat, action))
        self._changes += 1
        events = self._apply(seat, action)
        self._changes += 1  # a memo listed mid-change is stale too
        return events

    # -- the same changes as values (engine.step): what a table journals ------------------

    def deal_step(self, decks: DeckSource) -> Step:
        """``start_deal`` as a ``Step``: the deal's events, antes and deck orders."""
        pot = self.pot
        events = self.start_deal(decks)
        deal = self.deals[-1]
        return Step(DEAL, self.deal_no, None, None, tuple(events), tuple(deal.money), self.pot - pot,
                    tuple(tuple(order) for order in deal.decks))

    def apply_step(self, seat: int, action: Action | str) -> Step:
        """``apply`` as a ``Step``: the action as the game logged it, and what it moved and drew."""
        deal = self.deals[-1] if self.deals else None
        before = list(deal.money) if deal is not None else []
        pot, drawn = self.pot, len(deal.decks) if deal is not None else 0
        events = self.apply(seat, action)  # refuses (nothing changed) before anything below
        deal = self.deals[-1]
        done_by, done = deal.actions[-1]
        return self._step(ACTION, done_by, done, events, deal, before, pot, drawn)

    def tick_step(self, now: float) -> Step | None:
        """``tick`` as a ``Step``; None when the time changed nothing (a table ticks before every action)."""
        deal = self.deals[-1] if self.deals else None
        if deal is None:
            events = self.tick(now)
            return Step(TICK, self.deal_no, None, None, tuple(events), (0,) * self.n, 0, ()) if events else None
        before, pot, drawn = list(deal.money), self.pot, len(deal.decks)
        events = self.tick(now)
        if not events and pot == self.pot and drawn == len(deal.decks) and before == deal.money:
            return None
        return self._step(TICK, None, None, events, deal, before, pot, drawn)

    def close_step(self) -> Step | None:
        """The session ends between deals (a player gives up his seat): what the game pays out first, as a
        ``Step`` of the last deal (a journal books its money), or None when nothing is left to pay."""
        if self.in_deal or not self.deals:
            return None
        deal = self.deals[-1]
        before, pot = list(deal.money), self.pot
        events = self._close()
        if not events:
            return None
        return self._step(TICK, None, None, events, deal, before, pot, len(deal.decks))

    def _close(self) -> list[Event]:
        """Money a game must not leave on an emptied table (Копилка's kitty); most games leave none."""
        return []

    def _step(self, kind: str, seat: int | None, action: Action | None, events: list[Event], deal: DealLog,
              before: list[int], pot: int, drawn: int) -> Step:
        money = deal.money
        moved = (0,) * self.n if money == before else tuple(now - then for now, then in zip(money, before))
        decks = () if len(deal.decks) == drawn else tuple(tuple(order) for order in deal.decks[drawn:])
        return Step(kind, self.deal_no, seat, action, tuple(events), moved, self.pot - pot, decks)

    def deal_from(self, decks: DeckSource) -> None:
        """Where the rest of this deal's redeals come from (a restored table's sealed seed, a bot's guess)."""
        self._source = decks

    def why_not(self, seat: int, action: Action) -> IllegalAction | None:
        """Why ``action`` would be refused for ``seat`` on his turn (None: it is legal, or not his turn).

        Nothing changes: the TUI's hint says why a rule narrows the choice before anyone is refused.
        """
        action = self._normalize(action)
        if not self.in_deal or seat not in self._to_act() or self._allows(seat, action):
            return None
        return self._why_illegal(seat, action, list(self._legal_now(seat)))

    def _allows(self, seat: int, action: Action) -> bool:
        """Whether ``action`` (normalized) is legal for ``seat``, whose turn it is.

        Override only where listing every legal action is costly and a rule
        answers at once (french3 ``buy``: up to 4096 discards of a 12-card hand);
        it must agree with ``_legal``.
        """
        if self.memo_legal:
            if self._memo_at != self._changes or self._memo_seat != seat:
                self._relist(seat)
            return action in self._memo
        return action in self._legal(seat)

    def promises(self, seat: int, action: Action | str) -> dict[int, int]:
        """Money ``action`` by ``seat`` would bind a player to pay another player: payer seat → kopecks.

        R5: a table that forbids debt refuses an action promising more than the payer has.  Only
        voluntary promises are listed (a bid, the buyer's side of an accepted trade); a game's own
        payments (antes, fines, remiz) are not: they are the stake a table checks before each deal.
        """
        return {}

    def _normalize(self, action: Action) -> Action:
        """Bring equivalent spellings to the one form ``_legal`` lists (e.g. card order in ``buy``)."""
        return action

    def _why_illegal(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction:
        reason = self._explain(seat, action, legal)
        if isinstance(reason, IllegalAction):
            return reason
        if reason:
            return IllegalAction(reason)
        verbs = sorted({a.verb for a in legal})
        if action.verb not in verbs:
            return refuse("refuse.cannot", f"You cannot {action.verb} now; you may {' or '.join(verbs)}.",
                          verb=action.verb, verbs=" or ".join(verbs))
        options = ", ".join(a.text() for a in legal[:12])
        return refuse("refuse.not_allowed", f"'{action.text()}' is not allowed now; you may: {options}.",
                      action=action.text(), options=options)

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> str | IllegalAction | None:
        """A game-specific reason why ``action`` is illegal (best: ``refuse(key, …)``), or None."""
        return None

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat, SPECTATOR or ADMIN) may know; the TUI's one door into a game."""
        base: dict[str, Any] = {
            "game": self.name,
            "options": dict(self.options),
            "names": list(self.names),
            "viewer": viewer,
            "dealer": self.dealer,
            "deal_no": self.deal_no,
            "in_deal": self.in_deal,
            "to_act": list(self.to_act()),
            "balances": list(self.balances),
            "pot": self.pot,
            "over": self.is_over(),
        }
        base.update(self._view(viewer))
        return base

    def result(self) -> list[int]:
        """Net money per seat over the session so far (kopecks)."""
        return list(self.balances)

    def deadline(self) -> float | None:
        """When the engine next needs ``tick`` (rules that wait on time); None: never."""
        return None

    def start_clock(self, now: float) -> list[Event]:
        """Go on the table's live clock from ``now`` (``clocked`` games override; others have no clock)."""
        return []

    def tick(self, now: float) -> list[Event]:
        return []

    def is_over(self) -> bool:
        """The session reached its natural end (a record's ``over``)."""
        return False

    def natural_end(self) -> bool:
        """The record would end at a natural end here (its ``over``).

        Default: a deal has been completed and none is in progress.  Games with
        partiyas or matches override it (e.g. Копилка: a partiya just settled).
        """
        return not self.in_deal and bool(self.deals)

    @classmethod
    def score_view(cls, view: Mapping[str, Any]) -> ScoreSheet | None:
        """The typed score sheet in one of this game's views (``engine.view``); None for money games."""
        return None

    def score(self) -> dict[str, Any] | None:
        """The score sheet of points games (a record's ``score``); None for money games."""
        return None

    def places(self) -> dict[str, list[Card]]:
        """Every card of the current deal by where it lies (tests check each is in one place)."""
        return {}

    # -- hooks --------------------------------------------------------------------

    @abstractmethod
    def _start_deal(self) -> list[Event]: ...

    @abstractmethod
    def _to_act(self) -> tuple[int, ...]: ...

    @abstractmethod
    def _legal(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def _view(self, viewer: Viewer) -> dict[str, Any]: ...
