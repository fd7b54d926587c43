"""Where the club leans on Textual's behaviour beyond its public API, in one place.

Textual's ``App.run_async`` switches the *running* event loop to
``asyncio.eager_task_factory`` on Python 3.12+ (3.11 has none).  In a server
that loop is shared with asyncssh, whose authentication handler starts its
coroutine in ``Auth.__init__`` with ``create_task`` and relies on the task
running later: eagerly run, the coroutine sends its failure or success reply
before the connection has recorded the handler, asyncssh drops the reply as
stale, and the client waits forever after "Authentications that can continue".
So the club's loop keeps ordinary (lazy) tasks, as 3.11 always had.
"""

from __future__ import annotations

import asyncio
from typing import Any

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

    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    setattr(loop, _GUARD, True)
