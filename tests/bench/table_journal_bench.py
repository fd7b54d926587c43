"""How long ``Table.act`` takes with its journal (the integrated path), p50/p99, against no store.

Run it as a script: ``python tests/bench/table_journal_bench.py [--actions N]``.
Four players play Стуколка by random legal moves at one table of a ``Club``
with a fresh SQLite store (``engine.table.keeper``: the action, its money and the
table's state committed before any subscriber hears), and at a table of a
club without a store.  Each timed call is the whole ``Table.act`` (rules +
journal + ledger + commit); ``start`` between deals is timed apart.  A short
pause between actions stands for the server waiting for input (see
``journal_bench.py`` on why a loop that never sleeps measures the scheduler).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.table.club import Club  # noqa: E402
from engine.store.sqlite import SqliteStore  # noqa: E402

NAMES = ("Anna", "Boris", "Vera", "Gleb")
PAUSE = 0.0002


def play(club: Club, actions: int, seed: int) -> tuple[list[float], list[float]]:
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(seed)
    acts: list[float] = []
    starts: list[float] = []
    while len(acts) < actions:
        game = table.game
        if game is None or not game.in_deal:
            for name in NAMES:
                t0 = time.perf_counter()
                table.start(name, now=time.monotonic())
                starts.append(time.perf_counter() - t0)
            continue
        seat = game.to_act()[0]
        text = rng.choice(game.legal_actions(seat)).text()
        t0 = time.perf_counter()
        table.act(game.names[seat], text, now=time.monotonic())
        acts.append(time.perf_counter() - t0)
        time.sleep(PAUSE)
    return acts, starts


def figures(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{label:<34} n={len(ms):<6} p50={statistics.median(ms):.3f} ms  p99={p99:.3f} ms  max={ms[-1]:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--dir", help="folder for the database (default: a temporary one)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.actions} actions of Стуколка by random legal moves")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        store = SqliteStore(Path(folder) / "sukno.db")
        for name in NAMES:
            store.create_account(name, grant=10**9)
        acts, starts = play(Club([{"game": "stukolka"}], store=store, now=0.0), args.actions, 1)
        store.check_ledger()
        print(figures("Table.act, journaled (SQLite)", acts))
        print(figures("Table.start, journaled (SQLite)", starts))
        store.close()
    acts, starts = play(Club([{"game": "stukolka"}], seed=1), args.actions, 1)
    print(figures("Table.act, no store", acts))
    print(figures("Table.start, no store", starts))


if __name__ == "__main__":
    main()
