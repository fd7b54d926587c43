"""``export``: a bot's finished games as ``sukno-record/1``, the very record ``sukno export`` writes, in lines
a 16 KiB buffer reads.

A record is cut between deals: every ``export`` line carries the record's head (the record without its
deals) and as many whole deals as fit the server's line; the head with every part's deals, in order, is the
record.  What one export may carry is bounded: the bot's ``HISTORY`` newest games, ``MAX_DEALS`` deals of
one of them (a range of deals for more), so a bot cannot make the club read or send without end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from net.modes.botwire import MAX_SERVER_LINE, encode

HISTORY = 50
"""How many of its newest finished games a bot may export (their numbers come in ``older``)."""
MAX_DEALS = 100
"""The most deals one ``export`` sends (``from``/``to`` choose which of a longer record)."""


@dataclass(frozen=True, slots=True)
class Found:
    """In the store's thread: the record chosen, its table, and the bot's next older game there."""

    record: int
    table: int | None
    net: int
    older: int | None
    body: dict[str, Any]


def choose(store: Any, name: str, record: int | None, table: int | None) -> Found | str:
    """The game to export (``record``, else the newest; at ``table`` if given) among the bot's
    ``HISTORY`` newest, or why there is none: ``bot.no_record`` / ``bot.no_records``."""
    games = [g for g in store.history(name, HISTORY) if table is None or g.table_id == table]
    at = next((i for i, g in enumerate(games) if g.id == record), None) if record is not None else 0
    if at is None:
        return "bot.no_record"
    if not games:
        return "bot.no_records"
    game = games[at]
    older = games[at + 1].id if at + 1 < len(games) else None
    return Found(game.id, game.table_id if isinstance(game.table_id, int) else None, game.net, older,
                 store.get_record(game.id).to_json())


class TooBig(ValueError):
    """One deal longer than a line of the server: that range cannot be sent (``sukno export`` can)."""

    def __init__(self, deal: int) -> None:
        super().__init__(deal)
        self.deal = deal


def parts(found: Found, first: int, last: int) -> list[dict[str, Any]]:
    """The ``export`` lines of deals ``first``..``last`` (from 1) of ``found``, each within the line limit."""
    body = found.body
    deals = body["deals"][first - 1:last]
    head = {k: v for k, v in body.items() if k != "deals"}
    frame = {"type": "export", "record": found.record, "table": found.table, "net": found.net,
             "older": found.older, "of": len(body["deals"]), "first": first, "last": last, "head": head,
             "part": 999_999, "deals": [], "more": False}
    room = MAX_SERVER_LINE - len(encode(frame))
    out: list[list[Any]] = [[]]
    used = 0
    for number, deal in enumerate(deals, start=first):
        size = len(encode(deal)) + 1  # its comma
        if size > room:
            raise TooBig(number)
        if used + size > room:
            out.append([])
            used = 0
        out[-1].append(deal)
        used += size
    return [{**frame, "part": i, "deals": piece, "more": i < len(out) - 1} for i, piece in enumerate(out)]


def deal_range(of: int, wanted_from: int | None, wanted_to: int | None) -> tuple[int, int] | None:
    """The deals to send of a record of ``of`` deals: from ``wanted_from`` (1) to ``wanted_to`` (the last),
    at most ``MAX_DEALS``; None if the range is empty or outside the record."""
    first = 1 if wanted_from is None else wanted_from
    last = of if wanted_to is None else min(wanted_to, of)
    if first < 1 or first > last:
        return None
    return first, min(last, first + MAX_DEALS - 1)
