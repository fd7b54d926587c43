"""A person in the hall without a Textual App: the hall door.

Every hall person once ran a whole ``ClubApp``, and each chat line, arrival or
seat change was drawn by every App on the one loop (100 people: p99 1.5 s for a
chat line).  A door is the hall screen without an App: the shared rows come
from the :class:`net.modes.hallview.HallBoard` (drawn once per width, language and
ASCII), his own rows (header, his answers in the log, hint, command line) are
his, and only the rows that changed since his last frame are sent.

The commands are the hall screen's own: ``HallDoor`` is a ``tui.verbs.HallVerbs``
as the hall screen and the text mode are (the same handlers, the same answers
in both languages); what needs a screen of its own
(sitting at a table, a replay) ends the door and the session runs the person's
App, which comes back to a door when he is in the hall again (``ClubApp.on_hall``:
after ``leave``, ``stand`` or a replay's end); the new door's log is the old one
and the App's last words ("You stand up from table 1."), as if he had never left.

His screen is drawn by ``net.modes.hallrows``: a reader who stops reading is
skipped and gets his whole screen when his buffers drain; two people of the
same size, language and own lines see the same screen cell for cell.  The
door is its own ``tui.host.Host``: the dispatcher asks it who he is and tells
it where he goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text

from engine.game import Event
from net.modes.hallrows import HallRows
from net.modes.hallview import HallBoard
from net.modes.lineedit import LineEditor
from tui import commands, pending
from tui.i18n import tr
from tui.verbs import HallVerbs, table_lines
from tui.widgets.log import KEEP

if TYPE_CHECKING:
    from engine.table.club import Club
    from net.ssh.ports import SessionPort

log = logging.getLogger("sukno.hall")

ENTER_HALL_MODE = "\x1b[?1049h\x1b[?2004h\x1b[?7l\x1b[?25h\x1b[0m\x1b[H\x1b[2J"
"""Alternate screen, bracketed paste, no line wrap, the cursor shown (screen readers follow it)."""
APP_VERBS = frozenset({"replay"})
"""Verbs whose answer is a screen of its own: the person's App runs them."""


def event_text(event: Event, lang: str) -> str:
    """A hall event's line in the log as everyone sees it (who sees it: ``HallDoor.shows``)."""
    data = event.data
    name = data.get("name", "")
    if event.kind in ("enter", "leave"):
        return tr(lang, f"hall.{event.kind}", name=name)
    if event.kind == "say":
        return tr(lang, "hall.say", name=name, text=data.get("text", ""))
    if event.kind in ("away", "back"):
        note = data.get("text", "")
        return tr(lang, "hall.away_note" if note else f"hall.{event.kind}", name=name, text=note)
    if event.kind == "table_open":
        return tr(lang, "hall.table_open", table=data.get("table"), game=data.get("game"))
    return ""


