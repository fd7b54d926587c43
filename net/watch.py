"""Watching a table from the SSH side: a session's place among a table's watchers.

A mixin of ``net.session.Session`` kept apart so each file reads whole: joining
the hub of the right size bucket (and moving when the window changes), the
watcher's own command line (say, look, sit, watch, leave, quit, help), and
leaving cleanly — the table forgets the watcher and the club counts him out.
"""

from __future__ import annotations

import asyncio
import textwrap
import time
from typing import TYPE_CHECKING, Any

from engine.game import IllegalAction
from engine.table import TableError
from net.spectate import Member
from net.texts import SPECTATOR_VERBS, text
from tui.chat import chat_allowed
from tui.refusals import explain
from tui.i18n import tr

if TYPE_CHECKING:
    from net.server import SuknoServer


class _Row:
    """What ``tui.social``'s handlers ask of a screen, for a watcher's one-line row."""

    def __init__(self, watcher: Watching) -> None:
        self.watcher = watcher
        self.lines: list[str] = []

    @property
    def club_app(self) -> _Row:
        return self

    @property
    def club(self) -> Any:
        return self.watcher.server.club

    @property
    def player(self) -> str | None:
        return self.watcher.name

    @property
    def guest(self) -> bool:
        return self.watcher.guest

    @property
    def lang(self) -> str:
        return self.watcher.lang

    @property
    def prefs(self) -> Any:
        return getattr(self.watcher, "prefs", None)

    keys = None

    def clock(self) -> float:
        return asyncio.get_running_loop().time()

    def t(self, key: str, **params: Any) -> str:
        return tr(self.lang, key, **params)

    def say_line(self, line: Any, style: str = "") -> None:
        self.lines.append(str(getattr(line, "plain", line)))

    error = say_line

    def table_here(self) -> Any:
        watching = self.watcher.watching
        return self.club.tables.get(watching) if watching is not None else None


