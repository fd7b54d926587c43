"""Connect bench: where one connect's time goes, from TCP accept to the first frame's bytes (issue 16).

Run:  python tests/bench/connect_bench.py [--people 100 500] [--burst 20] [--rounds 3]
      [--client asyncssh openssh] [--profile FILE]
      python tests/bench/connect_bench.py --packets   (asyncssh's CPU per packet for each cipher and MAC)

N people wait in the hall (fresh keys, mixed sizes and languages, as hall_bench.py); then
``--burst`` fresh people connect at once, ``--rounds`` times.  The server (its own process)
stamps each connection's steps on the machine's monotonic clock, which the bench's clock is too,
so each step is put beside the client's: TCP accepted, the key exchange done (the first
userauth request), auth done, the shell asked, his first frame written by the door, and those
bytes handed to the socket; and the hall's drawings for the others (arrivals) while the burst
lasts.  Printed per N and client: connect → first frame p50/p99, each step's p50/p99 from
the TCP accept, the server's CPU per connect, and with ``--profile`` the server's cProfile of
the bursts: the cumulative time of the key exchange, host key signature, user auth, session start,
the door's first frame, the hall's drawings for the others and SSH sending, and the top functions.  ``uptime`` beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncssh  # noqa: E402

from engine.store.opening import open_store  # noqa: E402
from hall_bench import TITLE, Person, make_people, openssh_burst, quiet, uptime  # noqa: E402
from net.config import Config  # noqa: E402
from ssh_load import ServerProc, pct, until  # noqa: E402

STEPS = ("accept", "kex", "auth", "shell", "frame", "sent")
SINGLES = 5
"""OpenSSH clients connected one at a time (the hall quiet), before the bursts."""


# -- the server side: its steps stamped (a child process) --------------------------------


def stamp_server(out: list[dict[str, Any]]) -> None:
    """Wrap the server's step methods so that each connection's steps are stamped (bench only)."""
    from net.modes import hall as halldoor

    from net.modes import hallview
    from net.ssh import server
    from net.ssh import session
    now = time.perf_counter

    conn_made = server._Connection.connection_made

    def sconn_made(self: Any, conn: Any) -> None:
        self._bench = {"accept": now()}  # called as the TCP connection is accepted (net.ssh.door)
        conn_made(self, conn)

    server._Connection.connection_made = sconn_made  # type: ignore[method-assign]
    begin = server._Connection.begin_auth

    def begin_auth(self: Any, username: str) -> bool:
        self._bench.setdefault("kex", now())
        return begin(self, username)

    server._Connection.begin_auth = begin_auth  # type: ignore[method-assign]
    done = server._Connection.auth_completed

    def auth_completed(self: Any) -> None:
        self._bench["auth"] = now()
        done(self)

    server._Connection.auth_completed = auth_completed  # type: ignore[method-assign]
    started = session.Session.session_started

    def session_started(self: Any) -> None:
        self.conn._bench["shell"] = now()
        started(self)

    session.Session.session_started = session_started  # type: ignore[method-assign]
    opened = halldoor.HallDoor.open_screen

    async def open_screen(self: Any, first: str | None = None) -> Any:
        marks = self.session.conn._bench
        transport = getattr(self.session.conn.conn, "_transport", None)
        inner = getattr(transport, "_inner", None)
        if inner is not None and "sent" not in marks:
            write = inner.write

            def first_write(data: Any) -> None:
                marks.setdefault("sent", now())
                write(data)

            inner.write = first_write
        task = asyncio.ensure_future(opened(self, first))
        await asyncio.sleep(0)  # its first frame is painted in the task's first step
        marks["frame"] = now()
        marks["name"] = self.session.name
        out.append(marks)
        return await task

    halldoor.HallDoor.open_screen = open_screen  # type: ignore[method-assign]
    draw = hallview.HallBoard._draw_slice

    def board_slice(self: Any) -> None:  # a drawing of the hall goes hallview.SLICE doors a turn
        t0, c0 = now(), time.process_time()
        first = self._drawing is not None and self._drawing[2] == 0
        draw(self)
        out.append({"board": t0, "took": now() - t0, "cpu": time.process_time() - c0, "first": first})

    hallview.HallBoard._draw_slice = board_slice  # type: ignore[method-assign]


def serve(data: Path) -> None:
    from ssh_load import serve_for_bench

    marks: list[dict[str, Any]] = []
    stamp_server(marks)
    try:
        asyncio.run(serve_for_bench(data, [], []))
    finally:
        Path(os.environ["SUKNO_BENCH_STEPS"]).write_text(json.dumps(marks))


class StampedServer(ServerProc):
    """ssh_load's server process, started through this file so that its steps are stamped."""

    def __init__(self, data: Path) -> None:
        import subprocess

        os.environ["SUKNO_BENCH_STEPS"] = str(data / "steps.json")
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", str(data)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.port = json.loads(self.proc.stdout.readline())["port"]


