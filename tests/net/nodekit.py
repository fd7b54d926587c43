"""Nodes of one club for the tests and benches: ``sukno serve --node NAME --store URL`` children.

Each node is a child process with its own data folder and a free port; ``ready`` reads the port
from the line it prints.  ``kill`` is kill -9; ``stop`` is SIGTERM (the node hands its tables
over).  Every test kills its nodes in ``finally``.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from engine.store.base import JournalEntry, replay_journal

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """
[server]
host = "127.0.0.1"
[limits]
idle_timeout = 0
connections_per_minute = 100000
connection_burst = 1000
[node]
lease_ttl = {ttl}
[[tables]]
game = "stukolka"
options = {{}}
"""


class Node:
    """``sukno serve --node NAME`` as a child process (no name: a lone ``sukno serve --store``)."""

    def __init__(self, name: str, folder: Path, url: str, ttl: float = 3.0, call_timeout: float = 2.0,
                 write_wait: float = 0.05) -> None:
        self.name = name
        data = self.data = folder / f"data-{name}"
        data.mkdir(parents=True, exist_ok=True)
        config = folder / "sukno.toml"
        if not config.exists():
            text = CONFIG.format(ttl=ttl).replace("[node]\n", f"[node]\ncall_timeout = {call_timeout}\n")
            text += f"[store]\nwrite_wait = {write_wait}\n"
            config.write_text(text, "utf-8")
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "net.cli.main", "serve", "--config", str(config), "--data", str(data), "--port", "0",
             "--store", url, *(["--node", name] if name else [])],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.port = 0
        self._drainer: threading.Thread | None = None

    async def ready(self, timeout: float = 30.0) -> int:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        assert self.proc.stderr is not None
        while time.monotonic() < deadline:
            line = await asyncio.wait_for(loop.run_in_executor(None, self.proc.stderr.readline), timeout)
            if not line:
                raise AssertionError(f"node {self.name} ended with {self.proc.wait()} before opening:\n"
                                     + "".join(self.lines[-20:]))
            self.lines.append(line)
            if "ssh -p " in line:
                self.port = int(line.split("ssh -p ")[1].split()[0])
                self._drainer = threading.Thread(target=self._drain, daemon=True)
                self._drainer.start()
                return self.port
        raise AssertionError(f"node {self.name} did not open in time")

    async def ended(self, timeout: float = 30.0) -> tuple[int, str]:
        """Its exit status and what it wrote (for a node that must refuse to start)."""
        loop = asyncio.get_running_loop()
        _out, err = await asyncio.wait_for(loop.run_in_executor(None, self.proc.communicate), timeout)
        return self.proc.returncode, err

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass

    def stop(self, timeout: float = 20.0) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        if self._drainer is not None:
            self._drainer.join(5)  # its last lines read
        return status


def journal(store: Any) -> list[JournalEntry]:
    return store.journal(1)


def table_state(store: Any) -> dict:
    live = store.live_tables()[0]
    state = dict(live.header.extra.get("table", {}))
    for entry in journal(store):
        if entry.kind == "table":
            state = dict(entry.payload)
    return state


def game_of(store: Any):
    live = store.live_tables()[0]
    if not live.header.extra.get("session"):
        return None
    return replay_journal(live, journal(store)).game


def mark(store: Any) -> tuple[dict, int]:
    return store.live_tables()[0].header.to_json(), len(journal(store))


async def grown(store: Any, old: tuple[dict, int], timeout: float = 15.0) -> tuple[dict, int]:
    """The journal once it has the next entry (or a new session's header)."""
    deadline = time.monotonic() + timeout
    while True:
        now = mark(store)
        if now[0] != old[0] or now[1] > old[1]:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the journal did not grow past {old[1]} entries in {timeout}s")
        await asyncio.sleep(0.01)


def next_move(store: Any, rng: random.Random, names: tuple[str, ...]) -> tuple[str, str]:
    """Who types what next, as the store has it: a legal action, or ``start`` between deals."""
    game = game_of(store)
    if game is None or not game.in_deal:
        ready = set(table_state(store).get("ready", []))
        return next(n for n in names if n not in ready), "start"
    seat = game.to_act()[0]
    return game.names[seat], rng.choice(game.legal_actions(seat)).text(ascii=True)
