"""The adapter for Textual's behaviour beyond its API, checked on the interpreter that runs the tests.

CI runs this file on 3.11, 3.12 and 3.13: where Textual switches a shared loop to
eager tasks, the guard must undo it, or asyncssh logins hang (issue 22).
"""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App

from net.textual_compat import keep_tasks_lazy

EAGER = getattr(asyncio, "eager_task_factory", None)


class _Blank(App[None]):
    async def on_mount(self) -> None:
        self.exit()


async def _run_blank_app() -> None:
    await _Blank().run_async(headless=True, size=(20, 5))


@pytest.mark.skipif(EAGER is None, reason="Python 3.11 has no eager task factory to guard against")
async def test_textual_still_switches_an_unguarded_loop_to_eager_tasks() -> None:
    """What the adapter exists for: if this fails, Textual changed and the guard may be stale."""
    loop = asyncio.get_running_loop()
    try:
        await _run_blank_app()
        assert loop.get_task_factory() is EAGER
    finally:
        loop.set_task_factory(None)


async def test_a_guarded_loop_keeps_lazy_tasks_after_an_app_ran() -> None:
    loop = asyncio.get_running_loop()
    keep_tasks_lazy(loop)
    await _run_blank_app()
    assert loop.get_task_factory() is None
    started: list[str] = []

    async def note() -> None:
        started.append("ran")

    task = loop.create_task(note())
    assert started == []  # a lazy task starts at the next turn of the loop, as asyncssh expects
    await task
    assert started == ["ran"]


async def test_the_guard_undoes_an_eager_factory_already_set_and_lets_others_through() -> None:
    loop = asyncio.get_running_loop()
    if EAGER is not None:
        loop.set_task_factory(EAGER)
    keep_tasks_lazy(loop)
    keep_tasks_lazy(loop)  # twice is harmless
    assert loop.get_task_factory() is None

    def factory(lp: asyncio.AbstractEventLoop, coro, **kw):  # type: ignore[no-untyped-def]
        return asyncio.Task(coro, loop=lp, **kw)

    loop.set_task_factory(factory)
    try:
        assert loop.get_task_factory() is factory
    finally:
        loop.set_task_factory(None)
