"""The house's memory of words: the chat log and the reports, in the store.

The chat log holds what passed the speech gate (``engine.table.speech``), for as long as the config's
``[moderation] keep_days`` says (``engine.table.chatlog`` prunes it); a report holds the reporter's
words and the lines of the reported person he could see, so the house can check a complaint even
when no chat log is kept.  Every text is bounded here too, whatever the caller checked.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

from engine.store.base import AccountError

TEXT_MAX = 500
"""Characters of one kept line (a chat line is shorter; this only bounds what a caller hands in)."""
WORDS_MAX = 300
"""Characters of a report's own words."""
CONTEXT_MAX = 30
"""Lines of what the reporter saw kept with a report."""
LIST_MAX = 500
"""Rows one listing returns at most (the newest)."""
PLACES = ("hall", "table", "rail", "private", "away")
"""Where a line was said: the hall, a table's chat, a table's rail, a whisper, an away note."""


class SqlStore(Protocol):
    """What these functions need of a SQL store (``engine.store.sql.SqlStore`` gives it)."""

    def _x(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def _insert_id(self, sql: str, params: Sequence[Any]) -> int: ...

    def _tx(self) -> AbstractContextManager[Any]: ...

    def _read(self) -> AbstractContextManager[Any]: ...


@dataclass(frozen=True)
class ChatLine:
    """One line someone said: when, who, where (``PLACES``; ``table`` for a table's chat and rail),
    to whom (a whisper) and what."""

    at: float
    name: str
    place: str
    text: str
    table: int | None = None
    to: str | None = None

    def where(self) -> str:
        """``hall``, ``table 3``, ``table 3 rail``, ``private to Anna``, ``away note``."""
        if self.place in ("table", "rail"):
            return f"table {self.table}" + (" rail" if self.place == "rail" else "")
        if self.place == "private":
            return f"private to {self.to}"
        return "away note" if self.place == "away" else self.place

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "name": self.name, "place": self.place, "table": self.table, "to": self.to,
                "text": self.text}

    @classmethod
    def from_json(cls, data: Any) -> ChatLine:
        table = data.get("table")
        return cls(float(data["at"]), str(data["name"]), str(data["place"]), str(data["text"]),
                   None if table is None else int(table), None if data.get("to") is None else str(data["to"]))


@dataclass(frozen=True)
class Report:
    """A person's complaint about another, with the other's lines he could see then."""

    at: float
    reporter: str
    target: str
    words: str
    seen: tuple[ChatLine, ...] = ()
    id: int = 0
    state: str = "open"
    closed_by: str = ""
    closed_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at, "reporter": self.reporter, "target": self.target,
                "words": self.words, "state": self.state, "closed_by": self.closed_by or None,
                "closed_at": self.closed_at, "seen": [line.to_json() for line in self.seen]}


@dataclass
class ChatQuery:
    """Which lines ``chat_lines`` reads: one person's (``name``) or one table's, since a time."""

    name: str | None = None
    table: int | None = None
    since: float = 0.0
    limit: int = LIST_MAX
    places: tuple[str, ...] = field(default_factory=tuple)


def migration(real: str, identity: str) -> tuple[str, ...]:
    """The chat log and the reports, in a backend's words for a float and a numbered primary key."""
    return (
        f"""CREATE TABLE chat_line (
            id {identity},
            at {real} NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            place TEXT NOT NULL,
            table_no INTEGER,
            to_name TEXT,
            text TEXT NOT NULL)""",
        "CREATE INDEX chat_line_name ON chat_line(name_key, at)",
        "CREATE INDEX chat_line_table ON chat_line(table_no, at)",
        "CREATE INDEX chat_line_at ON chat_line(at)",
        f"""CREATE TABLE report (
            id {identity},
            at {real} NOT NULL,
            reporter TEXT NOT NULL,
            target TEXT NOT NULL,
            words TEXT NOT NULL,
            seen TEXT NOT NULL,
            state TEXT NOT NULL,
            closed_by TEXT NOT NULL,
            closed_at {real})""",
        "CREATE INDEX report_state ON report(state, id)",
    )


def settings_migration(real: str) -> tuple[str, ...]:
    """The house's own settings that outlive a restart and reach every node (the message of the day)."""
    return (f"CREATE TABLE house_setting (key TEXT PRIMARY KEY, value TEXT NOT NULL, at {real} NOT NULL)",)


SETTING_KEY_MAX = 32
SETTING_MAX = 2000
"""Characters of a house setting's key and value."""


def house_setting(store: SqlStore, key: str) -> tuple[str, float] | None:
    """The house's setting ``key`` and when it was set, or None when it never was."""
    with store._read():
        row = store._x("SELECT value, at FROM house_setting WHERE key = ?", (key,)).fetchone()
    return None if row is None else (str(row[0]), float(row[1]))


