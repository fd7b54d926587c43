"""The search bot: determinized Monte Carlo over the engine, from its seat's view and the public events only.

At each decision it imagines whole deals that agree with everything its seat
has seen, and plays each legal action out in them with the rule bots for
every seat; it takes the action that left it best off on average.

Where an imagined deal comes from (``Shadow``), so that it agrees with what the
seat saw and nothing else:

- The bot hears the table's public events (``observe``: the arena and the
  protocol client pass them on; a ``Game``'s events are public by the engine's
  contract) and remembers its own actions.  The game's deal is *positional*: a
  deck order and the actions decide it.  So an imagined deal is a
  deck order, replayed from the session's state at the deal's start with the
  public actions (a hidden part — which cards someone bought away — is drawn
  from that seat's imagined hand).
- The replay must give exactly the real public events and, at the end, the
  seat's own hand.  Where it does not, the deck is *repaired*: a card the
  events show (the turned trump, a card played) is swapped into the place the
  imagined deal needs it; a seat that could not have followed suit has the
  offending card swapped with one that is nowhere seen; the own hand's cards
  are swapped in.  A deck that cannot be repaired in a few rounds is dropped.
  Cards never seen stay uniformly shuffled, so the imagined hands are a
  sample of what the seat cannot know — no more, no less.
- Besides its hand, every card the seat's view shows (a shlejf it took up)
  must be where the view shows it: a world that differs is swapped into line.
- Worlds are kept from one decision to the next within a deal and carried on
  by the new events only (a world the new events contradict has its deck
  repaired, not drawn afresh): most of a decision's cost was the replay.
- The others' choices say more than the rules do: in the games whose rule bot
  decides from the view alone (Стуколка; the French exchange) each world is
  weighed by ``MISS_WEIGHT`` per action of another seat that the rule bot
  would not have taken there, and a hidden discard is the rule bot's own
  where it has the public shape.  (Against people it is a model, not a
  certainty: hence a weight, not a rejection.)
- The session before the deal is the bot's own copy, replayed deal by deal the
  same way from its first deal; a bot that came in mid-session, or a game it
  cannot replay, plays by the rules of thumb instead.

It never touches a real ``Game``: the only game objects it holds are its own
(tests/bots/test_hidden_information.py proves the decisions do not change when
hidden cards are slipped into its views, and catches a planted cheat).

Time: ``budget`` seconds per decision (wall clock) and/or ``iterations``
imagined deals per decision, whichever ends first (a run that must repeat
exactly, the tests', gives ``budget=None``).
"""

from __future__ import annotations

import math
import importlib
import pickle
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine.bots.base import Bot, View
from engine.bots.margin import Margin
from engine.cards import Card
from engine.game import ADMIN, Action, DeckError, Event, Game, GivenDecks, IllegalAction, ShuffledDecks
from engine.games import get_game
from engine.view import LineSheet, RecordSheet

TABLE_KINDS = frozenset({"sit", "stand", "watch", "unwatch", "say", "table_ready", "away", "back", "gone",
                         "timeout", "stand_in", "deal_over", "session_over", "first_dealer", "draw_for_deal",
                         "suspended", "resumed"})
"""Events the table adds around the game's own (the replay ignores them)."""

HIDDEN = "hidden"

# event kind → how it is an action: a verb (no arguments), ("card", verb),
# (HIDDEN, verb, count key or a number), or a whole Action.
ACTIONS: dict[str, dict[str, Any]] = {
    "stukolka": {"knock": "knock", "pass": "pass", "golets": "golets", "look": "look", "dark": "dark",
                 "shlejf": "shlejf", "open": "open", "razrez": "razrez", "razrez_declined": "pass",
                 "play": ("card", "play"), "buy": (HIDDEN, "buy", "count"),
                 "buy_shlejf": Action("buy", ("shlejf",)), "buy_dark": Action("buy"),
                 "discard": (HIDDEN, "discard", 1)},
    "french3": {"buy": (HIDDEN, "buy", "k"), "play": ("card", "play")},
    "ukr_pairs": {"play": ("card", "play")},
    "kopilka": {"take": ("arg", "take", "place"), "discard": (HIDDEN, "discard", 1), "draw": "draw",
                "pass": "pass", "lead": ("card", "play"), "play": ("card", "play")},
}
"""The games the bot can replay (Копилка's lay-outs need a deck of the right suit shapes:
``engine.bots.kopilka_worlds``); Спекулянт (its windows close on the clock) is searched its own way,
inside a window only (``engine.bots.speculator_search``)."""

