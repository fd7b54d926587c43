"""How long a journaled action takes: append + commit, p50 and p99 (target p99 ≤ 5 ms).

Run it as a script: ``python tests/bench/journal_bench.py [--actions N]``.
It writes to a fresh database in a temporary folder (the data folder's disk:
pass ``--dir`` to measure another one) and prints one line per durability
setting.  Each action is what the server writes per move: one journal entry
(an ``action`` line) committed; every fourth also posts money (a trick share
or an ante: three ledger entries) in the same commit, and every fortieth is a
new deal with its 32-card deck order.  The default store setting
(``process``: WAL + synchronous=NORMAL) is the one that must meet the target;
``power`` (FULL, an fsync per commit) is measured to show what it would cost.
The CPU time per action is printed too: when other processes keep the CPUs
busy (the load average is printed), the wall-time tail is mostly waiting for
a CPU, not the store.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.cards import deck  # noqa: E402
from engine.store import TableHeader, pot_purse  # noqa: E402
from engine.store_sqlite import SqliteStore  # noqa: E402

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
DECK = [str(c) for c in deck(32)]


def run(folder: Path, durability: str, actions: int) -> list[tuple[float, float]]:
    """Journal ``actions`` moves at one table; (wall, CPU) seconds of each append + commit."""
    store = SqliteStore(folder / f"bench-{durability}.db", durability=durability)
    try:
        for name in PLAYERS:
            store.create_account(name, grant=100_000)
        header = TableHeader("stukolka", {"variant": "b", "ante": 30}, PLAYERS, seats=PLAYERS)
        store.open_table_journal(1, header)
        return [_one(store, i) for i in range(actions)]
    finally:
        store.close()


def _one(store: SqliteStore, i: int) -> tuple[float, float]:
    seat = i % len(PLAYERS)
    cpu = time.thread_time()
    start = time.perf_counter()
    with store.batch():
        if i % 40 == 0:
            store.append(1, "deal", {"deal": i // 40 + 1, "decks": [DECK]})
        else:
            store.append(1, "action", {"seat": seat, "action": "play Q♠"})
        if i % 4 == 0:
            winner, loser = PLAYERS[seat], PLAYERS[(seat + 1) % len(PLAYERS)]
            store.post([(winner, 10), (loser, -30), (pot_purse(1), 20)], table_id=1, deal_no=i // 40 + 1)
    return time.perf_counter() - start, time.thread_time() - cpu


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def summary(durability: str, times: list[tuple[float, float]]) -> str:
    wall = [w * 1000 for w, _ in times]
    cpu = [c * 1000 for _, c in times]
    return (
        f"{durability:8} {len(wall):5} actions  p50 {statistics.median(wall):6.3f} ms  "
        f"p99 {p99(wall):6.3f} ms  max {max(wall):7.3f} ms   "
        f"(CPU p50 {statistics.median(cpu):.3f} ms, p99 {p99(cpu):.3f} ms)"
    )


def load() -> str:
    """Other work on this machine stretches the tail: say how busy it was."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=5000, help="actions per setting (default 5000)")
    parser.add_argument("--power-actions", type=int, default=2000, help="actions with FULL (default 2000)")
    parser.add_argument("--dir", type=Path, help="folder for the database (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"journal bench: append + commit per action, database in {folder}; {load()}")
        process = run(folder, "process", args.actions)
        print(summary("process", process) + "   (default: WAL, synchronous=NORMAL)")
        power = run(folder, "power", args.power_actions)
        print(summary("power", power) + "   (WAL, synchronous=FULL: fsync per commit)")
    worst = p99([w for w, _ in process]) * 1000
    verdict = "meets" if worst <= 5 else "MISSES"
    print(f"default setting {verdict} the target p99 ≤ 5 ms ({worst:.3f} ms); {load()}")
    return 0 if worst <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
