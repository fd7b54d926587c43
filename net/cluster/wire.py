"""The bus between the nodes of a club on the wire: every message typed, built and checked here.

``NOTIFY sukno_bus`` carries one JSON object per notice, small (no card is ever in one), with its
type ``t`` and the schema's version ``v``.  A node decodes each notice into one of the messages
below or drops it (``BusError``: another schema, a field missing or of the wrong kind), so no
handler ever reads an unchecked dict.  A change sent to a table's owner is an
``engine.table.changes`` value; its result travels as ``encode_result`` writes it for that change.

* ``Call``/``Reply``: a change sent to the owner of ``table``, and its answer (``net.cluster.calls``).
* ``TableNews``: an owned table's public event that is not in its journal (chat, away and back, a
  stand-in, a clock run out, the rail's summary), for the replicas' screens.
* ``Rail``: a watcher's words on the rail during a deal, for every replica's watchers.
* ``AwayAsked``/``AwayState``: a replica just made asks who is away there; the owner tells it.
* ``Opened``: a table opened at runtime on ``node``; ``NewOwner``: a node took a table over.
* ``ReportFiled``: a player's report made on ``node``, for the admins online on every other node;
  ``Renamed``: the house renamed an account on ``node`` (``net.cluster.housewide``; neither names a table).
"""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, ClassVar, Union

from engine.game import Event
from engine.table.changes import CHANGES, Act, Change, Cut, Say, Sit, SitBot, Start, arguments

SCHEMA = 1
"""The version every message carries; a node drops a message of another (a node of another release)."""
MAX_NAME = 64
MAX_TEXT = 1000
TableId = int


class BusError(ValueError):
    """A notice that is not a message of this schema: dropped, never acted on."""


@dataclass(frozen=True, slots=True)
class Call:
    t: ClassVar[str] = "call"
    id: str
    sender: str
    table: TableId
    change: Change
    until: float | None = None
    """Wall-clock time after which the owner refuses to begin it (its sender has given up by then)."""


@dataclass(frozen=True, slots=True)
class Reply:
    t: ClassVar[str] = "reply"
    id: str
    to: str
    table: TableId
    ok: bool
    result: Any = None
    """The change's result as ``encode_result`` wrote it (``decode_result`` reads it back)."""
    key: str = ""
    message: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TableNews:
    t: ClassVar[str] = "event"
    table: TableId
    node: str
    kind: str
    seat: int | None
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Rail:
    t: ClassVar[str] = "rail"
    table: TableId
    node: str
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class AwayAsked:
    t: ClassVar[str] = "away?"
    table: TableId
    sender: str


@dataclass(frozen=True, slots=True)
class AwayState:
    t: ClassVar[str] = "away"
    table: TableId
    to: str
    away: tuple[str, ...]
    stand_ins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Opened:
    t: ClassVar[str] = "opened"
    table: TableId
    node: str


@dataclass(frozen=True, slots=True)
class NewOwner:
    t: ClassVar[str] = "owner"
    table: TableId
    node: str


@dataclass(frozen=True, slots=True)
class ReportFiled:
    t: ClassVar[str] = "report"
    node: str
    id: int
    """The store's number of the report (0: the store did not keep it)."""
    reporter: str
    target: str
    words: str


@dataclass(frozen=True, slots=True)
class Renamed:
    t: ClassVar[str] = "renamed"
    node: str
    old: str
    new: str


HOUSE_MESSAGES = (ReportFiled, Renamed)
"""The house's messages: about no table (``net.cluster.housewide`` hears them, not the tables' side)."""
Message = Union[Call, Reply, TableNews, Rail, AwayAsked, AwayState, Opened, NewOwner, ReportFiled, Renamed]
_RENAMED = {"sender": "from"}  # a field whose name on the wire is a Python keyword


def encode(message: Message) -> str:
    """One message as the notice's text."""
    body: dict[str, Any] = {"t": message.t, "v": SCHEMA}
    for name in message.__slots__:
        value = getattr(message, name)
        if name == "change":
            body["op"], body["args"] = value.op, list(arguments(value))
        else:
            body[_RENAMED.get(name, name)] = list(value) if isinstance(value, tuple) else value
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)


def decode(text: str) -> Message:
    """The message a notice carries; ``BusError`` if it is not one of this schema."""
    try:
        body = json.loads(text)
    except ValueError as err:
        raise BusError(f"not JSON: {err}") from None
    if not isinstance(body, dict):
        raise BusError("not an object")
    if body.get("v") != SCHEMA:
        raise BusError(f"schema {body.get('v')!r}, not {SCHEMA}")
    kind = body.get("t")
    read = _READERS.get(kind) if isinstance(kind, str) else None
    if read is None:
        raise BusError(f"unknown type {body.get('t')!r}")
    try:
        return read(body)
    except (KeyError, TypeError, ValueError) as err:
        raise BusError(f"a bad {body.get('t')}: {err}") from None


def _text(body: dict[str, Any], key: str, limit: int = MAX_NAME) -> str:
    value = body[key]
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{key} is not a text of at most {limit} characters")
    return value


