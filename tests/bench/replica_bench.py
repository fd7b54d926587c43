"""Issue 15: what a replica's read of one change costs, read on (incremental) vs read from the start.

Run:  python tests/bench/replica_bench.py [--deals 12]

A throw-away PostgreSQL (tests/pgkit.py); the owner is a club on one connection, the replica a bare
table read through another (as tests/store/test_replica.py).  After each change the owner makes,
``Replica.sync`` reads it (the loop's cost per journal notice on a node that does not own the
table); every 10th change a fresh replica reads the whole session's journal from its start (what
every read cost before: a full replay per change).  Figures by the journal's length so far, with
the load printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[1]))

from engine.table.club import Club  # noqa: E402
from engine.table.replica import Replica  # noqa: E402
from engine.store.postgres import PgStore  # noqa: E402
from engine.table.owner import Table  # noqa: E402
from pgkit import PgCluster, Unavailable  # noqa: E402

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000 if ordered else 0.0


def bench(url: str, deals: int) -> None:
    owner_store, reader = PgStore(url), PgStore(url)
    try:
        club = Club([{"game": "stukolka"}], store=owner_store, now=time.monotonic(), seed=3)
        table = club.tables[1]
        copy = Table(1, "stukolka", None, 4)
        replica = Replica(reader, copy)
        replica.prime(time.monotonic())
        for name in NAMES:
            owner_store.create_account(name, grant=10_000_000)
            club.sit(name, 1)
            replica.sync(time.monotonic())
        rng = random.Random(5)
        done, changes = 0, 0
        on: dict[int, list[float]] = {}
        full: dict[int, list[float]] = {}
        while done < deals:
            game = table.game
            if game is None or not game.in_deal:
                table.start(next(n for n in NAMES if n not in table.ready), time.monotonic())
                was = False
            else:
                seat = game.to_act()[0]
                table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), time.monotonic())
                was = True
            changes += 1
            length = len(owner_store.journal(1))
            band = length // 100 * 100
            began = time.perf_counter()
            replica.sync(time.monotonic())
            on.setdefault(band, []).append(time.perf_counter() - began)
            if changes % 10 == 0:
                began = time.perf_counter()
                Replica(reader, Table(1, "stukolka", None, 4)).prime(time.monotonic())
                full.setdefault(band, []).append(time.perf_counter() - began)
            if was and not table.in_deal():
                done += 1
        print(f"replica bench: {deals} deals of Стуколка, {changes} changes, {replica.syncs} reads, "
              f"{replica.rebuilds} from the start; {load()}")
        print("  journal entries   read on p50/p99 ms (n)     read from the start p50/p99 ms (n)")
        for band in sorted(on):
            f = full.get(band, [])
            print(f"  {band:5d}–{band + 99:<5d}      {pct(on[band], .5):6.2f} / {pct(on[band], .99):6.2f} "
                  f"({len(on[band]):3d})      {pct(f, .5):7.2f} / {pct(f, .99):7.2f} ({len(f):3d})")
        everything = [t for ts in on.values() for t in ts]
        print(f"  all reads on: mean {statistics.mean(everything) * 1000:.2f} ms; {load()}")
    finally:
        owner_store.close()
        reader.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    args = parser.parse_args()
    cluster = PgCluster()
    try:
        cluster.start()
    except Unavailable as err:
        print(f"replica bench: skipped, {err}")
        return 0
    try:
        bench(cluster.url("replica"), args.deals)
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
