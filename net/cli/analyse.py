"""``sukno analyse FILE``: every decision of a finished game judged by the search bot, seat by seat."""

from __future__ import annotations

import argparse
import json
import sys
import time

MAX_SEATS = 6


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from engine.analysis import DEFAULT_BUDGET

    parser = sub.add_parser("analyse", aliases=["analyze"],
                            help="judge every decision of a record from each seat's own information")
    parser.add_argument("file", help="a sukno-record/1 file (sukno export ID writes one)")
    parser.add_argument("--seat", type=int, action="append", metavar="N",
                        help="only this seat (0-based, as in the record's players; may repeat)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="DEALS",
                        help=f"imagined deals per decision (default {DEFAULT_BUDGET}); the same budget and seed "
                        "give the same figures")
    parser.add_argument("--seed", type=int, default=1, help="the judge's seed (default 1)")
    parser.add_argument("--json", action="store_true", help="the whole analysis as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.analysis import analyse
    from engine.record import RecordError, load_record
    from tui.analysis import report_lines

    try:
        record = load_record(args.file)
    except RecordError as err:
        print(f"sukno analyse: {args.file}: {err}", file=sys.stderr)
        return 2
    seats = args.seat
    if seats is not None and any(not 0 <= s < len(record.players) for s in seats):
        print(f"sukno analyse: seats are 0–{len(record.players) - 1} in this record", file=sys.stderr)
        return 2
    if not 1 <= args.budget <= 1000:
        print("sukno analyse: --budget is 1–1000 imagined deals a decision", file=sys.stderr)
        return 2
    started = time.process_time()
    try:
        result = analyse(record, seats=seats, budget=args.budget, seed=args.seed)
    except Exception as err:  # a record the rules refuse: said in one line
        print(f"sukno analyse: {args.file}: cannot be replayed: {str(err)[:200]}", file=sys.stderr)
        return 2
    cpu = time.process_time() - started
    if args.json:
        out = result.to_json() | {"cpu_seconds": round(cpu, 3)}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    for line in report_lines(result, "en"):
        print(line)
    judged = sum(s.judged for s in result.seats)
    print(f"({judged} decisions judged in {cpu:.1f} s of CPU, {args.budget} imagined deals each, seed {args.seed})")
    return 0