REPAIRS = 200
"""Repair rounds of one imagined deck before it is dropped."""
MISS_WEIGHT = 0.1
"""A world's weight is this to the power of the others' actions the rule-bot model would not take there."""
UNJUDGED = 3
"""The misses counted for a world whose judged replay failed (a hidden choice of the model led astray)."""
MODELLED: dict[str, frozenset[str]] = {
    "stukolka": frozenset({"knock", "pass", "golets", "look", "dark", "razrez", "razrez_declined", "buy",
                           "buy_shlejf", "buy_dark", "discard", "play"}),
    "french3": frozenset({"buy"}),
}
"""Event kinds whose action is judged against the rule-bot model (``Shadow._judge``): the games whose
rule bot decides from the view alone (the trick players' memory of the deal would be missing)."""
KEEP_DEALS = 8
"""Deals heard but not yet replayed into the session copy, at most (more: it plays by the rules)."""
MAX_CANDIDATES = 12
"""Actions weighed at one decision, at most (the rule bot's choice always among them)."""
CARRY_TRIES = 20
"""Tries at carrying the session copy over a finished deal, at most (then it plays by the rules there)."""


def _norm(value: Any) -> Any:
    """Events compared as plain values: tuples as lists, keys as text (the wire's form)."""
    if isinstance(value, Card):
        return value
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in value.items()}
    if hasattr(value, "text") and callable(value.text):  # a Suit or an Action
        return value.text()
    return value


def _card_difference(real: Any, mine: Any) -> tuple[Card, Card] | None | bool:
    """The first (real, imagined) pair of different cards; True if equal; False if they differ otherwise."""
    if isinstance(real, Card) and isinstance(mine, Card):
        return True if real == mine else (real, mine)
    if type(real) is not type(mine):
        return False
    if isinstance(real, list):
        if len(real) != len(mine):
            return False
        for a, b in zip(real, mine):
            found = _card_difference(a, b)
            if found is not True:
                return found
        return True
    if isinstance(real, dict):
        if real.keys() != mine.keys():
            return False
        for key in real:
            found = _card_difference(real[key], mine[key])
            if found is not True:
                return found
        return True
    return True if real == mine else False


def _same_scalars(real: Any, mine: Any) -> bool:
    """Two events' data equal key by key in plain values of the same types (the common case): then
    ``_card_difference`` of their ``_norm`` is True, found without building either (a tenth of a
    Копилка decision went to that).  Containers or differing types: False, the full comparison decides."""
    if real.keys() != mine.keys():
        return False
    for key, value in real.items():
        other = mine[key]
        if type(value) is not type(other) or isinstance(value, (list, tuple, dict)) or value != other:
            return False
    return True


class _Restart(Exception):
    """The deck was repaired: replay from the start."""


@dataclass
class World:
    """One imagined deal: its deck orders and the game replayed from them up to ``at`` real events.

    ``own_used`` is how many of the seat's own actions were known then, ``own_left`` those of them the
    replay has not yet consumed (a hidden own action — a discard — is taken from them)."""

    deck: list[Card]
    spare: list[list[Card]]
    game: Game
    at: int
    own_used: int
    own_left: list[Action]
    used: int = 1  # deck orders dealt (1 + redeals)
    misses: int = 0  # the others' actions the rule-bot model would not have taken in this world

    @property
    def weight(self) -> float:
        return MISS_WEIGHT ** self.misses


