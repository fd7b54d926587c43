"""Tuning the search bot's decision margin (issue 19) on the same decisions, judged by the true deal.

    python tests/bench/margin_bench.py --only "stukolka a" --deals 300 --worlds 32 --seed 7

Why: the paired bench (bot_bench.py --search) differs from 0 only where the search bot leaves the rule
bot's choice, and a session's money is so noisy that a few hundred deals cannot tell one margin from
another.  Here a search bot plays the rule bot's moves (so the deals are the rule bot's) while, at
every decision with a choice, it searches ``--worlds`` imagined worlds and keeps each world's row
(candidate → result, and the world's weight); then every legal candidate is played out once on the
*real* deal with rule bots (Стуколка's rule bot is a pure function of its view: one playout is the
candidate's exact worth under the rules' continuation).  For each margin (k standard errors over n
worlds) and each number of worlds w ≤ ``--worlds`` (the first w rows) the choice it would make is
replayed offline, and its gain is the true worth of that choice less the rule bot's: kopecks per deal
(± 95 % over sessions), how often it leaves the rules, and how often a departure is right.
An oracle's figure, not the measurement: it ignores that a departure changes the deals after it and
that the bot searches again at its next move.  Tune on seeds other than the final measurement's.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot_bench import CASES, session_over  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.bots.arena import Arena  # noqa: E402
from engine.bots.margin import Margin  # noqa: E402
from engine.bots.search import SearchBot  # noqa: E402
from engine.game import Game, ShuffledDecks  # noqa: E402
from engine.games import get_game  # noqa: E402

NEVER = Margin(math.inf, 2)
"""The margin of the probing bot itself: it never leaves the rule bot's choice (the rules' deals)."""


class Probe(SearchBot):
    """Searches every decision, records the evidence and the real deal's worth of each candidate,
    and plays the rule bot's choice."""

    real: Game
    records: list[dict[str, Any]]
    session = 0

    def _search(self, view, legal, ruled=None):
        self.last_rows = None
        chosen = super()._search(view, legal, ruled)
        rows = self.last_rows
        if chosen is None or ruled is None or not rows:
            return chosen
        seat = view["viewer"]
        frozen = pickle.dumps(self.real, pickle.HIGHEST_PROTOCOL)
        deal = {a: self._playout(frozen, seat, a, 0) for a in legal}
        whole = pickle.dumps((self.real, self.decks), pickle.HIGHEST_PROTOCOL)
        truth = {a: session_playout(whole, seat, a) for a in legal}
        self.records.append({"session": self.session, "rows": rows, "weights": self.last_weights,
                             "ruled": ruled, "truth": truth, "deal": deal, "phase": view.get("phase")})
        return ruled  # the rule bot's deals, whatever the search found


def session_playout(frozen: bytes, seat: int, action: Any) -> float:
    """``action`` on the real deal, then the rest of the session by rule bots on the real decks:
    the seat's session money from here (what the paired bench measures, for this one departure)."""
    game, decks = pickle.loads(frozen)
    before = game.balances[seat]
    game.apply(seat, action)
    bots = [make_bot(game.name, "rule", i) for i in range(game.n)]
    for _ in range(400):
        while game.in_deal:
            mover = game.to_act()[0]
            legal = game.legal_actions(mover)
            choice = bots[mover].choose(game.view(mover), legal)
            game.apply(mover, choice if choice is not None else legal[-1])
        if game.is_over():
            break
        game.start_deal(decks)
    return float(game.balances[seat] - before)


def keep_rows(bot_cls: type[SearchBot]) -> None:
    """Let the probe read a search's rows and weights (the margin's evidence) after ``_search``."""
    original = Margin.choose

    def choose(self, rows, anchor, candidates, weights=None, floor=0.0):
        probe = choose.current
        if probe is not None:
            probe.last_rows, probe.last_weights = [dict(r) for r in rows], list(weights or [1.0] * len(rows))
        return original(self, rows, anchor, candidates, weights, floor)

    choose.current = None  # type: ignore[attr-defined]
    Margin.choose = choose  # type: ignore[method-assign]
    bot_cls.hook = choose  # type: ignore[attr-defined]