class Watching:
    """The watcher's half of a session (needs ``send``, ``server``, the window and the name)."""

    server: SuknoServer
    name: str | None
    guest: bool
    lang: str
    ascii: bool
    cols: int
    rows: int
    member: Member | None
    watching: int | None
    _watch_done: asyncio.Future[tuple[str, Any] | None] | None
    _rewatch: asyncio.Task[None] | None
    _inbox_seq: int = 0

    def write_line(self, line: str) -> None:
        raise NotImplementedError

    def send(self, data: bytes) -> None:
        raise NotImplementedError

    async def _watch(self, table_id: int) -> tuple[str, Any] | None:
        """Watch a table in the shared view until the watcher leaves; the next step."""
        club = self.server.club
        assert self.name is not None
        table = club.tables.get(table_id)
        if table is None:
            club.leave(self.name, now=asyncio.get_running_loop().time())
            return ("hall", None)
        try:
            club.watch(self.name, table_id)
        except TableError as err:  # a private table, or one that takes no watchers (issue 20)
            self.write_line(explain(err, self.lang, self.ascii))
            club.leave(self.name, now=asyncio.get_running_loop().time())
            return ("hall", None)
        self.watching = table_id
        loop = asyncio.get_running_loop()
        self._watch_done = loop.create_future()
        self.member = Member(self, self.cols, self.rows, prompt=text(self.lang, "prompt"),
                             on_line=self._command, on_eof=lambda: self._end_watch(("hall", None)))
        inbox = club.social.inbox(self.name)
        self._inbox_seq = inbox.last_seq
        inbox_off = inbox.subscribe(lambda _events: self._inbox_news())
        try:
            await self._join_hub()
            return await self._watch_done
        finally:
            inbox_off()
            member, self.member = self.member, None
            if member is not None and member.hub is not None:
                member.hub.leave(member)
            if self._rewatch is not None:
                self._rewatch.cancel()
                self._rewatch = None
            watching, self.watching = self.watching, None
            if watching is not None:
                club.unwatch(self.name, watching)
            club.leave(self.name, now=asyncio.get_running_loop().time())

    async def _join_hub(self) -> None:
        member = self.member
        if member is None or self.watching is None:
            return
        hide = self.server.club.social.ignored(self.name)
        key = self.server.hubs.key_for(self.watching, self.cols, self.rows, self.lang, self.ascii, hide)
        if member.hub is not None and member.hub.key == key:
            member.hub._send_full(member)  # same view, another row for the command line
            return
        if member.hub is not None:
            member.hub.leave(member)
        if key is None:  # smaller than every bucket: say so, wrapped to the window
            need = "x".join(map(str, self.server.hubs.smallest()))
            words = text(self.lang, "small", cols=self.cols, rows=self.rows, need=need)
            lines = textwrap.wrap(words, max(1, self.cols))[: max(1, self.rows - 1)]
            shown = "".join(f"\x1b[{i + 1};1H{line}" for i, line in enumerate(lines))
            self.send(f"\x1b[?1049h\x1b[?7l\x1b[?25h\x1b[0m\x1b[H\x1b[2J{shown}".encode("utf-8", "replace"))
            member.note = ""
            self.send(member.command_line().encode("utf-8", "replace"))
            return
        hub = await self.server.hubs.join(key, member)
        if hub is None:
            self._end_watch(("hall", None))

    def _start_rewatch(self) -> None:
        member = self.member
        if member is None:
            return
        member.cols, member.rows = self.cols, self.rows
        if self._rewatch is not None and not self._rewatch.done():
            self._rewatch.cancel()
        self._rewatch = asyncio.get_running_loop().create_task(self._join_hub())

    def _end_watch(self, step: tuple[str, Any] | None) -> None:
        if self._watch_done is not None and not self._watch_done.done():
            self._watch_done.set_result(step)

    def _command(self, line: str) -> None:
        """A watcher's command line: say, look, sit, watch, leave, quit, help."""
        member, club, name = self.member, self.server.club, self.name
        if member is None or name is None or self.watching is None:
            return
        word, _, rest = line.partition(" ")
        verb = SPECTATOR_VERBS.get(word.lower())
        if verb == "leave" and word.lower() == "back" and club.is_away(name):
            verb = "back"  # ``back`` after ``away`` (issue 20); otherwise it still means the hall
        table = club.tables.get(self.watching)
        try:
            if verb is None and self._social(line):
                return
            if verb == "back":
                club.set_back(name, now=asyncio.get_running_loop().time())
                member.say_note(tr(self.lang, "social.back"))
            elif verb == "say" and table is not None:
                if not chat_allowed(club, name, time.monotonic()):
                    member.say_note(text(self.lang, "slow"))
                    return
                if table.say(name, rest):
                    member.say_note(tr(self.lang, "social.rail_only"))
            elif verb == "look" and table is not None:
                member.say_note(self._look(table))
            elif verb == "sit" and table is not None:
                if self.guest:
                    member.say_note(text(self.lang, "guest_sit"))
                    return
                seat = int(rest) - 1 if rest.strip().isdigit() else None
                club.sit(name, table.id, seat)  # the club's rules: one seat per person (issue 14)
                self._end_watch(("hall", None))  # the player's own App shows his seat
            elif verb == "watch":
                target = int(rest) if rest.strip().isdigit() else -1
                if target not in club.tables:
                    member.say_note(text(self.lang, "no_table", table=rest.strip() or "?"))
                    return
                club.tables[target].check_watch(name)
                if table is not None:
                    club.unwatch(name, table.id)
                club.watch(name, target)
                self.watching = target
                self._start_rewatch()
            elif verb == "leave":
                self._end_watch(("hall", None))
            elif verb == "quit":
                self._end_watch(None)
            elif verb == "help":
                member.say_note(text(self.lang, "help"))
            else:
                member.say_note(text(self.lang, "unknown", cmd=word[:20]))
        except IllegalAction as err:  # the club's or the table's refusal, in the watcher's language
            member.say_note(explain(err, self.lang, self.ascii))
        except Exception as err:
            member.say_note(str(getattr(err, "message", err)))

    def _social(self, line: str) -> bool:
        """tell, ignore, unignore, away, bell in the watcher's row: the club's own handlers (``tui.social``)."""
        from tui import commands, social

        try:
            command = commands.parse(line)
        except commands.UnknownCommand:
            return False
        if command is None or command.verb not in ("tell", "ignore", "unignore", "away", "bell"):
            return False
        row = _Row(self)
        if command.verb == "bell":
            if row.prefs is not None:
                row.say_line(row.prefs.apply("bell", command.args, self.lang, text_mode=False)[1])
        else:
            social.handle(row, command)
        if self.member is not None and row.lines:
            self.member.say_note(" ".join(row.lines))
        if command.verb in ("ignore", "unignore") and self.member is not None:
            self._start_rewatch()  # his own frame, without the ignored person's words
        return True

    def _inbox_news(self) -> None:
        """Private words for a watcher: a note in his row (and the bell, if he wants it)."""
        from tui.social import inbox_line

        member, name = self.member, self.name
        if member is None or name is None:
            return
        rung = False
        for entry in self.server.club.social.inbox(name).since(self._inbox_seq):
            self._inbox_seq = entry.seq
            line = inbox_line(entry.event, name, self.lang)
            if line:
                member.say_note(line)
            prefs = getattr(self, "prefs", None)
            if not rung and entry.event.data.get("from") != name and prefs is not None and prefs.bell_on(False):
                rung = True
                self.send(b"\x07")

    def _look(self, table: Any) -> str:
        seated = ", ".join(table.seated()) or text(self.lang, "nobody")
        state = text(self.lang, "playing" if table.in_deal() else "waiting")
        return text(self.lang, "look", table=table.id, game=table.title.get(self.lang, table.game_name),
                    seated=seated, watching=len(table.spectators), state=state)
