"""``balance``, ``history`` and ``replay ID``: what the club's store keeps for a player, as lines.

The store is ``club.store`` (None in a club without one, e.g. ``sukno play``
or a test: then the money at the tables is all there is, and no records).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text

from engine.game import IllegalAction
from engine.record import RecordError
from engine.store.base import StoreError
from tui.i18n import money, tr
from tui.statement import reason_text
from tui.screens.replay import ReplayScreen

if TYPE_CHECKING:
    from tui.host import Host

STATEMENT_LINES = 5
HISTORY_LINES = 10
CHART_GAMES = 30


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


@dataclass(frozen=True)
class Asker:
    """What the lines need of the person who typed ``balance``/``history``, taken on the loop, so that
    the lines can be made in the store's thread without touching the club's live tables."""

    name: str
    lang: str
    ascii: bool
    on_screen: bool  # a Textual screen (the chart drawn), else the text mode (the chart said)
    at_tables: int  # his money at the tables: his balance when he has no account
    titles: dict[str, dict[str, str]]  # each game's title by language


def account_lines(app: Host, verb: str) -> Any:
    """``balance`` or ``history`` as lines — or, where the session reads its store in a thread of its
    own (``app.store_read``: net), a ``Pending`` of them: a statement, the history and the chart were
    several store reads on the event loop.  A guest's balance or a storeless club's lines come now."""
    from textual.app import App

    lang, club, name = app.lang, app.club, app.player or ""
    if app.guest and verb == "balance":
        return [Text(tr(lang, "balance.guest"))]
    asker = Asker(name, lang, app.ascii, isinstance(app, App), sum(t.balance(name) for t in club.tables.values()),
                  {t.game_name: t.title for t in club.tables.values()})
    make = balance_lines if verb == "balance" else history_lines
    read = getattr(app, "store_read", None)
    if club.store is None or read is None:
        return make(asker, club.store)
    return read(lambda store: make(asker, store), verb)


def balance_lines(asker: Asker, store: Any) -> list[Text]:
    lang, name = asker.lang, asker.name
    if store is None or store.account(name) is None:
        return [Text(tr(lang, "balance.table_money", money=money(asker.at_tables, lang)))]
    lines = [Text(tr(lang, "balance.line", money=money(store.balance(name), lang)), style="bold")]
    lines += chart_lines(asker, store)
    for move in store.statement(name, STATEMENT_LINES):
        lines.append(Text(tr(lang, "balance.move", date=_date(move.at), amount=money(move.amount, lang),
                             reason=reason_text(move.reason, move.table_id, move.deal_no, lang)),
                        style="green" if move.amount > 0 else ""))
    return lines


def history_lines(asker: Asker, store: Any) -> list[Text]:
    lang, name = asker.lang, asker.name
    if store is None:
        return [Text(tr(lang, "history.no_store"))]
    games = store.history(name, HISTORY_LINES)
    if not games:
        return [Text(tr(lang, "history.none"))]
    lines = [Text(tr(lang, "history.head"), style="bold")]
    if store.account(name) is not None:
        lines += chart_lines(asker, store)
    for info in games:
        title = asker.titles.get(info.game, {}).get(lang, info.game)
        result = money(info.net, lang)
        lines.append(Text(tr(lang, "history.line", id=info.id, date=_date(info.finished_at),
                             table=info.table_id if info.table_id is not None else "—",
                             game=title, result=("+" if info.net > 0 else "") + result)))
    return lines


def chart_lines(asker: Asker, store: Any) -> list[Text]:
    """The balance over the last games as a sparkline, best and worst game marked.

    On a screen: the chart, its marks and a line naming the two games; in the
    text mode (no Textual app) the same in one sentence.
    """
    from tui.widgets.spark import balance_series, expected_series, marks, sparkline

    lang, name = asker.lang, asker.name
    games = store.history(name, CHART_GAMES)[::-1]  # oldest first
    if not games:
        return []
    series = balance_series(store.balance(name), [g.net for g in games[::-1]])
    losses = _given_away(store, name, [g.id for g in games])
    analysed = [g.id for g in games if g.id in losses]
    expected = expected_series(series, [losses.get(g.id, 0.0) for g in games]) if analysed else []
    nets = [g.net for g in games]
    best = max(range(len(nets)), key=lambda i: (nets[i], i))
    worst = min(range(len(nets)), key=lambda i: (nets[i], -i))
    differs = nets[best] != nets[worst]  # else no game stands out: no best and worst told
    low, high = money(min(series), lang), money(max(series), lang)
    if not asker.on_screen:
        said = tr(lang, "chart.say", n=len(games), first=money(series[0], lang), last=money(series[-1], lang),
                  low=low, high=high)
        if differs:
            said += " " + tr(lang, "chart.best_worst", best=games[best].id, best_money=_signed(nets[best], lang),
                             worst=games[worst].id, worst_money=_signed(nets[worst], lang))
        if analysed:
            said += " " + tr(lang, "chart.expected_say", n=len(analysed), lost=money(round(sum(losses.values())), lang),
                             would=money(expected[-1], lang), real=money(series[-1], lang))
        return [Text(said)]
    head = tr(lang, "chart.head", n=len(games))
    label = tr(lang, "chart.expected_head") if analysed else ""
    width = max(len(head), len(label))
    pad = " " * (width + 2)
    scale = (min(series + expected), max(series + expected))
    spark = sparkline(series, asker.ascii, scale)
    lines = [Text(" " + head.ljust(width) + " ", style="dim") + Text(spark, style="bold green")
             + Text(f"  {low} … {high}", style="dim")]
    if differs:
        lines.append(Text(pad + marks(len(series), best, worst, asker.ascii), style="bold"))
    if analysed:  # the same scale, so the gap between the lines is the money the decisions gave away
        lines.append(Text(" " + label.ljust(width) + " ", style="dim")
                     + Text(sparkline(expected, asker.ascii, scale), style="cyan"))
    if differs:
        lines.append(Text(" " + tr(lang, "chart.best_worst", best=games[best].id,
                                    best_money=_signed(nets[best], lang), worst=games[worst].id,
                                    worst_money=_signed(nets[worst], lang)), style="dim"))
    if analysed:
        lines.append(Text(" " + tr(lang, "chart.expected_note", n=len(analysed),
                                   lost=money(round(sum(losses.values())), lang)), style="dim"))
    return lines


def _given_away(store: Any, name: str, record_ids: list[int]) -> dict[int, float]:
    """Per analysed game: the money ``name``'s own decisions gave away in expectation (kept analyses only)."""
    if not hasattr(store, "latest_analyses"):
        return {}
    out: dict[int, float] = {}
    for record_id, body in store.latest_analyses(record_ids).items():
        try:
            seats = json.loads(body).get("seats", [])
        except (ValueError, AttributeError):
            continue  # a kept analysis that does not read is left out, not guessed
        mine = [float(s.get("loss", 0.0)) for s in seats if isinstance(s, dict) and s.get("name") == name]
        if mine:
            out[record_id] = sum(mine)
    return out


def _signed(amount: int, lang: str) -> str:
    return ("+" if amount > 0 else "") + money(amount, lang)


def replay_screen(app: Host, word: str) -> ReplayScreen | str:
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
    kept = store.latest_analyses([record_id]).get(record_id) if hasattr(store, "latest_analyses") else None
    try:
        analysis = json.loads(kept) if kept else None
    except ValueError:
        analysis = None  # a kept analysis that does not read: the replay without its marks
    try:
        return ReplayScreen(record_id, record, app.player, lang, app.ascii, analysis=analysis)
    except (IllegalAction, RecordError, KeyError, ValueError) as err:
        return tr(lang, "replay.broken", id=record_id, error=getattr(err, "message", err))
