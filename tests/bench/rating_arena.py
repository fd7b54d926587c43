"""The ratings' arena: do skill ratings rank the bots as their strength does?

Random, rule and search bots sit in every seat in turn (``tests/ratingkit.py``), every deal is
rated as the club rates it (``engine.ratings``), and the bench prints each bot's rating, the gaps
between the kinds, and whether the order is search > rule > random.  Спекулянт is left out unless
asked for: no bot can beat its rule bots (they never trade among themselves), so there the
search and rule bots should come out level.

Whether a kind really is stronger is a question about money, not ratings: each line also says the
money each kind won a deal, and the paired differences search − rule and rule − random, with a 95 %
interval; and how often one kind finished above the other (``ahead_…``, +1 … −1), which is all a
rating sees of a deal.  A session's deals share a pot and a seating, so the interval treats sessions, not deals,
as the independent draws.  ``--taus`` rates the very same deals again with other drifts (TAU = MU/N):
one line per drift, so a drift is judged on identical luck; ``twins_…`` says how far apart two equally
strong bots of one kind stood in the later deals, which is luck alone; ``by_session`` rates each
session's summed money once instead of each deal.  ``--designs`` rates them with other ways to rate a
deal (``rating_designs``: by places, tempered by the stake, by the money between each pair), and
``--boot N`` asks how often each would order the bots if the sessions had fallen otherwise: N
resamples of the sessions (with replacement, the order shuffled), and, as the ceiling, how often the
bots' own money a deal is in order in the same resamples.

    python tests/bench/rating_arena.py --deals 600 --iterations 8 [--only kopilka] [--out FILE]
        [--taus 300,3000] [--deals-out FILE] [--from-deals FILE] [--until 21:30]
        [--designs places,stake,margin] [--boot 200]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo's engine/, not tests/engine/

from ratingkit import CASES, Case, RatedArena, play_rated  # noqa: E402
from rating_designs import DESIGNS, Design, replay  # noqa: E402

from engine.games import get_game  # noqa: E402
from engine.ratings import MU, TAU, RatedDeal, rate_deal, rating_key, replay_all, table_of  # noqa: E402

KINDS = ("search", "rule", "random")
Z95 = 1.96


def kind_of(who: str) -> str:
    return who.rstrip("0123456789")


def per_session_mean(values: Sequence[float], sessions: Sequence[int]) -> list[float]:
    """The mean of ``values`` (one a deal) and its 95 % half-width, sessions as the independent draws.

    A ratio estimator over clusters: mean = Σy / Σn, its variance from the sessions' residuals."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for value, session in zip(values, sessions):
        sums[session] = sums.get(session, 0.0) + value
        counts[session] = counts.get(session, 0) + 1
    total = sum(counts.values())
    if not total:
        return [0.0, 0.0]
    mean = sum(sums.values()) / total
    clusters = len(sums)
    if clusters < 2:
        return [round(mean, 3), math.inf]
    spread = sum((sums[s] - mean * counts[s]) ** 2 for s in sums)
    half = Z95 * math.sqrt(clusters / (clusters - 1) * spread) / total
    return [round(mean, 3), round(half, 3)]


def ahead(money: Mapping[str, int], better: str, worse: str) -> float:
    """How often a bot of kind ``better`` finished above one of kind ``worse`` in a deal, less how often
    below (+1 … −1, the mean over such pairs): the order a rating learns from, whatever the sums."""
    pairs = [(m, n) for w, m in money.items() if kind_of(w) == better for v, n in money.items() if kind_of(v) == worse]
    return sum((m > n) - (m < n) for m, n in pairs) / len(pairs)


def money_figures(deals: Sequence[RatedDeal], sessions: Sequence[int]) -> dict[str, Any]:
    """Money won a deal by each kind (the mean of its bots) and the paired gaps between kinds, ± 95 %."""
    per_kind: dict[str, list[float]] = {k: [] for k in KINDS}
    for deal in deals:
        grouped: dict[str, list[int]] = {}
        for who, money in deal.money.items():
            grouped.setdefault(kind_of(who), []).append(money)
        for kind in KINDS:
            per_kind[kind].append(sum(grouped[kind]) / len(grouped[kind]))
    gap_sr = [s - r for s, r in zip(per_kind["search"], per_kind["rule"])]
    gap_rr = [r - x for r, x in zip(per_kind["rule"], per_kind["random"])]
    search_rule = per_session_mean(gap_sr, sessions)
    return {
        "money": {k: per_session_mean(v, sessions) for k, v in per_kind.items()},
        "money_by_bot": {w: per_session_mean([d.money[w] for d in deals], sessions) for w in sorted(deals[0].money)},
        "money_search_rule": search_rule, "money_rule_random": per_session_mean(gap_rr, sessions),
        "ahead_search_rule": per_session_mean([ahead(d.money, "search", "rule") for d in deals], sessions),
        "ahead_rule_random": per_session_mean([ahead(d.money, "rule", "random") for d in deals], sessions),
        "search_beats_rule": verdict(search_rule),
    }


