"""A node that owns table 1 of a PostgreSQL club and writes to it (tests/store/test_leases.py stops it).

``python lease_writer.py URL TTL``: takes the lease as node A, then appends a note, posts a kopeck
between two pools and renews the lease, every 20 ms, printing ``ok SEQ`` or ``refused REASON``
for each write (flushed, so the test reads it at once); it stops after its first refusal (a write
refused, or the database ending its session because it was paused inside a transaction).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.store.base import StoreError  # noqa: E402
from engine.store.postgres import PgStore  # noqa: E402


def main(url: str, ttl: float) -> int:
    store = PgStore(url, exclusive=False)
    epoch = store.acquire_lease(1, "A", ttl)
    print(f"lease {epoch}", flush=True)
    n = 0
    while True:
        n += 1
        try:
            with store.batch():
                seq = store.append(1, "note", {"n": n})
                store.post([("club:a", -1), ("club:b", 1)], table_id=1)
            print(f"ok {seq}", flush=True)
            store.renew_lease(1, ttl)  # False once taken over: the next write says so
        except StoreError as err:  # taken over, or paused inside a transaction and cut off
            print(f"refused {err}", flush=True)
            return 0
        time.sleep(0.02)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], float(sys.argv[2])))
