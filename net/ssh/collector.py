"""Python's garbage collector, tuned for hundreds of sessions: rare passes, full ones when quiet.

The numbers and the reasons were measured with ``tests/bench/ssh_load.py``;
see ``tune_gc`` and ``collect_when_quiet``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.ssh.ports import ServerPort

log = logging.getLogger("sukno.server")

GC_THRESHOLDS = (50_000, 20, 100)
COLLECT_EVERY = 10.0
COLLECT_QUIET = 1.0
COLLECT_MAX_WAIT = 60.0
COLLECT_MANY = 40  # ended Apps (~1 MB each) that are worth a pause even in play


def tune_gc() -> None:
    """Make the cyclic GC rare: with hundreds of sessions it was most of the CPU.

    Measured (tests/bench/ssh_load.py, 200 watchers): with Python's defaults the
    collector took 85 of the 122 ms of CPU each game action cost, and its full
    passes over a big heap were the latency's long tail.  Textual's renders
    make many short-lived objects that refcounting frees anyway; collecting
    every 50 000 allocations instead of 700 lets them die uncounted.  The code
    loaded at start is frozen out of the collector's scans for good.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def collect_when_quiet(server: ServerPort) -> None:
    """A full GC pass when Apps have ended, at a quiet moment of the tables.

    With the collector tuned to run rarely (``tune_gc``), an ended App's
    cycles (~1 MB) sit in the oldest generation until a full pass, so the
    garbage of ended sessions would pile up.  A full pass with 200 sessions
    took up to ~1 s, which during play became the p99 of every screen
    (881 ms in the bench); so it waits (at most COLLECT_MAX_WAIT s, or until
    COLLECT_MANY Apps have ended) for a moment with no table event for
    COLLECT_QUIET s — a card table has many.  ``server.apps_ended`` counts the
    ended Apps (sessions add to it) and is reset here.
    """
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(COLLECT_EVERY)
        if server.apps_ended:
            waited = 0.0
            while (loop.time() - server.runtime.last_event < COLLECT_QUIET and waited < COLLECT_MAX_WAIT
                   and server.apps_ended < COLLECT_MANY):
                await asyncio.sleep(0.25)
                waited += 0.25
            server.apps_ended = 0
            started = time.perf_counter()
            found = gc.collect()
            log.debug("gc: %d objects in %.0f ms", found, (time.perf_counter() - started) * 1000)
