"""What a mode may ask of a table, whoever owns it: ``TableLike``.

A ``Table`` owned here answers each change now; a ``RemoteTable`` (another node owns it) answers
later.  So every change's result is an ``Answer``: the value, or the ``Pending`` of it, which
``engine.table.pending.when`` and ``InOrder.after`` treat alike.  A refusal is raised at once
(``IllegalAction``) or comes as the pending's refusal.  What a mode reads (``TableReads``: the
seats, the game, the views, the feed) is the same on both: a replica keeps the owner's state.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, Sequence

from engine.feed import Callback, Feed, LogEntry
from engine.game import Action, Event, Game, IllegalAction
from engine.table.pending import Answer
from engine.table.social import Seating
from engine.view import Snapshot as ScreenSnapshot


class TableReads(Protocol):
    """What a mode reads of a table, alike wherever it is owned (a replica keeps the owner's state)."""

    id: int

    @property
    def seats(self) -> list[str | None]: ...

    @property
    def game_cls(self) -> type[Game]: ...

    @property
    def game_name(self) -> str: ...

    @property
    def verbs(self) -> Mapping[str, str]: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def title(self) -> dict[str, str]: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def spectators(self) -> set[str]: ...

    @property
    def seating(self) -> Seating:
        """Who may sit and watch, and who set those rules."""
        ...

    @property
    def ready(self) -> set[str]:
        """Who said he is ready for the next session."""
        ...

    @property
    def closing(self) -> bool:
        """The house closes the table: no new deal starts."""
        ...

    @property
    def rail(self) -> Feed: ...

    @property
    def last_seq(self) -> int: ...

    def seat_of(self, name: str) -> int | None: ...

    def seated(self) -> list[str]: ...

    def full(self) -> bool: ...

    def in_deal(self) -> bool: ...

    def away_now(self) -> list[str]: ...

    def timer_deadline(self) -> float | None: ...

    def legal_actions(self, name: str) -> list[Action]: ...

    def why_not(self, name: str, action: Action) -> IllegalAction | None: ...

    def view_for(self, name: str | None) -> dict[str, Any]: ...

    def pull(self, name: str | None, since: int = 0, rail_since: int = 0,
             away: Sequence[str] = (), ratings: Sequence[tuple[str, str]] = ()) -> ScreenSnapshot: ...

    def subscribe(self, callback: Callback) -> Callable[[], None]: ...

    def log_since(self, seq: int = 0) -> list[LogEntry]: ...


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
