"""Issue 15 (c): a hall chat line to N people spread over 2 nodes vs the same N on 1 node.

Run:  python tests/bench/hall_nodes_bench.py [--people 50 100] [--lines 20]

A throw-away PostgreSQL (tests/pgkit.py) and real ``sukno serve --node NAME --store …`` children
(tests/net/nodekit.py); the people are asyncssh sessions in this process, as in ``hall_bench.py``
(whose ``Person``/``Probe`` this reuses: the figures include the clients' own decryption on the
same two cores, pessimistic).  Per N, twice: all N on one node, then N/2 on each of two nodes,
the speaker alternating between them.  A line's time is from the speaker's Enter until each other
person has received it; p50/p99 over all (line, person) pairs, and on two nodes also split into
the speaker's own node and the other one (the NOTIFY hop: ``net/cluster/clubwide.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE), str(ROOT / "tests"), str(ROOT / "tests" / "net")]

import asyncssh  # noqa: E402
from hall_bench import TITLE, chat_line, load, make_people, quiet  # noqa: E402
from nodekit import CONFIG, Node  # noqa: E402
from pgkit import PgCluster, Unavailable  # noqa: E402
from ssh_load import pct, until  # noqa: E402

from engine.store.postgres import PgStore  # noqa: E402


async def one_setup(url: str, folder: Path, n: int, lines: int, nodes_count: int) -> dict[str, Any]:
    names = [f"H{i:04d}" for i in range(n)]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    with PgStore(url) as store:
        for name in names:
            store.create_account(name, key=keys[name].get_fingerprint("sha256"), language="en", grant=10000)
    config = CONFIG.format(ttl=3.0).replace("[limits]\n", "[limits]\nmax_sessions_per_address = 2000\n"
                                            "max_sessions = 2000\n")
    (folder / "sukno.toml").write_text(config, "utf-8")  # every person comes from 127.0.0.1
    nodes = [Node(chr(ord("A") + i), folder, url) for i in range(nodes_count)]
    people = make_people("H", n, keys)
    try:
        for node in nodes:
            await node.ready(60)
        home = {p.name: i % nodes_count for i, p in enumerate(people)}
        for start in range(0, n, 25):
            batch = people[start:start + 25]
            await asyncio.gather(*(p.connect(nodes[home[p.name]].port) for p in batch))
            await until(lambda: all(p.seen(TITLE[p.lang]) for p in batch), 120, "halls")
        await quiet(people, 0.5, 60)
        chat: list[float] = []
        local: list[float] = []
        remote: list[float] = []
        for i in range(lines):
            speaker, others, token, t0 = await chat_line(people, i)
            for p in others:
                took = p.seen(token) - t0
                chat.append(took)
                (local if home[p.name] == home[speaker.name] else remote).append(took)
        return {"chat": chat, "local": local, "remote": remote}
    finally:
        for p in people:
            if p.conn is not None:
                p.conn.close()
        for node in nodes:
            node.stop()
            node.kill()


def ms(values: list[float], q: int) -> str:
    return f"{pct(values, q) * 1000:.0f}" if values else "-"


async def main_async(people: list[int], lines: int) -> int:
    cluster = PgCluster()
    try:
        cluster.start()
    except Unavailable as err:
        print(f"hall_nodes_bench (c): skipped, {err}")
        return 0
    try:
        print(f"(c) a hall chat line to N people: 1 node vs 2 nodes (PostgreSQL 15, LISTEN/NOTIFY), {lines} lines; "
              f"load {load()}")
        print(f"{'N':>5}  {'1 node p50/p99 ms':>18}  {'2 nodes p50/p99 ms':>19}  {'same node':>11}  {'other node':>11}")
        for n in people:
            one = await one_setup(cluster.url(), Path(tempfile.mkdtemp(prefix="sukno-hn1-")), n, lines, 1)
            two = await one_setup(cluster.url(), Path(tempfile.mkdtemp(prefix="sukno-hn2-")), n, lines, 2)
            print(f"{n:>5}  {ms(one['chat'], 50):>8}/{ms(one['chat'], 99):<9}  {ms(two['chat'], 50):>9}/"
                  f"{ms(two['chat'], 99):<9}  {ms(two['local'], 50):>5}/{ms(two['local'], 99):<5}  "
                  f"{ms(two['remote'], 50):>5}/{ms(two['remote'], 99):<5}   load {load()}", flush=True)
    finally:
        cluster.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--lines", type=int, default=20)
    args = parser.parse_args()
    return asyncio.run(main_async(args.people, args.lines))


if __name__ == "__main__":
    sys.exit(main())
