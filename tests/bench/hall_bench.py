"""Hall bench: N real SSH people in the hall (fresh keys, mixed window sizes and languages).

Run:  python tests/bench/hall_bench.py [--people 50 100 500] [--lines 20] [--arrivals 10] [--burst 20]

The server runs in its own process (``ssh_load.py --serve``: its memory is its
own VmRSS); the clients are asyncssh sessions in this process, sharing the
machine's cores (the figures include the clients' decryption: pessimistic).
Every N people connect in batches of 25 and wait for their hall; then, per N:

- memory per hall person: the server's RSS growth over the N divided by N;
- a chat line to every screen: one person types ``say <token>``; the time from
  his Enter until each of the other N-1 has received the token (``--lines`` times,
  one at a time, the hall quiet between): p50/p99 over all (line, person) pairs;
- arrivals: a fresh person connects; the time from his connect until each of
  the N has received "<name> comes into the club" (his name): p50/p99;
- first frame under a burst: ``--burst`` fresh people connect at once; connect
  (TCP, key exchange, auth, the hall drawn) to the hall's title on their screen: p50/p99.

A sample of the people (every 25th) also feeds a pyte screen, and the bench
checks that the chat line is on that screen as text (not only somewhere in the
bytes).  ``uptime``'s load is printed with each N: other work on the machine
moves these figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncssh  # noqa: E402
import pyte  # noqa: E402

from engine.store.opening import open_store  # noqa: E402
from net.config import Config  # noqa: E402
from ssh_load import ServerProc, pct, rss_mb, until  # noqa: E402

SIZES = [(80, 24), (100, 30), (120, 40), (132, 43), (90, 26), (160, 50)]
TITLE = {"en": b"Green Baize", "ru": "Зелёное сукно".encode()}
LOCALE = {"en": "en_US.UTF-8", "ru": "ru_RU.UTF-8"}
TARGET_CHAT_MS, TARGET_CONNECT_MS, TARGET_HALL_MB = 150, 300, 0.5


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def uptime() -> str:
    """``uptime``'s line, printed beside the figures (other work on the machine moves them)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load " + load()


class Probe(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """Records when each wanted token first arrives (a short tail catches a token split across packets)."""

    def __init__(self, screen: pyte.Screen | None) -> None:
        self.last = 0.0
        self.tail = b""
        self.want: dict[bytes, float | None] = {}
        self.screen = screen
        self.stream = pyte.ByteStream(screen) if screen is not None else None

    def data_received(self, data: bytes, datatype: Any) -> None:
        now = time.perf_counter()
        self.last = now
        if self.stream is not None:
            self.stream.feed(data)
        if any(v is None for v in self.want.values()):
            window = self.tail + data
            for mark, seen in self.want.items():
                if seen is None and mark in window:
                    self.want[mark] = now
        self.tail = (self.tail + data)[-96:]

    def expect(self, mark: bytes) -> None:
        self.want[mark] = None
        if mark in self.tail:
            self.want[mark] = self.last

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""


class Person:
    def __init__(self, name: str, key: asyncssh.SSHKey, size: tuple[int, int], lang: str, sample: bool) -> None:
        self.name, self.key, self.size, self.lang, self.sample = name, key, size, lang, sample
        self.conn: Any = None
        self.chan: Any = None
        self.probe: Probe | None = None
        self.t_connect = 0.0

    async def connect(self, port: int) -> None:
        self.t_connect = time.perf_counter()
        screen = pyte.Screen(*self.size) if self.sample else None
        self.conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[self.key],
                                           agent_path=None, username=self.name)
        self.chan, self.probe = await self.conn.create_session(
            lambda: Probe(screen), term_type="xterm-256color", term_size=self.size,
            env={"LANG": LOCALE[self.lang]}, encoding=None)
        self.probe.expect(TITLE[self.lang])

    def seen(self, mark: bytes) -> float | None:
        return self.probe.want.get(mark) if self.probe is not None else None

    def line(self, text: str) -> None:
        self.chan.write(text.encode() + b"\r")