class Shadow:
    """Imagined deals of one seat (see the module docstring)."""

    repairs = REPAIRS
    tries = 4
    """Fresh worlds tried per world wanted, at most (with ``iterations``; Копилка's agree less often)."""
    own_cards_kept = False
    """True: another seat's hidden action never takes a card the seat holds or handled (Копилка's discards)."""

    def __init__(self, game: str, seat: int, rng: random.Random):
        self.game = game
        self.cls = get_game(game)
        self.seat = seat
        self.rng = rng
        self.actions = ACTIONS[game]
        self.failed = ""
        self.known: set[Card] = set()  # the cards our own seat holds or handled: they stay ours
        self._decks: list[list[Card]] = []  # the deck orders of the replay in progress
        self._given: GivenDecks | None = None
        self._used = 1
        self.model = _model(game)
        self.modelled = MODELLED.get(game, frozenset())
        self.misses = 0
        self.judging = True  # off while a deck is being repaired
        self.shown: View | None = None  # the seat's view now: a world must show it the same cards
        self.first_view: View | None = None  # its view at the deal's first decision
        self.deal_views: list[View] = []  # and at each of its decisions since
        self.deal_no: int | None = None  # the deal imagined (a past one when carrying the session over)

    def deal(self, base: Game | bytes, history: list[Event], own: list[Action], hand: list[Card] | None,
             pinned: set[Card], until: float | None = None, deck: list[Card] | None = None,
             spare: list[list[Card]] | None = None) -> World | None:
        """One imagined world in the state after ``history`` (None: no deck agreed in ``REPAIRS`` rounds,
        or the clock passed ``until``); ``base`` may be given pickled (copies are cheaper so).

        ``deck`` (and its ``spare`` redeal decks): start the repairs from a world kept from an earlier
        decision rather than from a fresh shuffle (it agreed with the events up to then, so few swaps
        remain to be made)."""
        if not isinstance(base, bytes):
            base = pickle.dumps(base, pickle.HIGHEST_PROTOCOL)
        if deck is None:
            deck = self._fresh_deck(history, hand, pinned)
        if spare is None:  # redeal decks, each shuffled on its own (copies of one order would redeal forever)
            spare = [self.rng.sample(deck, len(deck)) for _ in range(8)]
        for _ in range(self.repairs):
            if until is not None and time.perf_counter() > until:
                self.failed = "time"
                return None
            try:
                self.judging = False
                world = self._replay(base, deck, spare, history, own, hand, pinned)
            except _Restart:
                continue
            except (IllegalAction, DeckError, AssertionError, IndexError, KeyError, ValueError) as err:
                self.failed = f"{type(err).__name__}: {err}"
                return None
            if self.model is None:
                return world
            try:  # the repairs done without the model (it would be asked again at every restart): judge once
                self.judging = True
                return self._replay(base, list(deck), [list(d) for d in spare], history, own, hand, pinned)
            except (_Restart, IllegalAction, DeckError, AssertionError, IndexError, KeyError, ValueError):
                world.misses = UNJUDGED
                return world
            finally:
                self.judging = True
        self.failed = "repairs"
        return None

    def advance(self, world: World, history: list[Event], own: list[Action], hand: list[Card] | None,
                pinned: set[Card]) -> World | None:
        """``world`` (kept from an earlier decision of this deal) carried on by the events since, or None
        where they do not agree with it (then ``deal`` repairs its deck: ``world.deck`` may be swapped).

        Why: replaying a whole deal from its deck for every imagined world was most of a decision's
        cost; a world that still agrees needs only the few new actions applied (IS-MCTS's reuse)."""
        self.known = set(hand or []) | {c for a in own for c in a.args if isinstance(c, Card)}
        real = [e for e in history if e.kind not in TABLE_KINDS]
        own_left = world.own_left + list(own[world.own_used:])
        self._decks, self._given, self._used = [world.deck, *world.spare], None, world.used
        self.misses = world.misses
        try:
            at = self._run(world.game, world.deck, real, world.at, own_left, hand, pinned)
        except (_Restart, IllegalAction, DeckError, AssertionError, IndexError, KeyError, ValueError):
            return None
        world.at, world.own_used, world.own_left, world.misses = at, len(own), own_left, self.misses
        return world

    def _swap(self, deck: list[Card], a: Card, b: Card) -> None:
        """Swap two cards in the deck order being dealt now (after a redeal: that redeal's deck)."""
        used = self._given.used if self._given is not None else self._used
        deck = self._decks[max(0, used - 1)]
        i, j = deck.index(a), deck.index(b)
        deck[i], deck[j] = deck[j], deck[i]
        raise _Restart

    def _replay(self, base: bytes, deck: list[Card], spare: list[list[Card]], history: list[Event],
                own: list[Action], hand: list[Card] | None, pinned: set[Card]) -> World:
        self.known = set(hand or []) | {c for a in own for c in a.args if isinstance(c, Card)}
        game: Game = pickle.loads(base)
        self._decks = [deck, *spare]
        self._given = GivenDecks(self._decks)
        self.misses = 0
        real = [e for e in history if e.kind not in TABLE_KINDS]
        self._check_deal(deck, real)
        produced = game.start_deal(self._given)
        at = self._match(deck, real, 0, produced, game)
        own_left = list(own)
        at = self._run(game, deck, real, at, own_left, hand, pinned)
        game.deal_from(_Redeals(self.cls.deck_size, self.rng.randrange(1 << 62)))  # redeals to come: unknown
        return World(deck, spare, game, at, len(own), own_left, self._given.used, self.misses)

    def _run(self, game: Game, deck: list[Card], real: list[Event], at: int, own_left: list[Action],
             hand: list[Card] | None, pinned: set[Card]) -> int:
        """Apply the real events from ``at`` on (repairing ``deck`` where one cannot be); check the own
        hand at the end; the number of events replayed."""
        future: dict[int, set[Card]] = {}
        for event in real[at:]:
            if event.kind == "play" or event.kind == "lead":
                future.setdefault(event.seat, set()).add(event.data.get("card"))  # type: ignore[arg-type]
        while at < len(real):
            event = real[at]
            self.at_now = at
            action = self._action(game, event, own_left, future, pinned)
            if action is None:  # a game event no action made (a timer's): the replay cannot make it
                raise ValueError(f"cannot replay {event.kind}")
            seat = event.seat
            assert seat is not None
            if self.judging and seat != self.seat and event.kind in self.modelled:
                action = self._judge(game, seat, event, action, future)
            try:
                produced = game.apply(seat, action)
            except IllegalAction:
                self._repair_illegal(game, deck, seat, action, pinned, future)
                raise
            at = self._match(deck, real, at, produced, game)
            for card in action.args:
                if isinstance(card, Card) and seat in future:
                    future[seat].discard(card)
        if self.shown is not None:  # every card the seat's view shows besides its hand (a shlejf it took…)
            imagined = game.view(self.seat)
            for key, value in self.shown.items():
                if key != "hands" and key in imagined:
                    diff = _card_difference(_norm(value), _norm(imagined[key]))
                    if isinstance(diff, tuple):
                        self._swap(deck, diff[0], diff[1])
        if hand is not None:
            mine = set(game.view(ADMIN)["hands"][self.seat] or [])
            missing = [c for c in hand if c not in mine]
            extra = [c for c in mine if c not in set(hand)]
            if missing and extra:
                self._repair_hand(deck, missing, extra)
            if missing or extra:
                raise ValueError("the own hand cannot agree")
        return at

    def _match(self, deck: list[Card], real: list[Event], at: int, produced: list[Event],
               game: Game | None = None) -> int:
        """Check the imagined events against the real ones from ``at``; repair a card; the next index."""
        for event in produced:
            if at >= len(real):
                raise ValueError("the imagined deal went further than the real one")
            want = real[at]
            if want.kind != event.kind or want.seat != event.seat:
                real_card, mine = want.data.get("card"), event.data.get("card")
                if want.seat == event.seat and isinstance(real_card, Card) and isinstance(mine, Card) \
                        and real_card != mine:  # a redeal's ace where a trump was turned, or the reverse (R35)
                    self._swap(deck, real_card, mine)
                raise ValueError(f"{event.kind} where {want.kind} happened")
            diff = True if _same_scalars(want.data, event.data) else \
                _card_difference(_norm(dict(want.data)), _norm(dict(event.data)))
            if diff is False:
                self._repair_trump(deck, game, want)
                raise ValueError(f"{event.kind} differs")
            if isinstance(diff, tuple):
                self._swap(deck, diff[0], diff[1])
            at += 1
        return at

    def _fresh_deck(self, history: list[Event], hand: list[Card] | None, pinned: set[Card]) -> list[Card]:
        """A deck to start the repairs from: a uniform shuffle (a game may start closer to the events)."""
        deck = list(_deck_of(self.cls)) if self.cls.deck_size else []
        self.rng.shuffle(deck)
        return deck

    def _check_deal(self, deck: list[Card], real: list[Event]) -> None:
        """A game's own check of the dealt deck against the real events, before the replay (none here)."""

    def _repair_hand(self, deck: list[Card], missing: list[Card], extra: list[Card]) -> None:
        """The own hand lacks ``missing`` and holds ``extra``: swap one of each in the deck."""
        self._swap(deck, missing[0], extra[0])

    def _judge(self, game: Game, seat: int, event: Event, action: Action,
               future: dict[int, set[Card]]) -> Action:
        """Would the rule-bot model have done this in this world?  A miss lowers the world's weight.

        Why: an imagined deal that only obeys the rules treats a knock as if any hand could knock; the
        seats' own choices say more about their cards (a seat that knocked holds trumps).  A hidden
        part (which cards were bought away) is the model's own choice where it has the public shape."""
        legal = game.legal_sequence(seat)
        if len(legal) < 2:
            return action
        guess = self.model.choose(game.view(seat), legal) if self.model is not None else None
        hidden = isinstance(self.actions.get(event.kind), tuple) and self.actions[event.kind][0] == HIDDEN
        if hidden:
            keep = future.get(seat, set())
            if guess is not None and guess.verb == action.verb and len(guess.args) == len(action.args) \
                    and not any(c in keep for c in guess.args):
                return guess
            self.misses += 1
            return action
        if guess != action:
            self.misses += 1
        return action

    def _repair_trump(self, deck: list[Card], game: Game | None, want: Event) -> None:
        """A face-down trump card of another suit than the event names (Стуколка's shlejf, R51): swap a
        card of the named suit into its place."""
        suit, card = want.data.get("trump"), getattr(game, "trump_card", None)
        if suit is None or not isinstance(card, Card) or card.suit == suit:
            return
        used = self._given.used if self._given is not None else self._used
        choices = [c for c in self._decks[max(0, used - 1)] if c.suit == suit and c not in self.known]
        if choices:
            self._swap(deck, card, self.rng.choice(choices))

    def _action(self, game: Game, event: Event, own: list[Action], future: dict[int, set[Card]],
                pinned: set[Card]) -> Action | None:
        how = self.actions.get(event.kind)
        if how is None or event.seat is None:
            return None
        if isinstance(how, Action):
            return how
        if isinstance(how, str):
            return Action(how)
        if how[0] == "card":
            return Action(how[1], (event.data["card"],))
        if how[0] == "arg":  # a public argument (Копилка's place taken)
            return Action(how[1], (event.data[how[2]],))
        verb = how[1]
        if event.seat == self.seat:  # our own: we know what we did
            for i, action in enumerate(own):
                if action.verb == verb:
                    return own.pop(i)
        count = how[2] if isinstance(how[2], int) else int(event.data[how[2]])
        cards = list(game.view(ADMIN)["hands"][event.seat] or [])
        keep = future.get(event.seat, set()) | (self.known if event.seat == self.seat or self.own_cards_kept
                                                 else set())
        free = [c for c in cards if c not in keep]
        if len(free) < count:
            free = cards
        self.rng.shuffle(free)
        return Action(verb, tuple(sorted(free[:count])))

    def _repair_illegal(self, game: Game, deck: list[Card], seat: int, action: Action, pinned: set[Card],
                        future: dict[int, set[Card]]) -> None:
        """Swap cards so that ``action`` can be legal: its cards into the hand, a card it could follow away."""
        hand = list(game.view(ADMIN)["hands"][seat] or [])
        cards = [c for c in action.args if isinstance(c, Card)]
        keep = set(future.get(seat, set())) | set(cards)
        if seat == self.seat:
            keep |= self.known
        for card in cards:
            if card not in hand:  # the card is elsewhere in this deck: swap it into the seat's hand
                free = [c for c in hand if c not in keep]
                if free:
                    self._swap(deck, card, self.rng.choice(free))
                return
        # Every card is there, yet it was refused: the seat could have followed; move a card it could play away.
        offending = [a.args[0] for a in game.legal_actions(seat)
                     if a.args and isinstance(a.args[0], Card) and a.args[0] not in keep]
        suits = {c.suit for c in offending}
        mine = future.get(seat, set())
        elsewhere = [c for c in deck if c not in hand and (c not in pinned or c in mine) and c.suit not in suits]
        if offending and elsewhere:
            self._swap(deck, self.rng.choice(offending), self.rng.choice(elsewhere))


