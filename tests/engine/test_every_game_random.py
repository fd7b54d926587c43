"""One random simulation over every registered game, variant and player count (issue 14 step 3).

The invariants every game shares, checked after every action of seeded random legal play:
every card is in exactly one place (``places()``); money is conserved (balances + pot);
legal actions are offered exactly to the seats ``to_act`` names, and nobody is to act only
when the deal is over; no view (after each of a deal's first actions, then sampled) shows a card private to another seat (a place ``…:k`` of seat
k: hand, own discards) unless it is public (in the spectator's view or told by an event), and
the spectator's view shows a private card only once an event has told it; a trick game's view
names the card winning the trick so far (``best``, one of the trick's cards, None for no trick); a record of the
session (cut mid-deal too) rebuilds the same state, and ``replay`` ends with the same money.
A game registered later is covered without a line here.  The per-game random tests keep what
only their game knows (its scoring, its phases, its clock).
"""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from engine.cards import Card
from engine.game import ADMIN, SPECTATOR, Game, ShuffledDecks
from engine.games import registry
from engine.record import rebuild, record_of, replay
from invariants import assert_shared
from viewscan import cards_in

DEALS = 6
MAX_ACTIONS = 5_000  # per deal: a game that never ends its deal fails instead of hanging
VIEWS_EVERY = 50  # views after each of a deal's first 50 actions, then every 50th (a long trading deal)
CLOCK_KEYS = {"clock", "live_clock", "deadline"}


def _configs() -> list[tuple[str, dict[str, Any], int]]:
    out = []
    for name, cls in registry().items():
        variants = [o for o in cls.options_spec if o.name == "variant"]
        choices = list(getattr(variants[0], "choices", ()) or [None]) if variants else [None]
        for variant in choices:
            options = {} if variant is None else {"variant": variant}
            low, high = cls.player_range(cls.make_options(options))
            for players in sorted({low, (low + high) // 2, high}):
                out.append((name, options, players))
    return out


CONFIGS = _configs()


def _private(places: dict[str, list[Card]]) -> dict[int, set[Card]]:
    """Seat k → the cards in places named ``…:k`` (his hand, his own discards, his tricks)."""
    out: dict[int, set[Card]] = {}
    for key, cards in places.items():
        head, _, tail = key.rpartition(":")
        if head and tail.isdigit():
            out.setdefault(int(tail), set()).update(cards)
    return out


def _check(game: Game, cls: type[Game], start_money: int, told: set[Card], views: bool) -> None:
    assert_shared(game, cls.deck_size, start_money)
    if not views:
        return
    trick = game.view(SPECTATOR).get("trick")
    if trick is not None:  # a trick game names the card winning the trick so far (the felt draws it)
        best = game.view(SPECTATOR).get("best")
        assert (best is None) == (not trick) and (best is None or best in [c for _, c in trick]), (best, trick)
    places = game.places()
    private = _private(places)
    public = cards_in(game.view(SPECTATOR))
    every_private = set().union(*private.values()) if private else set()
    assert public & every_private <= told, f"the spectator sees {sorted(map(str, public & every_private - told))}"
    public |= told
    for viewer in range(len(game.names)):
        others = set().union(*(cards for seat, cards in private.items() if seat != viewer))
        leaked = cards_in(game.view(viewer)) & others - public
        assert not leaked, f"seat {viewer} sees {sorted(map(str, leaked))}"


def _core(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in CLOCK_KEYS}


def _check_record(game: Game) -> None:
    record = record_of(game)
    again = rebuild(record)
    assert _core(again.view(ADMIN)) == _core(game.view(ADMIN)), "the record rebuilds another state"
    status, out = replay(record)
    assert status == 0 and out["ok"], out
    assert out["balances"] == dict(zip(game.names, game.balances))


@pytest.mark.parametrize(("name", "options", "players"), CONFIGS,
                         ids=[f"{n}-{o.get('variant', '')}-{p}" for n, o, p in CONFIGS])
def test_random_play_keeps_the_shared_invariants(name: str, options: dict[str, Any], players: int) -> None:
    cls = registry()[name]
    seed = zlib.crc32(f"{name}{options}{players}".encode())
    rng = random.Random(seed)
    game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
    start_money = sum(game.balances) + game.pot
    decks = ShuffledDecks(cls.deck_size, seed)
    cut_deal, cut_at = rng.randrange(DEALS), rng.randrange(1, 30)
    for deal in range(DEALS):
        if not game.can_start_deal():
            break
        told = cards_in([e.data for e in game.start_deal(decks)])
        for step in range(MAX_ACTIONS):
            _check(game, cls, start_money, told, views=step < VIEWS_EVERY or step % VIEWS_EVERY == 0)
            if not game.in_deal:
                break
            seat = rng.choice(sorted(game.to_act()))
            told |= cards_in([e.data for e in game.apply(seat, rng.choice(game.legal_actions(seat)))])
            if deal == cut_deal and step == cut_at:
                _check_record(game)  # a record cut mid-deal
        else:
            pytest.fail(f"deal {deal + 1} did not end in {MAX_ACTIONS} actions")
    _check_record(game)