# -- the client side ------------------------------------------------------------------------


async def run_n(n: int, burst: int, rounds: int, clients: list[str], profile: str | None) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="sukno-connect-bench-"))
    names = [f"H{i:04d}" for i in range(n)] + [f"B{i:04d}" for i in range(burst * rounds)] + \
        [f"C{i:04d}" for i in range(burst * rounds)] + [f"S{i:04d}" for i in range(SINGLES)]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    store = open_store(data)
    for x in names:
        store.create_account(x, key=keys[x].get_fingerprint("sha256"), language="en", grant=Config().grant)
    store.close()
    if profile:
        os.environ["SUKNO_BENCH_PROFILE"] = str(Path(profile).resolve())
    server = StampedServer(data)
    people: list[Person] = []
    out: dict[str, Any] = {"n": n, "uptime": []}
    try:
        people = make_people("H", n, keys)
        for start in range(0, n, 25):
            batch = people[start:start + 25]
            await asyncio.gather(*(p.connect(server.port) for p in batch))
            await until(lambda: all(p.seen(TITLE[p.lang]) for p in batch), 120, "halls")
        await quiet(people, 0.5, 60)
        if "openssh" in clients:  # one at a time: what a connect costs with nobody else connecting
            singles = []
            for i in range(SINGLES):
                await quiet(people, 0.3)
                singles += await openssh_burst(server.port, data, [(f"S{i:04d}", keys[f"S{i:04d}"])])
            out["singles"] = (pct(singles, 50), max(singles, default=float("nan")))
        await server.ask("profile")
        for client in clients:
            first: list[float] = []
            steps: list[tuple[float, dict[str, Any]]] = []
            cpu = 0.0
            for r in range(rounds):
                await quiet(people, 0.3)
                cpu0 = (await server.ask("stats"))["cpu_s"]
                if client == "asyncssh":
                    crowd = make_people("B", burst, keys, start=r * burst)
                    await asyncio.gather(*(p.connect(server.port) for p in crowd))
                    await until(lambda: all(p.seen(TITLE[p.lang]) for p in crowd), 120, "the burst's halls")
                    first += [p.seen(TITLE[p.lang]) - p.t_connect for p in crowd]
                    steps += [(p.t_connect, {"name": p.name}) for p in crowd]
                    people += crowd
                else:
                    names_r = [f"C{i:04d}" for i in range(r * burst, (r + 1) * burst)]
                    first += await openssh_burst(server.port, data, [(x, keys[x]) for x in names_r])
                await quiet(people, 0.3)
                cpu += (await server.ask("stats"))["cpu_s"] - cpu0
                out["uptime"].append(uptime())
            out[client] = {"p50": pct(first, 50), "p99": pct(first, 99), "cpu": cpu / (burst * rounds),
                           "starts": steps}
    finally:
        for p in people:
            if p.conn is not None:
                p.conn.close()
        server.close()
    marks = json.loads((data / "steps.json").read_text())
    out["marks"] = marks
    return out


def report(r: dict[str, Any], clients: list[str], burst: int) -> None:
    ms = lambda x: f"{x * 1000:5.0f}"  # noqa: E731
    marks = r["marks"]
    by_name = {m["name"]: m for m in marks if "name" in m}
    boards = [m for m in marks if "board" in m]
    print(f"\nN={r['n']} in the hall · {' | '.join(r['uptime'][:1])}")
    if "singles" in r:
        print(f"  openssh  one at a time (the hall quiet): connect → first frame p50 {ms(r['singles'][0])}"
              f" max {ms(r['singles'][1])}")
    for client in clients:
        c = r[client]
        print(f"  {client:8} a burst of {burst}: connect → first frame p50 {ms(c['p50'])} p99 {ms(c['p99'])}"
              f" (target p99 ≤ 300) · server CPU {c['cpu'] * 1000:.1f} ms per connect")
        if client != "asyncssh":  # no client stamps: each step from the server's TCP accept
            ours = [m for name, m in by_name.items() if name.startswith("C") and "accept" in m]
            for step in STEPS[1:]:
                after = [m[step] - m["accept"] for m in ours if step in m]
                print(f"      {step:6} from the server's accept p50 {ms(pct(after, 50))} p99 {ms(pct(after, 99))}")
            continue
        rows = [(t0, by_name[x["name"]]) for t0, x in c["starts"] if x["name"] in by_name]
        for step in STEPS:
            from_connect = [m[step] - t0 for t0, m in rows if step in m]
            print(f"      {step:6} from the client's connect p50 {ms(pct(from_connect, 50))}"
                  f" p99 {ms(pct(from_connect, 99))}")
        spans = [(m["accept"], m["sent"]) for _, m in rows if "sent" in m and "accept" in m]
        if spans:
            lo, hi = min(s for s, _ in spans), max(e for _, e in spans)
            drawn = [b for b in boards if lo <= b["board"] <= hi]
            print(f"      the hall drawn for the others {sum(b['first'] for b in drawn)} times while the bursts"
                  f" lasted, {sum(b['cpu'] for b in drawn) * 1000:.0f} ms CPU in all "
                  f"({sum(b['cpu'] for b in drawn) / max(1, len(rows)) * 1000:.1f} ms a connect), in {len(drawn)}"
                  f" slices, the longest {max((b['took'] for b in drawn), default=0) * 1000:.0f} ms")
            before = sum(1 for _, m in rows if "sent" in m and not any(
                m["accept"] < b["board"] < m["sent"] for b in drawn))
            print(f"      first frames sent with no drawing of the hall between accept and send: "
                  f"{before}/{len(rows)}")


