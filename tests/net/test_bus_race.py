"""The bus's timer race (issue 15), deterministically, on ``net.cluster.node.Node``'s own handlers (its calls: ``net.cluster.calls``).

A reply heard exactly as ``call_timeout`` fires: both are callbacks of one loop iteration, in either
order.  The first settles the call (``engine.table.pending.Calls``), once; the second is late and changes
nothing.  On the owner's side a call is applied only if it arrives before its ``until`` (else its
sender may have said "nothing happened" already): refused after, applied before.  No PostgreSQL:
the notices the node would post are recorded.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from engine.table.changes import Act, Say, Sit
from net.cluster.node import Node
from net.cluster.wire import Call, Reply, encode


def bus_node(name: str = "B") -> tuple[Node, list[dict[str, Any]]]:
    node = Node(name, store=None, url="postgresql://nobody@127.0.0.1:1/none", call_timeout=60.0)
    sent: list[dict[str, Any]] = []
    node.notices.post = lambda channel, payload, failed=None: sent.append(json.loads(payload))  # type: ignore
    return node, sent


def reply(call: dict[str, Any], **answer: Any) -> str:
    return encode(Reply(call["id"], call["from"], call["table"], **answer))


async def one_iteration(*handlers: Any) -> None:
    """Run ``handlers`` in one iteration of the loop, in that order, and wait for it."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    for handler in handlers:
        loop.call_soon(handler)
    loop.call_soon(done.set_result, None)
    await done


async def test_the_answer_heard_before_the_timer_wins_and_the_timer_changes_nothing() -> None:
    node, sent = bus_node()
    node._loop = node.follow.loop = asyncio.get_running_loop()
    heard: list[Any] = []
    pending = node.calls.call(1, Act("Anna", "pass"))
    assert pending is not None
    pending.then(lambda v: heard.append(("done", [e.kind for e in v])), lambda e: heard.append(("refused", e.key)))
    call = sent[-1]
    timer = node.calls.waiting.pending()[0].timer
    await one_iteration(lambda: node._bus_notice(reply(call, ok=True, result=[["pass", 0]])),
                        lambda: node.calls.expire(call["id"]))
    assert heard == [("done", ["pass"])]
    assert timer.cancelled() and len(node.calls.waiting) == 0 and node.calls.waiting.late == 1
    assert 1 not in node.calls.silent  # the owner answered: the table is not taken for silent
    assert node.calls.call(1, Act("Anna", "pass")) is not None  # the next call goes out (not refused at once)
    for waiting in node.calls.waiting.pending():
        waiting.timer.cancel()


async def test_the_timer_fired_before_the_answer_wins_and_the_late_done_is_logged(caplog) -> None:
    node, sent = bus_node()
    node._loop = node.follow.loop = asyncio.get_running_loop()
    heard: list[Any] = []
    pending = node.calls.call(1, Act("Anna", "pass"))
    assert pending is not None
    pending.then(lambda v: heard.append(("done", v)), lambda e: heard.append(("refused", e.key)))
    call = sent[-1]
    caplog.set_level(logging.WARNING, logger="sukno.cluster")
    await one_iteration(lambda: node.calls.expire(call["id"]),
                        lambda: node._bus_notice(reply(call, ok=True, result=[["pass", 0]])))
    assert heard == [("refused", "cluster.no_answer")]  # said once; the late "done" does not undo it
    assert node.calls.waiting.late == 1 and len(node.calls.waiting) == 0
    assert "after its time here ran out" in caplog.text  # the owner did it: said in the log, and the
    # replica shows it from the journal
    for waiting in node.calls.waiting.pending():
        waiting.timer.cancel()


async def test_a_refusal_heard_as_the_timer_fires_is_the_one_refusal() -> None:
    node, sent = bus_node()
    node._loop = node.follow.loop = asyncio.get_running_loop()
    heard: list[Any] = []
    pending = node.calls.call(1, Sit("Anna", 0))
    assert pending is not None
    pending.then(lambda v: heard.append(("done", v)), lambda e: heard.append(("refused", e.key)))
    call = sent[-1]
    await one_iteration(lambda: node._bus_notice(reply(call, ok=False, key="table.seat_taken", message="taken",
                                                       params={})),
                        lambda: node.calls.expire(call["id"]))
    assert heard == [("refused", "table.seat_taken")]


class _Table:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def say(self, name: str, text: str) -> list[Any]:
        self.said.append((name, text))
        return []


class _Club:
    def __init__(self) -> None:
        self.tables = {1: _Table()}

    def table(self, table_id: int) -> _Table:
        return self.tables[table_id]


async def test_the_owner_applies_a_call_before_its_until_and_refuses_it_after() -> None:
    owner, sent = bus_node("A")
    owner._loop = owner.follow.loop = asyncio.get_running_loop()
    owner.club = _Club()
    owner.owned[1] = 1
    call = Call("B:1", "B", 1, Say("Anna", "in time"), until=round(time.time() + 30, 3))
    owner._bus_notice(encode(call))
    assert owner.club.tables[1].said == [("Anna", "in time")]
    assert sent[-1]["ok"] is True and sent[-1]["to"] == "B"
    late = Call("B:2", "B", 1, Say("Anna", "too late"), until=round(time.time() - 0.001, 3))
    owner._bus_notice(encode(late))
    assert owner.club.tables[1].said == [("Anna", "in time")]  # never applied
    assert sent[-1]["ok"] is False and sent[-1]["key"] == "cluster.no_answer" and sent[-1]["id"] == "B:2"


async def test_a_silent_owner_heard_committing_is_asked_again_at_once() -> None:
    """After a call went unanswered (PostgreSQL paused), calls to that table are refused at once for a
    while; the owner's next committed entry shows it lives, so the next call goes out again."""
    node, sent = bus_node()
    node._loop = node.follow.loop = asyncio.get_running_loop()
    pending = node.calls.call(1, Act("Anna", "pass"))
    assert pending is not None
    node.calls.expire(sent[-1]["id"])
    before = len(sent)
    try:
        node.calls.call(1, Act("Anna", "pass"))
    except Exception as err:  # refused at once, nothing sent: the owner is taken for silent
        assert getattr(err, "key", "") == "cluster.no_answer"
    assert len(sent) == before
    node.calls.heard_from_owner(f"{json.dumps(1)} 42")  # the owner's journal notice for table 1
    assert node.calls.call(1, Act("Anna", "pass")) is not None and len(sent) == before + 1
    for waiting in node.calls.waiting.pending():
        waiting.timer.cancel()
