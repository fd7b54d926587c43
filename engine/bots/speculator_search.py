"""Спекулянт for the search bot: imagined deals from the public events, searched only inside a window.

Why its own: nobody sees a face-down card in Спекулянт (§6.4), not even its
owner, so the hidden state is only *which* unseen cards lie where — uniform
for everybody.  An imagined world is the deal replayed from the public events
(every (re)deal's deck with each revealed card at the place the reveal order
says it was dealt, §9.3; the unrevealed places and the undealt rest a uniform
shuffle of the cards not yet seen in that (re)deal), in a record's rules: no
clock, so a window the table's clock closed stays open in the world until the
next reveal closes it — the state a decision sees is the same.

The windows close on the table's clock, so a decision is searched only where
the seat may act within an open window (bid, sell, accept, ready or wait);
the revealer's reveal is forced.  Candidates: the rule bot's choice, waiting,
``ready``, accepting the highest bid, and bids at a few shares of the card's
worth (``engine.bots.speculator.hold_chance``); each is played out in every
world by rule bots on a record's rules (a round per window where each seat
is asked once; when nobody acts the revealer's reveal closes it, as time
would).  A trade that cannot gain in expectation whoever the others are (a bid at or over the
card's worth, accepting one under it: ``at_a_loss``) is not weighed.  The rule bot's choice is left
only for one that beats it by the search bot's margin
(``engine.bots.margin``: k standard errors over the same worlds and playout seeds, n worlds at least):
most window decisions are worth the same either way (every seat prices the card alike), so a looser
test mostly picks noise — and pays for it in a trade.
"""

from __future__ import annotations

import pickle
import random
from typing import Sequence

from engine.bots.base import Bot, View
from engine.bots.margin import Margin
from engine.bots.speculator import hold_chance
from engine.cards import Card, deck
from engine.game import Action, Event, GivenDecks
from engine.games.speculator import CARDS_EACH, Speculator

WAIT = Action("wait")
"""The candidate of doing nothing now (``choose`` answers None)."""
REVEAL, READY = Action("reveal"), Action("ready")
REDEAL = "speculator"
"""The event of the K♠ turned up (R65): all is dealt again from the deal's next deck."""
SHARES = (0.8, 1.0)
"""Bids weighed, as shares of the best card's worth (those over the highest bid)."""
SPREAD = 0.3
"""The least standard deviation of a candidate's difference, as a share of the pot (``best``)."""
ROUNDS = 400
"""Rounds of a playout, at most (a window closes within a few)."""


def world(view: View, events: Sequence[Event], rng: random.Random) -> Speculator | None:
    """The deal replayed from ``events`` (this deal's, from its ``deal_start``) on imagined decks,
    or None where the replay does not give the seat's view (it cannot: a check)."""
    if not events or events[0].kind != "deal_start" or events[0].seat is None:
        return None
    n, size = len(view["names"]), Speculator.deck_size
    dealer = events[0].seat
    eldest = (dealer + 1) % n
    segments: list[list[tuple[int, Card]]] = [[]]
    for event in events:
        if event.kind == "reveal" and event.seat is not None:
            segments[-1].append((event.seat, event.data["card"]))
        if event.kind == REDEAL:
            segments.append([])
    decks = [_deck(segment, eldest, n, size, rng) for segment in segments]
    decks += [rng.sample(decks[0], size) for _ in range(8)]  # redeals to come: unknown
    ante = next((e for e in events if e.kind == "ante"), None)
    start_pot = int(ante.data["pot"]) - n * int(ante.data["each"]) if ante is not None else 0
    game = Speculator(list(view["names"]), view["options"], dealer=dealer, pot=max(0, start_pot))
    game.deal_no = view["deal_no"] - 1
    game.start_deal(GivenDecks(decks))
    for event in events:
        action = _action(event, game)
        if action is not None:
            seat, act = action
            game.apply(seat, act)
    game.balances = list(view["balances"])
    mine = game.view(view["viewer"])
    for key in ("trick", "up", "best", "holder", "bids", "ready", "window", "redeals", "pot", "reveals"):
        if mine[key] != view[key]:
            return None
    return game


def _deck(segment: list[tuple[int, Card]], eldest: int, n: int, size: int, rng: random.Random) -> list[Card]:
    """A (re)deal's deck with its revealed cards where they were dealt, the rest shuffled."""
    order: list[Card | None] = [None] * size
    count = [0] * n
    for seat, card in segment:
        order[(seat - eldest) % n + n * count[seat]] = card
        count[seat] += 1
    rest = [c for c in deck(size) if c not in {card for _, card in segment}]
    rng.shuffle(rest)
    it = iter(rest)
    return [c if c is not None else next(it) for c in order]


