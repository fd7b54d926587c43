"""``sukno-bot/1`` on the wire: JSON lines both ways, built and checked here (docs/bot-protocol.md).

No asyncio and no asyncssh here: the server's channel (``net.modes.bot``), the
project's own client (``sukno bot``, ``net.cli.botclient``) and any local arena over
stdin/stdout share this one module, so both ends agree on every message.

Decisions (why):

- One JSON object per line, UTF-8, ``\\n`` ends a line (a ``\\r`` before it is
  dropped).  A line longer than ``MAX_LINE`` bytes is refused whole, and its
  bytes are skipped up to the next newline, so one bad line never spoils the
  next one.
- Cards travel in the record notation (``"Q♠"``), suits as their
  symbol, actions as their text (``"play Q♠"``), seats as 0-based numbers (the
  view's ``viewer`` and every event's ``seat`` are 0-based too).
- A client message is checked field by field before anything acts on it; a
  bad one is a ``WireError`` with a catalogue key, answered by an ``error``
  message in the bot's language (``TEXTS``), and the connection goes on.
  Unknown fields are ignored (a later client may send more).
"""

from __future__ import annotations

import json
import math
from enum import Enum
from typing import Any, Mapping

from engine.cards import Card
from engine.game import Action, Event

PROTOCOL = "sukno-bot/1"
MAX_LINE = 8192
"""Longest line accepted from a client, in bytes (the newline excluded)."""
MAX_SERVER_LINE = 16384
"""Longest line the server sends, in bytes (the newline included): a client's buffer of 16 KiB holds any."""
MAX_TEXT = 300
"""Longest ``say`` text and longest ``action`` text accepted (characters)."""

CLIENT_TYPES: dict[str, dict[str, tuple[str, bool]]] = {
    # type → field → (kind, required); kinds: "int", "str", "int?" (optional int)
    "hello": {"name": ("str", False), "lang": ("str", False)},
    "tables": {},
    "sit": {"table": ("int", True), "seat": ("int", False)},
    "start": {"table": ("int", True)},
    "stand": {"table": ("int", True)},
    "leave": {"table": ("int", True)},
    "say": {"table": ("int", False), "text": ("str", True)},
    "act": {"table": ("int", True), "ask": ("int", False), "seq": ("int", False), "action": ("str", True)},
    "sync": {"table": ("int", True)},
    "ping": {"data": ("str", False)},
    "rules": {"game": ("str", True)},
    "wait": {"game": ("str", False)},
    "export": {"record": ("int", False), "table": ("int", False), "from": ("int", False), "to": ("int", False)},
    "report": {"name": ("str", True), "text": ("str", True)},
    "quit": {},
}
"""Every message a client may send, with its fields."""

SERVER_TYPES = ("hello", "welcome", "error", "tables", "seated", "stood", "left", "state", "event", "turn",
                "deal_end", "ack", "said", "reported", "pong", "rules", "waiting", "table_started", "export", "bye")