async def quiet(people: list[Person], gap: float = 0.2, timeout: float = 15.0) -> None:
    """Wait until nobody has received anything for ``gap`` seconds."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        newest = max((p.probe.last for p in people if p.probe), default=0.0)
        if time.perf_counter() - newest >= gap:
            return
        await asyncio.sleep(gap / 3)


async def chat_line(people: list[Person], i: int) -> tuple[Person, list[Person], bytes, float]:
    """Line ``i`` said by ``people[i % n]`` once the hall is quiet, waited for on every other screen:
    the speaker, those others, the line's token and when it was sent (each other's ``seen(token)`` is his arrival)."""
    speaker = people[i % len(people)]
    others = [p for p in people if p is not speaker]
    token = f"zq{i:03d}x{os.getpid() % 1000:03d}".encode()
    for p in others:
        p.probe.expect(token)
    await quiet(people, 0.2)
    t0 = time.perf_counter()
    speaker.line("say " + token.decode())
    await until(lambda: all(p.seen(token) for p in others), 60, "a chat line on every screen")
    return speaker, others, token, t0


def make_people(prefix: str, count: int, keys: dict[str, Any], start: int = 0) -> list[Person]:
    out = []
    for i in range(count):
        name = f"{prefix}{start + i:04d}"
        lang = "ru" if i % 3 == 2 else "en"
        out.append(Person(name, keys[name], SIZES[i % len(SIZES)], lang, sample=i % 25 == 0))
    return out


async def openssh_burst(port: int, data: Path, people: list[tuple[str, Any]]) -> list[float]:
    """``len(people)`` OpenSSH clients (``ssh -tt``, one process each) started at once: connect → the hall's title.

    The bench's own asyncssh clients do their key exchanges one after another in this one Python
    process, so their burst measures the bench as much as the server; OpenSSH clients are separate
    processes, as twenty people on twenty machines are (they still share this machine's cores).
    """
    if shutil.which("ssh") is None:
        return []
    folder = data / "openssh"
    folder.mkdir(mode=0o700, exist_ok=True)
    files = []
    for name, key in people:
        path = folder / name
        key.write_private_key(str(path))
        path.chmod(0o600)
        files.append((name, path))

    async def one(name: str, path: Path) -> float:
        t0 = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            "ssh", "-F", "/dev/null", "-tt", "-i", str(path), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-p", str(port), f"{name}@127.0.0.1",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        seen, took = b"", float("nan")
        try:
            assert proc.stdout is not None
            while time.perf_counter() - t0 < 60:
                try:
                    chunk = await asyncio.wait_for(proc.stdout.read(4096), 60)
                except asyncio.TimeoutError:
                    break
                if not chunk:
                    break
                window = seen + chunk  # the title may be anywhere in a large first frame
                seen = window[-256:]
                if TITLE["en"] in window:
                    took = time.perf_counter() - t0
                    break
        finally:
            proc.kill()
            await proc.wait()
        if took != took:
            assert proc.stderr is not None
            print(f"  (OpenSSH client {name} saw no hall: {(await proc.stderr.read())[-200:]!r}"
                  f" {seen[-120:]!r})", file=sys.stderr)
        return took

    return [t for t in await asyncio.gather(*(one(n, p) for n, p in files)) if t == t]


async def run_n(n: int, lines: int, arrivals: int, burst: int) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="sukno-hall-bench-"))
    names = [f"H{i:04d}" for i in range(n)] + [f"A{i:04d}" for i in range(arrivals)] + \
        [f"B{i:04d}" for i in range(burst)] + [f"C{i:04d}" for i in range(burst)]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    store = open_store(data)  # every key registered before the server starts: nobody waits at the door
    for x in names:
        store.create_account(x, key=keys[x].get_fingerprint("sha256"), language="en", grant=Config().grant)
    store.close()
    server = ServerProc(data, [], [])
    pid = server.proc.pid
    people: list[Person] = []
    extra: list[Person] = []
    try:
        await asyncio.sleep(0.5)
        rss0 = rss_mb(pid)
        people = make_people("H", n, keys)
        connect_times: list[float] = []
        for start in range(0, n, 25):
            batch = people[start:start + 25]
            await asyncio.gather(*(p.connect(server.port) for p in batch))
            await until(lambda: all(p.seen(TITLE[p.lang]) for p in batch), 120, "halls")
            connect_times += [p.seen(TITLE[p.lang]) - p.t_connect for p in batch]
        await quiet(people, 0.5, 60)
        settle = time.perf_counter()  # let the server collect at a quiet moment
        while (await server.ask("stats"))["apps_ended"] and time.perf_counter() - settle < 30:
            await asyncio.sleep(0.5)
        rss1 = rss_mb(pid)

        # A chat line to every screen.
        chat: list[float] = []
        on_screen = True
        await server.ask("profile")  # SUKNO_BENCH_PROFILE=FILE: the server's profile of what follows
        cpu0 = (await server.ask("stats"))["cpu_s"]
        mine0 = time.process_time()
        for i in range(lines):
            _, others, token, t0 = await chat_line(people, i)
            chat += [p.seen(token) - t0 for p in others]
            await quiet(people, 0.1)
            for p in others:
                if p.sample and token.decode() not in p.probe.text():
                    on_screen = False

        cpu_chat = ((await server.ask("stats"))["cpu_s"] - cpu0) / max(1, lines)
        client_chat = (time.process_time() - mine0) / max(1, lines)

        # Arrivals.
        arrive: list[float] = []
        for person in make_people("A", arrivals, keys):
            mark = person.name.encode()
            for p in people:
                p.probe.expect(mark)
            await quiet(people, 0.2)
            await person.connect(server.port)
            await until(lambda: all(p.seen(mark) for p in people), 60, "an arrival on every screen")
            arrive += [p.seen(mark) - person.t_connect for p in people]
            extra.append(person)

        # First frame under a burst.
        await quiet(people + extra, 0.3)
        crowd = make_people("B", burst, keys)
        cpu1 = (await server.ask("stats"))["cpu_s"]
        await asyncio.gather(*(p.connect(server.port) for p in crowd))
        await until(lambda: all(p.seen(TITLE[p.lang]) for p in crowd), 120, "the burst's halls")
        await quiet(people + extra + crowd, 0.3)
        cpu_connect = ((await server.ask("stats"))["cpu_s"] - cpu1) / max(1, burst)
        first = [p.seen(TITLE[p.lang]) - p.t_connect for p in crowd]
        extra += crowd
        await quiet(people + extra, 0.3)
        first_openssh = await openssh_burst(server.port, data, [(f"C{i:04d}", keys[f"C{i:04d}"]) for i in range(burst)])
        return {
            "n": n, "mb_per_person": (rss1 - rss0) / n, "rss": (rss0, rss1),
            "connect_p50": pct(connect_times, 50), "connect_p99": pct(connect_times, 99),
            "cpu_chat": cpu_chat, "client_chat": client_chat, "chat_p50": pct(chat, 50), "chat_p99": pct(chat, 99), "chat_max": max(chat),
            "arrive_p50": pct(arrive, 50), "arrive_p99": pct(arrive, 99),
            "burst_p50": pct(first, 50), "burst_p99": pct(first, 99), "on_screen": on_screen,
            "cpu_connect": cpu_connect, "ossh_p50": pct(first_openssh, 50), "ossh_p99": pct(first_openssh, 99),
        }
    finally:
        for p in people + extra:
            if p.conn is not None:
                p.conn.close()
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--lines", type=int, default=20)
    parser.add_argument("--arrivals", type=int, default=10)
    parser.add_argument("--burst", type=int, default=20)
    args = parser.parse_args()
    print(f"sukno hall bench · {os.cpu_count()} cores · sizes {' '.join(f'{c}x{r}' for c, r in SIZES)}"
          " · every third person Russian")
    print("times in ms, memory in MB (server RSS growth / people)")
    ms = lambda x: f"{x * 1000:6.0f}"  # noqa: E731
    for n in args.people:
        before = load()
        r = asyncio.run(run_n(n, args.lines, args.arrivals, args.burst))
        print(f"\nN={n} people in the hall · load before {before}, after {load()} · uptime: {uptime()}")
        print(f"  memory       per hall person {r['mb_per_person']:.3f} MB (target ≤ {TARGET_HALL_MB})"
              f"  (RSS {r['rss'][0]:.0f} → {r['rss'][1]:.0f} MB)")
        print(f"  chat line    → every screen p50 {ms(r['chat_p50'])} p99 {ms(r['chat_p99'])}"
              f" max {ms(r['chat_max'])} (target p99 ≤ {TARGET_CHAT_MS} at 500)"
              f" · on the sampled pyte screens: {'yes' if r['on_screen'] else 'NO'}")
        print(f"               server CPU {r['cpu_chat'] * 1000:.0f} ms per chat line (its part of the latency)"
              f" · the bench's {r['n']} clients {r['client_chat'] * 1000:.0f} ms per chat line in one process"
              " on the same cores (the last screen waits for the others' decryption)")
        print(f"  arrival      → every screen p50 {ms(r['arrive_p50'])} p99 {ms(r['arrive_p99'])}")
        print(f"  first frame  batches of 25 p50 {ms(r['connect_p50'])} p99 {ms(r['connect_p99'])}"
              f" · a burst of {args.burst} p50 {ms(r['burst_p50'])} p99 {ms(r['burst_p99'])}"
              f" (target p99 ≤ {TARGET_CONNECT_MS})")
        print(f"               a burst of {args.burst} OpenSSH clients (a process each)"
              f" p50 {ms(r['ossh_p50'])} p99 {ms(r['ossh_p99'])} · server CPU {r['cpu_connect'] * 1000:.0f} ms"
              " per connect (key exchange, login, the hall drawn, and his arrival drawn for everyone)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
