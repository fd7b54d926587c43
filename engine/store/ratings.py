"""The ratings book in the store: finished records rated once each, in the order the store numbered them.

Records, not deal ends, feed it: the store gives each finished record its number, so every node
rates the same records in the same order, and ``rating_state.last_record`` — moved forward under
its row lock before anything else is written — lets exactly one node count each record.  A
recompute rates the same records in the same order from nothing, and so gives the same figures.

A player is rated under his account's name; a house bot (no account) under its seat name.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import Any, Protocol, Sequence

from engine.ratings import RatedDeal, Rating, rate_deal, rating_key, replay_all
from engine.record import load_record, replay


class SqlStore(Protocol):
    """What the book needs of a SQL store (``engine.store.sql.SqlStore`` gives it)."""

    def _x(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def _tx(self) -> AbstractContextManager[Any]: ...

    def _read(self) -> AbstractContextManager[Any]: ...

    @staticmethod
    def _amount_out(value: Any) -> int: ...

BATCH = 50
"""Records rated in one transaction: a backlog is worked off in short transactions, not one long one."""


def _deals(store: SqlStore, record_id: int, game: str, body: str) -> list[RatedDeal]:
    """The record's deals, each as its players' money under the names they are rated as."""
    try:
        record = load_record(json.loads(body))
        status, out = replay(record)
    except (ValueError, KeyError):
        return []
    if status:
        return []
    rows = store._x("SELECT r.seat, r.name, a.name FROM record_player r LEFT JOIN account a ON a.id = r.account_id "
                    "WHERE r.record_id = ? ORDER BY r.seat", (record_id,)).fetchall()
    rated_as = {str(seat_name): str(account or seat_name) for _, seat_name, account in rows}
    key = rating_key(game, record.options)
    return [RatedDeal(key, {rated_as.get(p, p): int(m) for p, m in deal["money"].items()}) for deal in out["deals"]]


def _bots(store: SqlStore, record_id: int) -> set[str]:
    rows = store._x("SELECT name FROM record_player WHERE record_id = ? AND account_id IS NULL", (record_id,))
    return {str(name) for (name,) in rows.fetchall()}


def rate_new(store: SqlStore, limit: int = BATCH) -> int:
    """Rate the finished records not rated yet (at most ``limit``); how many were rated here."""
    with store._tx():
        last = int(store._x("SELECT last_record FROM rating_state WHERE id = 1").fetchone()[0])
        rows = store._x("SELECT id, game, body FROM record WHERE id > ? ORDER BY id LIMIT ?",
                        (last, max(1, int(limit)))).fetchall()
        if not rows:
            return 0
        moved = store._x("UPDATE rating_state SET last_record = ? WHERE id = 1 AND last_record = ?",
                         (int(rows[-1][0]), last))
        if moved.rowcount != 1:  # another node rated these meanwhile: its figures stand
            return 0
        for record_id, game, body in rows:
            bots = _bots(store, int(record_id))
            for deal in _deals(store, int(record_id), str(game), str(body)):
                known = _read(store, deal.key, list(deal.money))
                for name, rating in rate_deal(known, deal.money).items():
                    _write(store, deal.key, name, rating, name in bots)
        return len(rows)


def _read(store: SqlStore, key: str, names: list[str]) -> dict[str, Rating]:
    marks = ", ".join("?" for _ in names)
    rows = store._x(f"SELECT name, mu, sigma, deals FROM rating WHERE key = ? AND name IN ({marks})",
                    (key, *names)).fetchall()
    return {str(n): Rating(float(mu), float(sigma), int(deals)) for n, mu, sigma, deals in rows}


def _write(store: SqlStore, key: str, name: str, rating: Rating, bot: bool) -> None:
    store._x("INSERT INTO rating (key, name, bot, mu, sigma, deals) VALUES (?, ?, ?, ?, ?, ?) "
             "ON CONFLICT (key, name) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, deals = excluded.deals",
             (key, name, int(bot), rating.mu, rating.sigma, rating.deals))


def book(store: SqlStore, key: str | None = None) -> dict[str, dict[str, Rating]]:
    """The kept ratings (of one key, or all): key → name → rating."""
    with store._read():
        sql = "SELECT key, name, mu, sigma, deals FROM rating" + (" WHERE key = ?" if key else "")
        rows = store._x(sql, (key,) if key else ()).fetchall()
    out: dict[str, dict[str, Rating]] = {}
    for k, name, mu, sigma, deals in rows:
        out.setdefault(str(k), {})[str(name)] = Rating(float(mu), float(sigma), int(deals))
    return out


def bots_rated(store: SqlStore) -> set[str]:
    with store._read():
        return {str(n) for (n,) in store._x("SELECT DISTINCT name FROM rating WHERE bot = 1").fetchall()}


def recompute(store: SqlStore) -> tuple[dict[str, dict[str, Rating]], int]:
    """Every rating from the records, from nothing, in the store's order: (the figures, records read).

    Only the records already rated are read, so the answer is comparable with ``book``."""
    with store._read():
        last = int(store._x("SELECT last_record FROM rating_state WHERE id = 1").fetchone()[0])
        rows = store._x("SELECT id, game, body FROM record WHERE id <= ? ORDER BY id", (last,)).fetchall()
        deals: list[RatedDeal] = []
        for record_id, game, body in rows:
            deals += _deals(store, int(record_id), str(game), str(body))
    return replay_all(deals), len(rows)


def rerate_kept(store: SqlStore) -> None:
    """Inside a migration's transaction: every kept rating made again from the records it counts.

    Run when the rating's drift per deal (``engine.ratings.TAU``) changes: a club's ratings made with
    the old drift would otherwise go on from figures no recompute gives, and ``recompute`` would no
    longer equal the book.  The same records, in the same order, rated as ``rate_new`` rates them."""
    last = int(store._x("SELECT last_record FROM rating_state WHERE id = 1").fetchone()[0])
    rows = store._x("SELECT id, game, body FROM record WHERE id <= ? ORDER BY id", (last,)).fetchall()
    deals: list[RatedDeal] = []
    bots: set[str] = set()
    for record_id, game, body in rows:
        deals += _deals(store, int(record_id), str(game), str(body))
        bots |= _bots(store, int(record_id))
    for key, ratings in replay_all(deals).items():
        for name, rating in ratings.items():  # a kept row keeps its bot mark, as rate_new leaves it
            _write(store, key, name, rating, name in bots)


def league(store: SqlStore, game: str, since: float, limit: int = 10) -> list[tuple[str, int]]:
    """Money won at ``game`` since ``since`` (seconds since the epoch), most first, by account."""
    with store._read():
        rows = store._x(
            "SELECT a.name, sum(p.net) FROM record_player p JOIN record r ON r.id = p.record_id "
            "JOIN account a ON a.id = p.account_id WHERE r.game = ? AND r.finished_at >= ? "
            "GROUP BY a.name ORDER BY sum(p.net) DESC, a.name LIMIT ?", (game, since, max(1, int(limit)))).fetchall()
    return [(str(name), store._amount_out(total)) for name, total in rows]


def migration(real: str, big: str) -> tuple[str, ...]:
    """The ratings' tables (and the kept analyses of records), in a backend's words for a float and a big integer."""
    return (
        f"""CREATE TABLE analysis (
            record_id {big} NOT NULL REFERENCES record(id) ON DELETE CASCADE,
            budget INTEGER NOT NULL,
            seed INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (record_id, budget, seed))""",
        f"""CREATE TABLE rating (
            key TEXT NOT NULL,
            name TEXT NOT NULL,
            bot INTEGER NOT NULL,
            mu {real} NOT NULL,
            sigma {real} NOT NULL,
            deals INTEGER NOT NULL,
            PRIMARY KEY (key, name))""",
        f"CREATE TABLE rating_state (id INTEGER PRIMARY KEY, last_record {big} NOT NULL)",
        "INSERT INTO rating_state VALUES (1, 0)",
    )


__all__ = ["BATCH", "book", "bots_rated", "league", "migration", "rate_new", "recompute", "rerate_kept"]
