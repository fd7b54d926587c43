"""Спекулянт (Speculator), game 59: resolutions R60–R67.

Everyone antes, gets three face-down cards that nobody sees (the owner
neither), and the cards are turned up one at a time round the table as one
single trick (diamonds trump, R62).  The current best card may be sold while
the others wait; the K♠ («спекулянт») cancels the board and forces a redeal
(R65).  This is the one game where many players act at once: during a trade
window every seat is in ``to_act()``.

Time (the engine never reads a clock)
-------------------------------------
A trade window opens after every reveal but the last (R64).  What closes it
depends on whether the game runs on a *live clock*:

* ``live_clock`` off (the default: records, ``replay``, ``rebuild``): there is
  no time.  A window closes when everyone is ``ready``, or when the revealer's
  next ``reveal`` closes it (in a record the next reveal closes
  it).  So ``reveal`` is legal for the revealer while a window is open.
* ``live_clock`` on (a table with people): the table calls
  ``start_clock(now)`` once (after creating or rebuilding the game), then
  ``tick(now)`` before every ``apply`` and whenever ``deadline()`` has passed.
  ``now`` is any monotonic time in seconds (float).  ``deadline()`` is the
  absolute time the open window closes: ``W`` after the reveal, pushed to
  ``now + W`` by each new bid or ask but never past ``Wmax`` after the reveal.
  No card may be revealed while a window is open (§6.5), so ``reveal`` is
  refused until ``tick`` or the last ``ready`` closes the window.

Both modes give the same state for the same actions, except that a live
window may already be closed by time where a replay still holds it open until
the next ``reveal``; that is why ``record_of`` + ``replay`` of a live game
reproduces it.  A rebuilt game's open window restarts at ``start_clock``.

Prices are not enumerable, so ``legal_actions`` lists ``bid P`` and ``sell P``
once at ``minPrice``; that entry stands for every whole price ≥ ``minPrice``
(``_PricedActions`` makes ``in`` check the range, and ``_allows`` answers the
same question without building the list).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from engine import trick
from engine.cards import Card, Rank, Suit
from engine.game import ADMIN, Action, Event, Game, IllegalAction, Option, OptionError, Viewer, refuse

TRUMP = Suit.DIAMONDS  # "Козырь всегда бубны" (§6.3)
SPECULATOR = Card.of(Rank.KING, Suit.SPADES)  # «спекулянт» (§6.6)
CARDS_EACH = 3

REVEAL, TRADE, DONE, IDLE = "reveal", "trade", "done", "idle"
"""Phases: waiting for the revealer; a trade window is open; the deal is settled; no deal yet."""


def beats(card: Card, best: Card) -> bool:
    """R62: single-trick order.  The best card is always of the led suit or a
    diamond, so "a diamond beats a non-diamond, else the same suit and higher"
    is the whole rule; any other card is dead: ``engine.trick.beats`` with diamonds trumps."""
    return trick.beats(card, best, TRUMP)


class _PricedActions(list):
    """Legal actions where ``bid P`` / ``sell P`` stand for every whole P ≥ the minimum price."""

    def __init__(self, actions: Iterable[Action], min_price: int):
        super().__init__(actions)
        self.min_price = min_price

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Action) and action.verb in ("bid", "sell") and len(action.args) == 1:
            price = action.args[0]
            priced = any(a.verb == action.verb and a.args for a in self)
            return priced and type(price) is int and price >= self.min_price  # as _price_ok
        return list.__contains__(self, action)


class Speculator(Game):
    """A session of Спекулянт: successive deals, each settled by its last reveal."""

    # Its state in slots, as ``Game`` keeps the session's: a class with slots anywhere has no inline
    # attribute values on 3.13, so a game with an instance dict under a slotted base reads slower.
    __slots__ = ("_ask", "_best", "_bids", "_closes_at", "_holder", "_opened_at", "_piles", "_ready", "_revealed",
                 "_selling", "_undealt", "_up", "_window", "_winner", "clock", "live_clock", "redeals")

    name = "speculator"
    title = {"ru": "Спекулянт", "en": "Speculator"}
    options_spec = (
        Option("s", 5, "stake each player puts into the pot before a deal (kopecks)", minimum=1,
               maximum=10**9),
        Option("W", 15, "trade window after each reveal (seconds)", minimum=1, maximum=600),
        Option("Wmax", 60, "cap on one trade window since its reveal (seconds)", minimum=1,
               maximum=3600),
        Option("minPrice", 1, "minimum trade price (kopecks)", minimum=1, maximum=10**9),
    )
    verbs = {"reveal": "", "sell": "int?", "bid": "int", "accept": "name", "ready": ""}
    BY_EAR_WINDOW = 45
    """Seconds of a trade window when a text-mode player sits (R64 leaves the waiting time to the table)."""
    deck_size = 36
    stake_option = "s"
    clocked = True  # the trade windows run on the table's clock (R64)
    min_players = 3  # R60
    max_players = 10  # "Игроков не более 10 человек"

    @classmethod
    def by_ear_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        # Longer automatically rather than a setting to ask for: a screen reader spends most of the
        # default window speaking the lines that open it, and a newcomer by ear cannot know the option
        # exists. Fixed for the session (its journal header keeps it, so a replay closes windows alike).
        window = max(options["W"], cls.BY_EAR_WINDOW)
        return {**options, "W": window, "Wmax": max(options["Wmax"], 2 * window)}

    @classmethod
    def make_options(cls, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        options = super().make_options(raw)
        if options["Wmax"] < options["W"]:
            raise OptionError(
                f"option 'Wmax' (the cap on one trade window) must be at least W ({options['W']}), "
                f"not {options['Wmax']}"
            )
        return options

    def __init__(self, names: Sequence[str], options: Mapping[str, Any] | None = None, *,
                 dealer: int = 0, pot: int = 0):
        super().__init__(names, options, dealer=dealer, pot=pot)
        self.live_clock = False  # see the module docstring
        self.clock = 0.0  # the last ``now`` the table told us
        self.redeals = 0  # speculator redeals in the current deal
        self._winner: int | None = None
        self._clear_board([[] for _ in range(self.n)], [])

    @classmethod
    def wire_actions(cls, actions: list[Action]) -> list[Action]:
        """``bid P`` / ``sell P`` listed at the lowest price stand for every P from there (``_PricedActions``)."""
        prices = [a.args[0] for a in actions if a.verb in ("bid", "sell") and a.args]
        return _PricedActions(actions, min(prices)) if prices else actions

    # -- dealing ------------------------------------------------------------------

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.n

    def _start_deal(self) -> list[Event]:
        self.redeals = 0
        self._winner = None
        for seat in range(self.n):  # R67: the dealer antes too
            self._to_pot(seat, self.options["s"])
        self._deal(self._draw_deck())
        return [Event("ante", None, {"each": self.options["s"], "pot": self.pot})]

    def _deal(self, cards: list[Card]) -> None:
        """§9.3: one at a time from the eldest, 3 each; a pile is revealed in dealt order."""
        piles: list[list[Card]] = [[] for _ in range(self.n)]
        for i, card in enumerate(cards[: CARDS_EACH * self.n]):
            piles[(self.eldest + i) % self.n].append(card)
        self._clear_board(piles, cards[CARDS_EACH * self.n:])

    def _clear_board(self, piles: list[list[Card]], undealt: list[Card]) -> None:
        self._piles = piles  # face down, next to be revealed first
        self._undealt = undealt
        self._up: list[list[Card]] = [[] for _ in range(self.n)]  # face up in front of each seat
        self._revealed: list[tuple[int, Card]] = []  # (revealer, card) in reveal order
        self._best: Card | None = None
        self._holder: int | None = None
        self._window = False
        self._bids: dict[int, int] = {}  # bidder → price, oldest first
        self._ask: int | None = None
        self._selling = False
        self._ready: set[int] = set()
        self._opened_at: float | None = None
        self._closes_at: float | None = None

    # -- who acts -----------------------------------------------------------------

    @property
    def revealer(self) -> int:
        """R61: eldest first, clockwise, no skipping; three rounds."""
        return (self.eldest + len(self._revealed)) % self.n

    @property
    def window_open(self) -> bool:
        """A trade window is open (R64)."""
        return self.in_deal and self._window

    @property
    def best(self) -> Card | None:
        """The current best face-up card (R62), the one card that may be traded (R63)."""
        return self._best

    @property
    def holder(self) -> int | None:
        return self._holder

    @property
    def bids(self) -> dict[int, int]:
        """Standing bids of this window: bidder → price, oldest first."""
        return dict(self._bids)

    @property
    def ready_seats(self) -> frozenset[int]:
        return frozenset(self._ready)

    @property
    def phase(self) -> str:
        if not self.in_deal:
            return DONE if self.deals else IDLE
        return TRADE if self._window else REVEAL

    def _to_act(self) -> tuple[int, ...]:
        if self._window:
            return tuple(range(self.n))  # anyone may bid, the holder may sell, all may be ready
        return (self.revealer,)

    def _legal(self, seat: int) -> list[Action]:
        if not self._window:
            return [Action("reveal")] if seat == self.revealer else []
        price = self.options["minPrice"]
        actions: list[Action] = []
        if seat == self.revealer and not self.live_clock:
            actions.append(Action("reveal"))  # §9.2: in a record the next reveal closes the window
        if seat == self._holder:
            actions += [Action("sell"), Action("sell", (price,))]
            actions += [Action("accept", (self.names[b],)) for b in self._bids]
        else:
            actions.append(Action("bid", (price,)))
        if seat not in self._ready:
            actions.append(Action("ready"))
        return _PricedActions(actions, price)

    def _allows(self, seat: int, action: Action) -> bool:
        """What ``_legal`` lists, answered at once: every seat acts during a window, so this
        runs far more often than in turn-based games (tests check that the two agree)."""
        verb, args = action.verb, action.args
        if verb == "reveal":
            return not args and seat == self.revealer and not (self._window and self.live_clock)
        if not self._window:
            return False
        if verb == "ready":
            return not args and seat not in self._ready
        if verb == "bid":
            return len(args) == 1 and seat != self._holder and self._price_ok(args[0])
        if verb == "sell":
            return seat == self._holder and (not args or len(args) == 1 and self._price_ok(args[0]))
        if verb == "accept":
            return (len(args) == 1 and seat == self._holder and args[0] in self.names
                    and self.names.index(args[0]) in self._bids)
        return False

    def _price_ok(self, price: object) -> bool:
        """§9.2: prices are whole kopecks ≥ minPrice."""
        return type(price) is int and price >= self.options["minPrice"]

    def _normalize(self, action: Action) -> Action:
        """``accept anna`` means Anna: names match regardless of case when that is unambiguous."""
        if action.verb == "accept" and action.args and action.args[0] not in self.names:
            same = [n for n in self.names if n.lower() == str(action.args[0]).lower()]
            if len(same) == 1:
                return Action("accept", (same[0],))
        return action

    # -- actions ------------------------------------------------------------------

    def promises(self, seat: int, action: Action | str) -> dict[int, int]:
        """R5/R64: a bid binds the bidder to pay its price; accepting binds the buyer to his bid."""
        try:
            action = self._normalize(self.parse_action(action) if isinstance(action, str) else action)
        except IllegalAction:
            return {}  # malformed: ``apply`` gives the reason
        if action.verb == "bid" and action.args and isinstance(action.args[0], int):
            return {seat: action.args[0]}
        if action.verb == "accept" and action.args and action.args[0] in self.names:
            buyer = self.names.index(action.args[0])
            if buyer in self._bids:
                return {buyer: self._bids[buyer]}
        return {}

    def _apply(self, seat: int, action: Action) -> list[Event]:
        verb = action.verb
        if verb == "reveal":
            return self._reveal(seat)
        if verb == "bid":
            return self._bid(seat, action.args[0])
        if verb == "sell":
            return self._sell(seat, action.args[0] if action.args else None)
        if verb == "accept":
            return self._accept(seat, self.names.index(action.args[0]))
        return self._press_ready(seat)

    def _reveal(self, seat: int) -> list[Event]:
        if self._window:
            self._close_window("reveal")  # §9.2: in a record the next reveal closes the window
        card = self._piles[seat].pop(0)
        if card == SPECULATOR:
            return [Event("reveal", seat, {"card": card})] + self._speculator(seat)
        best = self._best is None or beats(card, self._best)  # R66: the first card is always best
        self._revealed.append((seat, card))
        self._up[seat].append(card)
        if best:
            self._best, self._holder = card, seat
        events = [Event("reveal", seat, {"card": card, "best": best})]
        if len(self._revealed) == CARDS_EACH * self.n:
            return events + self._settle()  # R64: no window after the last reveal
        return events + self._open_window()

    def _speculator(self, seat: int) -> list[Event]:
        """R65: trades stand, all cards are redealt by the same dealer from the deal's
        next deck, everyone but the revealer re-antes, the pot carries, the eldest reveals."""
        cards = self._draw_deck()  # first, so a missing deck leaves the money untouched
        for other in range(self.n):
            if other != seat:
                self._to_pot(other, self.options["s"])
        self.redeals += 1
        self._deal(cards)
        return [Event("speculator", seat, {"ante": self.options["s"], "pot": self.pot})]

    def _settle(self) -> list[Event]:
        """§6.5: the holder of the current best card takes the whole pot."""
        assert self._holder is not None and self._best is not None
        winner, amount = self._holder, self.pot
        self._to_pot(winner, -amount)
        self._winner = winner
        self._end_deal()
        return [Event("win", winner, {"card": self._best, "pot": amount})]

    def _bid(self, seat: int, price: int) -> list[Event]:
        """§9.2: a newer bid replaces the bidder's older one and clears his and the holder's ready."""
        self._bids.pop(seat, None)
        self._bids[seat] = price
        self._ready.discard(seat)
        self._ready.discard(self._holder)
        self._restart_timer()
        return [Event("bid", seat, {"price": price})]

    def _sell(self, seat: int, price: int | None) -> list[Event]:
        """«Продаю», with an optional asking price; the holder may still accept less (§9.2)."""
        self._selling, self._ask = True, price
        self._ready.discard(seat)
        self._restart_timer()
        return [Event("sell", seat, {} if price is None else {"price": price})]

    def _accept(self, seller: int, buyer: int) -> list[Event]:
        """R64: the buyer pays the seller at once and the card moves face up to him."""
        card, price = self._best, self._bids[buyer]
        assert card is not None
        self._transfer(buyer, seller, price)
        self._up[seller].remove(card)
        self._up[buyer].append(card)
        self._holder = buyer
        self._bids.clear()  # §9.2: a trade clears all bids; the buyer may resell at once
        self._selling, self._ask = False, None
        self._ready.discard(seller)
        return [Event("trade", buyer, {"card": card, "price": price, "seller": seller})]

    def _press_ready(self, seat: int) -> list[Event]:
        self._ready.add(seat)
        events = [Event("ready", seat)]
        if len(self._ready) == self.n:
            # A bid clears the holder's ready, so with everyone ready the holder has
            # answered (declined) every standing bid: no bid is unanswered (§6.5).
            events += self._close_window("ready")
        return events

    # -- the trade window and time ---------------------------------------------------

    def _open_window(self) -> list[Event]:
        self._window = True
        self._ready.clear()
        if self.live_clock:
            self._opened_at = self.clock
            self._closes_at = self.clock + self.options["W"]
        return [Event("window_open", self._holder, {"card": self._best})]

    def _close_window(self, why: str) -> list[Event]:
        """End the window; the event is for "time" and "ready" (a reveal says it by itself)."""
        self._window = False
        self._bids.clear()
        self._selling, self._ask = False, None
        self._ready.clear()
        self._opened_at = self._closes_at = None
        return [Event("window_closed", None, {"why": why})]

    def _restart_timer(self) -> None:
        """R64: a new bid or ask pushes the close to now + W, capped at Wmax since the reveal."""
        if self.live_clock and self._opened_at is not None:
            self._closes_at = min(self.clock + self.options["W"], self._opened_at + self.options["Wmax"])

    def start_clock(self, now: float) -> list[Event]:
        """Run on the table's clock from ``now`` on; an open window (rebuilt game) restarts now."""
        self.live_clock = True
        return self.tick(now)

    def tick(self, now: float) -> list[Event]:
        """Tell the game the time; closes the open window once its deadline has come."""
        self.clock = max(self.clock, now)
        if not (self.live_clock and self.in_deal and self._window):
            return []
        if self._opened_at is None:  # opened before the clock went live
            self._opened_at = self.clock
            self._closes_at = self.clock + self.options["W"]
        if self._closes_at is not None and self.clock >= self._closes_at:
            return self._close_window("time")
        return []

    def deadline(self) -> float | None:
        """When the open window closes (live clock only); None when nothing waits on time."""
        if self.live_clock and self.in_deal and self._window:
            return self._closes_at
        return None

    # -- refusals -------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """As ``Game.apply``; only the refusal of a seat that may not act now says more."""
        if self.in_deal and 0 <= seat < self.n and seat not in self._to_act():
            parsed = self.parse_action(action) if isinstance(action, str) else action
            raise self._why_not_now(seat, parsed)
        return super().apply(seat, action)

    def _why_not_now(self, seat: int, action: Action) -> IllegalAction:
        """Outside a window only the revealer acts (R61, R64)."""
        who = self.names[self.revealer]
        if action.verb == "reveal":
            return refuse("speculator.not_your_reveal", f"It is {who}'s turn to turn up a card, not yours (R61).",
                          who=who)
        return refuse("speculator.no_window",
                      f"No trade window is open: trading happens after a reveal, until the window "
                      f"closes (R64). Now {who} is to turn up the next card.", who=who)

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        """The trading rule that refuses ``action`` (R61, R63, R64, §6.5), in words."""
        verb, best = action.verb, self._best_text()
        if verb == "reveal" and seat != self.revealer:
            who = self.names[self.revealer]
            return refuse("speculator.not_your_reveal", f"It is {who}'s turn to turn up a card, not yours (R61).",
                          who=who)
        if verb == "reveal":
            return refuse("speculator.window_open",
                          "A trade window is open: nobody may turn up a card while a deal can still be "
                          "made (R64). It closes when its time runs out or when everyone is ready.")
        if not self._window:
            return self._why_not_now(seat, action)
        if verb == "bid" and seat == self._holder:
            return refuse("speculator.own_card",
                          f"You hold the best card {best} yourself; you cannot bid for your own card (R63).",
                          card=self._best if self._best is not None else best)
        if verb in ("bid", "sell") and action.args and action.args[0] < self.options["minPrice"]:
            return refuse("speculator.min_price",
                          f"Prices are whole kopecks, at least {self.options['minPrice']} (minPrice).",
                          min_price=self.options["minPrice"])
        if verb in ("sell", "accept") and seat != self._holder:
            holder = self.names[self._holder]  # type: ignore[index]
            return refuse("speculator.not_holder",
                          f"Only the current best card may be traded (R63): {best}, held by "
                          f"{holder}. Your face-up cards are dead.",
                          card=self._best if self._best is not None else best, holder=holder)
        if verb == "accept":
            return self._accept_reason(action.args[0])
        if verb == "ready" and seat in self._ready:
            return refuse("speculator.ready_already",
                          "You are ready already; the window closes when everyone is ready or time runs out.")
        return None

    def _accept_reason(self, name: str) -> IllegalAction:
        if not self._bids:
            best = self._best_text()
            return refuse("speculator.no_bids", f"Nobody has bid for your {best}: there is no bid to accept.",
                          card=self._best if self._best is not None else best)
        if name not in self.names:
            return refuse("speculator.no_player", f"There is no player {name!r} at this table.", name=name)
        standing = ", ".join(f"{self.names[b]} {p}" for b, p in self._bids.items())
        return refuse("speculator.no_such_bid", f"{name} has no standing bid; the standing bids are: {standing}.",
                      name=name, bids=standing)

    def _best_text(self) -> str:
        return str(self._best) if self._best is not None else "—"

    # -- what players see -------------------------------------------------------------

    def _view(self, viewer: Viewer) -> dict[str, Any]:
        """Unrevealed piles are seen by nobody, the owner neither (§6.4); only ADMIN sees them."""
        revealer = self.revealer if self.in_deal else None
        return {
            "phase": self.phase,
            "hands": [list(p) if viewer == ADMIN else None for p in self._piles],
            "hand_counts": [len(p) for p in self._piles],
            "trick": [[seat, card] for seat, card in self._revealed],
            "trump": TRUMP,
            "tricks": [int(seat == self._winner) for seat in range(self.n)],
            "status": [self._status(seat, revealer) for seat in range(self.n)],
            "up": [list(cards) for cards in self._up],
            "best": self._best,
            "holder": self._holder,
            "revealer": revealer,
            "reveals": len(self._revealed),
            "reveals_total": CARDS_EACH * self.n,
            "redeals": self.redeals,
            "bids": {seat: price for seat, price in self._bids.items()},
            "selling": self._selling,
            "ask": self._ask,
            "ready": sorted(self._ready),
            "window": self._window,
            "deadline": self.deadline(),
            "clock": self.clock,
            "live_clock": self.live_clock,
            "winner": self._winner,
        }

    def _status(self, seat: int, revealer: int | None) -> str:
        words = []
        if not self._window and seat == revealer:
            words.append("to reveal")
        if seat == self._holder:
            words.append("holder")
            if self._selling:
                words.append("selling" if self._ask is None else f"asks {self._ask}")
        if seat in self._bids:
            words.append(f"bid {self._bids[seat]}")
        if seat in self._ready:
            words.append("ready")
        if seat == self._winner:
            words.append("won")
        return ", ".join(words)

    def places(self) -> dict[str, list[Card]]:
        """Every card of the current (re)deal: face-down piles, face-up cards, the undealt rest."""
        out: dict[str, list[Card]] = {"undealt": list(self._undealt)}
        for seat, name in enumerate(self.names):
            out[f"pile {name}"] = list(self._piles[seat])
            out[f"up {name}"] = list(self._up[seat])
        return out


GAME = Speculator
