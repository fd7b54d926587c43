"""Analyses asked for in the club: made in a worker process, one at a time per node, kept in the store.

The search that judges a game's decisions takes seconds of CPU; made on the event loop it would stall
every session of the node, made in a thread it would still hold the interpreter's lock.  So it runs in
one worker process (a queue, first come first served, one waiting analysis per person), with a bound
on its time; the loop only waits for a future.  A finished analysis is kept in the store by its
record, budget and seed, so asking again costs nothing and every node sees it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

from engine.table.pending import Pending

log = logging.getLogger("sukno.analysis")

BUDGET = 24
"""Imagined deals per decision for an analysis asked for in the club."""
SEED = 1
TIME_LIMIT = 300.0
"""Seconds an analysis may take before it is given up (the worker is then started afresh)."""


def analyse_record(body: str, budget: int, seed: int) -> str:
    """In the worker process: the analysis of one record (its JSON) as JSON."""
    from engine.analysis import analyse
    from engine.record import load_record

    return json.dumps(analyse(load_record(json.loads(body)), budget=budget, seed=seed).to_json(), ensure_ascii=False)


class Analyst:
    """The node's analysis queue: ``ask`` answers a ``Pending`` of lines, or of a catalogue key."""

    def __init__(self, off_loop: Callable[[Callable[[Any], Any]], asyncio.Future[Any]]) -> None:
        self.off_loop = off_loop
        self.budget = BUDGET  # imagined deals per decision: the cost of each analysis, and its accuracy
        self.waiting: set[str] = set()  # people with an analysis on its way: one each
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()  # one analysis at a time: the others wait their turn, in order

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fresh interpreter, not a fork of this one (its threads, sockets and loop stay here).
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def ask(self, name: str, record_id: int, lang: str, lines: Callable[[dict[str, Any], str], list[str]]) -> Pending[str | list[str]]:
        """The analysis's lines for ``name``, or a catalogue key saying why not."""
        pending: Pending[str | list[str]] = Pending("analyse")
        if name in self.waiting:
            pending.resolve("analysis.busy")
            return pending
        self.waiting.add(name)
        task = asyncio.get_running_loop().create_task(self._make(name, record_id, lang, lines, pending))
        task.add_done_callback(lambda _: self.waiting.discard(name))
        return pending

    async def _make(self, name: str, record_id: int, lang: str, lines: Callable[[dict[str, Any], str], list[str]],
                    pending: Pending[str | list[str]]) -> None:
        try:
            budget = self.budget
            found = await self.off_loop(lambda store: _read(store, name, record_id, budget))
            if isinstance(found, str):
                pending.resolve(found)
                return
            body, kept = found
            if kept is None:
                async with self._lock:
                    loop = asyncio.get_running_loop()
                    future = loop.run_in_executor(self._worker(), analyse_record, body, self.budget, SEED)
                    kept = await asyncio.wait_for(future, TIME_LIMIT)
                made = kept
                budget = self.budget
                await self.off_loop(lambda store: store.keep_analysis(record_id, budget, SEED, made))
            pending.resolve(lines(json.loads(kept), lang))
        except asyncio.TimeoutError:
            log.warning("the analysis of record %d took over %g s; given up", record_id, TIME_LIMIT)
            self.close()
            pending.resolve("analysis.too_long")
        except Exception:
            log.exception("the analysis of record %d failed", record_id)
            pending.resolve("cmd.failed")


def _read(store: Any, name: str, record_id: int, budget: int) -> tuple[str, str | None] | str:
    """In the store's thread: (the record's JSON, a kept analysis or None), or why not (a catalogue key)."""
    from engine.store.base import StoreError

    try:
        record = store.get_record(record_id)
    except StoreError:
        return "analysis.no_record"
    if not store.played(record_id, name):
        return "analysis.not_yours"
    return json.dumps(record.to_json(), ensure_ascii=False), store.kept_analysis(record_id, budget, SEED)
