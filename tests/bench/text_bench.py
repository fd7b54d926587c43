"""Text-mode bench (issue 17): what a text-mode session costs, and how soon its sentences arrive.

Run:  python tests/bench/text_bench.py [--sessions 50 100 200] [--pty-share 0.5] [--deals 6]

The server runs in its own process (its memory is read alone, from
/proc/PID/status VmRSS); the clients are asyncssh sessions in this process,
on the same two cores, so the latencies include the clients' own work — a
pessimistic figure.  For each N:

- N text-mode sessions watch table 1 (``ssh host watch 1`` without a pty, and a
  share of them ``ssh -t host text`` with TERM dumb, then ``watch 1``);
  memory per session = the server's RSS growth / N (targets: ≤ 0.1 MB);
- Anna, in the text mode too, plays Стуколка deals against three bots by
  answering her prompts; for each of her moves, the time from her client
  sending the line to each watcher receiving the sentence of it
  (p50/p99; target: p99 ≤ 50 ms).

Accounts are made in the data folder's store before the server starts, so
nobody goes through the doorman's book.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import asyncssh  # noqa: E402

PROMPT = re.compile(rb"Your turn\. You may (.*?)(?: \xe2\x80\x94 .*)?\.\r?\n")


async def serve(data: Path) -> None:
    from net.config import Config
    from net.ssh.server import SuknoServer

    config = Config(port=0, data=data, tables=[{"game": "stukolka", "options": {}, "think": 0, "clock": 0}])
    config.idle_timeout = 0
    config.max_sessions = config.max_sessions_per_address = config.max_sessions_per_account = 5000
    config.connections_per_minute = 1_000_000
    server = SuknoServer(config)
    await server.start()
    print(json.dumps({"port": server.port}), flush=True)
    await asyncio.Event().wait()


class Client(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """Keeps the bytes and when each chunk came."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.chunks: list[tuple[float, int]] = []  # (time, end offset in raw)

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.raw += data
        self.chunks.append((time.perf_counter(), len(self.raw)))

    def arrival(self, needle: bytes, after: int) -> float | None:
        """When the first chunk that completes ``needle`` (searched from offset ``after``) came."""
        at = self.raw.find(needle, after)
        if at < 0:
            return None
        end = at + len(needle)
        for when, offset in self.chunks:
            if offset >= end:
                return when
        return None


async def open_session(port: int, key: asyncssh.SSHKey, command: str, pty: bool) -> tuple[Any, Any, Client]:
    conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="x", client_keys=[key],
                                  agent_path=None)
    extra: dict[str, Any] = {"term_type": "dumb", "term_size": (80, 24)} if pty else {}
    chan, client = await conn.create_session(Client, command=command, env={"LANG": "en_US.UTF-8"},
                                             encoding=None, **extra)
    return conn, chan, client


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


async def wait_for(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: {what} not reached in {timeout}s")
        await asyncio.sleep(0.01)


async def run(n: int, pty_share: float, deals: int) -> dict[str, Any]:
    from engine.store.opening import open_store

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(n + 1)]
        store = open_store(data)
        for i, key in enumerate(keys):
            store.create_account("Anna" if i == 0 else f"W{i:04d}", key=key.get_fingerprint("sha256"), grant=100_000)
        store.close()
        server_argv = [sys.executable, __file__, "--serve", str(data)]
        if os.environ.get("TEXT_BENCH_SERVER"):  # a harness hook: another server script (a profiler)
            server_argv = [sys.executable, os.environ["TEXT_BENCH_SERVER"], str(data)]
        proc = subprocess.Popen(server_argv, stdout=subprocess.PIPE,
                                cwd=ROOT, text=True)
        try:
            port = json.loads(proc.stdout.readline())["port"]  # type: ignore[union-attr]
            anna_conn, anna_chan, anna = await open_session(port, keys[0], "text", False)
            await wait_for(lambda: b"Type help" in anna.raw, 20, "Anna in")
            await asyncio.sleep(0.5)
            rss0 = rss_mb(proc.pid)
            watchers: list[tuple[Any, Any, Client]] = []
            for start in range(0, n, 25):
                batch = [open_session(port, keys[1 + i], "watch 1", i % max(1, round(1 / pty_share)) == 0
                                      if pty_share else False)
                         for i in range(start, min(n, start + 25))]
                watchers += await asyncio.gather(*batch)
            await wait_for(lambda: all(b"You watch table 1" in c.raw for _, _, c in watchers), 60, "watchers in")
            await asyncio.sleep(1.0)
            rss1 = rss_mb(proc.pid)
            lat: list[float] = []
            sent = 0

            def send(line: str) -> float:
                t0 = time.perf_counter()
                anna_chan.write((line + "\n").encode())
                return t0

            for line in ["sit 1", "sit bot", "sit bot", "sit bot", "start"]:
                send(line)
                await asyncio.sleep(0.05)
            read = 0
            for _deal in range(deals):
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    over = anna.raw.find(b"The deal is over.", read)
                    match = PROMPT.search(anna.raw, read)
                    if over >= 0 and (match is None or match.start() > over):
                        read = over + 1
                        send("start")
                        break
                    if match is None:
                        await asyncio.sleep(0.005)
                        continue
                    read = match.end()
                    choice = re.split(rb", | or ", match.group(1))[0].decode()
                    marks = [len(c.raw) - 1 for _, _, c in watchers]  # the needle starts with the last line's LF
                    needle = b"\nAnna " + (b"knocks" if choice == "knock" else b"passes" if choice == "pass"
                                           else b"plays " if choice.startswith("play") else b"")
                    t0 = send(choice)
                    sent += 1
                    await wait_for(lambda: all(c.raw.find(needle, m) >= 0 for (_, _, c), m in zip(watchers, marks)),
                                   20, f"'{choice}' told to every watcher")
                    for (_, _, c), m in zip(watchers, marks):
                        t1 = c.arrival(needle, m)
                        if t1 is not None:
                            lat.append((t1 - t0) * 1000)
            escapes = sum(c.raw.count(b"\x1b") for _, _, c in watchers)
            for conn, _, _ in watchers:
                conn.close()
            anna_conn.close()
            return {"n": n, "mb_per_session": (rss1 - rss0) / n, "rss": (rss0, rss1), "moves": sent,
                    "samples": len(lat), "p50": pct(lat, 50), "p99": pct(lat, 99), "max": max(lat, default=0),
                    "escapes": escapes}
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--pty-share", type=float, default=0.5, help="share of watchers with a pty (TERM dumb)")
    parser.add_argument("--deals", type=int, default=6, help="deals Anna plays (each gives her 1–4 moves)")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve))
        return
    print("text mode: N watchers in text mode on one Стуколка table; Anna (text mode) plays a deal")
    print("memory: server RSS growth / N (target ≤ 0.1 MB); latency: Anna sends her move → each watcher "
          "has its sentence (target p99 ≤ 50 ms)")
    for n in args.sessions:
        r = asyncio.run(run(n, args.pty_share, args.deals))
        print(f"N={r['n']:4d}  {r['mb_per_session']:.3f} MB/session (RSS {r['rss'][0]:.0f} → {r['rss'][1]:.0f} MB)"
              f"  moves {r['moves']}, {r['samples']} arrivals: p50 {r['p50']:.1f} ms  p99 {r['p99']:.1f} ms"
              f"  max {r['max']:.1f} ms  escape bytes {r['escapes']}", flush=True)


if __name__ == "__main__":
    main()
