"""Memory while reading a big record, against the file's size (target: at most 4× the file).

Run it as a script: ``python tests/bench/record_memory.py [--sizes 1,2,4,8]`` (megabytes, at most the
record bounds ``engine.record.MAX_BYTES`` and ``MAX_DEALS`` allow).  Each record is a Стуколка session played at random from
sealed decks (distinct deals, repeated up to the size: ``verify`` is not run, so copies do not matter
here), written as the club writes it (UTF-8, suits as ♠♥♦♣) and, for the worst case, with every
action line made unique (no line shared with another, as a hostile sender could write it).

Every reading runs in a fresh process and prints two figures over the file's size:

* ``traced``: the peak of Python's allocations (``tracemalloc``) while ``load_record`` reads it;
* ``rss``: the peak resident memory of ``sukno verify``'s whole path (``load_record`` then ``verify``)
  less the process's resident memory before it (Linux's ``VmHWM``, reset through ``clear_refs``;
  tracemalloc off, so it costs nothing; memory the process freed before is used again, not counted).

A 200 MB file (sparse) is refused too, and the time that takes is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET = 4.0
DISTINCT_DEALS = 60


def session(deals: int, seed: int = 7) -> dict:
    """A session of ``deals`` Стуколка deals played at random from sealed decks."""
    from engine.games import get_game
    from engine.record import record_of
    from engine.shuffle import Sealed, repeatable_seed

    cls = get_game("stukolka")
    game = cls([f"P{i}" for i in range(cls.min_players)])
    rng = random.Random(seed)
    for k in range(deals):
        sealed = Sealed(repeatable_seed(seed, k))
        sealed.cut("P0", f"cut {k}")
        game.start_deal(sealed.decks(cls.deck_size))
        while game.in_deal:
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        game.deals[-1].fair = sealed.fair()
    return record_of(game).to_json()


def write(base: dict, megabytes: float, unique: bool, path: Path) -> int:
    """``base``'s deals repeated up to ``megabytes``; ``unique``: every action line its own text."""
    from engine.record import MAX_BYTES, MAX_DEALS

    one = len(json.dumps(base["deals"], ensure_ascii=False).encode("utf-8")) / len(base["deals"])
    count = min(MAX_DEALS, max(1, int(megabytes * 1024 * 1024 / one)))
    deals = [dict(base["deals"][i % len(base["deals"])]) for i in range(count)]
    if unique:
        for number, deal in enumerate(deals):
            deal["actions"] = [f"{line} {number}.{k}" for k, line in enumerate(deal["actions"])]
    record = dict(base, deals=deals)
    text = json.dumps(record, ensure_ascii=False)
    while len(text.encode("utf-8")) > MAX_BYTES:  # just under the bound
        record["deals"] = record["deals"][: len(record["deals"]) * 95 // 100]
        text = json.dumps(record, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return len(record["deals"])


def measure(path: str, how: str) -> None:
    """In a fresh process: print the file's size and the peak (bytes) ``how`` measures reading ``path``."""
    from engine.record import load_record, verify

    size = os.path.getsize(path)
    load_record(json.dumps(session(1)))  # the game's modules imported and its caches filled first
    if how == "traced":
        import tracemalloc

        tracemalloc.start()
        load_record(path)
        print(size, tracemalloc.get_traced_memory()[1])
        return
    before = status_kb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from now
    verify(load_record(path))
    print(size, max(0, status_kb("VmHWM") - before) * 1024)


def status_kb(field: str) -> int:
    """A figure of ``/proc/self/status`` in kB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/self/status")


def run_one(path: Path) -> tuple[int, int, int]:
    figures = []
    for how in ("traced", "rss"):
        out = subprocess.run([sys.executable, __file__, "--measure", how, str(path)], capture_output=True,
                             text=True, timeout=600, check=True).stdout.split()
        figures.append(int(out[1]))
    return int(out[0]), figures[0], figures[1]


def refuse_huge(folder: Path) -> float:
    from engine.record import RecordError, load_record

    huge = folder / "huge.json"
    with open(huge, "wb") as file:
        file.truncate(200 * 1024 * 1024)
    started = time.perf_counter()
    try:
        load_record(huge)
    except RecordError:
        return time.perf_counter() - started
    raise SystemExit("a 200 MB record was read")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="record sizes in MB (default 1,2,4,8; a record holds at most MAX_DEALS deals, so the biggest is smaller)")
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure[1], args.measure[0])
        return 0
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; python {sys.version.split()[0]}")
    base = session(DISTINCT_DEALS)
    worst = {False: 0.0, True: 0.0}
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in (float(x) for x in args.sizes.split(",")):
            for unique in (False, True):
                path = Path(folder) / "record.json"
                deals = write(base, megabytes, unique, path)
                size, traced, rss = run_one(path)
                worst[unique] = max(worst[unique], traced / size, rss / size)
                kind = "unique lines" if unique else "club's lines"
                print(f"{size / 1e6:6.2f} MB, {deals:5d} deals, {kind:12s}: traced peak {traced / size:4.2f}× "
                      f"the file, verify's rss peak {rss / size:4.2f}× (target ≤ {TARGET:g}×)")
        print(f"200 MB record refused in {refuse_huge(Path(folder)) * 1000:.2f} ms")
    for unique, kind in ((False, "the club's lines"), (True, "every line unique")):
        verdict = "within" if worst[unique] <= TARGET else "OVER"
        print(f"worst with {kind}: {worst[unique]:.2f}× the file — {verdict} the target")
    return 0 if worst[False] <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