def verdict(interval: Sequence[float]) -> str:
    """``yes`` when the whole 95 % interval is above nothing, ``no`` when below, else ``unsure``."""
    mean, half = interval
    return "yes" if mean - half > 0 else "no" if mean + half < 0 else "unsure"


def rating_figures(ratings: Mapping[str, Any]) -> dict[str, Any]:
    """Each bot's shown rating, mean and σ, the gaps between kinds, and whether they are in order."""
    by_kind: dict[str, list[int]] = {}
    for who, rating in ratings.items():
        by_kind.setdefault(kind_of(who), []).append(rating.shown)
    lows = {k: min(v) for k, v in by_kind.items()}
    highs = {k: max(v) for k, v in by_kind.items()}
    return {
        "ratings": {w: [r.shown, round(r.mu, 3), round(r.sigma, 3)] for w, r in table_of(ratings, 99)},
        "gap_search_rule": lows["search"] - highs["rule"], "gap_rule_random": lows["rule"] - highs["random"],
        "search_rule_random": lows["search"] > highs["rule"] and lows["rule"] > highs["random"],
    }


def club(current: Mapping[str, Any], money: Mapping[str, int], tau: float, unit: int) -> dict[str, Any]:
    """The club's own way (``engine.ratings.rate_deal``), in the designs' shape."""
    return rate_deal(current, money, tau)


def twins(deals: Sequence[RatedDeal], tau: float, design: Design = club, unit: int = 1) -> dict[str, Any]:
    """How far apart two bots of one kind stand (mean gap, by rms and range) over the last two thirds of
    the deals: they are equally strong, so this is what luck alone does to a rating at this drift."""
    names = sorted(deals[0].money) if deals else []
    pairs = [(a, b) for a in names for b in names if a < b and kind_of(a) == kind_of(b)]
    if not pairs:
        return {}
    first, second = pairs[0]
    book: dict[str, Any] = {}
    gaps: list[float] = []
    for n, deal in enumerate(deals):
        book.update(design(book, deal.money, tau, unit))
        if n >= len(deals) // 3 and first in book and second in book:
            gaps.append(book[first].mu - book[second].mu)
    if not gaps:
        return {}
    rms = math.sqrt(sum(g * g for g in gaps) / len(gaps))
    return {"twins": f"{first}-{second}", "twins_mu_rms": round(rms, 3),
            "twins_mu_range": [round(min(gaps), 3), round(max(gaps), 3)]}


def by_session(deals: Sequence[RatedDeal], sessions: Sequence[int]) -> list[RatedDeal]:
    """One rated result a session, its money the session's sum: an edge in the size of wins, which a
    deal's places do not show, shows in a session's places."""
    sums: dict[int, dict[str, int]] = {}
    for deal, session in zip(deals, sessions):
        total = sums.setdefault(session, {})
        for who, money in deal.money.items():
            total[who] = total.get(who, 0) + money
    return [RatedDeal(deals[0].key, sums[s]) for s in sorted(sums)]


def in_order(values: Mapping[str, float]) -> bool:
    """The lowest search bot above every rule bot, and the lowest rule bot above the random bot."""
    by_kind: dict[str, list[float]] = {}
    for who, value in values.items():
        by_kind.setdefault(kind_of(who), []).append(value)
    return min(by_kind["search"]) > max(by_kind["rule"]) and min(by_kind["rule"]) > max(by_kind["random"])


def resamples(sessions: Sequence[int], count: int, seed: int) -> list[list[int]]:
    """``count`` draws of as many sessions as were played, with replacement, in a shuffled order."""
    rng = random.Random(seed)
    keys = sorted(set(sessions))
    return [[rng.choice(keys) for _ in keys] for _ in range(count)]


def boot_money(deals: Sequence[RatedDeal], sessions: Sequence[int], draws: list[list[int]]) -> dict[str, Any]:
    """How often the bots' own money a deal is in order over the resamples: what any rating can hope for."""
    by_session: dict[int, list[RatedDeal]] = {}
    for deal, session in zip(deals, sessions):
        by_session.setdefault(session, []).append(deal)
    ordered = 0
    for draw in draws:
        totals: dict[str, float] = {}
        for deal in (d for s in draw for d in by_session[s]):
            for who, money in deal.money.items():
                totals[who] = totals.get(who, 0) + money
        ordered += in_order(totals)
    return {"boot": len(draws), "boot_money_ordered": ordered}


