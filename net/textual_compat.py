"""Where the club leans on Textual's behaviour beyond its public API, in one place.

Textual's ``App.run_async`` switches the *running* event loop to
``asyncio.eager_task_factory`` on Python 3.12+ (3.11 has none).  In a server
that loop is shared with asyncssh, whose authentication handler starts its
coroutine in ``Auth.__init__`` with ``create_task`` and relies on the task
running later: eagerly run, the coroutine sends its failure or success reply
before the connection has recorded the handler, asyncssh drops the reply as
stale, and the client waits forever after "Authentications that can continue".
So the club's loop keeps ordinary (lazy) tasks, as 3.11 always had.

Below that, every private Textual name the driver and the spectator hub read,
each behind one small function (``PRIVATE_NAMES`` lists them, and why).
"""

from __future__ import annotations

import asyncio
import importlib
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from textual._xterm_parser import XTermParser  # a private module: Textual's only key parser

_GUARD = "_sukno_lazy_tasks"


def keep_tasks_lazy(loop: asyncio.AbstractEventLoop) -> None:
    """Undo an eager task factory on ``loop`` and refuse it from now on (Textual's apps set it)."""
    if getattr(loop, _GUARD, False):
        return
    eager = getattr(asyncio, "eager_task_factory", None)
    if loop.get_task_factory() is eager and eager is not None:
        loop.set_task_factory(None)
    original = loop.set_task_factory

    def set_task_factory(factory: Any) -> None:
        if eager is not None and factory is eager:
            return  # Textual's per-app switch: the loop is shared with asyncssh
        original(factory)

    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]  # this loop's own guard
    setattr(loop, _GUARD, True)


# -- private names the driver (net/ssh/driver.py) and the spectator hub (net/modes/spectate.py) use --------
#
# Each is wrapped by one small function, so a Textual upgrade that renames one breaks here, in
# one place, and tests/net/test_textual_compat.py names the missing attribute.  Textual is pinned
# (pyproject.toml) to the range those checks pass on.

PRIVATE_NAMES: dict[str, str] = {
    "textual._xterm_parser.XTermParser": "the key/mouse parser a driver feeds (feed, tick)",
    "XTermParser._parse_extended_key.cache_clear": "an lru_cache on a method: holds parsers and Apps",
    "XTermParser()._gen.close": "the parser's generator, holding its last Key",
    "XTermParser()._tokens.clear": "the parser's pending tokens",
    "XTermParser()._timeout_time": "set while a lone Escape waits to become a key",
    "App._capture_stdout / App._capture_stderr": "where an App redirects print(): the server's streams",
    "App._running / App._closed": "whether an App is up",
    "App._is_mounted": "whether an App's own mount is done (its exit is safe from then on)",
    "App._exception": "the exception that ended an App (a bug in a screen): the session ends as if dropped",
    "App._context": "the context (active_app…) a render must run in",
    "Screen._compositor.render_strips": "the whole screen's strips, without clearing dirty regions",
    "MessagePump._message_queue / _next_callbacks": "whether an App or widget has work queued",
    "Driver._size": "the window's size, which App.size reads from the driver",
}
"""Every private Textual name sukno reads, and why (checked by tests/net/test_textual_compat.py)."""


def new_parser() -> XTermParser:
    """A fresh key/mouse parser (Textual's own; ``feed(text)`` and ``tick()`` are its public half)."""
    return XTermParser()


def parser_waiting(parser: XTermParser) -> bool:
    """The parser holds a lone Escape that becomes a key after ``constants.ESCAPE_DELAY``."""
    return parser._timeout_time is not None


def drop_parser(parser: XTermParser) -> None:
    """Let a finished session's App go: close the parser's generator and empty the class cache.

    ``XTermParser._parse_extended_key`` is an ``lru_cache`` on a method: it keeps up to 1024
    parsers (and the Key events they returned, whose sender is an App) process-wide."""
    try:
        parser._gen.close()
    except Exception:
        pass
    parser._tokens.clear()
    XTermParser._parse_extended_key.cache_clear()


def quiet_streams(app: Any, stdout: Any, stderr: Any) -> None:
    """Point the App's stdout/stderr capture at ``stdout``/``stderr`` (the real streams: a no-op swap)."""
    app._capture_stdout = stdout
    app._capture_stderr = stderr


def app_started(app: Any) -> bool:
    """The App runs (its message loop is up), closed or not."""
    return bool(app._running)