def _table(body: dict[str, Any]) -> TableId:
    value = body["table"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("table is not a table's number")
    return value


def _seat(value: Any) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError("seat is not a number")


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError("not a list of names")
    return tuple(n for n in value if isinstance(n, str) and 0 < len(n) <= MAX_NAME)


_FIELD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "str": lambda v: v if isinstance(v, str) and len(v) <= MAX_TEXT else _bad("a text"),
    "int | None": _seat,
    "bool": lambda v: v if isinstance(v, bool) else _bad("true or false"),
    "str | int | bool | None": lambda v: v if v is None or isinstance(v, (str, int, bool)) else _bad("a setting"),
}


def _bad(kind: str) -> Any:
    raise ValueError(f"an argument is not {kind}")


def _checks(kind: type[Change]) -> tuple[type[Change], int, tuple[Callable[[Any], Any], ...]]:
    """How a change's arguments are read: its class, how many it needs, each one's check."""
    wanted = fields(kind)
    required = sum(1 for f in wanted if f.default is MISSING and f.default_factory is MISSING)
    return kind, required, tuple(_FIELD_CHECKS[str(f.type)] for f in wanted)


_CHANGE_READERS = {op: _checks(kind) for op, kind in CHANGES.items()}


def decode_change(op: Any, args: Any) -> Change:
    """The change ``op`` with its ``args`` (the table method's arguments in order), each checked."""
    reader = _CHANGE_READERS.get(op) if isinstance(op, str) else None
    if reader is None or not isinstance(args, list):
        raise ValueError(f"no change {op!r}")
    kind, required, checks = reader
    if not required <= len(args) <= len(checks):
        raise ValueError(f"{op} takes {required} to {len(checks)} arguments")
    return kind(*(check(value) for check, value in zip(checks, args)))


def _call(body: dict[str, Any]) -> Call:
    until = body.get("until")
    if until is not None and (isinstance(until, bool) or not isinstance(until, (int, float))):
        raise ValueError("until is not a time")
    return Call(_text(body, "id"), _text(body, "from"), _table(body), decode_change(body.get("op"), body.get("args")),
                until)


def _reply(body: dict[str, Any]) -> Reply:
    ok = body["ok"]
    if not isinstance(ok, bool):
        raise ValueError("ok is not true or false")
    params = body.get("params")
    return Reply(_text(body, "id"), _text(body, "to"), _table(body), ok, body.get("result"),
                 str(body.get("key") or "")[:MAX_NAME], str(body.get("message") or "")[:MAX_TEXT],
                 params if isinstance(params, dict) else {})


def _news(body: dict[str, Any]) -> TableNews:
    data = body.get("data")
    return TableNews(_table(body), _text(body, "node"), _text(body, "kind"), _seat(body.get("seat")),
                     data if isinstance(data, dict) else {})


def _rail(body: dict[str, Any]) -> Rail:
    name = _text(body, "name")
    if not name or not name.isprintable():
        raise ValueError("name is not a printable name")
    return Rail(_table(body), _text(body, "node"), name, _text(body, "text", MAX_TEXT))


def _printable_name(body: dict[str, Any], key: str) -> str:
    name = _text(body, key)
    if not name or not name.isprintable():
        raise ValueError(f"{key} is not a printable name")
    return name


def _report(body: dict[str, Any]) -> ReportFiled:
    number = body["id"]
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise ValueError("id is not a report's number")
    return ReportFiled(_text(body, "node"), number, _printable_name(body, "reporter"), _printable_name(body, "target"),
                       _text(body, "words", MAX_TEXT))


_READERS: dict[str, Callable[[dict[str, Any]], Message]] = {
    "call": _call,
    "reply": _reply,
    "event": _news,
    "rail": _rail,
    "away?": lambda body: AwayAsked(_table(body), _text(body, "from")),
    "away": lambda body: AwayState(_table(body), _text(body, "to"), _names(body.get("away") or []),
                                   _names(body.get("stand_ins") or [])),
    "opened": lambda body: Opened(_table(body), _text(body, "node")),
    "owner": lambda body: NewOwner(_table(body), _text(body, "node")),
    "report": _report,
    "renamed": lambda body: Renamed(_text(body, "node"), _printable_name(body, "old"), _printable_name(body, "new")),
}


def encode_result(change: Change, result: Any) -> Any:
    """A change's result as JSON: events as their kinds and seats (no data: the journal has it)."""
    if isinstance(change, (Start, Act)):
        return [[e.kind, e.seat] for e in result or []]
    return result if isinstance(result, (int, str, bool)) or result is None else None


def decode_result(change: Change, value: Any) -> Any:
    """The result ``encode_result`` wrote, as the table's method returns it (``ValueError`` if it is not)."""
    if isinstance(change, (Start, Act)):
        if not isinstance(value, list):
            raise ValueError("events are not a list")
        return [Event(str(k), s if isinstance(s, int) else None, {}) for k, s in value]
    if isinstance(change, Sit):
        return int(value)
    if isinstance(change, SitBot):
        return str(value)
    if isinstance(change, (Say, Cut)):
        return bool(value)
    return None
