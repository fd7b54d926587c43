"""What the event loop still waits for: a timer-lag sampler and a stall watchdog.

Off unless ``SUKNO_LOOP_PROBE`` names a folder (the benches set it; nothing of the club depends on
it).  A task on the loop wakes every ``EVERY`` s and notes how late it woke (the lag: how long the
loop was busy with something else); a daemon thread watches that beat, and when it is older than
``STALL`` s it takes the loop thread's stack (``sys._current_frames``) — what the loop is doing
while everyone waits (a store call, a render, a blocking send).  Every second the thread writes
``loop-<node>-<pid>.json`` (0600, replaced atomically): the lag's p50/p99/max, and the worst
stalls with the stack seen in each.  ``tests/bench/loop_report.py`` prints the files.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

ENV = "SUKNO_LOOP_PROBE"
EVERY = 0.005
STALL = 0.05
KEEP = 12
"""The worst stalls kept (with their stacks)."""
FRAMES = 8


class LoopProbe:
    """The lag sampler (on the loop) and the watchdog (a thread) of one process's loop."""

    def __init__(self, folder: Path, name: str) -> None:
        self.path = folder / f"loop-{name}-{os.getpid()}.json"
        self.lags: list[float] = []
        self.stalls: list[dict[str, Any]] = []
        self._beat = time.perf_counter()
        self._seen: list[str] | None = None  # the stack the watchdog took during the stall in progress
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None
        self._thread = threading.Thread(target=self._watch, name="sukno loop probe", daemon=True)

    def start(self) -> None:
        self._loop_thread = threading.get_ident()
        self._task = asyncio.get_running_loop().create_task(self._sample(), name="sukno loop probe")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
        self._write()

    async def _sample(self) -> None:
        while True:
            self._beat = began = time.perf_counter()
            await asyncio.sleep(EVERY)
            lag = time.perf_counter() - began - EVERY
            with self._lock:
                self.lags.append(lag)
                if lag >= STALL:
                    self.stalls.append({"ms": round(lag * 1000, 1), "at": round(time.time(), 3),
                                        "stack": self._seen or []})
                    self.stalls.sort(key=lambda s: -s["ms"])
                    del self.stalls[KEEP:]
                self._seen = None

    def _watch(self) -> None:
        wrote = time.monotonic()
        while not self._stop.wait(EVERY):
            if self._seen is None and time.perf_counter() - self._beat > STALL:
                frame = sys._current_frames().get(self._loop_thread)
                if frame is not None:
                    stack = traceback.extract_stack(frame)[-FRAMES:]
                    self._seen = [f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in stack]
            if time.monotonic() - wrote >= 1.0:
                wrote = time.monotonic()
                self._write()

    def report(self) -> dict[str, Any]:
        with self._lock:
            lags = sorted(self.lags)
            stalls = list(self.stalls)
        def pct(q: float) -> float:
            return round(lags[min(len(lags) - 1, int(len(lags) * q))] * 1000, 2) if lags else 0.0
        return {"samples": len(lags), "lag_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
                "stalls_over_ms": STALL * 1000, "stalls": stalls}

    def _write(self) -> None:
        try:
            fd, tmp = tempfile.mkstemp(prefix=".loop.", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.report(), f, indent=1)
            os.replace(tmp, self.path)
        except OSError:
            pass


def start_probe(name: str) -> LoopProbe | None:
    """On the loop: a probe writing into ``$SUKNO_LOOP_PROBE`` if that names a folder, else None."""
    folder = os.environ.get(ENV, "")
    if not folder or not Path(folder).is_dir():
        return None
    probe = LoopProbe(Path(folder), "".join(c if c.isalnum() else "_" for c in name)[:32] or "serve")
    probe.start()
    return probe