def collect(label: str, deals: int, seed: int, worlds: int, pot_share: bool = True) -> tuple[list[dict[str, Any]], list[int], float]:
    """The rule bot's sessions with a probe in the moving seat: the records, deals per session, CPU s."""
    case = next(c for c in CASES if c.label == label)
    cls = get_game(case.game)
    names = [f"P{i}" for i in range(case.players)]
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    counts: list[int] = []
    played = session = 0
    cpu = time.process_time()
    while played < deals:
        seat = session % case.players
        seeds = [rng.randrange(2**32) for _ in range(case.players)]
        bots: list[Any] = [make_bot(case.game, "rule", seeds[s]) for s in range(case.players)]
        game = cls(names, case.options, dealer=rng.randrange(case.players))
        probe = Probe(case.game, seeds[seat], budget=None, iterations=worlds, margin=NEVER)
        probe.real, probe.records, probe.session = game, records, session
        probe.pot_share = pot_share
        Probe.hook.current = probe  # type: ignore[attr-defined]
        bots[seat] = probe
        arena = Arena(game, bots, rng=random.Random(rng.randrange(2**32)))
        decks = ShuffledDecks(cls.deck_size, rng.randrange(2**63))
        probe.decks = decks
        count = 0
        while True:
            arena.play_deal(decks)
            count += 1
            if session_over(game, case, count):
                break
        counts.append(count)
        played += count
        session += 1
    return records, counts, time.process_time() - cpu


def judge(records: list[dict[str, Any]], counts: list[int], margin: Margin, worlds: int,
          key: str = "truth") -> tuple[float, float, float, float]:
    """Gain a deal (± 95 % over sessions), % of decisions leaving the rules, % of departures right;
    ``key`` "truth": by the session's money, "deal": by the search's own measure of the real deal."""
    per_session = [0.0] * len(counts)
    left = right = 0
    for r in records:
        rows, weights = r["rows"][:worlds], r["weights"][:worlds]
        choice = margin.choose(rows, r["ruled"], list(r["truth"]), weights)
        if choice != r["ruled"]:
            gain = r[key][choice] - r[key][r["ruled"]]
            per_session[r["session"]] += gain
            left += 1
            right += gain > 0
    k = len(counts)
    ratio = sum(per_session) / sum(counts)
    var = sum((x - ratio * d) ** 2 for x, d in zip(per_session, counts)) / max(1, k - 1)
    half = 1.96 * math.sqrt(var / k) / (sum(counts) / k)
    return ratio, half, 100 * left / max(1, len(records)), 100 * right / max(1, left)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="stukolka a", help="a bot_bench line's label (stukolka a)")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worlds", type=int, default=32, help="worlds searched a decision (rows kept)")
    parser.add_argument("--k", default="0,0.5,1,1.5,2,2.5,3,4", help="margins to judge, comma-separated")
    parser.add_argument("--n", default="2,4,8", help="least worlds to judge, comma-separated")
    parser.add_argument("--no-pot-share", action="store_true", help="search by the balance alone")
    args = parser.parse_args()
    keep_rows(Probe)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    records, counts, cpu = collect(args.only, args.deals, args.seed, args.worlds, not args.no_pot_share)
    print(f"{args.only}: {sum(counts)} deals, {len(counts)} sessions, seed {args.seed}, {len(records)} decisions"
          f" searched at {args.worlds} worlds ({cpu:.0f} s CPU); load {load} → "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'worlds':>6} {'k':>5} {'n':>3} {'session gain/deal':>18} {'left%':>6} {'right%':>6}"
          f" {'the deal by the search measure':>30}")
    sizes = [w for w in (4, 8, 16, 32, 64) if w <= args.worlds]
    for w in sizes:
        for n in (int(x) for x in args.n.split(",")):
            if n > w:
                continue
            for k in (float(x) for x in args.k.split(",")):
                gain, half, left, right = judge(records, counts, Margin(k, n), w)
                d_gain, d_half, _, d_right = judge(records, counts, Margin(k, n), w, "deal")
                print(f"{w:>6} {k:>5g} {n:>3} {f'{gain:+.2f} ± {half:.2f}':>18} {left:>6.1f} {right:>6.1f}"
                      f" {f'{d_gain:+.2f} ± {d_half:.2f}':>22} {d_right:>6.1f}", flush=True)
    by_phase(records, Margin(1.0, 2), min(4, args.worlds))


def by_phase(records: list[dict[str, Any]], margin: Margin, worlds: int) -> None:
    """Where the departures are (k=1 over 2+ worlds, the earlier margin): by phase and the action taken."""
    rows: dict[str, list[float]] = {}
    for r in records:
        choice = margin.choose(r["rows"][:worlds], r["ruled"], list(r["truth"]), r["weights"][:worlds])
        if choice != r["ruled"]:
            key = f"{r['phase']}: {r['ruled'].verb} → {choice.verb}"
            rows.setdefault(key, []).append(r["truth"][choice] - r["truth"][r["ruled"]])
    print(f"departures at k {margin.k:g}, {margin.min_worlds}+ of {worlds} worlds, by phase (session gain each):")
    for key, gains in sorted(rows.items(), key=lambda kv: -len(kv[1])):
        print(f"  {key:<28} {len(gains):>5}  mean {sum(gains) / len(gains):+8.2f}"
              f"  right {100 * sum(g > 0 for g in gains) / len(gains):5.1f}%"
              f"  wrong {100 * sum(g < 0 for g in gains) / len(gains):5.1f}%")


if __name__ == "__main__":
    main()
