"""Another node's admin answer is matched to the ask by its id; a notice whose id is not a number
(JSON any node, or a stray sender, may post) is dropped, never raised on the loop."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from net.cluster.clubwide import AdminRelay


class _Commands:
    club: Any = None
    server: Any = None


async def test_an_answer_reaches_its_ask_and_an_answer_with_an_odd_id_is_dropped() -> None:
    relay = AdminRelay(_Commands(), notices=None, node="A")
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    relay._waiting[1] = future
    for odd in ([1], {"1": 1}, "1", None):
        relay._notice(json.dumps({"t": "answer", "to": "A", "id": odd, "ok": True, "text": "stray"}))
    assert not future.done()
    relay._notice(json.dumps({"t": "answer", "to": "A", "id": 1, "ok": True, "status": 0, "text": "done"}))
    assert future.done() and future.result()["text"] == "done"
