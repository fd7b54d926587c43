"""The cost of a sealed deal (sukno-shuffle/1) against the old ``random.shuffle`` deal, per deck size.

    python tests/bench/shuffle_bench.py [--seconds 1]

Per deck size (32, 36, 48, 52) it times, in CPU µs per deal (``time.process_time``,
so a loaded machine slows the run but not the figure):

- ``random.shuffle``: what a table did before sealing — ``ShuffledDecks.next_deck()``,
  one ``random.Random.shuffle`` of a fresh canonical deck;
- ``deck_for``: the sealed deck alone — the HMAC key of (seed, cut, j), the HMAC
  stream and the unbiased Fisher–Yates (engine.shuffle);
- ``sealed deal``: everything a table does per deal — a fresh seed from
  ``secrets``, its seal (SHA-256), two players' cuts, the deck, and at the end
  the ``fair`` object with the seed in hex.

Target (issue 18): a sealed deal costs < 1 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.game import ShuffledDecks  # noqa: E402
from engine.shuffle import Sealed, deck_for, new_seed  # noqa: E402

TARGET_US = 1000.0


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """CPU µs per call of ``fn``, timed in batches until ``seconds`` of CPU time have passed."""
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            fn()
        calls += 100
        now = time.process_time()
        if now >= deadline:
            return 1e6 * (now - start) / calls


def sealed_deal(size: int) -> Callable[[], object]:
    def deal() -> object:
        sealed = Sealed(new_seed())
        sealed.seal  # shown before the deal
        sealed.cut("Anna", "верба")
        sealed.cut("Boris", "42")
        cards = sealed.decks(size).next_deck()
        return cards, sealed.fair()
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure (default 1)")
    args = parser.parse_args()
    print(f"{'deck':>4} {'random.shuffle µs':>18} {'deck_for µs':>12} {'sealed deal µs':>15} {'× shuffle':>10}")
    worst = 0.0
    for size in (32, 36, 48, 52):
        old = ShuffledDecks(size, seed=1)
        seed = new_seed()
        shuffle_us = per_call(old.next_deck, args.seconds)
        deck_us = per_call(lambda: deck_for(seed, size, "Anna:верба\nBoris:42", 0), args.seconds)
        sealed_us = per_call(sealed_deal(size), args.seconds)
        worst = max(worst, sealed_us)
        print(f"{size:>4} {shuffle_us:>18.1f} {deck_us:>12.1f} {sealed_us:>15.1f} {sealed_us / shuffle_us:>10.1f}")
    verdict = "meets" if worst < TARGET_US else "MISSES"
    print(f"worst sealed deal {worst:.1f} µs: {verdict} the target of < {TARGET_US:.0f} µs per deal")


if __name__ == "__main__":
    main()
