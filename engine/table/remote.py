"""A table another node owns, as this node holds it: its state kept from the owner's journal
(``engine.table.replica``), its changes sent to the owner.

``RemoteTable`` is a ``Table`` for everything read (seats, views, the feed a screen follows) and
for what the journal tells it; every change (``engine.table.changes``) goes to ``forward``, which
returns at once the ``Pending`` of the owner's answer: this node never waits for another.  It runs
no clock and no bot (``deadline`` is None: the owner runs them) and follows the owner's news of who
is away (``mirror``).

A table changes role in place (``make_remote``, ``make_owner``): a node that loses a table's lease
keeps it as a replica, one that takes a lease over owns it, and every screen and session holding
the table keeps holding it.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from engine.game import Event
from engine.table.changes import (Act, Away, Back, Change, Cut, Invite, Say, SetRule, Sit, SitBot, Stand,
                                  Start)
from engine.table.face import TableLike
from engine.table.owner import Table
from engine.table.pending import Pending

Forward = Callable[[Change], "Pending[Any] | None"]
"""Sends a change to the table's owner: the ``Pending`` of its answer (None for the quiet ones, whose
refusal is only logged)."""


class RemoteTable(Table):
    """A table whose owner is another node: read here, changed there."""

    owned_here: ClassVar[bool] = False

    forward: Forward
    """Set by ``make_remote``: the way to the owner."""

    def sit(self, name: str, seat: int | None = None) -> Pending[int]:
        return self._send(Sit(name, seat))

    def sit_bot(self, seat: int | None = None) -> Pending[str]:
        return self._send(SitBot(seat))

    def stand(self, name: str) -> Pending[None]:
        return self._send(Stand(name))

    def set_rule(self, name: str, key: str, value: Any) -> Pending[None]:
        return self._send(SetRule(name, key, value))

    def invite(self, name: str, guest: str) -> Pending[None]:
        return self._send(Invite(name, guest))

    def say(self, name: str, text: str) -> Pending[bool]:
        return self._send(Say(name, text))

    def start(self, name: str, now: float | None = None, by_ear: bool = False) -> Pending[list[Event]]:
        return self._send(Start(name, by_ear))

    def cut(self, name: str, text: str) -> Pending[bool]:
        return self._send(Cut(name, text))

    def act(self, name: str, text: str, now: float | None = None) -> Pending[list[Event]]:
        return self._send(Act(name, text))

    def away(self, name: str, now: float | None, kind: str = "away") -> None:
        self.forward(Away(name, kind))  # the club's own: a refusal is logged where it is sent

    def back(self, name: str, now: float | None = None) -> None:
        self.forward(Back(name))

    def _send(self, change: Change) -> Pending[Any]:
        pending = self.forward(change)
        if pending is None:
            raise RuntimeError(f"{change.op} at table {self.id} was sent with no answer to wait for")
        return pending

    def deadline(self) -> float | None:
        """Never: its owner runs the clocks and the bots."""
        return None

    def mirror(self, events: list[Event], now: float | None = None, *, tell: bool = True) -> None:
        """The owner's news that is not in the journal: who is away and whom a stand-in plays for
        follow it here (the felt shows them as on the owner), then it is told."""
        for event in events:
            name = (event.data or {}).get("name")
            if not isinstance(name, str):
                continue
            if event.kind in ("away", "stepped_away") and name in self.seats and name not in self.auto.away:
                self.auto.went_away(name, None)  # no time: a replica runs no clock of its own
            elif event.kind in ("back", "gone"):
                self.auto.forget(name)
            elif event.kind == "stand_in" and name in self.auto.away:
                self.auto.told(name)
        super().mirror(events, now, tell=tell)


def make_remote(table: Table, forward: Forward) -> RemoteTable:
    """``table``, now another node's: its changes go to ``forward``; it no longer writes a journal."""
    table.keeper = None
    table.change_role(RemoteTable)
    assert isinstance(table, RemoteTable)
    table.forward = forward
    return table


def make_owner(table: Table) -> Table:
    """``table``, now this node's own: its changes are applied here (its keeper is set by the caller)."""
    if isinstance(table, RemoteTable):
        del table.forward
        table.change_role(Table)
    return table


def _faces(owned: Table, remote: RemoteTable) -> tuple[TableLike, TableLike]:
    """Both kinds of table are ``TableLike`` (checked by mypy here, never called)."""
    return owned, remote