def print_profile(path: str) -> None:
    stats = pstats.Stats(path)
    print(f"\nserver profile of the bursts ({path}); cumulative seconds of a few entry points:")
    wanted = ["_process_kexinit", "_process_kexdh_init", "_process_ecdh_init", "_process_init",
              "sign", "verify", "_process_userauth_request", "validate_public_key", "_serve", "name_for",
              "_load_prefs", "open_screen", "paint", "_flush", "_draw_slice", "news", "send_packet", "_send_kexinit",
              "_process_newkeys", "process_packet", "_recv_data", "data_received", "flush", "write"]
    rows = []
    for (file, line, func), (cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if func in wanted:
            rows.append((ct, tt, nc, f"{Path(file).parent.name}/{Path(file).name}:{line} {func}"))
    for ct, tt, nc, where in sorted(rows, reverse=True)[:40]:
        print(f"  {ct * 1000:8.1f} ms cum {tt * 1000:7.1f} ms own {nc:7d} calls  {where}")
    print("\ntop by own time:")
    stats.sort_stats("tottime").print_stats(25)


def packet_costs() -> None:
    """asyncssh's CPU to encrypt and sign one packet, for each cipher and MAC a client may pick."""
    from asyncssh.encryption import get_encryption, get_encryption_params

    print(f"\nasyncssh's encryption of one packet (this process's CPU) · {uptime()}")
    for enc, mac in ((b"aes128-gcm@openssh.com", b""), (b"aes256-gcm@openssh.com", b""),
                     (b"chacha20-poly1305@openssh.com", b""), (b"aes128-ctr", b"umac-64-etm@openssh.com"),
                     (b"aes128-ctr", b"hmac-sha2-256-etm@openssh.com"), (b"aes256-ctr", b"hmac-sha2-256")):
        key_size, iv_size, _block, mac_size, _hash, etm = get_encryption_params(enc, mac)
        cipher = get_encryption(enc, os.urandom(key_size), os.urandom(iv_size), mac, os.urandom(mac_size), etm)
        figures = []
        for size in (160, 1600):
            packet, count = os.urandom(size), 20000
            started = time.process_time()
            for seq in range(count):
                cipher.encrypt_packet(seq, b"\x00" * 5, packet)
            figures.append(f"{size:5d} B {(time.process_time() - started) / count * 1e6:5.1f} µs")
        print(f"  {enc.decode():30} {mac.decode() or '(AEAD)':30} {' · '.join(figures)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--client", nargs="+", default=["asyncssh", "openssh"], choices=["asyncssh", "openssh"])
    parser.add_argument("--profile", metavar="FILE", help="the server's cProfile of the bursts, into FILE")
    parser.add_argument("--packets", action="store_true", help="only asyncssh's CPU per packet for each cipher")
    parser.add_argument("--serve", metavar="DATA", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve))
        return
    if args.packets:
        packet_costs()
        return
    print(f"sukno connect bench · {os.cpu_count()} cores · bursts of {args.burst}, {args.rounds} rounds"
          " · times in ms from the client's connect")
    for n in args.people:
        r = asyncio.run(run_n(n, args.burst, args.rounds, args.client, args.profile))
        report(r, args.client, args.burst)
        sys.stdout.flush()
        if args.profile:
            print_profile(args.profile)


if __name__ == "__main__":
    main()
