"""SSH load bench: N watchers (mixed window sizes) on one Стуколка table while four players play.

Run:  python tests/bench/ssh_load.py [--watchers 50 100 200] [--actions 30] [--ciphers aes128-gcm@openssh.com]
      [--client-procs 2] [--nodes 2]

The server runs in its own process (so its memory is measured alone, from
/proc/PID/status VmRSS); the clients are asyncssh sessions in this process.
Both share the machine's cores, so the latencies include the clients' own
decryption work — a pessimistic figure.  With ``--client-procs K`` (K ≥ 2) the watchers'
clients live in K helper processes instead (the same bursts of 25, given to the helpers in turn;
each stamps arrivals with the same monotonic clock as this process): one process decrypting a
thousand frames a move stamped the last watchers ~40 ms after the server had sent to them, and
that wait is the bench's, not the club's.  The default (1) is the old mode; report both.
``--nodes 2`` runs the club as two nodes on one PostgreSQL (tests/pgkit.py starts it; issue 15's
``sukno serve --node`` setup, net/cli/serve.py's ``open_node``): the players, the seated extras and the
control lines at node A, which owns every table; the watchers alternately at A and B (as
SO_REUSEPORT would spread them), B's hubs drawing from its replica of table 1.  The figures are both
nodes' (memory: both RSS summed), and each node's CPU a move is printed apart.  Measured 2 Dec 2026
02:30–02:44 UTC, 1,000 watchers via the hall, 20 actions, 16 seated, load 5–8 (other engineers' work):
--nodes 1 watchers p99 391–453 ms, players p99 134–176, server 121–150 ms CPU a move (4 runs);
--nodes 2 watchers p99 351–508, players p99 229–347, A 90–103 ms + B 58–65 ms CPU a move (4 runs).
Two nodes cost more CPU in all (~+10 %: B's replica, PostgreSQL) and the cores were not idle to take it.
``SUKNO_BENCH_TRACE=1`` prints each move's steps in the server (the frame gate's release, each hub
told of the change, each hub's frame, each hub's last send to its watchers) beside the watchers'
arrivals, all in ms after the key: where a move's time goes.  Printed per N:

- memory per seated player (``--seated K`` more players, each at a table of tables 2.. with his
  own App; RSS growth divided by K; issue 16's target ≤ 1.0 MB), per session of the first 20
  (4 seated, 16 in the hall at a hall door) and per watcher (RSS growth divided by the count, ≤ 0.2 MB);
- connect-to-first-frame p50/p99 (connect, auth, App start, the hall drawn) for
  players and watchers, and watch-to-first-frame for watchers (``watch 1`` typed → the shared view);
- action-to-screen p50/p99: a seated player types a game action; the time until
  each watcher, and each of the other three players, receives the first frame (targets at 1,000
  watchers: p99 ≤ 100 ms to the watchers, ≤ 50 ms to the players); and the server's own CPU per
  action beside the clients' (all share the machine's cores), with the load average.

Accounts (with the configured starting grant) are made in the data folder's
store before the server starts, so nobody goes through the welcome screen.  The server peeks the first legal action for
the bench over its stdin (a harness-only control line, not part of sukno).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import asyncssh  # noqa: E402

from engine.store.opening import open_store  # noqa: E402
from net.config import Config  # noqa: E402

SIZES = [(80, 24), (100, 30), (120, 40), (132, 43), (90, 26), (160, 50)]
PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
IDLERS = [f"Idle{i:02d}" for i in range(16)]
HALL = b"Green Baize"  # the hall's title: the App's first real frame has arrived
VIEW = b"say look sit leave"  # the watcher's command row: the shared view is on his screen


# -- the server side (a child process) -----------------------------------------------------


async def serve_for_bench(data: Path, ciphers: list[str], buckets: list[str], tables: int = 1,
                          store_url: str = "", node: str = "") -> None:
    from net.config import Config
    from net.ssh.server import SuknoServer

    config = Config(port=0, data=data, tables=[{"game": "stukolka", "options": {}} for _ in range(tables)],
                    store_url=store_url, node=node)
    if ciphers:
        config.ciphers = [] if ciphers == ["default"] else ciphers
    if buckets:
        config.buckets = sorted(tuple(int(x) for x in b.split("x")) for b in buckets)  # type: ignore[misc]
    config.idle_timeout = 0
    config.max_sessions = config.max_sessions_per_address = 5000
    config.connections_per_minute = 1_000_000
    close_node: Any = None
    if node:  # one node of a club on PostgreSQL, as `sukno serve --node NAME --store URL` (net/cli/serve.py)
        from engine.store.opening import open_store
        from net.cli.serve import open_node

        store = open_store(data, exclusive=True, new=True, url=store_url, node=node,
                           synchronous_commit=config.store_synchronous_commit, lock_timeout=config.store_write_wait)
        server, close_node = await open_node(config, store)
    else:
        server = SuknoServer(config)
    await server.start()
    print(json.dumps({"port": server.port}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    table = server.club.tables[1]
    profiler: Any = None
    gc_time = [0.0, 0, 0.0]  # seconds in the cyclic GC, collections, start of the current one

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_time[2] = time.perf_counter()
        else:
            gc_time[0] += time.perf_counter() - gc_time[2]
            gc_time[1] += 1

    import gc

    gc.callbacks.append(on_gc)
    trace = _tracer() if os.environ.get("SUKNO_BENCH_TRACE") else None
    while line := await reader.readline():
        cmd = line.decode().strip()
        out: dict[str, Any] = {}
        if cmd == "legal":
            game = table.game
            if game is None or not game.in_deal:
                out = {"deal_over": True, "seated": table.seated()}
            else:
                seat = game.to_act()[0]
                out = {"name": game.names[seat], "action": game.legal_actions(seat)[0].text(ascii=True)}
        elif cmd == "seated":  # the extra seated players (tables 2..), each with his own App
            out = {"seated": sum(len(t.seated()) for tid, t in server.club.tables.items() if tid != 1)}
        elif cmd == "stats":
            out = {
                "gc_s": round(gc_time[0], 3), "gc_runs": gc_time[1],
                "sessions": len(server.sessions),
                "hubs": len(server.hubs.hubs),
                "watchers": sum(len(h.members) for h in server.hubs.hubs.values()),
                "cpu_s": time.process_time(),
                "apps_ended": server.apps_ended,  # Apps whose garbage awaits the server's collector
                "stale": sum(m.stale for h in server.hubs.hubs.values() for m in h.members),
                "frames": sum(h.frames for h in server.hubs.hubs.values()),
                "gate_late": _gate_late(),
            }
        elif cmd == "profile" and os.environ.get("SUKNO_BENCH_PROFILE"):
            import cProfile  # the play phase only, into the file SUKNO_BENCH_PROFILE names

            profiler = cProfile.Profile()
            profiler.enable()
        elif cmd == "trace" and trace is not None:
            out = {k: list(v) for k, v in trace.items()}
            for v in trace.values():
                v.clear()
        elif cmd == "census":  # live objects by type, for memory questions (slow)
            import collections
            import gc

            gc.collect()
            counts = collections.Counter(type(o).__name__ for o in gc.get_objects())
            out = {"top": counts.most_common(15), "total": sum(counts.values())}
        elif cmd == "quit":
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(os.environ["SUKNO_BENCH_PROFILE"])
            break
        print(json.dumps(out), flush=True)
    await server.stop(None)
    if close_node is not None:
        await close_node()
        server.store.close()


def _tracer() -> dict[str, list[float]]:
    """Monotonic stamps of a move's steps in the server (the clients' clock is the same one)."""
    from net.ssh import door
    from net.modes import spectate
    from tui import framegate

    from tui import spectator

    marks: dict[str, list[float]] = {"release": [], "sync": [], "broadcast": [], "sent": [], "flushed": []}
    now = time.perf_counter

    def wrap(cls: Any, name: str, before: str | None, after: str | None, cond: Any = None) -> None:
        original = getattr(cls, name)

        def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
            if before:
                marks[before].append(now())
            result = original(self, *args, **kwargs)
            if after and (cond is None or cond(self)):
                marks[after].append(now())
            return result

        setattr(cls, name, traced)

    wrap(framegate.FrameGate, "_release", "release", None)
    wrap(spectate.Hub, "broadcast", "broadcast", None)
    wrap(spectator.SpectatorApp, "on_table_changed", "sync", None)
    wrap(spectate.Hub, "_send_slice", None, "sent", lambda hub: hub._frame is None)
    wrap(door._Batch, "run", None, "flushed")
    return marks


def _gate_late() -> int:
    """Times a hub drew before the players' Apps had (tui/framegate.py's wait ran out)."""
    try:
        from tui.framegate import gate
    except ImportError:  # a tree from before the gate
        return 0
    return gate().late


# -- the client side ---------------------------------------------------------------------


class Probe(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """Records when bytes arrive; keeps a short tail to find markers."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last = 0.0
        self.chunks: list[float] = []
        self.tail = b""
        self.marks: dict[bytes, float] = {}
        self.want: list[bytes] = [HALL, VIEW]

    def data_received(self, data: bytes, datatype: Any) -> None:
        now = time.perf_counter()
        if self.first is None:
            self.first = now
        self.last = now
        self.chunks.append(now)
        if len(self.chunks) > 64:
            del self.chunks[:32]
        if self.want:
            window = self.tail + data
            for mark in list(self.want):
                if mark in window:
                    self.marks[mark] = now
                    self.want.remove(mark)
            self.tail = window[-64:]

    def first_after(self, t0: float) -> float | None:
        for t in self.chunks:
            if t > t0:
                return t
        return None


