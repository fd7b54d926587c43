"""Changes sent over the bus to the node that owns a table, and the owner's side of them.

A ``Call`` (``net.cluster.wire``) carries an ``engine.table.changes`` value: the owner applies it
through the club's door and the engine, on its loop, and answers with a ``Reply``: done, or
the usual refusal (its catalogue key, so the player reads it in his language).  The caller's loop
goes on meanwhile; the reply, heard on the loop, first brings the replica up to date from the
journal, then settles the call's ``Pending`` (so the screen that asked shows what it did).  No
answer in ``call_timeout`` settles it as a refusal (``cluster.no_answer``, a timer on the loop),
e.g. while an owner that died is being replaced; a late answer is dropped.  Whoever asked keeps
each person's commands in order: one typed after a pending one runs when the first is answered.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import statistics
import time
from collections import deque
from typing import Any, Callable, NamedTuple

from engine.game import IllegalAction
from engine.table.changes import QUIET, Change, apply_change
from engine.table.owner import TableError
from engine.table.pending import Calls, Pending
from net.cluster.follow import ReplicaReads
from net.cluster.notices import NoticeError
from net.cluster.wire import Call, Reply, decode_result, encode_result

log = logging.getLogger("sukno.cluster")

CALL_TIMEOUT = 2.0
"""How long a change sent to a table's owner may go unanswered (``[node] call_timeout``); nobody
waits meanwhile.  A table whose owner did not answer, or whose lease has run out, refuses at once
until the leases show an owner again."""
ANSWER_SHARE = 0.75
"""The share of ``call_timeout`` within which the owner must begin a call (``until``, wall clock):
a call that reaches it later (it was paused, or slow) is refused, never applied, since its sender
may have said "nothing happened" already; the rest of the time is for the answer's way back.
It compares wall clocks: the nodes' clocks must agree to well within that (NTP keeps them so)."""

Send = Callable[..., None]
"""Posts a bus message (``Node._send``): ``NoticeError`` at once if too long, ``failed(reason)`` later.
The quiet changes (away, back: ``engine.table.changes.QUIET``) are the club's own: a refusal is logged."""


