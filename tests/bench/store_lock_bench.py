"""Store lock bench: another process holds ``BEGIN EXCLUSIVE`` on sukno.db; does anyone wait? (issue 12, item 8)

Run:  python tests/bench/store_lock_bench.py [--seconds 6] [--hold 15]

A real server on port 0 (this process, with its clients: the figures include the
clients' own work, a pessimistic figure).  Anna sits at table 1 and Boris is in
the hall.  For ``--seconds`` without a lock, then for ``--seconds`` while a
subprocess holds ``BEGIN EXCLUSIVE``, Boris alternates ``look`` and ``who``
every 200 ms and Anna alternates ``stand`` (a write, refused under the lock
with "could not write that down"; without the lock ``tables`` instead) and
``who`` every 100 ms.  First, the refused write alone (no SSH) is timed.  Printed: p50/p99/max of Boris's
reply time (line sent → its answer on his screen), of Anna's reply time, and
of the event loop's lag (a 10 ms sleeper's overshoot), in milliseconds.
Target (issue 12): p99 ≤ 100 ms for everyone while the lock is held.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))
sys.path.insert(0, str(ROOT / "tests" / "store"))

from sshclient import connect, make_config, new_key, running  # noqa: E402
from test_safety import hold_lock  # noqa: E402


def say(line: str) -> None:
    """Print past Textual (its Apps swap ``sys.stdout`` while they run in this process)."""
    print(line, file=sys.__stdout__, flush=True)


def figures(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):6.1f}  p99 {p99:6.1f}  max {ordered[-1]:6.1f}  (n={len(ordered)})"


async def reply_time(client, line: str, done) -> float:
    start = time.perf_counter()
    client.line(line)
    while not done(client.text()):
        if time.perf_counter() - start > 30:
            return 30_000.0
        await asyncio.sleep(0.002)
    return (time.perf_counter() - start) * 1000


def answered(verb: str, other: str, words: str = "Anna"):
    """The screen shows the answer to the latest ``verb`` (typed in turn with ``other``)."""
    def check(screen: str) -> bool:
        mine, theirs = screen.rfind(f"> {verb}"), screen.rfind(f"> {other}")
        return mine > theirs and words in screen[mine + len(verb) + 2:]
    return check


async def phase(anna, boris, seconds: float, locked: bool = True) -> tuple[list[float], list[float], list[float]]:
    looks: list[float] = []
    actions: list[float] = []
    lags: list[float] = []
    stop = time.perf_counter() + seconds

    async def lag_probe() -> None:
        while time.perf_counter() < stop:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(max(0.0, (time.perf_counter() - t) * 1000 - 10))

    async def boris_types() -> None:
        verbs = ("look", "who")
        i = 0
        while time.perf_counter() < stop:
            verb, other = verbs[i % 2], verbs[(i + 1) % 2]
            looks.append(await reply_time(boris, verb, answered(verb, other)))
            i += 1
            await asyncio.sleep(0.2)

    async def anna_types() -> None:  # stand (refused under the lock) and who, in turn; without it: tables, who
        first, words = ("stand", "could not write that down") if locked else ("tables", "Stukolka")
        while time.perf_counter() < stop:
            actions.append(await reply_time(anna, first, answered(first, "who", words)))
            await asyncio.sleep(0.1)
            await reply_time(anna, "who", answered("who", first))
            await asyncio.sleep(0.1)

    await asyncio.gather(lag_probe(), boris_types(), anna_types())
    return looks, actions, lags


async def main(seconds: float, hold: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = make_config(Path(tmp) / "d")
        async with running(config) as server:
            anna = await connect(server.port, key=new_key(), cols=100, rows=30)
            await anna.wait("book of names")
            anna.line("Anna")
            await anna.wait("Anna ·")
            boris = await connect(server.port, key=new_key(), cols=100, rows=30)
            await boris.wait("book of names")
            boris.line("Boris")
            await boris.wait("Boris ·")
            anna.line("sit 1")
            await anna.wait("Anna sits down")
            say("without a lock (Anna types tables/who instead: her stand would succeed)")
            looks, actions, lags = await phase(anna, boris, seconds, locked=False)
            say(f"  Boris look/who ms: {figures(looks)}")
            say(f"  Anna tables ms: {figures(actions)}")
            say(f"  event loop lag ms: {figures(lags)}")
            holder = hold_lock(config.data / "sukno.db", hold)
            try:
                say(f"while another process holds BEGIN EXCLUSIVE ({hold:.0f} s)")
                looks, actions, lags = await phase(anna, boris, seconds)
                say(f"  Boris look/who ms: {figures(looks)}")
                say(f"  Anna stand (refused) ms: {figures(actions)}")
                say(f"  event loop lag ms: {figures(lags)}")
                say(f"  the lock still held at the end: {holder.poll() is None}")
            finally:
                holder.kill()
                holder.wait()


def store_alone(hold: float, count: int = 200) -> None:
    """The refused write itself, without SSH or screens: a table action under the lock, timed."""
    from engine.table.club import Club
    from engine.store.base import make_data_folder
    from engine.store.opening import open_store
    from engine.table.owner import TableError

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "d"
        make_data_folder(data)
        store = open_store(data, exclusive=True)
        store.create_account("Anna", grant=10_000)
        table = Club([{"game": "stukolka"}], store=store, now=0.0).tables[1]
        table.sit("Anna")
        holder = hold_lock(data / "sukno.db", hold)
        times = []
        try:
            for _ in range(count):
                start = time.perf_counter()
                try:
                    table.stand("Anna")
                except TableError:
                    pass
                times.append((time.perf_counter() - start) * 1000)
        finally:
            holder.kill()
            holder.wait()
        store.close()
    say(f"the store alone: a refused table action, first {times[0]:.1f} ms, then {figures(times[1:])}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--hold", type=float, default=15.0)
    options = parser.parse_args()
    import logging

    logging.disable(logging.ERROR)  # one "not saved" line per refused action otherwise
    store_alone(options.hold)
    asyncio.run(main(options.seconds, options.hold))
