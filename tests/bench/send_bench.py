"""The send path of one shared frame to one watcher, by cipher (issue 16 item 3).

Run:  python tests/bench/send_bench.py [--watchers 100] [--rounds 40] [--bytes 1500] [--profile]

A real server (in this process) with N watchers, real asyncssh clients typing nothing (``ssh -t
host watch 1``); then the hub's own loop is timed: one frame of ``--bytes`` bytes sent to every
watcher, ``--rounds`` times, each round's end waited for (the clients read it).  Printed per
cipher: the server's CPU per watcher per frame in the hub's loop (packet build, encryption,
transport; the median round), and the end-of-turn writes apart (the ``OneSend`` flush: one socket write each).
Both sides share the machine's cores, so the clients' decryption is not in the figures but
their reading competes; ``uptime`` is printed beside every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))

import asyncssh  # noqa: E402

from sshclient import make_config, running  # noqa: E402

CIPHERS = ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com", "aes128-ctr"]


class Reader(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.got = 0

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.got += len(data)


def uptime() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


async def one_cipher(cipher: str, n: int, rounds: int, size: int, profile: bool) -> None:
    data = Path(tempfile.mkdtemp(prefix="sukno-send-"))
    config = make_config(data / "data", ciphers=CIPHERS, max_sessions=5000, max_sessions_per_address=5000,
                         connections_per_minute=1_000_000, connection_burst=10_000)
    async with running(config) as server:
        readers: list[Reader] = []
        conns = []
        for start in range(0, n, 25):
            async def one() -> None:
                conn = await asyncssh.connect("127.0.0.1", server.port, known_hosts=None, username="w",
                                              client_keys=None, password="", agent_path=None,
                                              encryption_algs=[cipher])
                _chan, reader = await conn.create_session(Reader, term_type="xterm-256color",
                                                          term_size=(80, 24), encoding=None, command="watch 1")
                conns.append(conn)
                readers.append(reader)

            await asyncio.gather(*(one() for _ in range(min(25, n - start))))
        deadline = time.monotonic() + 60
        while sum(len(h.members) for h in server.hubs.hubs.values()) < n and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        members = [m for h in server.hubs.hubs.values() for m in h.members]
        used = {c.get_extra_info("send_cipher") for c in conns}
        await asyncio.sleep(0.5)
        payload = (b"\x1b[5;1H" + b"x" * size)[:size]
        loops: list[float] = []
        flushes: list[float] = []
        prof = cProfile.Profile() if profile else None
        for _ in range(rounds):
            base = [r.got for r in readers]
            t0 = time.process_time()
            if prof:
                prof.enable()
            for m in members:  # what Hub._send_slice does per watcher
                if m.wire.buffered() > 262144:
                    continue
                m.wire.send(payload + m.caret)
            if prof:
                prof.disable()
            t1 = time.process_time()
            await asyncio.sleep(0)  # the end of the turn: each connection's OneSend writes once
            t2 = time.process_time()
            loops.append(t1 - t0)
            flushes.append(t2 - t1)
            while any(r.got - b < size for r, b in zip(readers, base)):
                await asyncio.sleep(0.005)
        per = 1e6 / len(members)
        print(f"  {cipher:32s} client chose {','.join(sorted(map(str, used)))}: {len(members)} watchers · "
              f"hub loop {statistics.median(loops) * per:5.1f} µs + end-of-turn writes "
              f"{statistics.median(flushes) * per:5.1f} µs per watcher per {size}-byte frame (median of {rounds}"
              f" rounds) · {uptime()}", flush=True)
        if prof:
            pstats.Stats(prof).sort_stats("tottime").print_stats(14)
        for c in conns:
            c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--bytes", type=int, default=1500)
    parser.add_argument("--ciphers", nargs="*", default=CIPHERS)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"sukno send bench · {os.cpu_count()} cores · {uptime()}")
    for cipher in args.ciphers:
        asyncio.run(one_cipher(cipher, args.watchers, args.rounds, args.bytes, args.profile))


if __name__ == "__main__":
    main()
