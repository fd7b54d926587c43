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

from net.spectate import Member
from net.texts import SPECTATOR_VERBS, text
from engine.game import IllegalAction
from tui.chat import chat_allowed
from tui.refusals import explain

if TYPE_CHECKING:
    from net.server import SuknoServer


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
        club.watch(self.name, table_id)
        self.watching = table_id
        loop = asyncio.get_running_loop()
        self._watch_done = loop.create_future()
        self.member = Member(self, self.cols, self.rows, prompt=text(self.lang, "prompt"),
                             on_line=self._command, on_eof=lambda: self._end_watch(("hall", None)))
        try:
            await self._join_hub()
            return await self._watch_done
        finally:
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
        key = self.server.hubs.key_for(self.watching, self.cols, self.rows, self.lang, self.ascii)
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
        table = club.tables.get(self.watching)
        try:
            if verb == "say" and table is not None:
                if not chat_allowed(club, name, time.monotonic()):
                    member.say_note(text(self.lang, "slow"))
                    return
                table.say(name, rest)
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

    def _look(self, table: Any) -> str:
        seated = ", ".join(table.seated()) or text(self.lang, "nobody")
        state = text(self.lang, "playing" if table.in_deal() else "waiting")
        return text(self.lang, "look", table=table.id, game=table.title.get(self.lang, table.game_name),
                    seated=seated, watching=len(table.spectators), state=state)