def app_live(app: Any) -> bool:
    """The App runs and is not closed: it can draw and take messages."""
    return bool(app._running) and not app._closed


def app_mounted(app: Any) -> bool:
    """The App's own mount is done (Textual's ``exit`` no longer pulls a screen out from under ``on_mount``)."""
    return bool(app._is_mounted)


def app_failure(app: Any) -> BaseException | None:
    """The exception that ended the App, if one did (Textual keeps it rather than raising it from ``run_async``)."""
    failure = getattr(app, "_exception", None)
    return failure if isinstance(failure, BaseException) else None


def app_context(app: Any) -> AbstractContextManager[Any]:
    """The App's context (``active_app``…), which rendering outside its own tasks needs."""
    return app._context()


def render_strips(screen: Any) -> list[Any]:
    """The whole screen as strips, leaving the compositor's dirty regions for the next diff."""
    return screen._compositor.render_strips()


def pump_idle(pump: Any) -> bool:
    """An App, screen or widget has no message queued and no callback pending."""
    return pump._message_queue.empty() and not pump._next_callbacks


def queued_messages(pump: Any) -> int:
    """How many messages an App has queued (0 if it has no queue yet)."""
    queue = getattr(pump, "_message_queue", None)
    return 0 if queue is None else queue.qsize()



def driver_window(driver: Any) -> tuple[int, int] | None:
    """The window's size a driver was made with or told of last (None: ask the console)."""
    size = driver._size
    return None if size is None else (int(size[0]), int(size[1]))


def set_driver_window(driver: Any, width: int, height: int) -> None:
    """Tell the driver the window's new size: ``App.size`` reads it from there."""
    driver._size = (width, height)


T = TypeVar("T")


class DriverHandoff(Generic[T]):
    """Hands a driver what it serves (a session's link, a hub) across Textual's own construction.

    Textual builds an App's driver itself, ``driver_class(app, debug=, mouse=, size=)``, so
    nothing can be passed to it; rather than writing a private attribute onto the App, whoever
    sets the App up ``give``-s the value here and the driver ``take``-s it in its ``__init__``.
    Keyed weakly by the App: an App that never runs leaves nothing behind."""

    def __init__(self) -> None:
        self._waiting: WeakKeyDictionary[Any, T] = WeakKeyDictionary()

    def give(self, app: Any, value: T) -> None:
        """``app``'s driver, when Textual makes it, is handed ``value``."""
        self._waiting[app] = value

    def take(self, app: Any) -> T:
        """What was given for ``app`` (once; KeyError if nothing was)."""
        return self._waiting.pop(app)

    def __len__(self) -> int:
        return len(self._waiting)


def strips_without_cycles() -> bool:
    """Textual's ``Strip.divide`` without its one reference cycle; True once patched (idempotent).

    A strip divided at its own end is its own one piece, and Textual caches that answer,
    ``[self]``, in the strip itself: every such strip (the compositor divides each line of every
    frame) became a cycle only the cyclic GC frees, ~3,500 a move with four players and four
    spectator hubs, and those collections were most of the server's CPU per move at 500 watchers
    (tests/bench/ssh_load.py).  That one case is answered here, uncached; every other
    division is Textual's own.
    """
    from textual.strip import Strip

    if getattr(Strip.divide, "_sukno", False):
        return False
    divide = Strip.divide

    def divide_once(self: Strip, cuts: Any) -> Any:
        cuts = [cut for cut in cuts if cut <= self.cell_length]
        if cuts == [self.cell_length]:
            return [self]
        return divide(self, cuts)

    divide_once._sukno = True  # type: ignore[attr-defined]  # marks Textual's method as patched once
    divide_once.__doc__ = divide.__doc__
    Strip.divide = divide_once  # type: ignore[method-assign]  # Textual's own method, replaced
    return True


LAZY_MODULES = ("textual.drivers.headless_driver", "textual.drivers.linux_driver", "textual.drivers._writer_thread",
                "textual.layouts.factory", "textual.layouts.horizontal", "textual.layouts.stream",
                "textual.pilot", "textual.scrollbar")
"""Modules Textual imports only when an App first runs and lays out its screens (the pinned Textual's
names, some private: a newer Textual may move them, so they are imported where found)."""


def import_lazy_parts() -> int:
    """Import what of ``LAZY_MODULES`` this Textual has; how many it had."""
    found = 0
    for name in LAZY_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        found += 1
    return found
