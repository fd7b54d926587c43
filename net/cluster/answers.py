"""Awaiting a change another node checks, for the callers that are coroutines (the admin).

``Table.remote`` returns an ``engine.table.pending.Pending`` at once; ``settled`` turns it into the
result (or raises its refusal) without blocking the loop: the other sessions go on meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engine.table.pending import Pending


async def settled(result: Any) -> Any:
    """``result`` itself, or, for a ``Pending``, its answer once it comes (its refusal raised)."""
    if not isinstance(result, Pending):
        return result
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def done(value: Any) -> None:
        if not future.done():
            future.set_result(value)

    def refused(err: Exception) -> None:
        if not future.done():
            future.set_exception(err)

    result.then(done, refused)
    return await future