"""Every message the server sends."""

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "bot.bad_json": "That line is not JSON: {reason}.",
        "bot.not_object": "A message is one JSON object per line, such as {{\"type\": \"tables\"}}.",
        "bot.too_long": "That line is longer than {limit} bytes; it was skipped.",
        "bot.no_type": "A message needs a \"type\" (one of: {types}).",
        "bot.unknown_type": "Unknown message type {type!r}; known: {types}.",
        "bot.bad_field": "The field {field!r} of {type!r} must be {kind}.",
        "bot.missing_field": "The message {type!r} needs the field {field!r}.",
        "bot.hello_first": "Say hello first: {{\"type\": \"hello\", \"name\": \"…\"}}.",
        "bot.hello_again": "You are already welcome here as {name}.",
        "bot.need_name": "This key has no account yet: send hello with the name your bot should have.",
        "bot.person_key": "This key belongs to the person {name}; a bot needs a key of its own.",
        "bot.guest": "Bots need a key: connect with  ssh -i KEY -T -p PORT HOST bot.",
        "bot.flood": "Too many messages at once: your {dropped} was dropped (at most {rate} a second, {burst} at "
                     "once, {bytes} bytes a second). Slow down.",
        "bot.bad_utf8": "That line is not UTF-8 (a bad byte at {at}); it was skipped.",
        "bot.field_too_long": "The field {field!r} of {type!r} is {length} characters long; at most {limit} are "
                              "allowed.",
        "bot.no_seat": "There is no seat {seat} at table {table}: its seats are numbered 0 to {last}.",
        "bot.seat_taken": "Seat {seat} at table {table} is taken.",
        "bot.busy": "Too many messages sent ahead of the answer you wait for; that one was dropped.",
        "bot.stale_ask": "Ask {ask} is over; the current one is {current}.",
        "bot.stale_ask_none": "Ask {ask} is over; nothing is asked of you at this table now.",
        "bot.not_following": "You do not follow table {table}: sit there first.",
        "bot.no_table": "There is no table {table}.",
        "bot.store": "The club could not write that down just now; try again in a while.",
        "bot.too_slow": "You did not read what the club sent you; the connection is closed (your seat is kept).",
        "bot.bye": "Goodbye; your seat is kept.",
        "bot.no_rules": "There is no game {game!r}; the club's games: {games}.",
        "bot.no_game": "There is no game {game!r} to wait for; the club's games: {games}.",
        "bot.no_record": "Game {record} is not among your {history} newest finished games.",
        "bot.no_records": "You have no finished game to export yet.",
        "bot.no_records_at": "You have no finished game of table {table} to export yet.",
        "bot.export_range": "Game {record} has {of} deals, numbered from 1: ask for deals within them, from ≤ to.",
        "bot.export_too_big": "Deal {deal} of game {record} is longer than a line of the club; it cannot be sent.",
    },
    "ru": {
        "bot.bad_json": "Эта строка — не JSON: {reason}.",
        "bot.not_object": "Сообщение — один объект JSON в строке, например {{\"type\": \"tables\"}}.",
        "bot.too_long": "Строка длиннее {limit} байт; она пропущена.",
        "bot.no_type": "В сообщении нужен \"type\" (один из: {types}).",
        "bot.unknown_type": "Неизвестный тип сообщения {type!r}; известны: {types}.",
        "bot.bad_field": "Поле {field!r} сообщения {type!r} должно быть: {kind}.",
        "bot.missing_field": "В сообщении {type!r} нужно поле {field!r}.",
        "bot.hello_first": "Сначала поздоровайтесь: {{\"type\": \"hello\", \"name\": \"…\"}}.",
        "bot.hello_again": "Вы уже приняты здесь как {name}.",
        "bot.need_name": "У этого ключа ещё нет учётной записи: пришлите hello с именем для вашего бота.",
        "bot.person_key": "Этот ключ принадлежит человеку {name}; боту нужен свой ключ.",
        "bot.guest": "Боту нужен ключ: входите так:  ssh -i KEY -T -p PORT HOST bot.",
        "bot.flood": "Слишком много сообщений сразу: отброшено {dropped} (не больше {rate} в секунду, {burst} "
                     "сразу, {bytes} байт в секунду). Помедленнее.",
        "bot.bad_utf8": "Эта строка — не UTF-8 (неверный байт на месте {at}); она пропущена.",
        "bot.field_too_long": "Поле {field!r} сообщения {type!r} длиной {length} символов; можно не больше {limit}.",
        "bot.no_seat": "За столом {table} нет места {seat}: места пронумерованы от 0 до {last}.",
        "bot.seat_taken": "Место {seat} за столом {table} занято.",
        "bot.busy": "Слишком много сообщений до ответа, которого вы ждёте; это отброшено.",
        "bot.stale_ask": "Запрос {ask} уже в прошлом; текущий — {current}.",
        "bot.stale_ask_none": "Запрос {ask} уже в прошлом; сейчас за этим столом от вас ничего не ждут.",
        "bot.not_following": "Вы не следите за столом {table}: сначала сядьте за него.",
        "bot.no_table": "Стола {table} нет.",
        "bot.store": "Клуб не смог это записать; попробуйте чуть позже.",
        "bot.too_slow": "Вы не читали, что присылал клуб; соединение закрыто (место за вами).",
        "bot.bye": "До свидания; место за вами.",
        "bot.no_rules": "Игры {game!r} нет; в клубе играют: {games}.",
        "bot.no_game": "Игры {game!r} нет, ждать нечего; в клубе играют: {games}.",
        "bot.no_record": "Партии {record} нет среди ваших {history} последних законченных.",
        "bot.no_records": "У вас пока нет законченной партии для выгрузки.",
        "bot.no_records_at": "У вас пока нет законченной партии за столом {table} для выгрузки.",
        "bot.export_range": "В партии {record} сдач {of}, они пронумерованы с 1: просите сдачи в этих пределах, from ≤ to.",
        "bot.export_too_big": "Сдача {deal} партии {record} длиннее строки клуба; её нельзя прислать.",
    },
}

_KIND_WORDS = {
    "en": {"int": "a whole number", "str": "a string"},
    "ru": {"int": "целое число", "str": "строка"},
}


def say(lang: str, key: str, **params: Any) -> str:
    """A protocol text in ``lang`` (English if the language or the key is unknown)."""
    texts = TEXTS.get(lang, TEXTS["en"])
    template = texts.get(key) or TEXTS["en"].get(key) or key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class WireError(ValueError):
    """A client line that is not a good message: ``key`` and ``params`` name the text."""

    def __init__(self, key: str, **params: Any):
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        params = dict(self.params)
        if "kind" in params:
            params["kind"] = _KIND_WORDS.get(lang, _KIND_WORDS["en"]).get(params["kind"], params["kind"])
        return say(lang, self.key, **params)