SHADOWS = {"kopilka": ("engine.bots.kopilka_worlds", "KopilkaShadow")}
"""Games whose imagined deals need their own class (Копилка's face-down lay-outs), by module and name:
imported when first asked for, since those modules build on this one."""


def make_shadow(game: str, seat: int, rng: random.Random) -> Shadow:
    """The imagined deals of ``game``: its own class where ``SHADOWS`` names one, else the common one."""
    where = SHADOWS.get(game)
    if where is None:
        return Shadow(game, seat, rng)
    cls = getattr(importlib.import_module(where[0]), where[1])
    return cls(game, seat, rng)


class _Redeals:
    """The redeal decks of an imagined deal: unknown, so shuffled from a seed when one is needed.

    Why not ``ShuffledDecks``: its Mersenne Twister state is most of a pickled world, and a world is
    copied for every action weighed."""

    def __init__(self, size: int, seed: int):
        self.size, self.seed = size, seed

    def next_deck(self) -> list[Card]:
        from engine.cards import deck

        cards = deck(self.size)
        random.Random(self.seed).shuffle(cards)
        self.seed += 1
        return cards


def _lean(game: Game) -> Game:
    """Our copy of a session without the logs of its past deals (the engine reads only the last one's):
    smaller, so every copy of it is cheaper."""
    game.deals = game.deals[-1:]
    return game


