"""A change whose answer comes later: a replica's change sent to the table's owner.

On a node that does not own a table, its ``engine.table.remote.RemoteTable`` sends each change (sit,
act, say…) to the owner and returns at once a ``Pending``: the event loop goes on serving every other session while
the owner checks the change.  When the answer comes, the net layer (``net.cluster.node``) brings
the replica up to date from the journal and then ``resolve``s it (done, with the engine's usual
result) or ``refuse``s it (the owner's ``IllegalAction``, or ``cluster.no_answer`` when no answer
came in time).  Whoever asked registers what to do then with ``then``; ``when`` lets a caller treat
a local (immediate) result and a pending one alike.

Pure: no asyncio, no threads, no clock; callbacks run where ``resolve``/``refuse`` is called (the
loop), each exactly once, in the order they were registered.

``Calls`` is the book of the changes sent and not yet answered: each is settled once, by whichever
comes first of its answer, its time running out, or its sending failing; whatever comes after is
told as *late* (``settle`` returns None) and changes nothing (a reply arriving exactly
as ``call_timeout`` fires).
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any, Callable, Generic, TypeVar, Union

from engine.game import IllegalAction

log = logging.getLogger("sukno.pending")

Done = Callable[[Any], None]
Refused = Callable[[IllegalAction], None]
T = TypeVar("T")


class Pending(Generic[T]):
    """The answer of the table's owner to one change, not yet known: a ``T`` once it is done."""

    __slots__ = ("op", "_settled", "_value", "_error", "_waiting")

    def __init__(self, op: str = "") -> None:
        self.op = op
        self._settled = False
        self._value: Any = None
        self._error: IllegalAction | None = None
        self._waiting: list[tuple[Done | None, Refused | None]] = []

    @property
    def settled(self) -> bool:
        return self._settled

    def then(self, done: Done | None = None, refused: Refused | None = None) -> Pending[T]:
        """Call ``done(result)`` or ``refused(error)`` once the answer is known (at once if it is)."""
        if self._settled:
            self._call(done, refused)
        else:
            self._waiting.append((done, refused))
        return self

    def map(self, function: Callable[[T], Any]) -> Pending[Any]:
        """A pending whose result is ``function(result)`` (a refusal passes through)."""
        mapped: Pending[Any] = Pending(self.op)
        self.then(lambda value: mapped.resolve(function(value)), mapped.refuse)
        return mapped

    def resolve(self, value: T | None = None) -> None:
        self._settle(value, None)

    def refuse(self, error: IllegalAction) -> None:
        self._settle(None, error)

    def _settle(self, value: Any, error: IllegalAction | None) -> None:
        if self._settled:
            return  # the first answer wins (a late reply after a timeout is dropped)
        self._settled, self._value, self._error = True, value, error
        waiting, self._waiting = self._waiting, []
        for done, refused in waiting:
            self._call(done, refused)

    def _call(self, done: Done | None, refused: Refused | None) -> None:
        try:
            if self._error is None:
                if done is not None:
                    done(self._value)
            elif refused is not None:
                refused(self._error)
            else:
                log.info("pending %s refused, nobody listening: %s", self.op, self._error)
        except Exception:  # one caller's bug must not keep the others from their answer
            log.exception("a callback of pending %s failed", self.op)


Answer = Union[T, Pending[T]]
"""A change's honest result: its value now (the table is owned here), or later (``Pending``: another
node owns it).  ``when`` and ``InOrder.after`` treat both alike."""


def when(result: Answer[Any], done: Done, refused: Refused | None = None) -> Pending[Any] | None:
    """``done(result)`` now for a local result; for a ``Pending``, once it is answered (returned)."""
    if isinstance(result, Pending):
        return result.then(done, refused)
    done(result)
    return None


class InOrder:
    """One session's requests, each handled only after the answer to the one before
    (a person's B is never applied before his A is answered).  ``run(item)`` handles one item;
    while an answer is awaited, ``hold`` keeps the next ones (at most ``limit``: bounded input)."""

    def __init__(self, run: Callable[[Any], None], limit: int = 32) -> None:
        self._run = run
        self.limit = limit
        self.busy = False
        self.held: deque[Any] = deque()

    def hold(self, item: Any) -> bool:
        """True if ``item`` must wait (kept, or dropped past ``limit``: see ``full``); False: run it now."""
        if not self.busy:
            return False
        if len(self.held) < self.limit:
            self.held.append(item)
        return True

    @property
    def full(self) -> bool:
        return len(self.held) >= self.limit

    def after(self, result: Answer[Any], done: Done, refused: Refused) -> None:
        """``done(result)`` now for a local result; for a ``Pending``, once answered, then the held items."""
        if not isinstance(result, Pending):
            done(result)
            return
        self.busy = True
        result.then(lambda value: self._settle(done, value), lambda err: self._settle(refused, err))

    def _settle(self, function: Callable[[Any], None], value: Any) -> None:
        self.busy = False  # ``function`` may send the next change (and wait again)
        try:
            function(value)
        finally:
            while self.held and not self.busy:
                try:
                    self._run(self.held.popleft())
                except Exception:  # one bad request must not keep the next ones waiting forever
                    log.exception("a held request failed")


About = TypeVar("About")


class Calls(Generic[About]):
    """The calls waiting for an answer, each with what its sender keeps ``about`` it."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[Pending[Any], About]] = {}
        self.late = 0
        """How many answers came after their call was settled (dropped)."""

    def open(self, call_id: str, pending: Pending[Any], about: About) -> None:
        if call_id in self._open:
            raise ValueError(f"call {call_id!r} is waiting already")
        self._open[call_id] = (pending, about)

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._open

    def __len__(self) -> int:
        return len(self._open)

    def take(self, call_id: Any) -> tuple[Pending[Any], About] | None:
        """The call, now no longer waiting, for its first answer; None if it was settled (late)."""
        found = self._open.pop(call_id, None)
        if found is None:
            self.late += 1
        return found

    def resolve(self, call_id: Any, value: Any = None) -> About | None:
        """Its answer, done: the pending resolved if it still waited (``about`` returned), else None."""
        found = self.take(call_id)
        if found is None:
            return None
        found[0].resolve(value)
        return found[1]

    def refuse(self, call_id: Any, error: IllegalAction) -> About | None:
        """Its refusal, its time run out, or its sending failed: as ``resolve``."""
        found = self.take(call_id)
        if found is None:
            return None
        found[0].refuse(error)
        return found[1]

    def pending(self) -> list[About]:
        return [about for _pending, about in self._open.values()]