# --- values to JSON ---------------------------------------------------------------


def plain(value: Any) -> Any:
    """``value`` as plain JSON data: cards as ``"Q♠"``, suits as ``"♠"``, actions as their text."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Card):
        return value.text()
    if isinstance(value, Action):
        return value.text()
    if isinstance(value, Enum):
        text = getattr(value, "text", None)
        return text() if callable(text) else value.name.lower()
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(plain(k)) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=str)
    return str(value)


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line (UTF-8, ``\\n`` at the end)."""
    return (json.dumps(plain(message), ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def event_message(table: int, seq: int, event: Event) -> dict[str, Any]:
    """A table's public event (``engine.game.Event``) as an ``event`` message."""
    return {"type": "event", "table": table, "seq": seq, "kind": event.kind, "seat": event.seat,
            "data": plain(dict(event.data))}


def tables_parts(rows: list[Any]) -> list[tuple[list[Any], bool]]:
    """The club's tables cut into ``tables`` messages that each fit ``MAX_SERVER_LINE`` (``more``: another
    part follows); one table is far smaller than a line."""
    parts: list[tuple[list[Any], bool]] = []
    part: list[Any] = []
    size = 64  # the message around the rows
    for row in rows:
        row_size = len(encode(row)) + 1
        if part and size + row_size > MAX_SERVER_LINE:
            parts.append((part, True))
            part, size = [], 64
        part.append(row)
        size += row_size
    parts.append((part, False))
    return parts


def error_message(key: str, text: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "key": key, "text": text}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


# --- lines from a client ------------------------------------------------------------


class TooLong:
    """Marks a line that was over ``MAX_LINE`` (its bytes are gone)."""


class LineBuffer:
    """Bytes in, whole lines out; a line over the limit comes out as ``TooLong`` and is skipped."""

    def __init__(self, limit: int = MAX_LINE):
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | TooLong]:
        out: list[bytes | TooLong] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                rest = data[start:]
                if self._skipping:
                    return out
                self._buf += rest
                if len(self._buf) > self.limit:
                    self._buf.clear()
                    self._skipping = True
                    out.append(TooLong())
                return out
            piece = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                continue
            self._buf += piece
            line = bytes(self._buf)
            self._buf.clear()
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.limit:
                out.append(TooLong())
            elif line.strip():
                out.append(line)


def decode(line: bytes | str, types: Mapping[str, Mapping[str, tuple[str, bool]]] = CLIENT_TYPES) -> dict[str, Any]:
    """One client line as a checked message; ``WireError`` says what is wrong."""
    if isinstance(line, bytes):
        if len(line) > MAX_LINE:
            raise WireError("bot.too_long", limit=MAX_LINE)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as err:
            raise WireError("bot.bad_utf8", at=err.start) from None
    else:
        text = line
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as err:
        reason = getattr(err, "msg", None) or "too deeply nested"
        raise WireError("bot.bad_json", reason=str(reason)[:80]) from None
    if not isinstance(message, dict):
        raise WireError("bot.not_object")
    kind = message.get("type")
    known = ", ".join(types)
    if kind is None:
        raise WireError("bot.no_type", types=known)
    if not isinstance(kind, str) or kind not in types:
        raise WireError("bot.unknown_type", type=str(kind)[:40], types=known)
    for field, (want, required) in types[kind].items():
        value = message.get(field)
        if value is None:
            if required:
                raise WireError("bot.missing_field", type=kind, field=field)
            continue
        if want == "int" and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > 2**31):
            raise WireError("bot.bad_field", type=kind, field=field, kind="int")
        if want == "str" and not isinstance(value, str):
            raise WireError("bot.bad_field", type=kind, field=field, kind="str")
        if want == "str" and len(value) > MAX_TEXT:
            raise WireError("bot.field_too_long", type=kind, field=field, length=len(value), limit=MAX_TEXT)
    if kind == "act" and message.get("ask") is None and message.get("seq") is None:
        raise WireError("bot.missing_field", type=kind, field="ask")
    return message


def type_of(line: bytes | TooLong) -> str:
    """The ``type`` a line names, for a message dropped unread (``bot.flood``): its type, or ``line``."""
    if isinstance(line, TooLong):
        return "line"
    try:
        kind = json.loads(line).get("type")
    except (ValueError, RecursionError, AttributeError):
        return "line"
    return f"{kind[:20]} message" if isinstance(kind, str) else "line"


def server_message(line: bytes | str) -> dict[str, Any]:
    """A line from the server, for clients: a JSON object with a known ``type`` (``ValueError`` if not)."""
    message = json.loads(line)
    if not isinstance(message, dict) or message.get("type") not in SERVER_TYPES:
        raise ValueError(f"not a {PROTOCOL} server message: {str(line)[:80]!r}")
    return message
