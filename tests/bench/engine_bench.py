"""Random full Стуколка deals per second per variant, on one core (issue 2's figure).

    python tests/bench/engine_bench.py [--seconds 3] [--sealed] [--calls]

A "deal" is start_deal → random legal actions until the deal is over, with the
session's pot carried between deals, exactly as a table plays it.  The random
player picks with ``random.Random.choice`` over ``legal_actions``; the deck comes
from the seeded ``ShuffledDecks`` (a shuffle per deal is part of the cost); with
``--sealed`` each deal is dealt as a table deals it, from a fresh sealed seed
(``engine.shuffle``, sukno-shuffle/1: seed, seal, deck and its redeals).
Target: ≥ 12,000 deals/s for variant a with 5 players (issue 14; issue 2 asked
5,000).  Time is this process's CPU time (``time.process_time``), so a loaded
machine slows the run less than the wall clock would, but two cores shared by
many processes still cost caches and turbo: the load average is printed with
the figures.  ``--calls`` also counts the function calls a deal of a/5 makes (cProfile over
2,000 deals: every call, and the Python frames among them), a figure load does not change.

Figures (issue 14's second pass; the 2-core machine shared by seven engineers at a load of 11–13,
so the old code and the new ran alternately in the same minutes, 2 s a run): a/5 on 3.11, best of 6,
10,806 → 14,074 deals/s (each pair +23–34 %); 3.12, best of 4, 9,751 → 11,764; 3.13 11,017 → 12,984.
On a quiet machine the old code measured 11,249–12,783.  Calls a deal: 647 → 491, Python frames
among them 334 → 214 (3.11).  Third pass (``__slots__`` on every game, stop 27; load 2.1–2.5): a/5
13,171–17,701 deals/s in all 10 runs over 3.11–3.13; instructions a deal (callgrind, load-free)
3.11 594k → 546k, 3.12 693k → 628k, 3.13 667k → 591k; calls a deal 491 → 481.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.game import ShuffledDecks  # noqa: E402
from engine.games.stukolka import Stukolka  # noqa: E402
from engine.shuffle import Sealed, new_seed  # noqa: E402


class FreshSeals:
    """A table's deck source: each deal a new sealed seed, its redeals from the same one."""

    def __init__(self) -> None:
        self._decks = None

    def deal(self) -> "FreshSeals":
        self._decks = Sealed(new_seed()).decks(52)
        return self

    def next_deck(self) -> list:
        return self._decks.next_deck()

CASES = [
    ("a", 5, {}),
    ("a", 4, {}),
    ("a", 7, {}),
    ("b", 5, {}),
    ("v", 5, {"dark": True, "razrez": True}),
    ("g", 4, {}),
]


def run(variant: str, n: int, options: dict, seconds: float, sealed: bool = False) -> tuple[int, float, int]:
    rng = random.Random(1)
    decks = ShuffledDecks(52, seed=2)
    seals = FreshSeals()
    names = [f"P{i}" for i in range(n)]
    game = Stukolka(names, {"variant": variant, **options})
    deals = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        if deals % 200 == 0:
            if time.process_time() > deadline:
                break
            game = Stukolka(names, {"variant": variant, **options})  # keep sessions (and their logs) short
        game.start_deal(seals.deal() if sealed else decks)
        while game.in_deal:
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            actions += 1
        deals += 1
    return deals, time.process_time() - start, actions


def calls_a_deal(deals: int = 2000) -> tuple[float, float]:
    """Function calls a deal of a/5 (all, and Python frames), under cProfile: load does not change them."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(run_deals, "a", 5, deals)
    stats = pstats.Stats(profile)
    frames = sum(row[1] for where, row in stats.stats.items() if where[0] != "~")  # type: ignore[attr-defined]
    return stats.total_calls / deals, frames / deals  # type: ignore[attr-defined]


def run_deals(variant: str, n: int, deals: int) -> None:
    """``run``'s loop for a fixed number of deals (what ``calls_a_deal`` profiles)."""
    rng = random.Random(1)
    decks = ShuffledDecks(52, seed=2)
    names = [f"P{i}" for i in range(n)]
    game = Stukolka(names, {"variant": variant})
    choice: Callable = rng.choice
    for deal in range(deals):
        if deal % 200 == 0:
            game = Stukolka(names, {"variant": variant})
        game.start_deal(decks)
        while game.in_deal:
            seat = game.to_act()[0]
            game.apply(seat, choice(game.legal_actions(seat)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--sealed", action="store_true", help="deal from fresh sealed seeds, as a table does")
    parser.add_argument("--calls", action="store_true", help="also count the function calls a deal of a/5 makes")
    args = parser.parse_args()
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print("decks:", "sealed (sukno-shuffle/1), a fresh seed per deal" if args.sealed else "ShuffledDecks (random.shuffle)")
    print(f"{'variant':14} {'players':>7} {'deals/s':>9} {'actions/s':>10} {'µs/action':>10}")
    for variant, n, options in CASES:
        deals, elapsed, actions = run(variant, n, options, args.seconds, args.sealed)
        print(f"{variant + ('+dark+razrez' if options else ''):14} {n:>7} {deals / elapsed:>9.0f} "
              f"{actions / elapsed:>10.0f} {1e6 * elapsed / actions:>10.1f}")
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print("target (issue 14): ≥ 12,000 deals/s for variant a with 5 players")
    if args.calls:
        calls, frames = calls_a_deal()
        print(f"calls a deal (a, 5 players; cProfile over 2,000 deals): {calls:.0f}, Python frames among them {frames:.0f}")


if __name__ == "__main__":
    main()