def boot_design(deals: Sequence[RatedDeal], sessions: Sequence[int], draws: list[list[int]], design: Design,
                tau: float, unit: int) -> dict[str, Any]:
    """How often a design orders the bots over the resamples, and its search − rule gap (median, 5 %, 95 %)."""
    by_session: dict[int, list[RatedDeal]] = {}
    for deal, session in zip(deals, sessions):
        by_session.setdefault(session, []).append(deal)
    ordered, gaps = 0, []
    for draw in draws:
        book = replay([d for s in draw for d in by_session[s]], design, tau, unit)
        (ratings,) = book.values()
        figures = rating_figures(ratings)
        ordered += figures["search_rule_random"]
        gaps.append(figures["gap_search_rule"])
    gaps.sort()
    n = len(gaps)
    return {"boot_ordered": ordered, "boot_gap_search_rule": [gaps[n // 2], gaps[n // 20], gaps[n - 1 - n // 20]]}


def unit_of(case: Case) -> int:
    """The game's stake under the case's options: money is weighed in stakes."""
    cls = get_game(case.game)
    return cls.stake(cls.make_options(case.options))


def save_deals(path: str, label: str, arena: RatedArena) -> None:
    with open(path, "a", encoding="utf-8") as out:
        for deal, session in zip(arena.deals, arena.sessions):
            out.write(json.dumps({"case": label, "session": session, "money": deal.money}, ensure_ascii=False) + "\n")


def load_deals(path: str, label: str, key: str) -> tuple[list[RatedDeal], list[int]]:
    deals: list[RatedDeal] = []
    sessions: list[int] = []
    with open(path, encoding="utf-8") as source:
        for line in source:
            row = json.loads(line)
            if row["case"] == label:
                deals.append(RatedDeal(key, row["money"]))
                sessions.append(int(row["session"]))
    return deals, sessions


def deadline(hhmm: str | None) -> Any:
    """A stop test for ``play_rated``: true once the UTC clock has passed ``hhmm`` today."""
    if not hhmm:
        return None
    hour, minute = (int(x) for x in hhmm.split(":"))
    now = datetime.now(timezone.utc)
    end = now.replace(hour=hour, minute=minute, second=0, microsecond=0).timestamp()
    if end < now.timestamp() - 12 * 3600:  # a time past midnight is tomorrow's
        end += 24 * 3600
    return lambda: time.time() >= end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=8, help="the search bot's imagined deals a decision")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--only", help="one case's label (e.g. 'stukolka a', kopilka)")
    parser.add_argument("--out", help="append each case's figures to this JSON-lines file")
    parser.add_argument("--taus", default=str(round(MU / TAU)),
                        help="drifts to rate with, as N in TAU = MU/N (comma-separated; the club's by default)")
    parser.add_argument("--deals-out", help="append every deal's money and session to this JSON-lines file")
    parser.add_argument("--from-deals", help="rate the deals of this file (from --deals-out) instead of playing")
    parser.add_argument("--until", help="UTC HH:MM: stop playing a case at the first session end after it")
    parser.add_argument("--designs", default="club",
                        help=f"ways to rate a deal: club (the club's), {', '.join(DESIGNS)}")
    parser.add_argument("--boot", type=int, default=0, help="resamples of the sessions (0: none)")
    args = parser.parse_args()
    cases = [c for c in CASES if (c.label == args.only if args.only else c.game != "speculator")]
    for case in cases:
        started = time.process_time()
        key = rating_key(case.game, case.options)
        if args.from_deals:
            deals, sessions = load_deals(args.from_deals, case.label, key)
            if not deals:
                continue
            recompute_equal = None
        else:
            arena = play_rated(case, KINDS, deals=args.deals, seed=args.seed, iterations=args.iterations,
                               stop=deadline(args.until))
            deals, sessions = arena.deals, arena.sessions
            recompute_equal = replay_all(deals)[key] == arena.ratings
            if args.deals_out:
                save_deals(args.deals_out, case.label, arena)
        cpu = round(time.process_time() - started, 1)
        money = money_figures(deals, sessions)
        unit = unit_of(case)
        draws = resamples(sessions, args.boot, args.seed) if args.boot else []
        money_boot = boot_money(deals, sessions, draws) if draws else {}
        for name in args.designs.split(","):
            design = club if name == "club" else DESIGNS[name]
            for n, divisor in enumerate(int(n) for n in args.taus.split(",")):
                tau = MU / divisor
                ratings = replay(deals, design, tau, unit)[key]
                line = {
                    "case": case.label, "design": name, "deals": len(deals), "sessions": len(set(sessions)),
                    "iterations": args.iterations, "seed": args.seed, "tau": f"MU/{divisor}", "unit": unit,
                    **rating_figures(ratings), **twins(deals, tau, design, unit), **money,
                    "by_session": rating_figures(replay_all(by_session(deals, sessions), tau=tau)[key]),
                    **(money_boot | boot_design(deals, sessions, draws, design, tau, unit) if draws and not n else {}),
                    "recompute_equal": recompute_equal,
                    "cpu_s": cpu, "load": [round(x, 2) for x in os.getloadavg()],
                }
                print(json.dumps(line, ensure_ascii=False), flush=True)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as out:
                        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
