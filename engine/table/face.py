"""What a mode may ask of a table, whoever owns it: ``TableLike``.

A ``Table`` owned here answers each change now; a ``RemoteTable`` (another node owns it) answers
later.  So every change's result is an ``Answer``: the value, or the ``Pending`` of it, which
``engine.table.pending.when`` and ``InOrder.after`` treat alike.  A refusal is raised at once
(``IllegalAction``) or comes as the pending's refusal.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.game import Event, Game
from engine.table.pending import Answer


class TableReads(Protocol):
    """What a mode reads of a table, alike wherever it is owned (a replica keeps the owner's state)."""

    id: int

    @property
    def seats(self) -> list[str | None]: ...

    @property
    def game_cls(self) -> type[Game]: ...


class TableLike(TableReads, Protocol):
    """The changes a person (or the club) makes at a table, with honest results."""

    def sit(self, name: str, seat: int | None = None) -> Answer[int]: ...

    def sit_bot(self, seat: int | None = None) -> Answer[str]: ...

    def stand(self, name: str) -> Answer[None]: ...

    def set_rule(self, name: str, key: str, value: Any) -> Answer[None]: ...

    def invite(self, name: str, guest: str) -> Answer[None]: ...

    def say(self, name: str, text: str) -> Answer[bool]: ...

    def start(self, name: str, now: float | None = None, by_ear: bool = False) -> Answer[list[Event]]: ...

    def cut(self, name: str, text: str) -> Answer[bool]: ...

    def act(self, name: str, text: str, now: float | None = None) -> Answer[list[Event]]: ...

    def away(self, name: str, now: float | None, kind: str = "away") -> None: ...

    def back(self, name: str, now: float | None = None) -> None: ...