def _model(game: str) -> Bot | None:
    """The rule bot that stands for the other seats when judging imagined deals (``MODELLED``)."""
    if game not in MODELLED:
        return None
    from engine.bots import make_bot

    return make_bot(game, "rule", 0)


def _deck_of(cls: type[Game]) -> list[Card]:
    from engine.cards import deck

    return deck(cls.deck_size)


class SearchBot(Bot):
    """Determinized Monte Carlo over the engine (see the module docstring)."""

    kind = "search"

    def __init__(self, game: str, seed: int | None = None, *, budget: float | None = 0.2,
                 iterations: int | None = None, margin: Margin | None = None, pot_share: bool = True):
        super().__init__(game, seed)
        from engine.bots import make_bot

        self.rules = make_bot(game, "rule", seed)
        self.may_wait = self.rules.may_wait
        self.budget = budget
        self.iterations = iterations
        self.margin = margin if margin is not None else Margin()  # when to leave the rule bot's choice
        self.departed = 0  # searched decisions where it left the rule bot's choice (the bench's left%)
        self.pot_share = pot_share  # a carried pot counts its seat's share (``_pot_share``)
        self.events: list[Event] = []  # this deal's public events, from its deal_start
        self.deal_seen = 0  # the deal number of ``events``
        self.done: dict[int, tuple[list[Event], list[Action], list[View]]] = {}
        """Deals heard, not yet in ``base``: their events, our actions and views (Копилка's worlds read them)."""
        self.own: list[Action] = []
        self.base: Game | None = None  # the session's state at this deal's start (our own copy)
        self.base_deal = 0
        self.searched = 0
        self.fallbacks = 0
        self.samples = 0
        self.times: list[float] = []  # seconds of every decision with a choice (the bench's figures)
        self.cpu: list[float] = []  # and its CPU seconds: the time it would take on an idle machine
        self.pot_fix = False  # the first world of a session fixes the pot our copy began with
        self.worlds: list[World] = []  # the imagined worlds of the last decision, carried to the next
        self.worlds_deal = 0
        self.first_view: View | None = None  # the view at this deal's first decision
        self.deal_views: list[View] = []  # the views of this deal's decisions
        self.spec_key: tuple | None = None  # Спекулянт: the window decision last searched

    # -- what the seat hears ---------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        """The table's public events, in order (the arena and the protocol client call it)."""
        for event in events:
            if event.kind == "deal_start":
                if self.events and self.deal_seen:
                    ours = self.first_view is not None and self.first_view["deal_no"] == self.deal_seen
                    self.done[self.deal_seen] = (self.events, self.own, self.deal_views if ours else [])
                    for old in sorted(self.done)[:-KEEP_DEALS]:
                        del self.done[old]
                self.events, self.own = [event], []
                self.deal_seen = int(event.data.get("deal", 0))
            elif self.events:
                self.events.append(event)

    # -- deciding -------------------------------------------------------------------------

    def _choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        ruled = self.rules.choose(view, legal)  # also keeps the rule bot's memory of the deal
        if self.first_view is None or self.first_view["deal_no"] != view["deal_no"]:
            self.first_view = view  # the deal's first sight of the hand (Копилка's dealt cards)
            self.deal_views = []
        self.deal_views.append(view)  # Копилка: what each take brought (kopilka_worlds.took)
        action = None
        started, cpu = time.perf_counter(), time.thread_time()
        if self.cls().clocked:  # Спекулянт: decisions inside windows the clock closes
            action, searched = self._speculate(view, legal, ruled)
            if searched is not None:
                self.searched += searched
                self.fallbacks += not searched
                self.departed += bool(searched) and action != ruled
                self.times.append(time.perf_counter() - started)
                self.cpu.append(time.thread_time() - cpu)
            return action
        if len(legal) > 1 and self.game in ACTIONS:
            candidates = list(legal)
            if len(candidates) > MAX_CANDIDATES:  # french3's buys: the rule bot's and a few others
                others = [a for a in candidates if a != ruled]
                candidates = ([ruled] if ruled is not None else []) + self.rng.sample(others, MAX_CANDIDATES - 1)
            action = self._search(view, candidates, ruled)
        if action is None:
            self.fallbacks += len(legal) > 1
            action = ruled
        if len(legal) > 1:
            self.times.append(time.perf_counter() - started)
            self.cpu.append(time.thread_time() - cpu)
        if action is not None:
            self.own.append(action)
        return action

    def _speculate(self, view: View, legal: Sequence[Action], ruled: Action | None) -> tuple[Action | None, bool | None]:
        """Спекулянт: a decision inside an open window searched (``engine.bots.speculator_search``),
        anything else the rule bot's; and whether it was searched (None: not a window decision, or one
        searched already: to buy once a window, to sell before a bid and at the first — the rule bot's raises
        and readiness in between).  Why not every ask: the arena and the table ask every seat again
        and again while a window is open, and most asks change nothing."""
        from engine.bots import speculator_search as spec

        if not view["window"] or not self.events or self.deal_seen != view["deal_no"]:
            return ruled, None
        seat = view["viewer"]
        bids = view["bids"]
        if seat == view["holder"]:  # to sell or not: before any bid and at the first one
            key: tuple = (view["deal_no"], view["redeals"], view["reveals"], "sell", bool(bids))
        else:  # to buy or not: once a window (then the rule bot's raises and readiness)
            key = (view["deal_no"], view["redeals"], view["reveals"], "buy", view["holder"])
        if key == self.spec_key:
            return ruled, None
        self.spec_key = key
        started = time.perf_counter()
        until = started + self.budget if self.budget is not None else None
        wanted = self.iterations if self.iterations is not None else (1 if until is None else 10_000)
        weighed = spec.candidates(view, legal, ruled)
        rows: list[dict[Action, float]] = []
        for _ in range(wanted):
            if until is not None and time.perf_counter() > until:
                break
            imagined = spec.world(view, self.events, self.rng)
            if imagined is None:
                continue
            frozen = pickle.dumps(imagined, pickle.HIGHEST_PROTOCOL)
            seed = self.rng.randrange(1 << 30)
            row: dict[Action, float] = {}
            for action in weighed:
                if row and until is not None and time.perf_counter() > until:
                    break
                row[action] = spec.playout(frozen, seat, action, seed)
            rows.append(row)
        self.samples += len(rows)
        if not rows:
            return ruled, False
        choice = spec.best(rows, weighed[0], view["pot"], self.margin)
        return (None if choice == spec.WAIT else choice), True

    def _session(self, view: View, seat: int, until: float | None = None) -> Game | None:
        """Our copy of the session at this deal's start, or None if we cannot have one.

        It begins at the session's first deal (a bot seated later plays by the rules) and is carried
        on deal by deal through ``done``, the deals heard since, each replayed as it may have been —
        also the deals in which this seat never had a choice to search."""
        deal = view["deal_no"]
        if self.base is not None and self.base_deal == deal:
            return self.base
        if self.base is None or self.base_deal > deal:
            first = self.events if deal == 1 else self.done.get(1, ([], [], []))[0]
            if not first or first[0].kind != "deal_start" or first[0].seat is None:
                return None
            self.base = self.cls()(list(view["names"]), view["options"], dealer=first[0].seat, pot=0)
            self.base_deal = 1
            self.pot_fix = True  # the pot the session began with is found at the first world
        while self.base_deal < deal:
            record = self.done.get(self.base_deal)
            if record is None:
                self.base = None
                return None
            events, own, seen = record
            shadow = make_shadow(self.game, seat, self.rng)
            shadow.model, shadow.modelled = None, frozenset()  # a past deal's state only: no weights needed
            shadow.deal_no, shadow.first_view, shadow.deal_views = self.base_deal, seen[0] if seen else None, seen
            pinned = self._pinned(events, own, [])
            kept = self.worlds if self.worlds_deal == self.base_deal else []
            self.worlds = []
            for tried in range(CARRY_TRIES):  # the last deal as it may have been: the session's state now
                world = None
                if tried % 2 == 0 and tried // 2 < len(kept):  # a world of that deal's decisions, played on
                    was = kept[tried // 2]
                    world = shadow.advance(was, events, own, None, pinned)
                    if world is None or world.game.in_deal:  # the rest of the deal disagreed: repair its deck
                        world = shadow.deal(self.base, events, own, None, pinned, until, was.deck, was.spare)
                else:  # every other try a fresh deal: kept worlds of mid-deal often disagree with its end
                    world = shadow.deal(self.base, events, own, None, pinned, until)
                if world is not None and not world.game.in_deal:
                    break
            else:
                return None  # tried again at the next decision
            self.base, self.base_deal = _lean(world.game), self.base_deal + 1
            for old in [d for d in self.done if d < self.base_deal]:
                del self.done[old]
        return self.base

    def cls(self) -> type[Game]:
        return get_game(self.game)

    def _pinned(self, events: list[Event], own: list[Action], hand: list[Card]) -> set[Card]:
        """Every card the seat has seen: its hand, its own actions' cards, the public events' cards."""
        seen: set[Card] = set(hand)
        stack: list[Any] = [dict(e.data) for e in events] + [a.args for a in own]
        while stack:
            item = stack.pop()
            if isinstance(item, Card):
                seen.add(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
        return seen

    def _search(self, view: View, legal: Sequence[Action], ruled: Action | None = None) -> Action | None:
        """The action that did best in imagined deals; None: no deal could be imagined in time.

        The rule bot's choice ``ruled`` is the anchor: another action is taken only if, over the same
        imagined deals, it beat ``ruled`` by the bot's ``margin`` (``engine.bots.margin``: k standard
        errors over n worlds at least; a few noisy worlds must not lure it off a sound rule)."""
        seat = view["viewer"]
        if not self.events or self.deal_seen != view["deal_no"]:
            return None
        started = time.perf_counter()
        until = started + self.budget if self.budget is not None else None
        if until is None and self.iterations is None:
            until = started  # neither limit: one world at the least is tried
        base = self._session(view, seat, until)
        if base is None:
            return None
        shown = view["hands"][seat]
        hand = None if shown is None else list(shown)  # None: not looked at yet (the dark, R52)
        pinned = self._pinned(self.events, self.own, hand or [])
        shadow = make_shadow(self.game, seat, self.rng)
        shadow.shown = view
        shadow.first_view = self.first_view
        shadow.deal_views = self.deal_views
        shadow.deal_no = view["deal_no"]
        rows: list[dict[Action, float]] = []
        weights: list[float] = []  # each world's (``World.weight``): how well it explains the others' choices
        packed = pickle.dumps(base, pickle.HIGHEST_PROTOCOL)
        kept = self.worlds if self.worlds_deal == view["deal_no"] else []
        self.worlds, self.worlds_deal = [], view["deal_no"]
        tries = 0
        while True:
            tries += 1
            if self.iterations is not None and (len(rows) >= self.iterations or tries > self.iterations * shadow.tries):
                break
            if until is not None and (time.perf_counter() > until or tries > 10_000):
                break
            world = None
            if kept:  # a world of an earlier decision: carried on, else its deck repaired
                old = kept.pop(0)
                world = shadow.advance(old, self.events, self.own, hand, pinned)
                if world is None:
                    world = shadow.deal(packed, self.events, self.own, hand, pinned, until, old.deck, old.spare)
            if world is None:
                world = shadow.deal(packed, self.events, self.own, hand, pinned, until)
            if world is None:
                continue
            if getattr(self, "pot_fix", False) and world.game.pot != view["pot"]:
                base.pot += view["pot"] - world.game.pot  # the pot the session began with, found once
                base.start_pot = base.pot
                packed = pickle.dumps(base, pickle.HIGHEST_PROTOCOL)
                self.pot_fix = False
                kept, self.worlds = [], []
                continue
            self.worlds.append(world)
            frozen = pickle.dumps(world.game, pickle.HIGHEST_PROTOCOL)
            order = list(legal)
            self.rng.shuffle(order)  # out of time mid-world: no action is always the one left out
            if ruled in order:
                order.remove(ruled)
                order.insert(0, ruled)  # the anchor first: every world compares against it
            row: dict[Action, float] = {}
            seed = self.rng.randrange(1 << 30)  # the same rule bots after every action: a fair comparison
            for action in order:
                if until is not None and time.perf_counter() > until:
                    break
                row[action] = self._playout(frozen, seat, action, seed)
            if row:
                rows.append(row)
                weights.append(world.weight)
        self.worlds.extend(kept)  # not reached this time: still worth carrying on
        self.samples += len(rows)
        if not rows:
            return None
        self.searched += 1
        anchor = ruled if ruled in legal else None
        if anchor is not None:
            chosen = self.margin.choose(rows, anchor, legal, weights)
            self.departed += chosen != anchor
            return chosen
        best, best_score = None, 0.0  # no rule bot's choice to anchor on: the best weighted mean
        for action in legal:
            values = [(w, r[action]) for w, r in zip(weights, rows) if action in r]
            total = sum(w for w, _ in values)
            score = sum(w * v for w, v in values) / total if values else -math.inf
            if best is None or score > best_score:
                best, best_score = action, score
        return best

    def _playout(self, world: bytes, seat: int, action: Action, seed: int) -> float:
        """Play ``action`` then the rest of the deal with rule bots; the seat's result."""
        from engine.bots import make_bot

        game: Game = pickle.loads(world)
        shared = _pot_share if self.pot_share else _no_share
        before = game.balances[seat] + _points(game, seat) + shared(game)
        game.apply(seat, action)
        bots = [make_bot(self.game, "rule", seed + i) for i in range(game.n)]
        for _ in range(2000):
            if not game.in_deal:
                break
            movers = game.to_act()
            mover = movers[0]
            legal = game.legal_sequence(mover)
            choice = bots[mover].choose(game.view(mover), legal)
            if choice is None:
                choice = legal[-1]
            game.apply(mover, choice)
        return game.balances[seat] + _points(game, seat) + shared(game) - before


POT_CARRIED = frozenset({"stukolka"})
"""Games whose pot is carried from deal to deal and paid out to the seats before the session ends (R44)."""


def _pot_share(game: Game) -> float:
    """A seat's share of a carried pot: the pot is the seats' money still to be won, ``1/n`` of it each
    between equals.  Why: counting only the balance, a remiz paid in looks lost for good and the others'
    winnings out of the pot cost nothing, so a pass looks free (a bias that knocked too little and
    too much where the rules did not, over thousands of deals); the share keeps the sum zero."""
    return game.pot / game.n if game.name in POT_CARRIED else 0.0


def _no_share(game: Game) -> float:
    """The balance alone (``SearchBot(pot_share=False)``: the earlier measure, for comparison)."""
    return 0.0


def _points(game: Game, seat: int) -> float:
    """The points games settle money only at a game's or a match's end: their sheets count too.

    The French game: the seat's points below the line less those above (R22, R23), against the
    others' mean; the pairs game: the other partnership's record less ours (R27–R30), and a tenth of
    a point per trick between the partnerships to break ties of a deal's split."""
    points = _POINTS.get(game.name)
    return points(game.view(ADMIN), seat) if points is not None else 0.0


def _pairs_points(view: dict, seat: int) -> float:
    sheet = get_game("ukr_pairs").score_view(view)  # the typed sheet (engine.view.RecordSheet)
    assert isinstance(sheet, RecordSheet)
    ours = sheet.team_of(seat) or "B"
    theirs = "B" if ours == "A" else "A"
    records = dict(sheet.records)
    tricks = view.get("team_tricks") or [0, 0]
    t = 0 if ours == "A" else 1
    return float(records[theirs] - records[ours]) + 0.1 * (tricks[t] - tricks[1 - t])


def _french3_points(view: dict, seat: int) -> float:
    sheet = get_game("french3").score_view(view)  # the typed sheet (engine.view.LineSheet)
    assert isinstance(sheet, LineSheet)
    net = [b - a for a, b in zip(sheet.above, sheet.below)]
    others = [v for i, v in enumerate(net) if i != seat]
    return float(net[seat] - sum(others) / max(1, len(others)))


def _kopilka_points(view: dict, seat: int) -> float:
    """Копилка pays the tricks' values out of the kitty at the partiya's end (R16): until then they count."""
    return 0.0 if view["settlement"] is not None else float(view["won"][seat])


_POINTS: dict[str, Callable[[dict, int], float]] = {"ukr_pairs": _pairs_points, "french3": _french3_points,
                                                    "kopilka": _kopilka_points}
"""The points games' sheets, by game id (the money games count money alone)."""
