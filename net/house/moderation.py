"""The admin's verbs on what people say: reports, report N close, chatlog, motd.

A report is filed by a player (``engine.table.chatlog.Reports``); the house online is told at once
(``listen``) and reads them here.  The chat log is read from the store by the store's thread, never
on the loop.  The message of the day the house sets is kept in the store: every node reads it with
its bans (``follow_motd``), and it outlives a restart (``[server] motd`` counts until one is set).
"""

from __future__ import annotations

import time
import weakref
from datetime import datetime, timezone
from typing import Any, Callable

from engine.store.moderation import ChatLine, ChatQuery, Report
from engine.table.admin_ops import AdminError
from engine.table.owner import sanitize
from net.config import MOTD_MAX
from net.house.verbs import House, Reply, UsageError, flag, need

VERBS = ("reports", "report", "chatlog", "motd")


def _when(at: float | None) -> str:
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at))


def line_text(line: ChatLine) -> str:
    """``YYYY-MM-DD HH:MM:SS  table 3  Boris: words`` (the words as said: plain text)."""
    return f"{_when(line.at)}  {line.where():<18} {line.name}: {line.text}"


def report_text(report: Report) -> str:
    """A report and, indented, what the reporter could see of the other's words."""
    closed = f" (closed by {report.closed_by} {_when(report.closed_at)})" if report.state == "closed" else ""
    head = f"#{report.id} {_when(report.at)} {report.reporter} about {report.target}: {report.words}{closed}"
    seen = [f"    {line_text(line)}" for line in report.seen] or ["    (none of his words seen lately)"]
    return "\n".join([head, *seen])


async def _store(house: House, work: Callable[[Any], Any]) -> Any:
    """``work(store)`` by the store's thread (bounded wait: ``House.off_loop``), or None without a store."""
    store = getattr(house.server, "store", None)
    if store is None:
        return None
    if house.store_reads is not None:
        return await house.off_loop(lambda run: run(work))
    return work(store)  # no thread (a console run without one): a local store's short call


async def reports(house: House, args: list[str], who: str) -> Reply:
    args, every = flag(args, "--all")
    need(args, 0, "reports [--all]", 0)
    got = await _store(house, lambda own: own.reports(bool(every)))
    if got is None:
        got = [r for r in house.club.reports.kept if every or r.state == "open"]
    rows = [r.to_json() for r in got]
    if not got:
        return Reply(True, "no reports" if every else "no open reports", {"reports": []})
    return Reply(True, "\n".join(report_text(r) for r in got), {"reports": rows})


async def report(house: House, args: list[str], who: str) -> Reply:
    need(args, 2, "report N close", 2)
    if args[1].lower() != "close":
        raise UsageError("usage: report N close")
    try:
        number = int(args[0].lstrip("#"))
    except ValueError:
        raise UsageError(f"{args[0]!r} is not a report number (reports lists them)") from None
    now = time.time()
    closed = await _store(house, lambda own: own.close_report(number, who, now))
    if closed is None:
        closed = _close_kept(house, number, who, now)
    if not closed:
        raise AdminError(f"there is no open report #{number}")
    return Reply(True, f"closed report #{number}", {"report": number, "closed": True})


def _close_kept(house: House, number: int, who: str, now: float) -> bool:
    kept = house.club.reports.kept
    for i, r in enumerate(kept):
        if r.id == number and r.state == "open":
            kept[i] = Report(r.at, r.reporter, r.target, r.words, r.seen, r.id, "closed", who, now)
            return True
    return False


def _since(word: str | bool | None) -> float:
    if word is None or word is True:
        return 0.0
    text = str(word)
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--since takes a time as ISO 8601, e.g. 2026-12-05T18:00 (UTC), not {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.timestamp()


async def chatlog(house: House, args: list[str], who: str) -> Reply:
    args, since_word = flag(args, "--since", takes_value=True)
    usage = "chatlog NAME|table N [--since ISO-TIME]"
    since = _since(since_word)
    if len(args) == 2 and args[0].lower() == "table":
        try:
            query = ChatQuery(table=int(args[1]), since=since)
        except ValueError:
            raise UsageError(f"{args[1]!r} is not a table number") from None
        about = f"table {args[1]}"
    else:
        need(args, 1, usage, 1)
        query = ChatQuery(name=args[0], since=since)
        about = args[0]
    log = house.club.speech.log
    got = await _store(house, lambda own: own.chat_lines(query))
    if got is None:
        raise AdminError("this club keeps no chat log (no store)")
    rows = [line.to_json() for line in got]
    if not got:
        kept = "no chat log is kept ([moderation] keep_days = 0)" if log.keep_days <= 0 else \
            f"the log keeps {log.keep_days:g} days"
        return Reply(True, f"nothing said by {about} is in the chat log ({kept})", {"lines": []})
    return Reply(True, "\n".join(line_text(line) for line in got), {"lines": rows})


async def motd(house: House, args: list[str], who: str) -> Reply:
    args, clear = flag(args, "--clear")
    club = house.club
    if not args and not clear:
        shown = club.motd or "(none)"
        return Reply(True, f"message of the day: {shown}", {"motd": club.motd})
    words = "" if clear else sanitize(" ".join(args), MOTD_MAX)
    if not clear and not words:
        raise UsageError("usage: motd [TEXT … | --clear]")
    now = time.time()
    await _store(house, lambda own: own.set_house_setting("motd", words, now))
    club.motd = words
    _MOTD_MADE[club] = _MOTD_MADE.get(club, 0) + 1
    said = f"message of the day: {words}" if words else "no message of the day"
    kept = getattr(house.server, "store", None) is not None
    where = "every node, kept across restarts" if kept else "this server, until it stops (no store)"
    return Reply(True, f"{said} (shown to each arrival from now on: {where})", {"motd": words})


_MOTD_MADE: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""Changes of the message of the day made here, by club: a read of the store begun before one is stale."""


def follow_motd(house: Any) -> None:
    """Read the house's message of the day with the bans, so a node shows what another node's house set
    (and a restarted server what was set before); a read begun before a change here is not applied."""
    reads, club = house.store_reads, house.club
    if reads is None or not hasattr(getattr(house.server, "store", None), "house_setting"):
        return

    def read(own: Any) -> tuple[int, Any]:
        return _MOTD_MADE.get(club, 0), own.house_setting("motd")

    def apply(got: tuple[int, Any]) -> None:
        made, kept = got
        if kept is not None and made == _MOTD_MADE.get(club, 0):
            club.motd = sanitize(kept[0], MOTD_MAX)

    reads.add("the message of the day", read, apply)


def tell_admins(house: Any, report: Report) -> None:
    """Each admin online here (his session's key is an admin key) is told of ``report``: a report made
    here, or one another node tells (``net.cluster.housewide``).  Its words are shown as text."""
    server = house.server
    names = {s.name for s in list(server.sessions) if s.name and not s.closed
             and getattr(s.conn, "fingerprint", None) in house.admin_keys}
    params = {"number": report.id or "?", "reporter": report.reporter, "target": report.target,
              "words": report.words}
    for name in sorted(names):
        house.club.social.notify(name, "note", {"key": "report.arrived", "params": params})


def listen(house: Any) -> Callable[[], None]:
    """Tell each admin online (his session's key is an admin key) of every report as it arrives;
    returns what stops it."""
    listeners = house.club.reports.listeners

    def heard(report: Report) -> None:
        tell_admins(house, report)

    def stop() -> None:
        if heard in listeners:
            listeners.remove(heard)

    listeners.append(heard)
    return stop

