"""Awaiting a change another node checks, for the callers that are coroutines (the admin).

A ``RemoteTable``'s change returns an ``engine.table.pending.Pending`` at once; ``settled`` turns it into the
result (or raises its refusal) without blocking the loop: the other sessions go on meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

from engine.table.pending import Answer, Pending

T = TypeVar("T")


async def settled(result: Answer[T]) -> T:
    """``result`` itself, or, for a ``Pending``, its answer once it comes (its refusal raised)."""
    if not isinstance(result, Pending):
        return result
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()

    def done(value: T) -> None:
        if not future.done():
            future.set_result(value)

    def refused(err: Exception) -> None:
        if not future.done():
            future.set_exception(err)

    result.then(done, refused)
    return await future
