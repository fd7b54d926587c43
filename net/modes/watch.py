"""Watching a table from the SSH side: a session's place among a table's watchers.

A :class:`Watch` is owned by its ``net.ssh.session.Session``, which delegates to it, and
kept apart so each file reads whole: joining the hub of the right size bucket (and
moving when the window changes), the watcher's own command line (say, look, sit,
watch, leave, quit, help), and leaving cleanly — the table forgets the watcher and
the club counts him out.  What it needs of its session is :class:`WatchHost`, read
through the one reference it holds; its own state (the table, his row, the wait for
the end) lives here, not on the session.  For the club's social verbs (tell, ignore,
away…, ``tui.social``) a watch is its own ``tui.host.Host``: the same handlers as
the hall's, answered in his row.
"""

from __future__ import annotations

import asyncio
import textwrap
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text

from engine.game import IllegalAction
from engine.table.pending import InOrder
from engine.table.owner import TableError
from net.modes.spectate import Member
from net.modes.texts import SPECTATOR_VERBS, text
from tui.refusals import explain
from tui.i18n import tr

if TYPE_CHECKING:
    from engine.table.club import Club
    from engine.table.face import TableLike
    from net.ssh.ports import ServerPort


class WatchHost(Protocol):
    """What a watch needs of its session: who, the window, the club, and the byte pipe (a ``spectate.Wire``)."""

    server: ServerPort
    name: str | None
    guest: bool
    lang: str
    ascii: bool
    cols: int
    rows: int
    prefs: Any

    def send(self, data: bytes) -> None: ...

    def buffered(self) -> int: ...

    def write_line(self, line: str) -> None: ...

    def hold(self) -> None:
        """Keep him counted in the club until his next step counts him (no leave, no enter told)."""
        ...


