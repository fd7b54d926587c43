"""The ratings' arena: do skill ratings rank the bots as their strength does?

Random, rule and search bots sit in every seat in turn (``tests/ratingkit.py``), every deal is
rated as the club rates it (``engine.ratings``), and the bench prints each bot's rating, the gaps
between the kinds, and whether the order is search > rule > random.  Спекулянт is left out unless
asked for: no bot can beat its rule bots (they never trade among themselves), so there the
search and rule bots should come out level.

    python tests/bench/rating_arena.py --deals 600 --iterations 8 [--only kopilka] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratingkit import CASES, play_rated  # noqa: E402

from engine.ratings import rating_key, replay_all, table_of  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=8, help="the search bot's imagined deals a decision")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--only", help="one case's label (e.g. 'stukolka a', kopilka)")
    parser.add_argument("--out", help="append each case's figures to this JSON-lines file")
    args = parser.parse_args()
    cases = [c for c in CASES if (c.label == args.only if args.only else c.game != "speculator")]
    for case in cases:
        started = time.process_time()
        arena = play_rated(case, ("search", "rule", "random"), deals=args.deals, seed=args.seed,
                           iterations=args.iterations)
        again = replay_all(arena.deals)[rating_key(case.game, case.options)]
        by_kind: dict[str, list[int]] = {}
        for who, rating in arena.ratings.items():
            by_kind.setdefault(who.rstrip("0123456789"), []).append(rating.shown)
        lows = {k: min(v) for k, v in by_kind.items()}
        highs = {k: max(v) for k, v in by_kind.items()}
        ordered = lows["search"] > highs["rule"] and lows["rule"] > highs["random"]
        line = {
            "case": case.label, "deals": args.deals, "iterations": args.iterations, "seed": args.seed,
            "ratings": {w: [r.shown, round(r.mu, 3), round(r.sigma, 3)] for w, r in table_of(arena.ratings, 99)},
            "gap_search_rule": lows["search"] - highs["rule"], "gap_rule_random": lows["rule"] - highs["random"],
            "search_rule_random": ordered, "recompute_equal": again == arena.ratings,
            "cpu_s": round(time.process_time() - started, 1),
        }
        print(json.dumps(line, ensure_ascii=False), flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
