"""A table that plays and journals until it is killed: ``python crash_writer.py DB SEED``.

After every committed write it prints how many entries the journal holds,
so the test that kills it knows what must survive.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from store_play import open_table, step  # noqa: E402

from engine.store.sqlite import SqliteStore  # noqa: E402

NAMES = ["Anna", "Boris", "Vera", "Gleb"]


def main(path: str, seed: int) -> None:
    store = SqliteStore(path)
    with store.batch():
        for name in NAMES:
            store.create_account(name, grant=1_000)
    table = open_table(store, 1, "stukolka", NAMES, seed, {"variant": "a"})
    rng = random.Random(seed)
    written = 0
    while True:
        step(store, table, rng)  # one journal entry (and its money), committed
        written += 1
        print(written, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