def _action(event: Event, game: Speculator) -> tuple[int, Action] | None:
    """The action that made a public event (seat, action); None for the game's own events."""
    kind, seat, data = event.kind, event.seat, event.data
    if seat is None:
        return None
    if kind == "reveal":
        return seat, REVEAL
    if kind == "bid":
        return seat, Action("bid", (int(data["price"]),))
    if kind == "sell":
        return seat, Action("sell", (int(data["price"]),) if "price" in data else ())
    if kind == "trade":
        return int(data["seller"]), Action("accept", (game.names[seat],))
    if kind == "ready":
        return seat, READY
    return None


def candidates(view: View, legal: Sequence[Action], ruled: Action | None) -> list[Action]:
    """The actions weighed at a window decision (module docstring), the rule bot's first."""
    me, bids = view["viewer"], view["bids"]
    out: list[Action] = [ruled if ruled is not None else WAIT]
    more = [WAIT, READY]
    if me == view["holder"]:
        if bids:
            buyer = max(bids.items(), key=lambda b: (b[1], -b[0]))[0]
            more.append(Action("accept", (view["names"][buyer],)))
    else:
        worth = hold_chance(view) * view["pot"]
        top = max(bids.values(), default=0)
        for share in SHARES:
            price = int(worth * share)
            if price > top and price >= view["options"]["minPrice"]:
                more.append(Action("bid", (price,)))
    for action in more:
        if at_a_loss(view, action):
            continue  # it cannot gain: never weighed (``at_a_loss``)
        if action not in out and (action == WAIT or action in legal):
            out.append(action)
    return out


def at_a_loss(view: View, action: Action) -> bool:
    """A trade that cannot gain in expectation, whoever the others are: a bid at or over the best
    card's worth, or accepting a bid under it.

    The worth (``hold_chance`` × pot) is what holding the card to the last reveal brings, exactly —
    nobody sees a face-down card, so the reveals to come are a uniform draw for every seat (§6.4).
    ``speculator_judge.py`` measured it on the rule bots' deals: every trade they would take part in loses
    (the calibration agrees with the realized pots).  The playouts' rule bots never pay over the worth
    later, so within the search's own model such a trade can only look good by noise: it is not weighed."""
    if action.verb == "bid":
        return action.args[0] >= hold_chance(view) * view["pot"]
    if action.verb == "accept":
        bids, names = view["bids"], list(view["names"])
        return bids.get(names.index(action.args[0]), 0) < hold_chance(view) * view["pot"]
    return False


def playout(frozen: bytes, seat: int, action: Action, seed: int) -> float:
    """``action`` (WAIT: none), then the deal played out by rule bots; the seat's money from here."""
    from engine.bots import make_bot

    game: Speculator = pickle.loads(frozen)
    before = game.balances[seat]
    if action != WAIT:
        game.apply(seat, action)
    rng = random.Random(seed)
    bots: list[Bot] = [make_bot("speculator", "rule", seed + i) for i in range(game.n)]
    for _ in range(ROUNDS):
        if not game.in_deal:
            break
        if not game.window_open:
            game.apply(game.revealer, REVEAL)
            continue
        seats = list(game.to_act())
        rng.shuffle(seats)
        acted = False
        for other in seats:
            if not game.window_open:
                break
            legal = game.legal_actions(other)
            if not legal:
                continue
            choice = bots[other].choose(game.view(other), legal)
            if choice is not None:
                game.apply(other, choice)
                acted = True
        if not acted and game.window_open:
            game.apply(game.revealer, REVEAL)  # the clock would close it; a record's next reveal does
    return float(game.balances[seat] - before)


def best(rows: list[dict[Action, float]], anchor: Action, pot: int, margin: Margin | None = None) -> Action:
    """The candidate that beat ``anchor`` by ``margin`` over the same worlds, else it.

    The spread is taken as at least ``SPREAD`` of the pot: a card's fate is a coin of the reveals to
    come, so four worlds that all agree (a beater came in each) say little, not that it is certain."""
    margin = margin if margin is not None else Margin()
    return margin.choose(rows, anchor, rows[0] if rows else (), floor=(SPREAD * pot) ** 2)