class Watch:
    """A session's place among one table's watchers, while it watches (owned by the session)."""

    def __init__(self, host: WatchHost) -> None:
        self.host = host
        self.member: Member | None = None
        """His row in the hub (his bytes, his command line), while he watches."""
        self.table_id: int | None = None
        """The table he watches, or None."""
        self._done: asyncio.Future[tuple[str, Any] | None] | None = None
        self._rewatch: asyncio.Task[None] | None = None
        self._inbox_seq = 0
        self.order = InOrder(self.command)
        """His lines in order: one typed while a change waits for another node runs after it."""
        self._said: list[str] | None = None  # the answers of one social verb, said as one note

    async def run(self, table_id: int) -> tuple[str, Any] | None:
        """Watch a table in the shared view until the watcher leaves; the next step."""
        host = self.host
        club = host.server.club
        name = host.name
        assert name is not None
        table = club.tables.get(table_id)
        if table is None:
            host.hold()  # on to the hall, still in the club
            club.leave(name, now=asyncio.get_running_loop().time())
            return ("hall", None)
        try:
            club.watch(name, table_id)
        except TableError as err:  # a private table, or one that takes no watchers
            host.write_line(explain(err, host.lang, host.ascii))
            host.hold()  # on to the hall, still in the club
            club.leave(name, now=asyncio.get_running_loop().time())
            return ("hall", None)
        self.table_id = table_id
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        self.member = Member(host, host.cols, host.rows, prompt=text(host.lang, "prompt"),
                             on_line=self.command, on_eof=lambda: self.end(("hall", None)))
        inbox = club.social.inbox(name)
        self._inbox_seq = inbox.last_seq
        inbox_off = inbox.subscribe(lambda _events: self._inbox_news())
        step: tuple[str, Any] | None = None
        try:
            await self._join_hub()
            step = await self._done
            return step
        finally:
            inbox_off()
            member, self.member = self.member, None
            if member is not None and member.hub is not None:
                member.hub.leave(member)
            if self._rewatch is not None:
                self._rewatch.cancel()
                self._rewatch = None
            watching, self.table_id = self.table_id, None
            if watching is not None:
                club.unwatch(name, watching)
            if step is not None:
                host.hold()  # back to the hall: still in the club, not announced as leaving and coming in
            club.leave(name, now=asyncio.get_running_loop().time())

    async def _join_hub(self) -> None:
        member, host = self.member, self.host
        if member is None or self.table_id is None:
            return
        hubs = host.server.hubs
        hide = host.server.club.social.ignored(host.name)
        key = hubs.key_for(self.table_id, host.cols, host.rows, host.lang, host.ascii, hide)
        if member.hub is not None and member.hub.key == key:
            member.hub.send_full(member)  # same view, another row for the command line
            return
        if member.hub is not None:
            member.hub.leave(member)
        if key is None:  # smaller than every bucket: say so, wrapped to the window
            need = "x".join(map(str, hubs.smallest()))
            words = text(host.lang, "small", cols=host.cols, rows=host.rows, need=need)
            lines = textwrap.wrap(words, max(1, host.cols))[: max(1, host.rows - 1)]
            shown = "".join(f"\x1b[{i + 1};1H{line}" for i, line in enumerate(lines))
            host.send(f"\x1b[?1049h\x1b[?7l\x1b[?25h\x1b[0m\x1b[H\x1b[2J{shown}".encode("utf-8", "replace"))
            member.note = ""
            host.send(member.command_line().encode("utf-8", "replace"))
            return
        hub = await hubs.join(key, member)
        if hub is None:
            self.end(("hall", None))

    def rewatch(self) -> None:
        """The window changed (or his ignore list did): join the hub that fits him now."""
        member = self.member
        if member is None:
            return
        member.cols, member.rows = self.host.cols, self.host.rows
        if self._rewatch is not None and not self._rewatch.done():
            self._rewatch.cancel()
        self._rewatch = asyncio.get_running_loop().create_task(self._join_hub())

    def end(self, step: tuple[str, Any] | None) -> None:
        """Stop watching: ``run`` returns ``step`` (the hall, or None: the session ends)."""
        if self._done is not None and not self._done.done():
            self._done.set_result(step)

    def _refused(self, err: IllegalAction) -> None:
        """A change's refusal from the table's owner, in the watcher's language."""
        if self.member is not None:
            self.member.say_note(explain(err, self.host.lang, self.host.ascii))

    def command(self, line: str) -> None:
        """A watcher's command line: say, look, sit, watch, leave, quit, help."""
        host = self.host
        member, club, name, lang = self.member, host.server.club, host.name, host.lang
        if member is None or name is None or self.table_id is None:
            return
        order = self.order
        if order.hold(line):
            if order.full:
                member.say_note(tr(lang, "cmd.wait_answer"))
            return
        word, _, rest = line.partition(" ")
        verb = SPECTATOR_VERBS.get(word.lower())
        if verb == "leave" and word.lower() == "back" and club.is_away(name):
            verb = "back"  # ``back`` after ``away``; otherwise it still means the hall
        table = club.tables.get(self.table_id)
        try:
            if verb is None and self._social(line):
                return
            if verb == "back":
                club.set_back(name, now=asyncio.get_running_loop().time())
                member.say_note(tr(lang, "social.back"))
            elif verb == "say" and table is not None:
                def said(rail: bool) -> None:
                    if rail:  # between deals a watcher's words reach the rail only
                        member.say_note(tr(lang, "social.rail_only"))

                order.after(table.say(name, rest), said, self._refused)
            elif verb == "look" and table is not None:
                member.say_note(self._look(table))
            elif verb == "sit" and table is not None:
                if host.guest:
                    member.say_note(text(lang, "guest_sit"))
                    return
                seat = int(rest) - 1 if rest.strip().isdigit() else None
                # the club's rules: one seat per person; then the player's own App shows his seat
                order.after(club.sit(name, table.id, seat), lambda _seat: self.end(("hall", None)), self._refused)
            elif verb == "watch":
                target = int(rest) if rest.strip().isdigit() else -1
                if target not in club.tables:
                    member.say_note(text(lang, "no_table", table=rest.strip() or "?"))
                    return
                self.watch_table(target)
            elif verb == "leave":
                self.show_hall()
            elif verb == "quit":
                self.exit()
            elif verb == "help":
                member.say_note(text(lang, "help"))
            else:
                member.say_note(text(lang, "unknown", cmd=word[:20]))
        except IllegalAction as err:  # the club's or the table's refusal, in the watcher's language
            member.say_note(explain(err, lang, host.ascii))
        except Exception as err:
            member.say_note(str(getattr(err, "message", err)))

    # -- his Host (``tui.host``) for the club's social verbs: who he is, where his wishes go ---------

    @property
    def club_app(self) -> Watch:
        return self

    @property
    def club(self) -> Club:
        return self.host.server.club

    @property
    def player(self) -> str | None:
        return self.host.name

    @property
    def lang(self) -> str:
        return self.host.lang

    @property
    def ascii(self) -> bool:
        return self.host.ascii

    @property
    def guest(self) -> bool:
        return self.host.guest

    @property
    def prefs(self) -> Any:
        return self.host.prefs

    admin = keys = store_read = on_mode = None  # no house, no keys, no store jobs, no other mode from a row

    def clock(self) -> float:
        return asyncio.get_running_loop().time()

    def set_lang(self, lang: str) -> None:
        self.host.lang = lang
        self.rewatch()  # the shared view in his language

    def show_table(self, table_id: int) -> None:
        self.end(("hall", None))  # his App shows his seat

    def show_hall(self) -> None:
        self.end(("hall", None))

    def exit(self) -> None:
        self.end(None)

    def push_screen(self, screen: Any) -> None:
        self.error(self.t("text.no_screen"))

    def watch_table(self, table_id: int) -> None:
        """Another table's watchers (its refusal raised as any refusal)."""
        club, name = self.club, self.host.name
        if name is None or table_id not in club.tables:
            self.error(text(self.lang, "no_table", table=table_id))
            return
        club.tables[table_id].check_watch(name)
        if self.table_id is not None and self.table_id in club.tables:
            club.unwatch(name, self.table_id)
        club.watch(name, table_id)
        self.table_id = table_id
        self.rewatch()

    # -- where the social verbs' answers go (``tui.host.Lines``) -------------------------------

    def t(self, key: str, **params: Any) -> str:
        return tr(self.lang, key, **params)

    def say_line(self, line: str | Text, style: str = "") -> None:
        said = line.plain if isinstance(line, Text) else str(line)
        if self._said is not None:
            self._said.append(said)
        elif self.member is not None:
            self.member.say_note(said)

    def error(self, line: str) -> None:
        self.say_line(line)

    def explain(self, err: IllegalAction) -> str:
        return explain(err, self.lang, self.ascii)

    def table_here(self) -> TableLike | None:
        return self.club.tables.get(self.table_id) if self.table_id is not None else None

    def _social(self, line: str) -> bool:
        """tell, ignore, unignore, away, bell, report in the watcher's row: the club's own handlers (``tui.social``)."""
        from tui import commands, social

        try:
            command = commands.parse(line)
        except commands.UnknownCommand:
            return False
        if command is None or command.verb not in ("tell", "ignore", "unignore", "away", "bell", "report"):
            return False
        self._said = []
        try:
            if command.verb == "bell":
                if self.prefs is not None:
                    self.say_line(self.prefs.apply("bell", command.args, self.lang, text_mode=False)[1])
            else:
                social.handle(self, command)
        finally:
            said, self._said = self._said, None
        if self.member is not None and said:
            self.member.say_note(" ".join(said))
        if command.verb in ("ignore", "unignore") and self.member is not None:
            self.rewatch()  # his own frame, without the ignored person's words
        return True

    def _inbox_news(self) -> None:
        """Private words for a watcher: a note in his row (and the bell, if he wants it)."""
        from tui.social import inbox_line

        host = self.host
        member, name = self.member, host.name
        if member is None or name is None:
            return
        rung = False
        for entry in host.server.club.social.inbox(name).since(self._inbox_seq):
            self._inbox_seq = entry.seq
            line = inbox_line(entry.event, name, host.lang)
            if line:
                member.say_note(line)
            prefs = host.prefs
            if not rung and entry.event.data.get("from") != name and prefs is not None and prefs.bell_on(False):
                rung = True
                host.send(b"\x07")

    def _look(self, table: TableLike) -> str:
        lang = self.host.lang
        seated = ", ".join(table.seated()) or text(lang, "nobody")
        state = text(lang, "playing" if table.in_deal() else "waiting")
        return text(lang, "look", table=table.id, game=table.title.get(lang, table.game_name),
                    seated=seated, watching=len(table.spectators), state=state)
