"""``balance``, ``history`` and ``replay ID``: what the club's store keeps for a player, as lines.

The store is ``club.store`` (None in a club without one, e.g. ``sukno play``
or a test: then the money at the tables is all there is, and no records).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text

from engine.game import IllegalAction
from engine.record import RecordError
from engine.store import StoreError
from tui.i18n import money, tr
from tui.screens.replay import ReplayScreen

if TYPE_CHECKING:
    from tui.app import ClubApp

STATEMENT_LINES = 5
HISTORY_LINES = 10


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def balance_lines(app: "ClubApp") -> list[Text]:
    lang, club, name = app.lang, app.club, app.player or ""
    if app.guest:
        return [Text(tr(lang, "balance.guest"))]
    store = club.store
    if store is None or store.account(name) is None:
        return [Text(tr(lang, "balance.table_money", money=money(club.balance(name), lang)))]
    lines = [Text(tr(lang, "balance.line", money=money(store.balance(name), lang)), style="bold")]
    for move in store.statement(name, STATEMENT_LINES):
        lines.append(Text(tr(lang, "balance.move", date=_date(move.at), amount=money(move.amount, lang),
                             reason=move.reason), style="green" if move.amount > 0 else ""))
    return lines


def history_lines(app: "ClubApp") -> list[Text]:
    lang, store, name = app.lang, app.club.store, app.player or ""
    if store is None:
        return [Text(tr(lang, "history.no_store"))]
    games = store.history(name, HISTORY_LINES)
    if not games:
        return [Text(tr(lang, "history.none"))]
    lines = [Text(tr(lang, "history.head"), style="bold")]
    titles = {t.game_name: t.title for t in app.club.tables.values()}
    for info in games:
        title = titles.get(info.game, {}).get(lang, info.game)
        result = money(info.net, lang)
        lines.append(Text(tr(lang, "history.line", id=info.id, date=_date(info.finished_at),
                             table=info.table_id if info.table_id is not None else "—",
                             game=title, result=("+" if info.net > 0 else "") + result)))
    return lines


def replay_screen(app: "ClubApp", word: str) -> ReplayScreen | str:
    """The replay screen of record ``word``, or why not (a line for the player)."""
    lang, store = app.lang, app.club.store
    if store is None:
        return tr(lang, "history.no_store")
    if not word.lstrip("#№").isdigit():
        return tr(lang, "replay.need_id")
    record_id = int(word.lstrip("#№"))
    try:
        record = store.get_record(record_id)
    except StoreError:
        return tr(lang, "replay.none", id=record_id)
    try:
        return ReplayScreen(record_id, record, app.player, lang, app.ascii)
    except (IllegalAction, RecordError, KeyError, ValueError) as err:
        return tr(lang, "replay.broken", id=record_id, error=getattr(err, "message", err))
