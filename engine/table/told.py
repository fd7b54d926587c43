"""What an owner told its players, written in its journal so every replica tells the very same.

A table's owner commits each operation with a ``told`` note holding the events it then shows (the
game's own and the table's: a seat taken, a deal over, a seal, a session's end).  A replica plays
the journal's moves for the state and tells these notes as they are: it never works out what
happened by comparing the table before and after, and what the owner said is what everyone hears.

A new session's journal starts without the old one's entries, so it carries the notes of the old
journal's last deal (or of its lobby), each under its own ``id``: a replica that had not read them
yet tells them then, and one that had skips them.

The events' data are JSON with the card types tagged (a ``Card`` is an ``int`` and would come back
as a number): ``{"$card": "Q♠"}``, ``{"$suit": 2}``, ``{"$rank": 12}``, ``{"$tuple": […]}``, and a
dict whose keys are not all plain text as ``{"$dict": [[key, value], …]}``.
"""

from __future__ import annotations

import secrets
from typing import Any, Mapping, Sequence

from engine.cards import Card, Rank, Suit, parse_card
from engine.game import Event

TOLD_NOTE = "told"
"""The journal entry of one operation's events: ``{"id": "…", "events": [[kind, seat, data], …]}``."""

CARRIED = 64
"""At most this many notes a new session's journal carries from the old one."""


def encode_events(events: Sequence[Event]) -> dict[str, Any]:
    """A ``told`` note's payload for ``events``, under a fresh ``id``."""
    return {"id": secrets.token_hex(8), "events": [[e.kind, e.seat, _encode(dict(e.data))] for e in events]}


def note_id(payload: Mapping[str, Any], fallback: str) -> str:
    """The note's ``id`` (``fallback`` for a note written without one)."""
    found = payload.get("id")
    return found if isinstance(found, str) and found else fallback


def decode_events(payload: Mapping[str, Any]) -> list[Event]:
    """The events of a ``told`` note (``ValueError`` for one that is not)."""
    out = []
    for item in payload.get("events", []):
        kind, seat, data = item
        if not isinstance(kind, str) or not (seat is None or isinstance(seat, int)) or not isinstance(data, dict):
            raise ValueError(f"not a told event: {item!r}")
        out.append(Event(kind, seat, _decode(data)))
    return out


def _encode(value: Any) -> Any:
    if isinstance(value, Card):  # before int: a Card is one
        return {"$card": str(value)}
    if isinstance(value, Suit):
        return {"$suit": int(value)}
    if isinstance(value, Rank):
        return {"$rank": int(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v) for v in value]}
    if isinstance(value, Mapping):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"$dict": [[_encode(k), _encode(v)] for k, v in value.items()]}
    return {"$text": str(value)}  # a type no game tells yet: its words survive, never a failed commit


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        (tag, inner), = value.items()
        if tag == "$card":
            return parse_card(str(inner))
        if tag == "$suit":
            return Suit(int(inner))
        if tag == "$rank":
            return Rank(int(inner))
        if tag == "$tuple":
            return tuple(_decode(v) for v in inner)
        if tag == "$dict":
            return {_decode(k): _decode(v) for k, v in inner}
        if tag == "$text":
            return str(inner)
    return {k: _decode(v) for k, v in value.items()}


__all__ = ["CARRIED", "TOLD_NOTE", "decode_events", "encode_events", "note_id"]