class OwnerCalls:
    """A node's calls to the owners of its replicas, each waiting for its answer (on the loop)."""

    def __init__(self, name: str, send: Send, follow: ReplicaReads, *, ttl: float,
                 call_timeout: float = CALL_TIMEOUT) -> None:
        self.name = name
        self.send = send
        self.follow = follow
        self.ttl = ttl
        self.call_timeout = call_timeout
        self._numbers = itertools.count(1)
        self.waiting: Calls[_Call] = Calls()  # the calls waiting for their answer, each settled once (the loop)
        self.silent: dict[Any, float] = {}  # replica → refused at once until then (its owner did not
        # answer, or its lease ran out)
        self.round_trips: deque[float] = deque(maxlen=10_000)
        """Seconds from sending each call to its answer (the bus alone: what a move across nodes adds)."""

    def log_figures(self) -> None:
        if self.round_trips:
            times = sorted(t * 1000 for t in self.round_trips)
            log.info("node %s: %d calls to other nodes, round trip p50 %.1f ms, p99 %.1f ms", self.name, len(times),
                     statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))])

    def call(self, table_id: Any, change: Change) -> Pending[Any] | None:
        """On the loop, for a replica: send ``change`` to the owner and return at once its ``Pending``
        (never waits: the loop goes on serving every other session).  A table whose owner did not
        answer lately refuses at once (``TableError``).  The quiet changes (away, back: the club's own)
        return None; their refusal is logged."""
        try:
            pending = self._call(table_id, change)
        except TableError as err:
            if not isinstance(change, QUIET):
                raise
            self._quiet_refusal(table_id, change, err)
            return None
        if isinstance(change, QUIET):
            pending.then(None, lambda err: self._quiet_refusal(table_id, change, err))
            return None
        return pending

    def _quiet_refusal(self, table_id: Any, change: Change, err: IllegalAction) -> None:
        log.warning("node %s: %s of %s at table %s not told to its owner: %s", self.name, change.op,
                    getattr(change, "name", ""), table_id, getattr(err, "message", err))

    def _call(self, table_id: Any, change: Change) -> Pending[Any]:
        if self.silent.get(table_id, 0.0) > time.monotonic():
            raise _no_answer()
        call_id = f"{self.name}:{next(self._numbers)}"
        until = round(time.time() + self.call_timeout * ANSWER_SHARE, 3)  # after that the owner refuses it
        message = Call(call_id, self.name, table_id, change, until)
        pending: Pending[Any] = Pending(change.op)
        loop = self.follow.loop or asyncio.get_running_loop()
        timer = loop.call_later(self.call_timeout, self.expire, call_id)
        self.waiting.open(call_id, pending, _Call(pending, table_id, change, time.perf_counter(), timer))
        try:
            self.send(message, failed=lambda _reason: self._unsent(call_id))
        except NoticeError:  # too long for a notice: never sent
            self.waiting.take(call_id)
            timer.cancel()
            raise _no_answer() from None
        return pending

    def _unsent(self, call_id: str) -> None:
        """On the loop: the call could not be sent (the database unreachable): refused, nothing done."""
        call = self.waiting.refuse(call_id, _no_answer())  # unless it was answered first
        if call is not None:
            call.timer.cancel()

    def heard_from_owner(self, payload: str) -> None:
        """On the loop: a table's owner committed an entry (its journal notice), so it lives and the bus
        carries its words: a call to it is sent again at once, not refused until the silence ends."""
        try:
            table_id = json.loads(payload.rsplit(" ", 1)[0])
        except ValueError:
            return
        if isinstance(table_id, (int, str)):
            self.silent.pop(table_id, None)

    def expire(self, call_id: str) -> None:
        """On the loop: no answer in ``call_timeout``; the call is refused (a late answer is dropped)."""
        call = self.waiting.refuse(call_id, _no_answer())  # unless its answer came first
        if call is None:
            return
        self.silent[call.table_id] = time.monotonic() + self.ttl  # or until a new owner shows

    def answered(self, reply: Reply) -> None:
        """On the loop: the owner's answer to one of our calls.  The replica is brought up to date from
        the journal first, so whoever asked shows what the call did."""
        taken = self.waiting.take(reply.id)
        call = taken[1] if taken is not None else None
        if call is None:  # answered after its time ran out: refused already; but the owner lives
            if reply.table in self.follow.replicas:
                self.silent.pop(reply.table, None)
            if reply.ok:  # the owner began it in time (``until``) but its answer came too late
                log.warning("node %s: call %s on table %s was done by its owner after its time here ran out "
                            "(its journal shows it)", self.name, reply.id[:40], reply.table)
            return
        call.timer.cancel()
        self.round_trips.append(time.perf_counter() - call.sent)
        replica = self.follow.replicas.get(call.table_id)
        if replica is not None and reply.ok and self.follow.behind(call.table_id, replica):
            # what the owner did, on this node's screens before "done": after the replica's next read
            self.follow.after_read(call.table_id, lambda: self._settle(call, reply))
            return
        self._settle(call, reply)

    def _settle(self, call: _Call, reply: Reply) -> None:
        """The call's pending settled as the owner answered: done with its result, or its refusal."""
        if not reply.ok:
            call.pending.refuse(TableError(reply.key or "cluster.failed", reply.message, **reply.params))
            return
        try:
            value = decode_result(call.change, reply.result)
        except (TypeError, ValueError):
            call.pending.refuse(TableError("cluster.failed",
                                           "That could not be done on the node that runs this table."))
            return
        call.pending.resolve(value)


def serve_call(club: Any, node: str, call: Call, now: float, send: Callable[[Reply], None]) -> None:
    """The owner's side of a call: through the club's door and the engine, then the answer."""
    change = call.change
    try:
        if call.until is not None and time.time() > call.until:  # this node was paused, or slow:
            log.warning("node %s: a call %s from %s on table %s came too late; refused", node, change.op,
                        call.sender, call.table)
            raise _no_answer()  # its sender told "nothing happened" already: so nothing happens
        reply = Reply(call.id, call.sender, call.table, True,
                      encode_result(change, apply_change(club, call.table, change, now)))
    except IllegalAction as err:
        reply = Reply(call.id, call.sender, call.table, False, key=err.key, message=err.message,
                      params=json.loads(json.dumps(err.params, default=str)))
    except Exception:
        log.exception("node %s: a call %s on table %s failed", node, change.op, call.table)
        reply = Reply(call.id, call.sender, call.table, False, key="cluster.failed",
                      message="That could not be done on the node that runs this table.")
    try:
        send(reply)
    except NoticeError as err:
        log.warning("node %s: the answer to %s was not sent: %s", node, call.sender, err)


class _Call(NamedTuple):
    """A call sent to a table's owner, its answer not yet in."""

    pending: Pending[Any]
    table_id: Any
    change: Change
    sent: float
    timer: asyncio.TimerHandle


def _no_answer() -> TableError:
    return TableError("cluster.no_answer", "The node that runs this table did not answer; "
                      "nothing happened. Try again in a few seconds.")
