"""Soak: a club of two nodes on a PostgreSQL that fails at random, for N minutes.

    python tests/bench/fault_soak.py --minutes 30 [--tables 3] [--seed 1] [--hold 10] [--out FILE]

The club of ``tests/faultkit.py`` (two nodes, tables played by the house's bots and a bot-protocol
player each, an echo probe per node) gets a fault every 20–40 s, chosen at random: PostgreSQL
crash-stopped and restarted, PostgreSQL paused (SIGSTOP) and resumed, the owner of most tables
killed (kill -9) and started again, both at once, a node paused past its lease.  After each the
checks of the fault kit run.  It prints one line per fault and then the totals:

* faults injected, actions acknowledged to the players, actions lost (acknowledged, not in the
  journal: must be 0), tables stuck (no new journal entry within 60 s of the fault's end: must be 0),
  other problems (a journal that does not replay, nodes that disagree, a ledger that does not sum);
* the stall another session saw: each node's echo (a ``tables`` round trip) while the fault lasted,
  p99 and max (target p99 ≤ 100 ms while PostgreSQL is paused or unreachable);
* how long play took to resume after PostgreSQL came back (target ≤ 5 s) and after an owner died
  (target ≤ lease_ttl + 1 s);
* log lines per node per outage (target ≤ 20 over a 60 s outage).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from faultkit import FaultClub, p99, summary  # noqa: E402

KINDS = ("pg_crash", "pg_pause", "owner_kill", "owner_kill_pg_pause", "node_pause")
PG_KINDS = ("pg_crash", "pg_pause", "owner_kill_pg_pause")


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


async def soak(minutes: float, tables: int, seed: int, hold: float, out: Path | None,
               kinds: tuple[str, ...] = KINDS) -> dict:
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="sukno-soak-"))
    club = FaultClub(folder / "club", tables=tables, seed=seed)
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"fault soak: {minutes:g} min, {tables} tables, seed {seed}, hold {hold:g} s, faults {','.join(kinds)}, "
        f"load {load()}")
    await club.start()
    began = time.monotonic()
    stuck = 0
    try:
        while time.monotonic() - began < minutes * 60:
            await asyncio.sleep(rng.uniform(20, 40) - 10)  # the checks after a fault take ~10 s themselves
            if time.monotonic() - began >= minutes * 60:
                break
            kind = rng.choice(kinds)
            result = await club.fault(kind, hold=hold if kind != "node_pause" else club.ttl + 2)
            if result.resumed is None:
                stuck += len(club.tables) - len(getattr(club, "resumed_at", {}))
            say(f"{time.monotonic() - began:7.1f} s {kind:<20} resumed "
                f"{'never' if result.resumed is None else f'{result.resumed:.2f} s'} "
                f"(each {result.each}) lost so far {len(result.lost)} echo {summary(result.stalls)} "
                f"logs {result.log_lines} problems {result.problems[:2]} lost: {[vars(a) for a in result.lost[:2]]} acks {club.acknowledged()} load {load()}")
        await asyncio.sleep(2.0)
        final_lost, final_problems = await asyncio.to_thread(club.check)  # every acknowledgement, the last included
    finally:
        acknowledged = club.acknowledged()
        await club.stop()
        for node in club.nodes:  # what each node logged, to read after a bad figure
            (folder / f"node-{node.name}.log").write_text("".join(node.lines), "utf-8")
        print(f"the nodes' logs: {folder}/node-*.log", flush=True)
    results = club.results
    lost = len(final_lost)  # each fault's check counts every acknowledgement so far: the last one says it all
    pg_stalls = [s for r in results if r.fault in PG_KINDS for s in r.stalls]
    all_stalls = [s for r in results for s in r.stalls]
    pg_resume = [r.resumed for r in results if r.fault in PG_KINDS and r.resumed is not None]
    owner_resume = [r.resumed for r in results if r.fault == "owner_kill" and r.resumed is not None]
    logs = [n for r in results if r.fault in PG_KINDS for n in r.log_lines.values()]
    problems = [p for r in results for p in r.problems] + final_problems
    totals = {
        "minutes": minutes, "tables": tables, "seed": seed, "faults": len(results),
        "by_kind": {k: sum(1 for r in results if r.fault == k) for k in KINDS},
        "acknowledged": acknowledged, "lost": lost, "stuck": stuck, "problems": len(problems),
        "echo_pg_p99_ms": round(p99(pg_stalls) * 1000, 1), "echo_pg_max_ms": round(max(pg_stalls, default=0) * 1000, 1),
        "echo_all_p99_ms": round(p99(all_stalls) * 1000, 1), "echo_all_max_ms": round(max(all_stalls, default=0) * 1000, 1),
        "resume_pg_max_s": round(max(pg_resume, default=0), 2), "resume_pg_p50_s": round(sorted(pg_resume)[len(pg_resume) // 2], 2) if pg_resume else None,
        "resume_owner_max_s": round(max(owner_resume, default=0), 2), "lease_ttl": club.ttl,
        "log_lines_per_node_per_pg_outage_max": max(logs, default=0),
        "log_lines_per_node_per_pg_outage_mean": round(sum(logs) / len(logs), 1) if logs else 0,
        "load_end": load(),
    }
    say("")
    say(f"faults injected        {totals['faults']}  {totals['by_kind']}")
    say(f"actions acknowledged   {acknowledged}")
    say(f"actions lost           {lost}   (target 0)  {[vars(a) for a in final_lost[:5]]}")
    say(f"tables stuck           {stuck}   (target 0)")
    say(f"other problems         {len(problems)}  {problems[:3]}")
    say(f"echo while PostgreSQL paused/unreachable: p99 {totals['echo_pg_p99_ms']} ms, max {totals['echo_pg_max_ms']} ms"
        "   (target p99 ≤ 100 ms)")
    say(f"echo over every fault:  p99 {totals['echo_all_p99_ms']} ms, max {totals['echo_all_max_ms']} ms")
    say(f"resume after PostgreSQL returned: max {totals['resume_pg_max_s']} s, median {totals['resume_pg_p50_s']} s"
        "   (target ≤ 5 s)")
    say(f"resume after an owner died: max {totals['resume_owner_max_s']} s   (target ≤ lease_ttl + 1 = {club.ttl + 1:g} s)")
    say(f"log lines per node per outage: max {totals['log_lines_per_node_per_pg_outage_max']}, "
        f"mean {totals['log_lines_per_node_per_pg_outage_mean']}   (target ≤ 20 over a 60 s outage)")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(lines) + "\n" + json.dumps(totals) + "\n", "utf-8")
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hold", type=float, default=10.0, help="seconds PostgreSQL stays down or paused")
    parser.add_argument("--out", type=Path, help="also write the lines and the totals (JSON) here")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"the faults to choose from, comma-separated (default: all of {', '.join(KINDS)})")
    args = parser.parse_args()
    kinds = tuple(k for k in args.kinds.split(",") if k)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        parser.error(f"unknown fault kinds: {', '.join(unknown) or '(none given)'}")
    totals = asyncio.run(soak(args.minutes, args.tables, args.seed, args.hold, args.out, kinds))
    return 0 if totals["lost"] == 0 and totals["stuck"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