class Person:
    def __init__(self, name: str, key: asyncssh.SSHKey, size: tuple[int, int]) -> None:
        self.name, self.key, self.size = name, key, size
        self.conn: Any = None
        self.chan: Any = None
        self.probe: Probe | None = None
        self.t_connect = 0.0

    async def connect(self, port: int, command: str | None = None) -> None:
        self.t_connect = time.perf_counter()
        self.conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[self.key],
                                           agent_path=None, username=self.name)
        self.chan, self.probe = await self.conn.create_session(
            Probe, term_type="xterm-256color", term_size=self.size, env={"LANG": "en_US.UTF-8"}, encoding=None,
            command=command)

    def line(self, text: str) -> None:
        self.chan.write(text.encode() + b"\r")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def until(cond: Any, timeout: float, what: str) -> None:
    deadline = time.perf_counter() + timeout
    while not cond():
        if time.perf_counter() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.01)


class ServerProc:
    def __init__(self, data: Path, ciphers: list[str], buckets: list[str], tables: int = 1,
                 store_url: str = "", node: str = "") -> None:
        args = [sys.executable, __file__, "--serve", str(data), "--tables", str(tables)]
        if node:
            args += ["--store", store_url, "--node", node]
        if ciphers:
            args += ["--ciphers", *ciphers]
        if buckets:
            args += ["--buckets", *buckets]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.port = json.loads(self.proc.stdout.readline())["port"]

    async def ask(self, cmd: str) -> dict[str, Any]:
        def call() -> dict[str, Any]:
            self.proc.stdin.write(cmd + "\n")
            self.proc.stdin.flush()
            return json.loads(self.proc.stdout.readline())

        return await asyncio.get_running_loop().run_in_executor(None, call)

    async def until(self, cond: Any, what: str, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.perf_counter() + timeout
        while True:
            reply = await self.ask("legal")
            if cond(reply):
                return reply
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{what}: {reply}")
            await asyncio.sleep(0.05)

    def close(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(20)
        except Exception:
            self.proc.kill()


class Clients:
    """A helper process holding some of the watchers' clients (``--client-procs``): asked over its pipes."""

    def __init__(self, ports: list[int]) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--clients", *map(str, ports)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.cpu0 = 0.0

    async def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        def call() -> dict[str, Any]:
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
            return json.loads(self.proc.stdout.readline())

        return await asyncio.get_running_loop().run_in_executor(None, call)

    def close(self) -> None:
        try:
            self.proc.stdin.write(json.dumps({"quit": True}) + "\n")
            self.proc.stdin.flush()
            self.proc.wait(20)
        except Exception:
            self.proc.kill()


async def serve_clients(ports: list[int]) -> None:
    """A helper's loop: connect bursts of watchers, say when they last received, their latency after a t0."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    keys: dict[str, Any] = {}
    mine: list[Person] = []
    while line := await reader.readline():
        msg = json.loads(line)
        out: dict[str, Any] = {}
        if "keys" in msg:
            keys = json.loads(Path(msg["keys"]).read_text())
        elif "batch" in msg:
            batch = [Person(x, asyncssh.import_private_key(keys[x][0]), tuple(keys[x][1])) for x in msg["batch"]]
            connect, watched = await watch_batch(batch, ports, msg["via"], msg.get("first", 0))
            mine += batch
            out = {"connect": connect, "watch": watched}
        elif "last" in msg:
            out = {"last": max((w.probe.last for w in mine if w.probe), default=0.0)}
        elif "wait" in msg:
            t0 = msg["wait"]
            await until(lambda: all(w.probe.first_after(t0) for w in mine), 30, "the action reached a helper's all")
            out = {"lat": [w.probe.first_after(t0) - t0 for w in mine]}
        elif "cpu" in msg:
            out = {"cpu": time.process_time()}
        elif "quit" in msg:
            break
        print(json.dumps(out), flush=True)
    for w in mine:
        if w.conn is not None:
            w.conn.close()


async def quiet(people: list[Person], gap: float = 0.15, helpers: list[Clients] = (),  # type: ignore[assignment]
                timeout: float = 10.0) -> None:
    """Wait until nobody has received anything for ``gap`` seconds (here or in a helper process)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        newest = max((p.probe.last for p in people if p.probe), default=0.0)
        for h in helpers:
            newest = max(newest, (await h.ask({"last": True}))["last"])
        if time.perf_counter() - newest >= gap:
            return
        await asyncio.sleep(gap / 3)


async def watch_batch(batch: list[Person], ports: list[int], via: str,
                      first: int = 0) -> tuple[list[float], list[float]]:
    """Connect a burst of watchers and bring each to table 1's view: connect→hall and watch→view times.
    The watchers (the ``first``-th of all onwards) go to the nodes' ``ports`` in turn."""
    connect: list[float] = []
    port = [ports[(first + i) % len(ports)] for i in range(len(batch))]
    if via == "exec":  # ssh -t host watch 1: straight to the shared view
        await asyncio.gather(*(w.connect(port[i], "watch 1") for i, w in enumerate(batch)))
        for w in batch:
            w.t_watch = w.t_connect
    else:  # the hall first, then `watch 1` typed
        await asyncio.gather(*(w.connect(port[i]) for i, w in enumerate(batch)))
        await until(lambda: all(HALL in w.probe.marks for w in batch), 60, "watchers' halls")
        for w in batch:
            connect.append(w.probe.marks[HALL] - w.t_connect)
            w.t_watch = time.perf_counter()
            w.line("watch 1")
    await until(lambda: all(VIEW in w.probe.marks for w in batch), 60, "watchers' views")
    return connect, [w.probe.marks[VIEW] - w.t_watch for w in batch]


async def run_n(n: int, actions: int, ciphers: list[str], via: str, buckets: list[str],
                seated: int = 16, procs: int = 1, nodes: int = 1) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="sukno-bench-"))
    sitters = [f"S{i:03d}" for i in range(seated)]  # more seated players, four a table from table 2 on
    names = PLAYERS + IDLERS + sitters + [f"W{i:03d}" for i in range(n)]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    cluster, url = None, ""
    if nodes > 1:  # one club on PostgreSQL (tests/pgkit.py), as issue 15's nodes keep it
        sys.path.insert(0, str(ROOT / "tests"))
        from pgkit import PgCluster

        cluster = PgCluster({"fsync": "off", "full_page_writes": "off"}).start()
        url = cluster.url()
    store = open_store(data, url=url or None)  # every key registered before the server starts: nobody waits at the door
    for x in names:
        store.create_account(x, key=keys[x].get_fingerprint("sha256"), language="en", grant=Config().grant)
    store.close()
    servers: list[ServerProc] = []
    people: list[Person] = []
    try:
        if nodes > 1:  # node A first: it owns every table; B keeps replicas and serves its own watchers
            for i in range(nodes):
                folder = data / f"node-{chr(65 + i)}"
                folder.mkdir()
                servers.append(ServerProc(folder, ciphers, buckets, 1 + (seated + 3) // 4, url, chr(65 + i)))
        else:
            servers.append(ServerProc(data, ciphers, buckets, 1 + (seated + 3) // 4))
        server = servers[0]  # the players', the seated extras' and the control lines' node
        ports = [s.port for s in servers]

        def rss() -> float:
            return sum(rss_mb(s.proc.pid) for s in servers)

        await asyncio.sleep(0.5)
        rss0 = rss()
        # Players and idlers: each session has its own App.
        own = [Person(x, keys[x], (80, 24)) for x in PLAYERS + IDLERS]
        await asyncio.gather(*(p.connect(server.port) for p in own))
        await until(lambda: all(HALL in p.probe.marks for p in own), 60, "players' halls")
        await quiet(own, 0.3)
        connect_players = [p.probe.marks[HALL] - p.t_connect for p in own]
        players = own[:4]
        for p in players:
            p.line("sit 1")
        await server.until(lambda r: len(r.get("seated", ())) == 4 or "name" in r, "four seated")
        for p in players:
            p.line("start")
        await server.until(lambda r: "name" in r, "the first deal")
        await quiet(own, 0.3)
        rss1 = rss()
        # Seated players alone: each runs his own App at his table (not started), after the hall's own.
        sit = [Person(x, keys[x], (80, 24)) for x in sitters]
        for start in range(0, len(sit), 8):
            batch = sit[start:start + 8]
            await asyncio.gather(*(p.connect(server.port) for p in batch))
            await until(lambda: all(HALL in p.probe.marks for p in batch), 60, "the sitters' halls")
            for i, p in enumerate(batch):
                p.line(f"sit {2 + (start + i) // 4}")
            await asyncio.sleep(0.3)
        await quiet(sit, 0.5)
        await settled(servers)  # Apps ended (the hall doors' hand-over) collected first
        seated_now = (await server.ask("seated"))["seated"]
        rss_sit = rss()

        # Watchers, in bursts of 25, each typing `watch 1` after his hall appears.
        watchers = [Person(f"W{i:03d}", keys[f"W{i:03d}"], SIZES[i % len(SIZES)]) for i in range(n)]
        watch_times: list[float] = []
        rss_mid, count_mid = 0.0, 0
        connect_watchers: list[float] = []
        helpers = [Clients(ports) for _ in range(procs)] if procs > 1 else []
        if helpers:  # each helper connects its own watchers: their keys go in a file of the data folder
            key_file = data / "bench-watcher-keys.json"
            key_file.write_text(json.dumps({w.name: [w.key.export_private_key().decode(), w.size]
                                            for w in watchers}))
            await asyncio.gather(*(h.ask({"keys": str(key_file)}) for h in helpers))
        for start in range(0, n, 25):
            batch = watchers[start:start + 25]
            if helpers:  # the same bursts of 25, each burst in one helper in turn
                got = await helpers[(start // 25) % procs].ask({"batch": [w.name for w in batch], "via": via,
                                                                "first": start})
                connect_watchers += got["connect"]
                watch_times += got["watch"]
            else:
                connect, watched = await watch_batch(batch, ports, via, start)
                connect_watchers += connect
                watch_times += watched
            if count_mid == 0 and start + len(batch) >= n // 2:
                rss_mid, count_mid = rss(), start + len(batch)
        if helpers:
            watchers = []  # in the helpers: asked for what they saw
        people = own + sit + watchers
        await quiet(people, 0.5, helpers)
        await settled(servers)  # the server collects ended Apps' garbage at a quiet moment
        stats = await stats_of(servers)
        rss2 = rss()
        if os.environ.get("SUKNO_BENCH_CENSUS"):
            print(await server.ask("census"), file=sys.stderr)
        await server.ask("profile")

        # Play: one action at a time, latency to every watcher and to the other players.
        to_watchers: list[float] = []
        to_players: list[float] = []
        by_name = {p.name: p for p in players}
        done = 0
        restart_frames, restart_cpu = 0, 0.0
        restart_node_cpu = [0.0] * len(servers)
        cpu0 = time.process_time()
        for h in helpers:
            h.cpu0 = (await h.ask({"cpu": True}))["cpu"]
        while done < actions:
            peek = await server.ask("legal")
            if peek.get("deal_over"):
                before_stats = await stats_of(servers)
                for p in players:
                    p.line("start")
                await server.until(lambda r: "name" in r, "the next deal")
                await quiet(people, 0.3, helpers)
                after_stats = await stats_of(servers)  # a new deal's frames and CPU are not a move's
                restart_frames += after_stats["frames"] - before_stats["frames"]
                restart_cpu += after_stats["cpu_s"] - before_stats["cpu_s"]
                for i, (b, a) in enumerate(zip(before_stats["nodes_cpu_s"], after_stats["nodes_cpu_s"])):
                    restart_node_cpu[i] += a - b
                continue
            actor = by_name[peek["name"]]
            await quiet(people, 0.2, helpers)
            actor.chan.write(peek["action"].encode())
            await quiet([actor], 0.1)
            t0 = time.perf_counter()
            actor.chan.write(b"\r")
            others = [p for p in players if p is not actor]
            seen = asyncio.gather(*(h.ask({"wait": t0}) for h in helpers))
            await until(lambda: all(p.probe.first_after(t0) for p in others + watchers), 30, "the action reached all")
            to_players += [p.probe.first_after(t0) - t0 for p in others]
            got = [w.probe.first_after(t0) - t0 for w in watchers]
            for reply in await seen:
                got += reply["lat"]
            to_watchers += got
            if os.environ.get("SUKNO_BENCH_TRACE"):
                await quiet(people, 0.2, helpers)
                marks = await server.ask("trace")
                got.sort()
                rel = lambda xs: " ".join(f"{(x - t0) * 1000:.0f}" for x in xs if x > t0)  # noqa: E731
                print(f"move {done}: players {' '.join(f'{(p.probe.first_after(t0) - t0) * 1000:.0f}' for p in others)}"
                      f" · release {rel(marks['release'])} · hubs told {rel(marks['sync'])} · hub frames {rel(marks['broadcast'])}"
                      f" · hubs sent {rel(marks['sent'])} · last flush {rel(marks['flushed'][-1:])}"
                      f" · watchers p50 {got[len(got) // 2] * 1000:.0f} p99 {pct(got, 99) * 1000:.0f}"
                      f" max {got[-1] * 1000:.0f}", file=sys.stderr)
            done += 1
        client_cpu = time.process_time() - cpu0
        for h in helpers:
            client_cpu += (await h.ask({"cpu": True}))["cpu"] - h.cpu0
        stats_after = await stats_of(servers)
        return {
            "n": n, "seated": seated_now, "mb_per_seated": (rss_sit - rss1) / max(1, len(sit)),
            "mb_per_player": (rss1 - rss0) / len(own),
            "mb_per_watcher": (rss2 - rss_sit) / n,
            "mb_per_watcher_marginal": (rss2 - rss_mid) / max(1, n - count_mid),
            "rss": (rss0, rss1, rss_sit, rss2),
            "connect_p50": pct(connect_players, 50), "connect_p99": pct(connect_players, 99),
            "wconnect_p50": pct(connect_watchers, 50), "wconnect_p99": pct(connect_watchers, 99),
            "watch_p50": pct(watch_times, 50), "watch_p99": pct(watch_times, 99),
            "w_p50": pct(to_watchers, 50), "w_p99": pct(to_watchers, 99),
            "p_p50": pct(to_players, 50), "p_p99": pct(to_players, 99),
            "hubs": stats["hubs"], "watching": stats["watchers"], "stale": stats_after["stale"],
            "frames": stats_after["frames"] - stats["frames"], "actions": done,
            "move_frames": stats_after["frames"] - stats["frames"] - restart_frames,
            "gate_late": stats_after["gate_late"] - stats["gate_late"],
            "gc_s": stats_after["gc_s"] - stats["gc_s"], "gc_runs": stats_after["gc_runs"] - stats["gc_runs"],
            "cpu_s": stats_after["cpu_s"] - stats["cpu_s"] - restart_cpu, "client_cpu_s": client_cpu,
            "nodes_cpu_s": [a - b - r for a, b, r in zip(stats_after["nodes_cpu_s"], stats["nodes_cpu_s"],
                                                         restart_node_cpu)],
            "nodes_watching": stats_after["nodes_watchers"],
        }
    finally:
        for p in people:
            if p.conn is not None:
                p.conn.close()
        for h in locals().get("helpers", []):
            h.close()
        for server in reversed(servers):  # B before A: B must not take A's tables over
            server.close()
        if cluster is not None:
            cluster.stop()


async def settled(servers: list[ServerProc]) -> None:
    """Wait (30 s at most) until every node has collected the garbage of the Apps that ended."""
    settle = time.perf_counter()
    while any([(await s.ask("stats"))["apps_ended"] for s in servers]) and time.perf_counter() - settle < 30:
        await asyncio.sleep(0.5)


async def stats_of(servers: list[ServerProc]) -> dict[str, Any]:
    """The nodes' ``stats`` summed (one node: its own), with each node's CPU and watchers apart."""
    each = [await s.ask("stats") for s in servers]
    total = {k: sum(e[k] for e in each) for k in each[0]}
    total["nodes_cpu_s"] = [e["cpu_s"] for e in each]
    total["nodes_watchers"] = [e["watchers"] for e in each]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--ciphers", nargs="*", default=[],
                        help="cipher names, or 'default' for asyncssh's list (chacha20 first)")
    parser.add_argument("--buckets", nargs="*", default=[], help="spectator size buckets, e.g. 80x24 120x40")
    parser.add_argument("--via", choices=["hall", "exec"], default="hall",
                        help="watchers type `watch 1` in the hall, or connect with `ssh -t host watch 1`")
    parser.add_argument("--seated", type=int, default=16,
                        help="more players seated at tables 2.. (four a table), for the memory per seated player")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="processes holding the watchers' clients (1: all in this one, the old mode)")
    parser.add_argument("--nodes", type=int, choices=[1, 2], default=1,
                        help="2: two nodes of one club on PostgreSQL; the players at node A (the table's owner),"
                             " the watchers alternately at A and B (1: one server, the old mode)")
    parser.add_argument("--serve", metavar="DATA", help=argparse.SUPPRESS)
    parser.add_argument("--clients", metavar="PORT", type=int, nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--store", default="", help=argparse.SUPPRESS)
    parser.add_argument("--node", default="", help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve_for_bench(Path(args.serve), args.ciphers, args.buckets, args.tables, args.store, args.node))
        return
    if args.clients:
        asyncio.run(serve_clients(args.clients))
        return
    print(f"sukno ssh load bench · {os.cpu_count()} cores · ciphers: {' '.join(args.ciphers) or 'sukno default (AES-GCM)'}"
          f" · watchers via {args.via} · buckets {' '.join(args.buckets) or 'default'}"
          f" · watchers' clients in {args.client_procs} process{'es' if args.client_procs > 1 else ''}"
          + (f" · {args.nodes} nodes on PostgreSQL (players at A, watchers alternately at A and B)"
             if args.nodes > 1 else ""))
    print("times in ms, memory in MB (server RSS growth / sessions)")
    for n in args.watchers:
        load_before = os.getloadavg()[0]
        r = asyncio.run(run_n(n, args.actions, args.ciphers, args.via, args.buckets, args.seated,
                              args.client_procs, args.nodes))
        ms = lambda x: f"{x * 1000:6.0f}"  # noqa: E731
        print(f"\nN={n} watchers · load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
        print(f"  N={n} watchers ({r['watching']} watching in {r['hubs']} hubs), {r['actions']} actions, "
              f"{r['frames']} shared frames ({r['move_frames'] / max(1, r['actions'] * r['hubs']):.2f} a move a hub,"
              f" new deals' apart), {r['stale']} stale at the end, {r['gate_late']} times the hubs did not wait"
              f" for the players' frames any longer")
        print(f"  memory     per seated player {r['mb_per_seated']:.2f} MB ({r['seated']} seated at tables 2..,"
              f" target ≤ 1.0) · per session of the first 20 (4 seated, 16 in the hall)"
              f" {r['mb_per_player']:.2f} MB · per watcher {r['mb_per_watcher']:.3f} MB"
              f" (second half alone {r['mb_per_watcher_marginal']:.3f})"
              f"  (RSS {' → '.join(f'{x:.0f}' for x in r['rss'])} MB)")
        hall = (f" · watchers' hall p50 {ms(r['wconnect_p50'])} p99 {ms(r['wconnect_p99'])}"
                if r["wconnect_p50"] == r["wconnect_p50"] else "")
        print(f"  first frame  players' hall p50 {ms(r['connect_p50'])} p99 {ms(r['connect_p99'])}{hall}"
              f" · {'connect' if args.via == 'exec' else 'watch'}→shared view p50 {ms(r['watch_p50'])}"
              f" p99 {ms(r['watch_p99'])}")
        print(f"  action→screen  watchers p50 {ms(r['w_p50'])} p99 {ms(r['w_p99'])} (target ≤ 100 at 1,000)"
              f" · players p50 {ms(r['p_p50'])} p99 {ms(r['p_p99'])} (target ≤ 50)")
        print(f"  server CPU while playing {r['cpu_s'] / r['actions'] * 1000:.0f} ms per action (new deals apart)"
              f" (cyclic GC {r['gc_s'] / r['actions'] * 1000:.0f} ms of it, {r['gc_runs']} collections)"
              f" · the bench's clients {r['client_cpu_s'] / r['actions'] * 1000:.0f} ms per action on the same cores")
        if args.nodes > 1:
            print("  per node   " + " · ".join(
                f"{chr(65 + i)}: CPU {cpu / r['actions'] * 1000:.0f} ms per action, {w} watching"
                for i, (cpu, w) in enumerate(zip(r["nodes_cpu_s"], r["nodes_watching"]))))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