class HallDoor(HallVerbs, HallRows):
    """One person in the hall: his rows, his line, the hall's commands; no App (it is its own ``Host``)."""

    session: SessionPort

    def __init__(self, session: SessionPort, board: HallBoard, *, admin: Any = None, keys: Any = None) -> None:
        self.session = session
        self.board = board
        self.lang = session.lang
        self.prefs = session.prefs
        self.admin = admin
        self.keys = keys
        self.editor = LineEditor()
        self.placeholder = ""
        """Shown dim in an empty command line (the welcome's "your name")."""
        self.items: deque[tuple[int, Event] | Text] = deque(maxlen=KEEP)
        self.seq = 0
        self.done: asyncio.Future[tuple[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.start_rows()
        self._inbox_seq = 0
        self._inbox_off: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._held = b""  # keys typed after a line whose answer is still on its way
        self._entered = False

    # -- life ----------------------------------------------------------------------------

    async def run(self, first: str | None = None) -> tuple[str, Any] | None:
        """Until he leaves the hall: the session's next step (``("watch", N)``, ``("app", line)``…) or None."""
        session, club = self.session, self.session.server.club
        name = session.name
        assert name is not None
        club.enter(name, session.guest, now=asyncio.get_running_loop().time())
        self._entered = True
        session.release_hold()  # counted by this door now: the step before may let go
        inbox = club.social.inbox(name)
        self._inbox_seq = inbox.last_seq
        self._inbox_off = inbox.subscribe(lambda _events: self._inbox_news())
        self.seq = club.last_seq
        self.board.add(self)
        carried, session.carried = session.carried, []
        for item in carried[-KEEP:]:  # his log before his App, and the App's last words
            self._add(item)
        try:
            self.describe()
            self.tell_motd(session)
            self.hint(self.t("hall.hint"))
            return await self.open_screen(first)
        finally:
            self.board.remove(self)
            reads = getattr(session.server, "balances", None)
            if reads is not None:  # an ask still queued would keep this closed door until the store answers
                reads.forget(self)
            if self._inbox_off is not None:
                self._inbox_off()
            for task in list(self._tasks):
                task.cancel()
            if self._entered:
                self._entered = False
                club.leave(name, now=asyncio.get_running_loop().time())

    async def open_screen(self, first: str | None = None) -> tuple[str, Any] | None:
        """Take the terminal (the hall's mode, a whole first frame), run ``first`` and the keys typed
        before the door opened, then wait until the door is done: its step, or None."""
        session = self.session
        session.send(ENTER_HALL_MODE.encode())
        self._sent = []
        self.paint()
        session.flush_now()  # his first frame to the socket now: the others' notice of him is drawn after
        if first:
            self.run_line(first)
            self.paint()
        early = session.take_early()
        if early:
            self.feed(early)
        return await self.done

    def finish(self, step: tuple[str, Any] | None) -> None:
        if not self.done.done():
            if step is not None and step[0] == "app":
                self.session.carried = list(self.items)  # his log, when his App gives him back to a door
            if step is not None and step[0] in ("app", "text"):
                self.session.hold()  # counted in the club while the next step starts: no leave, no stand-in
            self.done.set_result(step)

    # -- his Host (``tui.host``): who he is, and where his wishes go -----------------------------

    @property
    def club_app(self) -> HallDoor:
        return self

    @property
    def club(self) -> Club:
        return self.session.server.club

    @property
    def player(self) -> str | None:
        return self.session.name

    @property
    def ascii(self) -> bool:
        return self.session.ascii

    @property
    def guest(self) -> bool:
        return self.session.guest

    @property
    def store_read(self) -> Callable[[Callable[[Any], Any], str], Any]:
        return self.session.read_off_loop

    @property
    def on_mode(self) -> Callable[[str], bool]:
        return self.session.switch_mode

    def clock(self) -> float:
        return asyncio.get_running_loop().time()

    def set_lang(self, lang: str) -> None:
        self.relang(lang)

    def watch_table(self, table_id: int) -> None:
        table = self.club.table(table_id)  # no such table: the club's refusal
        name = self.session.name
        if name not in table.spectators:
            table.check_watch(name or "")  # a private table, or none watch
        self.session.on_watch(table_id)

    def show_table(self, table_id: int) -> None:
        self.finish(("app", None))  # his seat is kept; his App draws the table

    def show_hall(self) -> None:
        pass  # he is in the hall

    def push_screen(self, screen: Any) -> None:
        """A screen of its own is his App's (``replay`` ends the door first: ``handle_here``)."""
        self.error(self.t("text.no_screen"))

    def exit(self) -> None:
        self.finish(None)

    # -- what the handlers call (the screen's shape) -----------------------------------------

    def say_line(self, text: str | Text, style: str = "") -> None:
        self._add(text if isinstance(text, Text) else Text(str(text), style=style))

    def _add(self, item: tuple[int, Event] | Text) -> None:
        self.items.append(item)
        self._added += 1

    def echo(self, line: str) -> None:
        self.say_line(Text("> " + line, style="dim"))

    def hint(self, text: str) -> None:
        self._hint_text = text

    def table_here(self) -> None:
        return None

    def describe(self) -> None:
        self.describe_hall()

    def handle_here(self, command: commands.Command) -> bool:
        if command.verb in APP_VERBS:
            self.finish(("app", command.word + (" " + command.rest if command.rest else "")))
            return True
        return self.refuse_game_verbs(command)

    def run_worker(self, work: Any, **_kw: Any) -> None:
        """``admin …`` waits in a task; its answer is painted when it comes."""
        async def run() -> None:
            await work
            self.paint()

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        """An answer came: the keys typed after its line run now, in order (as the screen's would)."""
        self._tasks.discard(task)
        self._run_held()

    def _waiting(self) -> bool:
        """An answer still on its way: an ``admin …`` task, or a change another node checks."""
        return bool(self._tasks) or pending.busy(self.club_app)

    def _run_held(self) -> None:
        if self._held and self.done.done():  # his App takes the keys typed after ``sit``
            held, self._held = self._held, b""
            self.session.push_early(held)
        elif not self._waiting() and self._held:
            held, self._held = self._held, b""
            self.feed(held)

    def answered(self) -> None:
        """The owner of a table answered a change of his (``tui.pending``): shown, then his next keys."""
        if not self.done.done():
            self.paint()
        self._run_held()

    def relang(self, lang: str) -> None:
        self.lang = lang
        self.session.lang = lang
        self._own_rows.clear()
        self._log_key = ()
        self._header_key = self._header_seen = ()
        self.hint(self.t("hall.hint"))

    def announce(self, line: str) -> None:
        """The house's words (admin ``say``, a shutdown): a line in his log."""
        self.say_line(Text(line, style="bold yellow"))
        self.paint()

    # -- input ----------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """His keys (from the session's ``data_received``): a bug here must not end his connection."""
        try:
            self._feed(data)
        except Exception:
            log.exception("keys of %s in the hall failed", self.session.name)

    def _feed(self, data: bytes) -> None:
        if self.done.done():  # his next step (his App) takes these keys
            self.session.push_early(data)
            return
        if self._waiting():  # an answer still on its way (admin …, a move): the keys after it wait for it
            self._held += data[:max(0, self.session.server.config.input_burst - len(self._held))]
            return
        keys = self.editor.feed(data)
        for i, line in enumerate(keys.lines):
            if self.done.done() or self._waiting():
                rest = ("".join(x + "\r" for x in keys.lines[i:]) + self.editor.text).encode("utf-8")
                if self.done.done():
                    self.session.push_early(rest)
                    return
                self._held, self.editor.text, self.editor.caret = rest, "", 0
                break
            self.typed(line)
        if self.done.done():
            self.session.push_early(self.editor.text.encode("utf-8"))
            return
        if keys.too_long:
            self.error(self.t("cmd.too_long", limit=self.editor.limit))
        if keys.complete:
            self._complete()
        if keys.help:
            self.run_line("help")
        if keys.ctrl_c:
            self.say_line(Text(self.t("app.ctrl_c", keys="Ctrl+Q"), style="yellow"))
        if keys.quit:
            self.finish(None)
            return
        if not self.done.done():
            self.paint()

    def typed(self, line: str) -> None:
        """One line he typed (Enter): a hall command."""
        self.hint(self.t("hall.hint"))
        if line.strip():
            self.run_line(line)

    def _complete(self) -> None:
        club = self.session.server.club
        line, options = commands.complete(
            self.editor.text, lang=self.lang, ascii=self.session.ascii, legal=[], tables=list(club.tables),
            games=[t.game_name for t in club.tables.values()], game_verbs=[])
        self.editor.set(line)
        if options:
            self.hint(self.t("cmd.complete", options="  ".join(options[:12])))

    # -- news -----------------------------------------------------------------------------

    def shows(self, event: Event) -> bool:
        """Whether this person's log tells a hall event (his own comings and goings are not told)."""
        name = event.data.get("name")
        if event.kind in ("enter", "leave", "away", "back"):
            return name != self.session.name
        if event.kind == "say":
            return not self.session.server.club.social.hides(self.session.name, name)
        return event.kind == "table_open"

    def news(self, money_changed: bool) -> None:
        """The board's tick: the new hall events into his log, then one frame."""
        for entry in self.session.server.club.hall_since(self.seq):
            self.seq = entry.seq
            if self.shows(entry.event):
                self._add((entry.seq, entry.event))
        if money_changed:
            self._money_moved += 1  # his balance is read again (off the loop) for the next frame
        self.paint()

    def _inbox_news(self) -> None:
        """Private words for him, as his App would tell them: a line, and the bell if he wants it."""
        from tui.social import inbox_line

        name = self.session.name
        if name is None:
            return
        rung = False
        for entry in self.session.server.club.social.inbox(name).since(self._inbox_seq):
            self._inbox_seq = entry.seq
            line = inbox_line(entry.event, name, self.lang)
            if not line:
                continue
            self.say_line(line, style="bold magenta")
            if not rung and entry.event.data.get("from") != name:
                rung = True
                if self.prefs is not None and self.prefs.bell_on(False):
                    self.session.send(b"\x07")
        self.paint()

def make_board(club: Club) -> HallBoard:
    """The server's one hall board: the table list as the hall screen draws it, the hall's event lines."""
    return HallBoard(club, lambda lang, ascii: table_lines(club, lang, ascii), event_text)
