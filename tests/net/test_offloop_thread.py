"""``net.ssh.offloop.StoreThread.run``: one job in the store's thread, its result or its refusal awaited on
the loop (issue 15) — and a store that cannot even be reached refuses the job at once, never leaves
its asker waiting for the next round."""

from __future__ import annotations

import asyncio
import threading

from engine.store.base import StoreError
from net.ssh.offloop import StoreThread


class Store:
    def __init__(self) -> None:
        self.threads: list[str] = []

    def answer(self, value: int) -> int:
        self.threads.append(threading.current_thread().name)
        return value * 2


async def test_a_job_runs_in_the_thread_and_its_result_and_its_refusal_come_back() -> None:
    store = Store()
    thread = StoreThread(store, "sukno test store", every=3600.0)
    thread.start()
    try:
        assert await asyncio.wait_for(thread.run(lambda own: own.answer(21)), 10) == 42
        assert store.threads == ["sukno test store"]

        def refused(_own: Store) -> None:
            raise StoreError("the store said no")

        try:
            await asyncio.wait_for(thread.run(refused), 10)
            raise AssertionError("the refusal was not raised")
        except StoreError as err:
            assert "said no" in str(err)
    finally:
        await asyncio.get_running_loop().run_in_executor(None, thread.stop, 5.0)
    stopped = thread.run(lambda own: own.answer(1))
    try:
        await asyncio.wait_for(stopped, 10)
        raise AssertionError("a stopped thread took a job")
    except StoreError as err:
        assert "stopped" in str(err)


async def test_a_store_that_cannot_be_reached_refuses_the_job_at_once(monkeypatch) -> None:
    import net.ssh.offloop

    def unreachable(store, timeout, role="thread"):
        raise StoreError("cannot reach the database")

    monkeypatch.setattr(net.ssh.offloop, "own_store", unreachable)
    thread = StoreThread(Store(), "sukno test store", every=3600.0)
    thread.start()
    try:
        try:
            await asyncio.wait_for(thread.run(lambda own: own.answer(1)), 10)  # not an hour: at once
            raise AssertionError("the job ran without a store")
        except StoreError as err:
            assert "cannot reach" in str(err)
    finally:
        await asyncio.get_running_loop().run_in_executor(None, thread.stop, 5.0)


async def test_a_job_its_asker_gave_up_on_is_never_made_late() -> None:
    """``as_pending``'s wait ran out while the job was still queued behind a slow one: the person was
    told it failed, so the thread must not make it afterwards (a name told unwritten, then written)."""
    from net.ssh.offloop import as_pending

    gate = threading.Event()
    store = Store()
    thread = StoreThread(store, "sukno test store", every=3600.0)
    thread.start()
    try:
        slow = thread.run(lambda own: own.answer(1) if gate.wait(10) else 0)
        got: list[object] = []
        as_pending(thread.run(lambda own: own.answer(2)), "test", lambda err: "failed", wait=0.05).then(got.append)
        for _ in range(1000):  # until its wait has run out (the loop's timer)
            if got:
                break
            await asyncio.sleep(0.01)
        assert got == ["failed"]
        gate.set()
        assert await asyncio.wait_for(slow, 10) == 2
        assert await asyncio.wait_for(thread.run(lambda own: own.answer(3)), 10) == 6
        assert len(store.threads) == 2  # the slow job and the last: the one given up on was never made
    finally:
        gate.set()
        await asyncio.get_running_loop().run_in_executor(None, thread.stop, 5.0)


async def test_a_job_begun_when_the_wait_runs_out_is_not_told_as_failed() -> None:
    """The wait ran out while the store was making the job (begun, not queued): it will land, so telling
    him it failed was untrue.  He hears that it is still being made (``still``), then its real result."""
    from net.ssh.offloop import as_pending

    gate, begun = threading.Event(), threading.Event()
    store = Store()
    thread = StoreThread(store, "sukno test store", every=3600.0)
    thread.start()
    try:
        def slow(own: Store) -> int:
            begun.set()
            gate.wait(10)
            return own.answer(5)

        got: list[object] = []
        still: list[str] = []
        job = thread.run(slow)
        await asyncio.get_running_loop().run_in_executor(None, begun.wait, 10)
        as_pending(job, "test", lambda err: "failed", wait=0.05, still=lambda: still.append("still")).then(got.append)
        for _ in range(1000):  # until its wait has run out (the loop's timer)
            if still or got:
                break
            await asyncio.sleep(0.01)
        assert got == [] and still == ["still"]
        gate.set()
        assert await asyncio.wait_for(job, 10) == 10
        await asyncio.sleep(0)
        assert got == [10] and store.threads == ["sukno test store"]  # the real outcome, told once
    finally:
        gate.set()
        await asyncio.get_running_loop().run_in_executor(None, thread.stop, 5.0)
