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


# -- the private names behind net/textual_compat.py (issue 14 step 2) ---------------------------

import textual  # noqa: E402
from textual.driver import Driver  # noqa: E402

from net import textual_compat as tc  # noqa: E402


def _need(obj: object, path: str, why: str) -> object:
    """Follow ``path`` from ``obj``, failing with the missing name and what sukno uses it for."""
    for name in path.split("."):
        if not hasattr(obj, name):
            raise AssertionError(
                f"Textual {textual.__version__} has no {type(obj).__name__}.{name} (in {path}): "
                f"net/textual_compat.py must change — sukno uses it for {why}"
            )
        obj = getattr(obj, name)
    return obj


def test_the_parsers_private_names_have_their_shape() -> None:
    parser_cls = _need(__import__("textual._xterm_parser", fromlist=["XTermParser"]), "XTermParser", "the key parser")
    assert callable(_need(parser_cls, "_parse_extended_key.cache_clear", "letting finished Apps go"))
    parser = tc.new_parser()
    assert isinstance(parser, parser_cls)
    assert callable(_need(parser, "feed", "parsing keys")) and callable(_need(parser, "tick", "a lone Escape"))
    assert callable(_need(parser, "_gen.close", "letting finished Apps go"))
    assert callable(_need(parser, "_tokens.clear", "letting finished Apps go"))
    _need(parser, "_timeout_time", "waiting for a lone Escape")
    keys = list(parser.feed("a\x1b"))
    assert [getattr(k, "key", None) for k in keys] == ["a"] and tc.parser_waiting(parser)
    tc.drop_parser(parser)  # twice is harmless
    tc.drop_parser(parser)


class _Drawn(App[None]):
    seen: dict[str, object] = {}

    def on_mount(self) -> None:
        self.set_timer(0.05, self._look)

    def _look(self) -> None:
        self.seen["compositor"] = hasattr(self.screen, "_compositor")
        self.seen["live"] = tc.app_live(self)
        self.seen["mounted"] = tc.app_mounted(self)
        self.seen["idle"] = tc.pump_idle(self.screen)
        self.seen["queued"] = tc.queued_messages(self)
        with tc.app_context(self):
            self.seen["strips"] = len(tc.render_strips(self.screen))
        self.exit()


async def test_the_apps_private_names_have_their_shape() -> None:
    app = _Drawn()
    for path in ("_capture_stdout", "_capture_stderr", "_running", "_closed", "_is_mounted", "_context",
                 "_message_queue", "_next_callbacks", "_exception"):
        _need(app, path, tc.PRIVATE_NAMES.get(path, "the driver and the spectator hub"))
    assert not tc.app_started(app) and not tc.app_live(app) and tc.queued_messages(app) == 0
    assert tc.app_failure(app) is None and not tc.app_mounted(app)
    tc.quiet_streams(app, None, None)
    assert app._capture_stdout is None and app._capture_stderr is None
    await app.run_async(headless=True, size=(30, 7))
    assert app.seen.get("compositor"), f"Textual {textual.__version__} has no Screen._compositor: net/textual_compat.py must change"
    assert app.seen["live"] is True and app.seen["mounted"] is True and app.seen["strips"] == 7, app.seen
    assert isinstance(app.seen["idle"], bool) and isinstance(app.seen["queued"], int)
    assert not tc.app_live(app)


async def test_a_drivers_private_names_have_their_shape() -> None:
    class _Null(Driver):
        def write(self, data: str) -> None: ...
        def start_application_mode(self) -> None: ...
        def disable_input(self) -> None: ...
        def stop_application_mode(self) -> None: ...

    app = App[None]()
    driver = _Null(app, size=(80, 24))
    assert _need(driver, "_size", tc.PRIVATE_NAMES["Driver._size"]) == (80, 24)
    assert tc.driver_window(driver) == (80, 24)
    tc.set_driver_window(driver, 100, 30)
    assert tc.driver_window(driver) == (100, 30)


def test_a_driver_is_handed_what_it_serves_once_and_weakly() -> None:
    """Textual makes the driver itself: the hand-off carries the link to it, once, and keeps no dead App."""
    import gc

    handoff: tc.DriverHandoff[str] = tc.DriverHandoff()
    app = App[None]()
    handoff.give(app, "link")
    assert handoff.take(app) == "link"
    with pytest.raises(KeyError):
        handoff.take(app)
    handoff.give(app, "again")
    del app
    gc.collect()
    assert len(handoff) == 0


def test_screen_compositor_render_strips_exists() -> None:
    from textual._compositor import Compositor

    assert callable(_need(Compositor, "render_strips", "a watcher's whole screen"))


def test_the_lazy_parts_textual_loads_at_an_apps_first_run_are_all_there() -> None:
    """The pinned Textual has every module the server imports ahead (a move shows here first)."""
    from net.textual_compat import LAZY_MODULES, import_lazy_parts

    assert import_lazy_parts() == len(LAZY_MODULES)
