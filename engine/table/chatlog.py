"""What the house remembers of people's words: the last minutes in memory, the chat log in the store, reports.

The speech gate (``engine.table.speech``) hands every line it lets through to ``ChatLog.heard``.  The
last ``RECENT`` seconds stay in memory, so a report (``Reports.file``) carries the reported person's
lines the reporter could see even when the club keeps no log; the store keeps them for ``keep_days``
(0: nothing kept), whispers only with ``keep_private``.  Writes go through the social side's
``later`` (the server's store thread): a line said on the loop never waits for the store; lines said
while a write is under way go in the next one, and old lines are pruned at most once an hour.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import replace
from typing import Any, Callable, Iterable

from engine.store.moderation import CONTEXT_MAX, WORDS_MAX, ChatLine, Report
from engine.table.social import Social, SocialError, name_key

log = logging.getLogger("sukno.chatlog")

RECENT = 600.0
"""Seconds of lines kept in memory for reports."""
RECENT_MAX = 5000
"""Lines kept in memory at most, whatever their age."""
BATCH = 200
"""Lines written in one transaction at most."""
PRUNE_EVERY = 3600.0
"""Seconds between two prunings of the store's old lines."""
DAY = 86400.0


class ChatLog:
    """Every line that passed the gate: the last minutes here, the rest in the store for ``keep_days``."""

    def __init__(self, social: Social, wall: Callable[[], float] = time.time) -> None:
        self.social = social
        self.wall = wall
        self.keep_days = 14.0
        """Days the store keeps a line (``[moderation] keep_days``; 0: none kept)."""
        self.keep_private = False
        """Whether whispers are kept in the store too (``[moderation] keep_private``)."""
        self.recent: deque[ChatLine] = deque()
        self._unwritten: deque[ChatLine] = deque()
        self._writing = False
        self._pruned = 0.0

    def heard(self, name: str, place: str, text: str, *, table: int | None = None, to: str | None = None) -> None:
        """A line that passed the gate (on the loop): remembered, and written when the club keeps a log."""
        line = ChatLine(self.wall(), name, place, text, table, to)
        self.recent.append(line)
        while self.recent and (len(self.recent) > RECENT_MAX or self.recent[0].at < line.at - RECENT):
            self.recent.popleft()
        kept = getattr(self.social.store, "log_chat", None) is not None
        if kept and self.keep_days > 0 and (place != "private" or self.keep_private):
            self._unwritten.append(line)
            self._write_soon()

    def _write_soon(self) -> None:
        if self._writing:
            return  # the write under way takes this line too
        self._writing = True
        if self.social.later is not None:
            self.social.later(self._write)
            return
        try:  # a club on its own (local play, tests): the store is its own
            self._write(self.social.store)
        except Exception as err:  # the words were said; only the log missed them
            log.warning("chat log: lines not kept: %s", err)

    def _write(self, store: Any) -> None:
        """In the store's thread: every unwritten line, in batches; the old ones pruned once an hour."""
        try:
            while True:
                while self._unwritten:
                    batch = [self._unwritten.popleft() for _ in range(min(BATCH, len(self._unwritten)))]
                    store.log_chat(batch)
                self._writing = False
                if not self._unwritten:  # a line said just now sees ``_writing`` False and writes itself
                    break
                self._writing = True
            now = self.wall()
            if now - self._pruned >= PRUNE_EVERY:
                self._pruned = now
                gone = store.prune_chat(now - self.keep_days * DAY)
                if gone:
                    log.info("chat log: %d line(s) older than %g days forgotten", gone, self.keep_days)
        finally:
            self._writing = False

    def seen_by(self, reporter: str, target: str, tables: Iterable[int], watched: Iterable[int]) -> list[ChatLine]:
        """``target``'s recent lines ``reporter`` could see: the hall, away notes, the chat of ``tables``
        (where he sits or watches), the rail of ``watched`` and whispers to him."""
        who, me = name_key(target), name_key(reporter)
        tables, watched = set(tables), set(watched)

        def visible(line: ChatLine) -> bool:
            if name_key(line.name) != who:
                return False
            if line.place == "table":
                return line.table in tables
            if line.place == "rail":
                return line.table in watched
            if line.place == "private":
                return line.to is not None and name_key(line.to) == me
            return True

        return [line for line in self.recent if visible(line)][-CONTEXT_MAX:]

    def spoke(self, name: str) -> str | None:
        """The spelling of a name heard in the last minutes, or None (someone may be reported after he left)."""
        wanted = name_key(name)
        return next((x.name for x in reversed(self.recent) if name_key(x.name) == wanted), None)


class Reports:
    """``report NAME words``: kept (in the store when there is one), and the house told at once."""

    def __init__(self, chatlog: ChatLog) -> None:
        self.chatlog = chatlog
        self.kept: list[Report] = []
        """A club without a store keeps its reports here (the same numbers a store would give)."""
        self.listeners: list[Callable[[Report], None]] = []
        """Told of each report as it arrives (the server tells the admins online)."""
        self.to_loop: Callable[..., Any] | None = None
        """How the store's thread hands the telling back to the loop (the server's
        ``loop.call_soon_threadsafe``); None: told in the thread that kept it."""

    def file(self, reporter: str, target: str, words: str, tables: Iterable[int] = (),
             watched: Iterable[int] = ()) -> Report:
        """A report about ``target`` (his spelling); ``SocialError`` for a report about oneself or of no words."""
        if name_key(reporter) == name_key(target):
            raise SocialError("report.self", "You cannot report yourself.")
        words = " ".join(words.split())[:WORDS_MAX]  # cleaned of escapes by the club (``Club.report``)
        if not words:
            raise SocialError("report.usage", "Type report, a name and what happened: report Boris rude at table 2.")
        seen = tuple(self.chatlog.seen_by(reporter, target, tables, watched))
        report = Report(self.chatlog.wall(), reporter, target, words, seen)
        store = self.chatlog.social.store
        if store is None:
            report = replace(report, id=len(self.kept) + 1)
            self.kept.append(report)
        elif self.chatlog.social.later is not None:
            self._keep_later(report, self.chatlog.social.later)
            return report
        else:
            report = replace(report, id=store.add_report(report))
        self._tell(report)
        return report

    def _keep_later(self, report: Report, later: Callable[[Callable[[Any], Any]], None]) -> None:
        """Kept by the store's thread; the house is told once the store has given it its number (the
        number every node and ``admin reports`` know it by), on the loop (``to_loop``).  A report the
        store refused is still told."""
        hand = self.to_loop

        def keep(own: Any) -> None:
            number = 0
            try:
                number = int(own.add_report(report))
            finally:  # told, numbered or not
                if hand is None:
                    self._tell(replace(report, id=number))
                else:
                    hand(self._tell, replace(report, id=number))

        later(keep)

    def _tell(self, report: Report) -> None:
        for listener in list(self.listeners):
            try:
                listener(report)
            except Exception:  # one listener's bug must not lose the report or the others
                log.exception("a report's listener failed")


__all__ = ["ChatLog", "RECENT", "Reports"]
