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

A reader who stops reading is skipped (the board's frames cost him nothing)
and gets his whole screen when his buffers drain.  Two people of the same
size, language and own lines see the same screen cell for cell.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable

from rich.cells import cell_len
from rich.text import Text

from engine.game import Event
from net.modes.hallview import (CARET, HEADER, HINT, LINE, TITLE, HallBoard, render_row,
                           shared_row, shared_wrap)
from net.modes.lineedit import LineEditor
from tui import commands, pending
from tui.i18n import money, tr
from tui.verbs import HallVerbs, table_lines
from tui.widgets.log import KEEP

if TYPE_CHECKING:
    from net.ssh.session import Session

log = logging.getLogger("sukno.hall")

ENTER_HALL_MODE = "\x1b[?1049h\x1b[?2004h\x1b[?7l\x1b[?25h\x1b[0m\x1b[H\x1b[2J"
"""Alternate screen, bracketed paste, no line wrap, the cursor shown (screen readers follow it)."""
SCROLL_MAX = 8
"""New log rows at most drawn by scrolling the terminal; more are sent as rows."""
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


class _Face:
    """What the hall's command handlers ask of ``app`` (``ClubApp``'s shape), for one door."""

    def __init__(self, door: HallDoor) -> None:
        self._door = door

    @property
    def club(self) -> Any:
        return self._door.session.server.club

    @property
    def player(self) -> str | None:
        return self._door.session.name

    @property
    def lang(self) -> str:
        return self._door.lang

    @property
    def ascii(self) -> bool:
        return self._door.session.ascii

    @property
    def guest(self) -> bool:
        return self._door.session.guest

    @property
    def prefs(self) -> Any:
        return self._door.prefs

    @property
    def admin(self) -> Any:
        return self._door.admin

    @property
    def keys(self) -> Any:
        return self._door.keys

    @property
    def store_read(self) -> Any:
        return self._door.session.read_off_loop

    def clock(self) -> float:
        return asyncio.get_running_loop().time()

    def on_mode(self, mode: str) -> bool:
        return self._door.session.switch_mode(mode)

    def set_lang(self, lang: str) -> None:
        self._door.relang(lang)

    def watch(self, table_id: int) -> None:
        door = self._door
        table = self.club.table(table_id)  # no such table: the club's refusal
        if door.session.name not in table.spectators:
            table.check_watch(door.session.name or "")  # a private table, or none watch
        door.session.on_watch(table_id)

    def show_table(self, table_id: int) -> None:
        self._door.finish(("app", None))  # his seat is kept; his App draws the table

    def show_hall(self) -> None:
        pass  # he is in the hall

    back_to_hall = show_hall

    def exit(self) -> None:
        self._door.finish(None)

    def notify(self, line: str, **_kw: Any) -> None:
        self._door.say_line(line)

    def answered(self) -> None:
        """A change sent to another node was answered (``tui.pending``): paint it, run the keys held."""
        self._door.answered()


class HallDoor(HallVerbs):
    """One person in the hall: his rows, his line, the hall's commands; no App."""

    def __init__(self, session: Session, board: HallBoard, *, admin: Any = None, keys: Any = None) -> None:
        self.session = session
        self.board = board
        self.lang = session.lang
        self.prefs = session.prefs
        self.admin = admin
        self.keys = keys
        self.club_app = _Face(self)
        self.editor = LineEditor()
        self.placeholder = ""
        """Shown dim in an empty command line (the welcome's "your name")."""
        self.items: deque[tuple[int, Event] | Text] = deque(maxlen=KEEP)
        self.seq = 0
        self.stale = False
        self.done: asyncio.Future[tuple[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._sent: list[str] = []
        self._added = 0  # lines ever added to the log (the rows shown are extended by the new ones only)
        self._log_key: tuple[Any, ...] = ()
        self._log_upto = 0
        self._log_shown: list[str] = []
        self._region = (0, 0)  # the log's rows in the frame: [top, bottom)
        self._sent_region = (0, 0)
        self._size = (0, 0)
        self._own_rows: dict[int, tuple[Text, list[str]]] = {}  # by id, with the line itself (ids are reused)
        self._hint_text = ""
        self._hint_row = ""
        self._hint_key: tuple[str, int] = ("", 0)
        self._header_key: tuple[Any, ...] = ()
        self._header_row = ""
        self._header_seen: tuple[Any, ...] = ()
        self._money: tuple[int | None, str, str] = (None, "", "")  # his balance in words, made once per change
        self._tables_now: list[str] = []
        self._tables_sent: list[str] | None = None  # the board's list of table rows in the last frame sent
        self._balance: int | None = None
        self._money_moved = 0  # money moved in the club this many times since the door opened
        self._balance_read = -1  # ``_money_moved`` when ``_balance`` was last asked for
        self._line_key: tuple[Any, ...] = ()
        self._line_row = ""
        self._caret_x = 1
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

    # -- drawing --------------------------------------------------------------------------

    def size(self) -> tuple[int, int]:
        return self.session.app_size()

    def frame(self) -> list[str]:
        """Every row of his screen now (shared strings where they are shared)."""
        width, height = self._sized()
        board = self.board
        rows = [self._header(width)]
        self._tables_now = board.table_rows(self.lang, self.session.ascii, width)
        rows += self._tables_now
        rows.append(board.rule(width))
        room = height - len(rows) - 2
        if room < 0:  # a tiny window: the command line and what fits above it
            self._region = (0, 0)
            return (rows + [self._hint(width)])[:max(0, height - 1)] + [self._line(width)]
        self._region = (len(rows), len(rows) + room)
        rows += self._log_rows(width, room)
        rows.append(self._hint(width))
        rows.append(self._line(width))
        return rows

    def _sized(self) -> tuple[int, int]:
        """His window's size now; a new size draws every row of his own again."""
        width, height = self.size()
        if (width, height) != self._size:
            self._size = (width, height)
            self._own_rows.clear()
            self._header_key = self._header_seen = self._line_key = ()
            self._hint_key = ("", 0)
            self._sent = []
        return width, height

    def _item_rows(self, item: tuple[int, Event] | Text, width: int) -> list[str]:
        if isinstance(item, Text):
            cached = self._own_rows.get(id(item))
            if cached is None or cached[0] is not item:
                cached = self._own_rows[id(item)] = (item, shared_wrap(item, width))
            return cached[1]
        return self.board.event_rows(item[0], item[1], self.lang, self.session.ascii, width)

    def _log_rows(self, width: int, room: int) -> list[str]:
        """The newest rows that fit ``room``, top-aligned; only the lines added since the last frame are
        looked at, unless the width, height or language changed."""
        board = self.board
        key = (width, room, self.lang, self.session.ascii)
        new = self._added - self._log_upto
        if key == self._log_key and new <= len(self.items):
            shown = self._log_shown
            if new:
                for i in range(len(self.items) - new, len(self.items)):
                    shown = shown + self._item_rows(self.items[i], width)
                shown = shown[-room:] if room else []
        else:
            shown = []
            for item in reversed(self.items):
                if len(shown) >= room:
                    break
                shown[:0] = self._item_rows(item, width)
            shown = shown[-room:] if room else []
        self._log_key, self._log_upto, self._log_shown = key, self._added, shown
        if len(self._own_rows) > 4 * KEEP:  # rows of lines no longer kept
            kept = {id(i) for i in self.items if isinstance(i, Text)}
            self._own_rows = {k: v for k, v in self._own_rows.items() if k in kept}
        return shown + [board.blank(width)] * (room - len(shown))

    def _ask_balance(self) -> None:
        """His balance: as read on arrival if no money moved since, else asked of the store's thread
        (``net.modes.balances``); the last value shows until it comes, then the door repaints."""
        session, club = self.session, self.session.server.club
        asked = self._balance_read = self._money_moved
        arrived = session.arrived_balance() if hasattr(session, "arrived_balance") else None
        if arrived is not None:
            self._balance = arrived
            return
        reads = getattr(session.server, "balances", None)
        if reads is None:  # no store thread (tools, tests without a store): the club counts it here
            self._balance = club.balance(session.name)
            return

        def read(value: int | None) -> None:
            if value is None:
                return  # the store failed: the last value holds until money moves again
            self._balance = value
            if self._money_moved != asked:
                return  # moved again meanwhile: the next frame asks again
            if not self.done.done():
                self.paint()

        reads.ask(str(session.name), read, self)

    def _header(self, width: int) -> str:
        session, club = self.session, self.session.server.club
        online = self.board.online()
        if self._balance_read != self._money_moved and not session.guest:
            self._ask_balance()
        seen = (online, self._balance, self.lang, width)
        if seen == self._header_seen:  # nothing of it changed (a chat line): no words made again
            return self._header_row
        self._header_seen = seen
        if session.guest:
            words = self.t("header.guest", name=session.name, online=online)
        else:
            if self._money[:2] != (self._balance, self.lang):
                shown = "…" if self._balance is None else money(self._balance, self.lang)  # not read yet
                self._money = (self._balance, self.lang, shown)
            words = self.t("header.hall", name=session.name, money=self._money[2], online=online)
        key = (words, width)
        if key != self._header_key:
            title, title_cells, prefix = self.board.header_title(self.lang)
            words_cells = cell_len(words)
            pad = max(1, width - title_cells - words_cells - 2)
            rest = width - title_cells - pad - words_cells
            if rest >= 0 and words.isprintable():  # every arrival redraws every header: no Rich for the usual case
                self._header_row = f"{prefix}{' ' * pad}{words}{' ' * rest}\x1b[0m"
            else:
                self._header_row = render_row(Text(title, style=TITLE) + Text(" " * pad + words), width, HEADER)
            self._header_key = key
        return self._header_row

    def _hint(self, width: int) -> str:
        if self._hint_key != (self._hint_text, width):
            self._hint_key = (self._hint_text, width)
            self._hint_row = shared_row(self._hint_text, width, HINT)
        return self._hint_row

    def _line(self, width: int) -> str:
        """The command line: one cell of padding, the text scrolled to keep the caret in view, a block caret."""
        editor = self.editor
        key = (editor.text, editor.caret, width, self.placeholder)
        if key == self._line_key:
            return self._line_row
        room = max(1, width - 2)
        before = editor.text[:editor.caret]
        start = 0
        while cell_len(before[start:]) > room - 1 and start < len(before):
            start += 1
        shown_before = before[start:]
        under = editor.text[editor.caret:editor.caret + 1] or " "
        after: str | Text = editor.text[editor.caret + 1:]
        if not editor.text and self.placeholder:  # as the screen's Input: the caret on the dim placeholder
            under, after = self.placeholder[0], Text(self.placeholder[1:], style="dim")
        text = Text(" ") + Text(shown_before) + Text(under, style=CARET) + (
            after if isinstance(after, Text) else Text(after))
        self._line_row = render_row(text, width, LINE)
        self._caret_x = min(width, 2 + cell_len(shown_before))
        self._line_key = key
        return self._line_row

    def paint(self) -> None:
        """Send the rows that changed since his last frame (all of them after a skip)."""
        if self.done.done():
            return
        session = self.session
        if session.paused:
            self.stale = True
            session._schedule_poll()
            return
        rows = self.frame()
        sent = self._sent
        out: list[str] = []
        if not sent or self.stale:
            out.append("\x1b[0m\x1b[H\x1b[2J")
            sent = []
        self.stale = False
        tables = self._tables_now
        if sent and len(sent) == len(rows) and self._region == self._sent_region and self._region[1]:
            # The usual frame: only the rows that can have changed are looked at (the header, the table
            # list unless it is the very list sent last, the log's new rows after a scroll, hint and line).
            top, bottom = self._region
            sent, low = self._scroll(sent, rows, out)
            wanted: Iterable[int] = range(1, top) if tables is not self._tables_sent else range(top - 1, top)
            check = itertools.chain((0,), wanted, range(low, len(rows)))
        else:
            check = range(len(rows))
        self._sent_region = self._region
        self._tables_sent = tables
        for y in check:
            row = rows[y]
            if y >= len(sent) or sent[y] is not row and sent[y] != row:
                out.append(f"\x1b[{y + 1};1H{row}")
        self._sent = rows
        if out:
            out.append(f"\x1b[0m\x1b[{len(rows)};{self._caret_x}H")
            session.send("".join(out).encode("utf-8", "replace"))

    def _scroll(self, sent: list[str], rows: list[str], out: list[str]) -> tuple[list[str], int]:
        """New lines at the bottom of a full log: the terminal scrolls the log's rows (DECSTBM and IND),
        so only the new rows are sent, not the whole log again.  The rows as the terminal has them after,
        and the first row of the log that may still differ from them (every row below it is looked at)."""
        top, bottom = self._region
        if rows[top:bottom] == sent[top:bottom]:
            return sent, bottom
        for k in range(1, min(SCROLL_MAX, bottom - top - 1) + 1):
            if rows[top:bottom - k] == sent[top + k:bottom]:
                out.append(f"\x1b[0m\x1b[{top + 1};{bottom}r\x1b[{bottom};1H" + "\x1bD" * k + "\x1b[r")
                return sent[:top] + sent[top + k:bottom] + [""] * k + sent[bottom:], bottom - k
        return sent, top

    def resume(self) -> None:
        """His buffers drained: the whole screen again if frames were skipped."""
        if self.stale and not self.session.paused:
            self.paint()

    def resized(self) -> None:
        self._sent = []
        self.paint()


def make_board(club: Any) -> HallBoard:
    """The server's one hall board: the table list as the hall screen draws it, the hall's event lines."""

    class _Lister:
        def __init__(self, lang: str, ascii: bool) -> None:
            self.club, self.lang, self.ascii = club, lang, ascii

    return HallBoard(club, lambda lang, ascii: table_lines(_Lister(lang, ascii)),  # type: ignore[arg-type]
                     event_text)
