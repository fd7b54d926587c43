"""A club under faults, for the fault-injection test and the soak bench.

Two nodes (``tests/net/nodekit.py``) on a PostgreSQL of their own (``tests/pgkit.py``: its own
cluster, since it is crashed and paused), several tables that play by themselves: one bot-protocol
player per table (``net.cli.botclient``: the protocol exactly as a third party's program speaks it)
says ``start`` and the house's bots fill the other seats.  Each player keeps what the club
acknowledged to him: his own action told back as an event.  An echo probe on each node (a bot
session asking ``tables``, answered from memory on the node's loop) times how long another session
waits while a fault lasts.

The faults: PostgreSQL crash-stopped (``pg_ctl -m immediate stop``) and started again; PostgreSQL
paused (SIGSTOP of the postmaster and its children) and resumed; the owner of most tables killed
(kill -9) and started again once its tables were taken over; a node paused past its lease.

``Checks`` after each: every table's journal replays; every acknowledged action is in the journal
(lost: those that are not); each node's tables (the admin socket's ``tables``) agree with the
journal's replay; the ledger sums to zero and balances; play resumes by itself (a new journal entry
of every table) — how long after the fault ended.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for extra in (HERE, HERE / "net"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from nodekit import Node  # noqa: E402
from pgkit import PgCluster  # noqa: E402

NAMES = ("Kolya", "Misha", "Petya", "Sasha", "Grisha", "Tolya")
CONFIG = """
[server]
host = "127.0.0.1"
[limits]
idle_timeout = 0
connections_per_minute = 100000
connection_burst = 1000
[node]
lease_ttl = {ttl}
call_timeout = 2.0
[store]
write_wait = 0.05
"""
TABLE = """
[[tables]]
game = "stukolka"
options = {{}}
bots = "fill"
at_zero = "debt"
think = {think}
clock = 20
"""


# --- PostgreSQL's processes ----------------------------------------------------------------


def postgres_pids(cluster: PgCluster) -> list[int]:
    """The postmaster and every process it started (its backends and helpers)."""
    assert cluster.folder is not None
    first = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
    pids = [first]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == first:
                pids.append(int(entry.name))
    return pids


def pg_signal(cluster: PgCluster, sig: int) -> None:
    for pid in postgres_pids(cluster):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def pg_crash(cluster: PgCluster) -> None:
    cluster._run(["pg_ctl", "-D", str(cluster.folder / "data"), "-m", "immediate", "-w", "stop"], timeout=60)  # type: ignore[operator]  # noqa: SLF001


def pg_start(cluster: PgCluster) -> None:
    assert cluster.folder is not None
    options = {"listen_addresses": "''", "unix_socket_directories": f"'{cluster.folder}'",
               "port": str(cluster.port), **cluster.settings}
    flags = " ".join(f"-c {k}={v}" for k, v in options.items())
    cluster._run(["pg_ctl", "-D", str(cluster.folder / "data"), "-l", str(cluster.folder / "log"), "-w",  # noqa: SLF001
                  "-t", "60", "-o", flags, "start"], timeout=90)


# --- the players and the probes ---------------------------------------------------------------


@dataclass
class Ack:
    table: int
    deal: int  # the deal's number in its session (a new session counts from 1 again)
    seat: int
    action: str
    at: float
    seal: str | None = None  # the deal's seal as the turn showed it: which deal, whatever the session
    name: str = ""


def told_back(action: str, message: dict[str, Any]) -> bool:
    """The event ``message`` is ``action`` itself, not another move of the same kind (a turn clock's or a
    stand-in's default made meanwhile): its verb, and its card or count where the event tells them."""
    verb, *args = action.split()
    if message.get("kind") != verb:
        return False
    data = message.get("data") or {}
    if "card" in data and args:
        return str(data["card"]) == args[0]
    if "count" in data and verb == "buy" and args != ["shlejf"]:
        return int(data["count"]) == len(args)
    return True


class Player:
    """One bot-protocol player at one table: says start, answers each turn, keeps his acknowledgements."""

    def __init__(self, club: FaultClub, table: int, name: str, node: int, seed: int) -> None:
        import asyncssh

        self.club, self.table, self.name, self.node = club, table, name, node
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.rng = random.Random(seed)
        self.acks: list[Ack] = []
        self.refused = 0
        self.last_error: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.task: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self._asked: tuple[int, str, int, str | None] | None = None  # (deal, action, ask, seal) sent, not yet told back
        self.connected = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        from net.cli.botclient import BotClient

        while True:
            node = self.club.nodes[self.node % len(self.club.nodes)]
            try:
                if node.proc.poll() is not None or not node.port:
                    raise ConnectionError("node down")
                client = await asyncio.wait_for(BotClient.connect("127.0.0.1", node.port, self.key), 10)
            except (OSError, asyncio.TimeoutError, ConnectionError, Exception):
                self.node += 1  # the other node
                await asyncio.sleep(0.5)
                continue
            try:
                await self._play(client)
            except (asyncio.TimeoutError, AssertionError, OSError, ConnectionError):
                pass
            except asyncio.CancelledError:
                client.conn.abort()
                raise
            finally:
                self.connected = False
                client.conn.abort()
            self.node += 1
            await asyncio.sleep(0.3)

    async def _play(self, client: Any) -> None:
        welcome = await client.hello(self.name)
        if welcome.get("type") != "welcome":
            self.errors.append(str(welcome.get("text")))
            await asyncio.sleep(1)
            return
        self.connected = True
        client.send({"type": "sit", "table": self.table})
        client.send({"type": "start", "table": self.table})
        deal = 0
        again_at: float | None = None  # when to say sit/start again after the club could not do it
        sync_at: float | None = None  # when to ask for the turn again after a refused act
        last_start = time.monotonic()
        while True:
            try:
                message = await client.recv(timeout=0.5)
            except asyncio.TimeoutError:
                message = {"type": "quiet"}
            if message is None:
                return
            now = time.monotonic()
            kind = message.get("type")
            if kind in ("state", "turn"):
                view = message.get("view") or {}
                deal = int(view.get("deal_no") or deal)
                if isinstance(view.get("seat"), int):
                    self.seat = view["seat"]
            if kind == "seated":
                self.seat = message.get("seat")
            elif kind == "turn" and message.get("table") == self.table:
                sync_at = None
                action = self.rng.choice(message["legal"])
                seal = (message.get("view") or {}).get("seal")
                self._asked = (deal, action, message["ask"], seal if isinstance(seal, str) else None)
                client.send({"type": "act", "table": self.table, "ask": message["ask"], "action": action})
            elif kind == "event" and message.get("table") == self.table:
                if message.get("kind") == "deal_start":
                    deal = int((message.get("data") or {}).get("deal") or deal + 1)
                asked = self._asked
                if asked is not None and message.get("seat") == self.seat and told_back(asked[1], message):
                    self.acks.append(Ack(self.table, asked[0], int(self.seat or 0), asked[1], time.monotonic(),
                                         asked[3], self.name))
                    self._asked = None
            elif kind == "deal_end":
                client.send({"type": "start", "table": self.table})
                last_start = now
            elif kind == "error":
                self.refused += 1
                self.last_error = message  # what the club said last, for a stalled table's diagnosis
                key = str(message.get("key") or "")
                if message.get("reply") == "act":
                    self._asked = None
                    sync_at = now + 0.2  # the turn again, once it can be
                elif message.get("reply") in ("start", "sit") and key not in SETTLED:
                    again_at = now + 0.5  # the club could not do it just now: once more, soon
            if sync_at is not None and now >= sync_at:
                sync_at = None
                client.send({"type": "sync", "table": self.table})
            if again_at is not None and now >= again_at:
                again_at = None
                client.send({"type": "sit", "table": self.table})
                client.send({"type": "start", "table": self.table})
                last_start = now
            if now - last_start > 5 and kind != "turn":  # a deal's end may be missed (its node paused)
                client.send({"type": "start", "table": self.table})  # between deals, a start may be lost
                client.send({"type": "sync", "table": self.table})
                last_start = now


SETTLED = ("table.in_deal_start", "table.already_seated", "table.already_ready")
"""Refusals of sit/start that mean it is done already (a deal under way, the seat his): nothing to retry."""


class Probe:
    """Another session on one node: asks ``tables`` every ``EVERY`` s and times each answer."""

    EVERY = 0.05

    def __init__(self, club: FaultClub, node: int, name: str) -> None:
        import asyncssh

        self.club, self.node, self.name = club, node, name
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.samples: list[tuple[float, float]] = []  # (sent at, seconds to the answer)
        self.task: asyncio.Task[None] | None = None
        self.down = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        from net.cli.botclient import BotClient

        while True:
            node = self.club.nodes[self.node]
            try:
                if node.proc.poll() is not None:
                    raise ConnectionError
                client = await asyncio.wait_for(BotClient.connect("127.0.0.1", node.port, self.key), 10)
                welcome = await client.hello(self.name)
                if welcome.get("type") != "welcome":
                    raise ConnectionError(welcome)
            except Exception:
                self.down = True
                await asyncio.sleep(0.5)
                continue
            self.down = False
            try:
                while True:
                    sent = time.monotonic()
                    client.send({"type": "tables"})
                    while True:
                        message = await client.recv(timeout=60)
                        if message is None:
                            raise ConnectionError
                        if message.get("type") == "tables":
                            break
                    self.samples.append((sent, time.monotonic() - sent))
                    await asyncio.sleep(self.EVERY)
            except asyncio.CancelledError:
                client.conn.abort()
                raise
            except Exception:
                client.conn.abort()
                self.down = True

    def stalls(self, since: float, until: float) -> list[float]:
        return [took for at, took in self.samples if since <= at <= until]


# --- the club ---------------------------------------------------------------------------------


@dataclass
class FaultResult:
    fault: str
    began: float
    ended: float
    resumed: float | None = None  # seconds after the end until every table wrote again
    lost: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    stalls: list[float] = field(default_factory=list)
    log_lines: dict[str, int] = field(default_factory=dict)
    each: dict[int, float] = field(default_factory=dict)  # table → seconds from the end to its first new entry


class FaultClub:
    def __init__(self, folder: Path, tables: int = 3, ttl: float = 3.0, think: float = 0.05, seed: int = 1) -> None:
        self.folder = folder
        self.tables = list(range(1, tables + 1))
        self.ttl = ttl
        self.think = think
        self.rng = random.Random(seed)
        self.cluster = PgCluster({"fsync": "off", "full_page_writes": "off"})
        self.url = ""
        self.nodes: list[Node] = []
        self.players: list[Player] = []
        self.probes: list[Probe] = []
        self.reader: Any = None
        self.results: list[FaultResult] = []
        self._records: dict[int, Any] = {}
        self._lengths: dict[int, tuple[Any, int]] = {}  # each live table's header and last seq, as last read  # finished records read so far, by id (a record never changes)

    async def start(self) -> None:
        from engine.store.postgres import PgStore

        self.cluster.start()
        self.url = self.cluster.url("club")
        self.folder.mkdir(parents=True, exist_ok=True)
        text = CONFIG.format(ttl=self.ttl) + "".join(TABLE.format(think=self.think) for _ in self.tables)
        (self.folder / "sukno.toml").write_text(text, "utf-8")
        for name in ("A", "B"):
            node = Node(name, self.folder, self.url, ttl=self.ttl)
            self.nodes.append(node)
            await node.ready(60)
        self.reader = PgStore(self.url, role="checker")
        for i, table in enumerate(self.tables):
            player = Player(self, table, NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else str(i)), i + 1, seed=i)
            self.players.append(player)
            player.start()
        for i in range(len(self.nodes)):
            probe = Probe(self, i, f"Echo{'AB'[i]}")
            self.probes.append(probe)
            probe.start()
        await self.wait_playing(60)

    async def stop(self) -> None:
        for task in [p.task for p in self.players] + [p.task for p in self.probes]:
            if task is not None:
                task.cancel()
        for node in self.nodes:
            node.kill()
        if self.reader is not None:
            self.reader.close()
        self.cluster.stop()

    # -- reading the truth -------------------------------------------------------------------

    def _read(self, work: Any, tries: int = 50) -> Any:
        """A read of the checker's own connection, tried again while PostgreSQL comes back."""
        from engine.store.base import StoreError

        for attempt in range(tries):
            try:
                return work(self.reader)
            except StoreError:
                if attempt == tries - 1:
                    raise
                time.sleep(0.2)

    def journal_lengths(self) -> dict[int, tuple[Any, int]]:
        def read(store: Any) -> dict[int, tuple[Any, int]]:
            out = {}
            for live in store.live_tables():  # the last seq only: a whole journal parsed here every
                # 0.1 s would hold this process's GIL and be timed as the echo probes' stall
                header = json.dumps(live.header.to_json(), sort_keys=True, default=str)
                known = self._lengths.get(live.table_id)
                after = known[1] if known is not None and known[0] == header else 0
                entries = store.journal(live.table_id, after=after)
                out[live.table_id] = (header, entries[-1].seq if entries else after)
            self._lengths = out
            return out

        return self._read(read)

    async def wait_playing(self, timeout: float, since: dict[int, tuple[Any, int]] | None = None) -> float | None:
        """Seconds until every table wrote a journal entry past ``since`` (None: not within ``timeout``)."""
        began = time.monotonic()
        base = since if since is not None else await asyncio.to_thread(self.journal_lengths)
        waiting = set(self.tables)
        self.resumed_at: dict[int, float] = {}
        while waiting:
            if time.monotonic() - began > timeout:
                return None
            now = await asyncio.to_thread(self.journal_lengths)
            for table in [t for t in waiting if now.get(t) != base.get(t)]:
                self.resumed_at[table] = time.monotonic()
                waiting.discard(table)
            if waiting:
                await asyncio.sleep(0.1)
        return time.monotonic() - began

    def check(self) -> tuple[list[Any], list[str]]:
        """(acknowledged actions neither in the journal nor in a finished record, other problems) as the
        store has it now.  A session's end moves its deals from the journal to the records, and the next
        session counts its deals from 1 again: a deal is found by its seal, wherever it is now."""
        from engine.store.base import replay_journal

        acks = {id(player): list(player.acks) for player in self.players}  # before the store is read: the
        # players play on meanwhile, and an acknowledgement newer than the read would count as lost
        problems: list[str] = []
        try:
            self._read(lambda s: s.check_ledger())
            total = self._read(lambda s: s.ledger_sum())
            if total != 0:
                problems.append(f"the ledger sums to {total}")
        except Exception as err:
            problems.append(f"ledger: {err}")
        lives = {live.table_id: live for live in self._read(lambda s: s.live_tables())}
        games: dict[int, Any] = {}
        for table in self.tables:
            live = lives.get(table)
            if live is None:
                problems.append(f"table {table} has no live journal")
                continue
            entries = self._read(lambda s: s.journal(table))
            try:
                games[table] = replay_journal(live, entries).game
            except Exception as err:
                problems.append(f"table {table}'s journal does not replay: {err}")
        sealed = self._sealed_deals(games)
        lost: list[Any] = []
        for player in self.players:
            if player.table in games or player.table not in lives:
                lost += self._lost(player, acks[id(player)], games.get(player.table), sealed)
        return lost, problems

    def _sealed_deals(self, games: dict[int, Any]) -> dict[str, list[str]]:
        """Every deal whose seed is shown, by its seal: its actions as "Name: action" (records and journals)."""
        out: dict[str, list[str]] = {}
        for player in self.players:
            infos = self._read(lambda s: s.history(player.name, limit=100_000))
            for info in infos:
                if info.id not in self._records:
                    self._records[info.id] = self._read(lambda s: s.get_record(info.id))
        for record in self._records.values():
            for deal in record.deals:
                if deal.fair and deal.fair.get("seal"):
                    out[str(deal.fair["seal"])] = list(deal.actions)
        for game in games.values():
            if game is None:
                continue
            for log in game.deals:
                if log.fair and log.fair.get("seal"):
                    out[str(log.fair["seal"])] = [f"{game.names[s]}: {a.text()}" for s, a in log.actions]
        return out

    @staticmethod
    def _lost(player: Player, acks_made: list[Ack], game: Any, sealed: dict[str, list[str]]) -> list[Ack]:
        """Acknowledgements of ``player`` that no deal holds: a deal found by its seal (its seed shown, in
        the journal or a record), else the journal's deal of that number whose seed is not shown yet (the
        deal in play).  In order, per deal: an acknowledgement missed on the way is no loss."""
        out: list[Ack] = []
        by_deal: dict[Any, list[Ack]] = {}
        for ack in acks_made:
            by_deal.setdefault(ack.seal or ("deal", ack.deal), []).append(ack)
        for key, acks in by_deal.items():
            done: list[str] | None = sealed.get(key) if isinstance(key, str) else None
            if done is None and game is not None and 1 <= acks[0].deal <= len(game.deals):
                log = game.deals[acks[0].deal - 1]
                if not log.fair:
                    done = [f"{game.names[s]}: {a.text()}" for s, a in log.actions]
            if done is None:
                out += acks
                continue
            at = 0
            for ack in acks:
                want = f"{player.name}: {ack.action}"
                while at < len(done) and done[at] != want:
                    at += 1
                if at == len(done):
                    out.append(ack)
                    at = 0
                else:
                    at += 1
        return out

    async def node_tables(self, node: Node) -> list[dict[str, Any]] | None:
        from net.house.admin import socket_path

        path = socket_path(node.data)
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 2)
            writer.write(json.dumps({"argv": ["tables"]}).encode() + b"\n")
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), 2)
            writer.close()
            return [{k: row.get(k) for k in ("id", "seats", "in_deal", "deal_no", "pot")}
                    for row in json.loads(line)["data"]["tables"]]
        except Exception:
            return None

    async def replicas_agree(self, timeout: float = 10.0) -> str | None:
        """None once every live node shows the same tables (seats, deal, pot); else what differed last."""
        deadline = time.monotonic() + timeout
        last = "no node answered"
        while time.monotonic() < deadline:
            live = [n for n in self.nodes if n.proc.poll() is None]
            seen = await asyncio.gather(*(self.node_tables(n) for n in live))
            if all(s is not None for s in seen) and all(s == seen[0] for s in seen):
                return None
            last = "; ".join(f"{n.name}: {s}" for n, s in zip(live, seen))
            await asyncio.sleep(0.1)
        return last

    # -- the faults --------------------------------------------------------------------------------

    def owner_of_most(self) -> Node:
        leases = self._read(lambda s: s.leases())
        counts: dict[str, int] = {}
        for table in self.tables:
            if table in leases and leases[table][2] > 0:
                counts[leases[table][0]] = counts.get(leases[table][0], 0) + 1
        name = max(counts, key=counts.get) if counts else self.nodes[0].name  # type: ignore[arg-type]
        return next(n for n in self.nodes if n.name == name)

    async def fault(self, kind: str, hold: float = 10.0) -> FaultResult:
        """Inject one fault, hold it ``hold`` s, end it; then wait for play and check everything."""
        marks = {n.name: len(n.lines) for n in self.nodes}
        paused = ""  # a paused node's own probe waits with it: it is no other session
        ended: float | None = None
        back: asyncio.Task[float | None] | None = None  # the combined fault: play watched from PostgreSQL's return
        began = time.monotonic()
        if kind == "pg_crash":
            await asyncio.to_thread(pg_crash, self.cluster)
            await asyncio.sleep(hold)
            await asyncio.to_thread(pg_start, self.cluster)
        elif kind == "pg_pause":
            pg_signal(self.cluster, signal.SIGSTOP)
            await asyncio.sleep(hold)
            pg_signal(self.cluster, signal.SIGCONT)
        elif kind == "owner_kill":
            victim = self.owner_of_most()
            victim.kill()
            marks.pop(victim.name, None)
            base = await asyncio.to_thread(self.journal_lengths)  # the dead write nothing more
            taken_over = asyncio.get_running_loop().create_task(self.wait_playing(60, since=base))
            await asyncio.sleep(self.ttl + 1.5)
            index = self.nodes.index(victim)
            fresh = Node(victim.name, self.folder, self.url, ttl=self.ttl)
            self.nodes[index] = fresh
            await fresh.ready(60)
        elif kind == "owner_kill_pg_pause":  # both at once: the owner dies while PostgreSQL sleeps
            victim = self.owner_of_most()
            pg_signal(self.cluster, signal.SIGSTOP)
            victim.kill()
            marks.pop(victim.name, None)
            await asyncio.sleep(hold)
            pg_signal(self.cluster, signal.SIGCONT)
            ended = time.monotonic()  # the other node takes the tables over now: the victim is no part of it
            back = asyncio.get_running_loop().create_task(self._resumed_after(ended))  # not after its restart
            index = self.nodes.index(victim)
            fresh = Node(victim.name, self.folder, self.url, ttl=self.ttl)
            self.nodes[index] = fresh
            await fresh.ready(60)
        elif kind == "node_pause":
            victim = self.owner_of_most()
            paused = victim.name
            victim.proc.send_signal(signal.SIGSTOP)
            await asyncio.sleep(hold)
            victim.proc.send_signal(signal.SIGCONT)
        else:
            raise ValueError(kind)
        ended = ended or time.monotonic()
        result = FaultResult(kind, began, ended)
        if kind == "owner_kill":  # play must resume within lease_ttl + 1 s of the death, not of the restart
            result.resumed = await taken_over
        elif back is not None:
            result.resumed = await back
        else:
            result.resumed = await self._resumed_after(ended)
        result.each = {t: round(at - (began if kind == "owner_kill" else ended), 2)
                       for t, at in getattr(self, "resumed_at", {}).items()}
        settled = time.monotonic()  # the stalls counted are the fault's and the resume's, not the checks'
        await asyncio.sleep(1.0)
        result.lost, result.problems = await asyncio.to_thread(self.check)
        differ = await self.replicas_agree()
        if differ is not None:
            result.problems.append(f"the nodes disagree: {differ}")
        result.stalls = [s for p in self.probes if self.nodes[p.node].name != paused
                         for s in p.stalls(began, settled)]
        result.log_lines = {n.name: len(n.lines) - marks[n.name] for n in self.nodes if n.name in marks}
        self.results.append(result)
        return result

    async def _resumed_after(self, ended: float) -> float | None:
        """Seconds from ``ended`` until every table has written something new (None: not in 60 s)."""
        base: dict[int, tuple[Any, int]] | None = None
        while base is None:
            try:
                base = await asyncio.to_thread(self.journal_lengths)
            except Exception:
                await asyncio.sleep(0.1)
        took = await self.wait_playing(60, since=base)
        return None if took is None else time.monotonic() - ended

    def acknowledged(self) -> int:
        return sum(len(p.acks) for p in self.players)


def p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    return f"p50 {statistics.median(values) * 1000:.0f} ms, p99 {p99(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
