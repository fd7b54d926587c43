"""While an analysis is made, does anybody else wait?  Echo of a hall person's keys, with and without one.

A real server (in this process) keeps 10-deal Стуколка games played by Anna; Boris sits in the hall and
types one key every 50 ms; the bench takes the time from each key's write to its echo on his screen:
first with nothing else going on, then while the server analyses Anna's games one after another in
its worker process (``net.ssh.analyst``, as ``analyse ID`` does).  It prints p50/p99/max of both and
the analyses' wall time.  The clients share this process and the machine's two cores: the load is printed.

    python tests/bench/analysis_echo_bench.py [--keys 200] [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "net"))

from sshclient import make_config, named, running  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.bots.arena import Arena  # noqa: E402
from engine.game import ShuffledDecks  # noqa: E402
from engine.games import get_game  # noqa: E402
from engine.record import record_of  # noqa: E402
from tui.analysis import lines_of_json  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def keep_games(store, count: int) -> None:
    store.create_account("Anna", grant=10_000)
    cls = get_game("stukolka")
    rng = random.Random(3)
    for _ in range(count):
        names = ["Anna", "Bot Ivan", "Bot Petr", "Bot Lev"]
        game = cls(names, {"variant": "a", "remiz_cap": 90}, dealer=0)
        arena = Arena(game, [make_bot("stukolka", "rule", rng.randrange(99)) for _ in names], rng=rng)
        decks = ShuffledDecks(cls.deck_size, rng.randrange(2**62))
        for _ in range(10):
            arena.play_deal(decks)
        store.save_record(record_of(game), accounts={"Anna": "Anna"}, result=game.result())


async def echoes(client, keys: int) -> list[float]:
    times: list[float] = []
    for i in range(keys):
        before = len(client.session.raw)
        sent = time.perf_counter()
        client.type("x" if i % 2 == 0 else "\x7f")
        while len(client.session.raw) == before:
            await asyncio.sleep(0.001)
        times.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.05)
    return times


async def main(keys: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with running(make_config(Path(folder) / "data")) as server:
            keep_games(server.store, games)
            boris = await named(server.port, "Boris")
            quiet = await echoes(boris, keys)
            started = time.monotonic()
            done: list[float] = []

            async def analyse_all() -> None:
                for record_id in range(1, games + 1):
                    got: list = []
                    server.analyst.ask("Anna", record_id, "en", lines_of_json).then(got.append)
                    while not got:
                        await asyncio.sleep(0.05)
                    assert isinstance(got[0], list), got[0]
                    done.append(time.monotonic() - started)

            work = asyncio.get_running_loop().create_task(analyse_all())
            busy: list[float] = []
            while not work.done():
                busy += await echoes(boris, 20)
            await work
            await boris.close()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    for label, values in (("quiet", quiet), ("while analysing", busy)):
        print(f"echo {label}: n={len(values)} p50 {pct(values, .5):.1f} ms, p99 {pct(values, .99):.1f} ms, "
              f"max {max(values):.1f} ms")
    print(f"{games} analyses of 10-deal Стуколка games done at {', '.join(f'{t:.1f}' for t in done)} s; load {load}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.keys, args.games))
