"""Every change a person (or the club) asks of a table, as a typed value: what a ``RemoteTable`` sends
to the table's owner, and what the owner applies through the club's door with ``apply_change``.

One class per change, named as the table's method it stands for; ``op`` is that name on the wire,
its fields the method's arguments in order.  The owner's answer is the method's own result
(``Result``), or its refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Union

if TYPE_CHECKING:
    from engine.table.club import Club


@dataclass(frozen=True, slots=True)
class Sit:
    op: ClassVar[str] = "sit"
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SitBot:
    op: ClassVar[str] = "sit_bot"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    op: ClassVar[str] = "stand"
    name: str


@dataclass(frozen=True, slots=True)
class SetRule:
    op: ClassVar[str] = "set_rule"
    name: str
    key: str
    value: str | int | bool | None


@dataclass(frozen=True, slots=True)
class Invite:
    op: ClassVar[str] = "invite"
    name: str
    guest: str


@dataclass(frozen=True, slots=True)
class Say:
    op: ClassVar[str] = "say"
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Start:
    op: ClassVar[str] = "start"
    name: str
    by_ear: bool = False


@dataclass(frozen=True, slots=True)
class Cut:
    op: ClassVar[str] = "cut"
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Act:
    op: ClassVar[str] = "act"
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Away:
    op: ClassVar[str] = "away"
    name: str
    kind: str = "away"


@dataclass(frozen=True, slots=True)
class Back:
    op: ClassVar[str] = "back"
    name: str


Change = Union[Sit, SitBot, Stand, SetRule, Invite, Say, Start, Cut, Act, Away, Back]
CHANGES: dict[str, type[Change]] = {c.op: c for c in (Sit, SitBot, Stand, SetRule, Invite, Say, Start, Cut, Act,
                                                        Away, Back)}
"""Each change by its ``op``."""
QUIET = (Away, Back)
"""Changes the club makes itself (a session ends or begins): a refusal is logged, never shown."""


def arguments(change: Change) -> tuple[Any, ...]:
    """The change's fields in order: the table method's arguments."""
    return tuple(getattr(change, name) for name in change.__slots__)


def apply_change(club: Club, table_id: int, change: Change, now: float) -> Any:
    """On the owner: the change through the club's door (sit, seat a bot, stand) or the table's own
    method, exactly as a session of this node would make it; its result, or its refusal raised."""
    table = club.table(table_id)
    if isinstance(change, Sit):
        return club.sit(change.name, table_id, change.seat)
    if isinstance(change, SitBot):
        return club.sit_bot(table_id, change.seat)
    if isinstance(change, Stand):
        return club.stand(change.name, table_id)
    if isinstance(change, SetRule):
        return table.set_rule(change.name, change.key, change.value)
    if isinstance(change, Invite):
        return table.invite(change.name, change.guest)
    if isinstance(change, Say):
        return table.say(change.name, change.text)
    if isinstance(change, Start):
        return table.start(change.name, now, change.by_ear)
    if isinstance(change, Cut):
        return table.cut(change.name, change.text)
    if isinstance(change, Act):
        return table.act(change.name, change.text, now)
    if isinstance(change, Away):
        return table.away(change.name, now, change.kind)
    return table.back(change.name, now)
