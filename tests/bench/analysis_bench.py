"""Does the analysis rank the players as their strength does?  Random, rule and search bots in known seats.

For each game, sessions are played between a search bot, a rule bot and a random bot (the seating
rotated), each session's record is analysed for every seat (``engine.analysis``, from each seat's own
information), and the bench prints the mean loss per decision of each kind of player with its 95 %
interval, and the CPU time per decision; and one 10-deal Стуколка session's whole analysis time.

    python tests/bench/analysis_bench.py --sessions 20 --budget 24 [--iterations 80] [--only kopilka] [--out FILE]

The search player imagines ``--iterations`` deals a decision, a count rather than the live bot's 0.2 s so
that the machine's load does not change its strength: 80 is about what 0.2 s gives a Стуколка decision on
one idle core (about 50 in Копилка).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The root first: tests/engine (the engine's tests, no __init__) must not shadow the engine package.
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ratingkit import CASES, Case, _bot, identities  # noqa: E402

import engine.analysis  # noqa: E402
from engine.analysis import Analyst, analyse  # noqa: E402
from engine.bots.arena import Arena  # noqa: E402
from engine.bots.search import POT_CARRIED, _points  # noqa: E402
from engine.game import ShuffledDecks  # noqa: E402
from engine.games import get_game  # noqa: E402
from engine.record import Record, record_of  # noqa: E402

SESSION_DEALS = 10
JUDGES = {"rule": "anchored on the rule bot's choice (the search bot's own)",
          "made": "anchored on the action made (a bench variant, not what the club shows)"}


class MadeAnchored(Analyst):
    """A variant judge for the bench: the action made is the anchor the best must clearly beat, as if
    the rule bot had no opinion.  Why: where the rule bot's choice is nearly always the judge's, the
    anchored loss of a rule player is ~0 by construction, and this asks the question without that tie."""

    def judge(self, view, legal, made):  # type: ignore[no-untyped-def]
        rows = super().judge(view, legal, made)
        self.ruled = None
        return rows


def session(case: Case, seating: list[str], rng: random.Random, deals: int,
            iterations: int = 8) -> tuple[Record, list[str], list[float]]:
    """A session's record, its seating, and what each seat won as the search bot counts it: money, the
    carried pot's share and, in the points games, the sheet (they pay only when the game ends)."""
    cls = get_game(case.game)
    names = [f"P{i}" for i in range(case.players)]
    game = cls(names, case.options, dealer=rng.randrange(case.players))
    bots = [_bot(case.game, who, rng.randrange(2**32), None, iterations) for who in seating]
    arena = Arena(game, bots, rng=random.Random(rng.randrange(2**32)))
    decks = ShuffledDecks(cls.deck_size, rng.randrange(2**63))
    for _ in range(deals):
        if not game.can_start_deal():
            break
        arena.play_deal(decks)
    share = (game.pot - game.start_pot) / game.n if game.name in POT_CARRIED else 0.0
    won = [game.balances[s] + _points(game, s) + share for s in range(game.n)]
    return record_of(game), seating, won


def interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run_case(case: Case, sessions: int, budget: int, seed: int, iterations: int = 8, progress: int = 0,
             anchor: str = "rule", skip: int = 0) -> dict:
    """``skip``: the first sessions are played but not analysed, so a run can go on where one stopped;
    the line's ``sums`` (n, Σ, Σ²) add up exactly with the earlier run's."""
    engine.analysis.Analyst = MadeAnchored if anchor == "made" else Analyst  # type: ignore[misc]
    rng = random.Random(seed)
    who = identities(case.players, ("search", "rule", "random"))
    losses: dict[str, list[float]] = {"search": [], "rule": [], "random": []}
    openings: dict[str, list[float]] = {"search": [], "rule": [], "random": []}  # a seat's first of a deal
    won: dict[str, list[float]] = {"search": [], "rule": [], "random": []}
    cpu = 0.0
    judged = 0
    not_judged = {"search": 0, "rule": 0, "random": 0}  # decisions the judge could imagine no deal for
    for s in range(sessions):
        seating = who[s % len(who):] + who[:s % len(who)]
        record, seating, seat_won = session(case, seating, rng, SESSION_DEALS, iterations)
        if s < skip:  # played (the random stream goes on as in a whole run), not analysed
            continue
        for seat, value in enumerate(seat_won):
            won[seating[seat].rstrip("0123456789")].append(value)
        started = time.process_time()
        result = analyse(record, budget=budget, seed=seed + s)
        cpu += time.process_time() - started
        for report in result.seats:
            not_judged[seating[report.seat].rstrip("0123456789")] += report.decisions - report.judged
        first_of_deal: set[tuple[int, int]] = set()
        for decision in result.decisions:
            kind = seating[decision.seat].rstrip("0123456789")
            losses[kind].append(decision.raw_loss)
            if (decision.deal, decision.seat) not in first_of_deal:
                first_of_deal.add((decision.deal, decision.seat))
                openings[kind].append(decision.raw_loss)
            judged += 1
        if progress and (s + 1) % progress == 0 and s + 1 < sessions:
            so_far = {k: [round(x, 3) for x in interval(v)] + [len(v)] for k, v in losses.items()}
            print(json.dumps({"case": case.label, "sessions_so_far": s + 1, "mean_loss": so_far,
                              "won_per_seat_session": {k: [round(x, 2) for x in interval(v)] + [len(v)]
                                                       for k, v in won.items()},
                              "cpu_per_decision_s": round(cpu / max(1, judged), 4),
                              "decisions_not_judged": not_judged, "skipped": skip,
                              "sums": {k: [len(v), round(sum(v), 6), round(sum(x * x for x in v), 6)]
                                       for k, v in losses.items()},
                              "process_cpu_s": round(time.process_time(), 1)}, ensure_ascii=False),
                  file=sys.stderr, flush=True)
    kinds = {k: interval(v) + (len(v),) for k, v in losses.items()}
    ordered = (kinds["random"][0] - kinds["random"][1] > kinds["rule"][0] + kinds["rule"][1]
               and kinds["rule"][0] - kinds["rule"][1] > kinds["search"][0] + kinds["search"][1])
    return {"case": case.label, "sessions": sessions, "budget": budget, "seed": seed, "search_iterations": iterations,
            "judge": JUDGES[anchor],
            "mean_loss": {k: [round(m, 3), round(h, 3), n] for k, (m, h, n) in kinds.items()},
            "random_rule_search_separated": ordered, "skipped": skip,
            "sums": {k: [len(v), round(sum(v), 6), round(sum(x * x for x in v), 6)] for k, v in losses.items()},
            "won_per_seat_session": {k: [round(m, 2), round(h, 2), n] for k, (m, h, n) in
                                     ((k, interval(v) + (len(v),)) for k, v in won.items())},
            "decisions": judged, "decisions_not_judged": not_judged,
            "mean_loss_first_of_deal": {k: [round(m, 3), round(h, 3), n] for k, (m, h, n) in
                                        ((k, interval(v) + (len(v),)) for k, v in openings.items())},
            "cpu_per_decision_s": round(cpu / max(1, judged), 4)}


def ten_deal_stukolka(budget: int, seed: int) -> dict:
    case = Case("stukolka a", "stukolka", 4, {"variant": "a", "remiz_cap": 90})  # no fixed end: ten deals
    rng = random.Random(seed)
    record, _, _ = session(case, identities(case.players, ("rule",)), rng, SESSION_DEALS)
    started = time.process_time()
    result = analyse(record, budget=budget, seed=seed)
    return {"case": "stukolka a, one 10-deal session, every seat", "deals": len(record.deals),
            "decisions": len(result.decisions), "cpu_s": round(time.process_time() - started, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--budget", type=int, default=24)
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--only", help="one case's label")
    parser.add_argument("--iterations", type=int, default=80,
                        help="the search player's imagined deals a decision (80: the live bot's 0.2 s)")
    parser.add_argument("--no-ten", action="store_true", help="skip the one 10-deal Стуколка timing")
    parser.add_argument("--out", help="append the lines to this JSON-lines file")
    parser.add_argument("--anchor", choices=sorted(JUDGES), default="rule",
                        help="the judge's anchor: the rule bot's choice (the analysis's own) or the action made")
    parser.add_argument("--skip", type=int, default=0, help="play the first N sessions without analysing them")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print the figures so far to stderr every N sessions")
    args = parser.parse_args()
    lines = [] if args.no_ten else [ten_deal_stukolka(args.budget, args.seed)]
    for line in lines:
        print(json.dumps(line, ensure_ascii=False), flush=True)
    for case in CASES:
        if (args.only and case.label != args.only) or (not args.only and case.game == "speculator"):
            continue
        line = run_case(case, args.sessions, args.budget, args.seed, args.iterations, args.progress, args.anchor, args.skip)
        print(json.dumps(line, ensure_ascii=False), flush=True)
        lines.append(line)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as out:
            for line in lines:
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