def set_house_setting(store: SqlStore, key: str, value: str, at: float) -> None:
    if not key or len(key) > SETTING_KEY_MAX or len(value) > SETTING_MAX:
        raise AccountError(f"a house setting is a key of 1–{SETTING_KEY_MAX} characters and at most "
                           f"{SETTING_MAX} of value")
    with store._tx():
        store._x("INSERT INTO house_setting (key, value, at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
                 "value = excluded.value, at = excluded.at", (key, value, float(at)))


def _key(name: str) -> str:
    return str(name).strip().casefold()


def _line(line: ChatLine) -> ChatLine:
    """The line as kept: a known place, bounded texts."""
    if line.place not in PLACES:
        raise AccountError(f"a chat line is said in one of {', '.join(PLACES)}, not {line.place!r}")
    if not line.name or len(line.name) > 64 or (line.to is not None and len(line.to) > 64):
        raise AccountError("a chat line's names are 1–64 characters")
    return ChatLine(float(line.at), line.name, line.place, line.text[:TEXT_MAX], line.table, line.to)


def log_chat(store: SqlStore, lines: Sequence[ChatLine]) -> None:
    """Keep ``lines`` in the chat log (one transaction)."""
    rows = [(x.at, x.name, _key(x.name), x.place, x.table, x.to, x.text) for x in map(_line, lines)]
    with store._tx():
        store._many("INSERT INTO chat_line (at, name, name_key, place, table_no, to_name, text) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)


def chat_lines(store: SqlStore, query: ChatQuery) -> list[ChatLine]:
    """The lines ``query`` asks for, oldest first (at most ``query.limit``: the newest of them)."""
    where: list[str] = ["at >= ?"]
    params: list[Any] = [float(query.since)]
    if query.name is not None:
        where.append("name_key = ?")
        params.append(_key(query.name))
    if query.table is not None:
        where.append("table_no = ?")
        params.append(int(query.table))
    if query.places:
        where.append("place IN (" + ", ".join("?" for _ in query.places) + ")")
        params.extend(query.places)
    limit = max(1, min(LIST_MAX, int(query.limit)))
    with store._read():
        rows = store._x("SELECT at, name, place, text, table_no, to_name FROM chat_line WHERE "
                        + " AND ".join(where) + " ORDER BY at DESC, id DESC LIMIT ?", (*params, limit)).fetchall()
    return [ChatLine(float(a), str(n), str(p), str(t), None if tb is None else int(tb), None if to is None else str(to))
            for a, n, p, t, tb, to in reversed(rows)]


def prune_chat(store: SqlStore, before: float) -> int:
    """Forget the lines said before ``before``; how many went."""
    with store._tx():
        return int(store._x("DELETE FROM chat_line WHERE at < ?", (float(before),)).rowcount or 0)


def add_report(store: SqlStore, report: Report) -> int:
    """Keep a new report; its number."""
    if not report.reporter or not report.target or len(report.reporter) > 64 or len(report.target) > 64:
        raise AccountError("a report names its reporter and the person it is about (1–64 characters)")
    seen = json.dumps([_line(x).to_json() for x in report.seen[-CONTEXT_MAX:]], ensure_ascii=False)
    with store._tx():
        return store._insert_id("INSERT INTO report (at, reporter, target, words, seen, state, closed_by) "
                                "VALUES (?, ?, ?, ?, ?, 'open', '')",
                                (float(report.at), report.reporter, report.target, report.words[:WORDS_MAX], seen))


def reports(store: SqlStore, every: bool = False, limit: int = LIST_MAX) -> list[Report]:
    """The open reports (``every``: closed ones too), oldest first (at most ``limit``: the newest)."""
    where = "" if every else "WHERE state = 'open' "
    with store._read():
        rows = store._x("SELECT id, at, reporter, target, words, seen, state, closed_by, closed_at FROM report "
                        + where + "ORDER BY id DESC LIMIT ?", (max(1, min(LIST_MAX, int(limit))),)).fetchall()
    return [Report(float(at), str(who), str(about), str(words), tuple(ChatLine.from_json(x) for x in json.loads(seen)),
                   int(rid), str(state), str(by), None if closed is None else float(closed))
            for rid, at, who, about, words, seen, state, by, closed in reversed(rows)]


def close_report(store: SqlStore, report_id: int, by: str, at: float) -> bool:
    """Close an open report; False when there is no open report of that number."""
    with store._tx():
        done = store._x("UPDATE report SET state = 'closed', closed_by = ?, closed_at = ? WHERE id = ? AND state = 'open'",
                        (by[:64], float(at), int(report_id)))
        return int(done.rowcount or 0) == 1


__all__ = ["CONTEXT_MAX", "ChatLine", "ChatQuery", "LIST_MAX", "PLACES", "Report", "WORDS_MAX", "add_report",
           "chat_lines", "close_report", "house_setting", "log_chat", "migration", "prune_chat", "reports",
           "set_house_setting", "settings_migration"]
