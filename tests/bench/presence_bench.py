"""The presence snapshot on the event loop with N sessions (issue 16 item 2).

Run:  python tests/bench/presence_bench.py [--sessions 1000] [--rounds 50]

``PresenceKeeper.rows`` runs on the loop every beat (2 s) and after arrivals: it looks at every
session.  Sessions here are stand-ins with what a real one has (name, address, key, language,
when it started and last typed); all watch table 1 but 20, seated or in the hall.  Printed: the
first snapshot (every row made), a steady one (nothing changed), and one where ``--typing`` of them
typed since, in ms on the loop (the median of ``--rounds``), with ``uptime``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.table.club import Club  # noqa: E402
from net.config import DEFAULTS  # noqa: E402
from net.cluster.presence import PresenceKeeper  # noqa: E402


def uptime() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


def sessions(club: Club, n: int) -> list[SimpleNamespace]:
    out = []
    table = club.tables[1]
    for i in range(n):
        name = f"Watcher{i:04d}"
        started = time.monotonic() - i
        conn = SimpleNamespace(peer=f"127.0.0.1:{40000 + i}", fingerprint=f"SHA256:{i:043d}")
        out.append(SimpleNamespace(closed=False, name=name, guest=i % 7 == 0, conn=conn, lang="ru" if i % 3 else "en",
                                   started=started, last_input=started, watching=1 if i >= 20 else None))
        if i >= 20:
            table.spectators.add(name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--typing", type=int, default=10)
    args = parser.parse_args()
    club = Club(DEFAULTS["tables"], seed=1)
    people = sessions(club, args.sessions)
    server = SimpleNamespace(club=club, sessions=people, node=None, config=SimpleNamespace(node=""))
    first, steady, typed = [], [], []
    for _ in range(args.rounds):
        keep = PresenceKeeper(server, store=None, node="main")
        t0 = time.perf_counter()
        rows = keep.rows()
        first.append(time.perf_counter() - t0)
        assert len(rows) == args.sessions
        t0 = time.perf_counter()
        keep.rows()
        steady.append(time.perf_counter() - t0)
        for person in people[: args.typing]:
            person.last_input = time.monotonic()
        t0 = time.perf_counter()
        keep.rows()
        typed.append(time.perf_counter() - t0)
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    print(f"presence_bench · {args.sessions} sessions · {uptime()}")
    print(f"  a snapshot on the loop: first {ms(first):.2f} ms · nothing changed {ms(steady):.2f} ms · "
          f"{args.typing} typed since {ms(typed):.2f} ms (median of {args.rounds})")


if __name__ == "__main__":
    main()
