"""The hall's shared part, drawn once for everyone of one (width, language, ASCII).

A hall person's screen is rows: his header, the table list, a rule, the log
(hall events and his own answers, the newest that fit), the hint and his
command line.  The table list and each hall event's wrapped rows are the same
for everyone of one width, language and ASCII choice, so :class:`HallBoard`
renders them once per change and every door (``net.modes.hall``) composes its
frame from those shared strings and its own few rows, then sends only the rows
that changed.  The board is fed by the club's hall events (``Club.subscribe``),
not by any session, so a hall spread over nodes only needs the events.

Bursts are coalesced: the first event after a quiet moment is drawn on the next
turn of the loop, later ones at most once per ``TICK``, or per ``BUSY`` times
what the last drawing cost when that is longer (500 people: about 3 × 25 ms).
Arrivals and leavings wait ``ARRIVALS`` more: twenty people connecting at once
are told to the hall in a frame or two, not twenty, and each newcomer's own
first frame (sent at once by his door) never waits behind the others' notices
of him; while others are still connecting (``HallBoard.connecting``) they wait
for the burst's first frames, ``ARRIVALS_MAX`` at most.  A chat line heard
meanwhile is drawn at its own time, with them.  A drawing goes ``SLICE`` doors a
turn of the loop, so that nobody's key exchange or keys wait behind 500 screens.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from typing import Any, Callable, Iterable, Protocol, TypeVar

from rich.cells import cell_len
from rich.color import Color, ColorSystem
from rich.console import Console, ConsoleOptions
from rich.style import Style
from rich.text import Text

from engine.game import Event
from tui.i18n import tr

log = logging.getLogger("sukno.hall")

TICK = 0.04
"""Seconds between two drawings of the hall at most (events in between are drawn together)."""
BUSY = 3.0
"""The hall's drawing takes at most about 1/BUSY of the loop while events keep coming."""
GAP_MAX = 0.25
"""Seconds between two drawings at most, however costly a drawing was."""
ARRIVALS = 0.05
"""Seconds an arrival or a leaving waits before the hall is drawn (the others of a burst join it)."""
SLICE = 50
"""Doors drawn in one turn of the loop (about 2-3 ms); the rest in the next turns."""
ARRIVALS_MAX = 0.5
"""Seconds at most that arrivals wait while people are still connecting (``HallBoard.connecting``)."""
ARRIVAL_KINDS = frozenset({"enter", "leave"})
TABLE_ROWS = 12
"""Rows of the table list at most (as the screen's ``max-height: 12``)."""

BASE = Style(color=Color.from_ansi(188), bgcolor=Color.from_ansi(16))
HEADER = Style(color=Color.from_ansi(223), bgcolor=Color.from_ansi(22))
TITLE = Style(color=Color.from_ansi(28), bold=True)
RULE = Style(color=Color.from_ansi(23), bgcolor=Color.from_ansi(16))
HINT = Style(color=Color.from_ansi(243), bgcolor=Color.from_ansi(16))
LINE = Style(color=Color.from_ansi(231), bgcolor=Color.from_ansi(22))
CARET = Style(color=Color.from_ansi(233), bgcolor=Color.from_ansi(253))
QUIET_KINDS = frozenset({"say", "enter", "leave", "away", "back"})
"""Hall events that change nobody's money: the header's balance is not asked again for them."""

_consoles: dict[int, Console] = {}
_options: dict[int, ConsoleOptions] = {}


def console_for(width: int) -> Console:
    """A console that only measures and renders (to nothing), one per width."""
    console = _consoles.get(width)
    if console is None:
        if len(_consoles) > 64:
            _consoles.clear()
        console = Console(width=width, color_system="256", force_terminal=True, legacy_windows=False,
                          file=io.StringIO(), markup=False, emoji=False, highlight=False)
        _consoles[width] = console
    return console


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal would obey rather than show: C0 and C1 controls (ESC among them), DEL, bidi overrides."""
_INERT = {code: "?" for code in (*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_INERT[0x09] = " "


def inert(text: Text) -> Text:
    """``text`` with every control character shown as ``?`` (a tab as a space), its styles kept.

    Names, chat lines and answers come from clients; a row is sent to other
    people's terminals as it is, so an ESC in it would move their cursor or
    clear their screen.  One character for one keeps every span where it was.
    """
    plain = text.plain
    if _UNSAFE.search(plain) is None:
        return text
    safe = text.copy()
    safe.plain = plain.translate(_INERT)
    return safe


def render_row(text: Text, width: int, base: Style = BASE) -> str:
    """One row of ``width`` cells as escape sequences: ``text`` cropped or padded, on ``base``; any control
    character in ``text`` is drawn inert (``inert``), whoever the caller."""
    text = inert(text)
    console = console_for(width)
    options = _options.get(width)
    if options is None:  # ``Console.options`` asks the terminal's size each time: once per width
        if len(_options) > 64:
            _options.clear()
        options = _options[width] = console.options.update(width=width, height=1, no_wrap=True, overflow="crop")
    line = console.render_lines(text, options, style=base, pad=True)[0]
    return "".join(seg.style.render(seg.text, color_system=ColorSystem.EIGHT_BIT) if seg.style else seg.text
                   for seg in line if not seg.control)


def sgr(style: Style) -> str:
    """The escape sequence that starts ``style``, as ``render_row`` writes it."""
    return style.render("\x00", color_system=ColorSystem.EIGHT_BIT).split("\x00")[0]


HEADER_SGR = sgr(HEADER)
HEADER_TITLE_SGR = sgr(HEADER + TITLE)


def wrap_rows(text: Text, width: int) -> list[str]:
    """``text`` wrapped to ``width`` as the screen's log wraps it, each row rendered (controls inert first,
    so that they are measured as the cells they are drawn as)."""
    text = inert(text)
    return [render_row(line, width) for line in text.wrap(console_for(width), width)]


SHARED_MAX = 2048
"""Lines kept rendered for everyone (``shared_wrap``, ``shared_row``); all dropped when that many."""
_shared: dict[tuple[Any, ...], Any] = {}


Kept = TypeVar("Kept")


def _keep(key: tuple[Any, ...], make: Callable[[], Kept]) -> Kept:
    found = _shared.get(key)
    if found is None:
        if len(_shared) >= SHARED_MAX:
            _shared.clear()
        found = _shared[key] = make()
    return found


def shared_wrap(text: Text, width: int) -> list[str]:
    """``wrap_rows`` of a line that many see alike (the hall's description, "You stand up…"), rendered
    once per (text, width) instead of once per person: a newcomer's first frame is mostly such lines.
    The rows are shared: never change the list."""
    key = ("wrap", text.plain, str(text.style), tuple(text.spans), text.justify, text.overflow, text.no_wrap,
           width)
    return _keep(key, lambda: wrap_rows(text, width))


def shared_row(words: str, width: int, base: Style) -> str:
    """``render_row`` of plain words (a hint) on ``base``, rendered once per (words, width, base)."""
    return _keep(("row", words, width, base), lambda: render_row(Text(words), width, base))


def blank_row(width: int) -> str:
    return render_row(Text(""), width)


class Door(Protocol):
    """What the board draws for: a hall person's door (``net.modes.hall.HallDoor``)."""

    def news(self, money: bool) -> None: ...


class HallBoard:
    """The hall's shared drawing for every door in it; hears the club's hall events."""

    def __init__(self, club: Any, tables: Callable[[str, bool], list[Text]], event_text: Callable[[Event, str], str]
                 ) -> None:
        self.club = club
        self._tables = tables  # (lang, ascii) -> the table list's lines (tui.screens.base.table_lines)
        self._event_text = event_text  # (event, lang) -> its line in the log ("" for none)
        self.doors: set[Door] = set()
        self.generation = 0
        """Bumped by every hall event: the table list is drawn again for the next frame."""
        self.ticks = 0
        self.rendered = 0
        """Shared renderings made (table lists and event rows): one per (width, language, ASCII) per change."""
        self._table_rows: dict[tuple[str, bool, int], tuple[int, tuple[Any, ...], list[str]]] = {}
        self._lines: dict[tuple[str, bool], tuple[int, tuple[Any, ...], list[Text]]] = {}
        self._event_rows: dict[tuple[int, str, bool, int], list[str]] = {}
        self._online: tuple[int, int] = (-1, 0)
        self._blank: dict[int, str] = {}
        self._titles: dict[str, tuple[str, int, str]] = {}
        self._rule: dict[int, str] = {}
        self._off: Callable[[], None] | None = None
        self._handle: asyncio.Handle | None = None
        self._due = 0.0  # when the drawing in ``_handle`` is due (loop time)
        self._arrivals_since: float | None = None  # only arrivals wait to be drawn, the first heard then
        self._drawing: tuple[list[Door], bool, int, float] | None = None  # doors, money, next, CPU so far
        self._slice: asyncio.Handle | None = None
        self.drawn = 0
        """Drawings finished (every door of one drawn; ``ticks`` counts those begun)."""
        self.connecting: Callable[[], bool] = lambda: False
        """Someone is between his TCP connect and his first frame (the server's ``connecting``): arrivals
        wait for the burst's last first frame (``ARRIVALS_MAX`` at most), so that no newcomer's key
        exchange or first frame waits behind the hall drawn for hundreds."""
        self._last = 0.0
        self._gap = TICK
        self._money = False
        self.money_changes = 0
        """Counts the events heard that may change someone's money (and each time the board stops hearing)."""

    def money_mark(self) -> int | None:
        """A mark ``money_still`` compares later: no money changed between them (None: not hearing events)."""
        return self.money_changes if self._off is not None else None

    def money_still(self, mark: int | None) -> bool:
        """Nobody's money changed since ``money_mark`` gave ``mark`` (a balance read then holds)."""
        return mark is not None and self._off is not None and mark == self.money_changes

    # -- doors in and out --------------------------------------------------------------

    def add(self, door: Door) -> None:
        if self._off is None:
            self._off = self.club.subscribe(self._heard)
        self.generation += 1  # what happened while nobody was drawn for is drawn afresh
        self.doors.add(door)

    def remove(self, door: Door) -> None:
        self.doors.discard(door)
        if not self.doors:
            if self._off is not None:
                self._off()
                self._off = None
                self.money_changes += 1  # deaf from now on: a mark taken before holds no more
            if self._handle is not None:
                self._handle.cancel()
                self._handle = None
            if self._slice is not None:
                self._slice.cancel()
                self._slice = None
            self._drawing = None
            self._event_rows.clear()
            self._table_rows.clear()
            self._lines.clear()

    # -- events -------------------------------------------------------------------------

    def _heard(self, events: Iterable[Event]) -> None:
        self.generation += 1
        if any(e.kind not in QUIET_KINDS for e in events):
            self._money = True
            self.money_changes += 1
        loop = asyncio.get_running_loop()
        now = loop.time()
        due = self._last + self._gap
        if all(e.kind in ARRIVAL_KINDS for e in events):
            due = max(due, now + ARRIVALS)
            if self._handle is None:
                self._arrivals_since = now
        else:
            self._arrivals_since = None
        if self._handle is not None:
            if due >= self._due:
                return  # drawn with the events already waiting
            self._handle.cancel()  # a chat line during a burst of arrivals: at its own time
        self._due = due
        self._handle = loop.call_soon(self._flush) if due <= now else loop.call_later(due - now, self._flush)

    def _flush(self) -> None:
        self._handle = None
        loop = asyncio.get_running_loop()
        since = self._arrivals_since
        if self._drawing is not None or (since is not None and loop.time() < since + ARRIVALS_MAX
                                         and self.connecting()):
            # A drawing still under way; or first frames first: the arrivals are told after the burst.
            self._due = loop.time() + TICK
            self._handle = loop.call_later(TICK, self._flush)
            return
        self._arrivals_since = None
        self._last = loop.time()
        money, self._money = self._money, False
        self.ticks += 1
        self._drawing = (list(self.doors), money, 0, 0.0)
        self._draw_slice()

    def _draw_slice(self) -> None:
        """``SLICE`` doors of the drawing under way, then the loop's turn (a newcomer's key exchange, a
        typed key) before the next ``SLICE``: 500 doors are never one 30 ms block of the loop."""
        self._slice = None
        if self._drawing is None:
            return
        doors, money, at, cpu = self._drawing
        started = time.process_time()
        for door in doors[at:at + SLICE]:
            if door not in self.doors:
                continue  # gone meanwhile
            try:
                door.news(money)
            except Exception:  # one door's bug must not keep the hall from the others
                log.exception("the hall could not be drawn for a door")
        cpu += time.process_time() - started
        at += SLICE
        if at < len(doors):
            self._drawing = (doors, money, at, cpu)
            self._slice = asyncio.get_running_loop().call_soon(self._draw_slice)
            return
        self._drawing = None
        self.drawn += 1
        # A burst (twenty arriving at once) is drawn in fewer, larger ticks: the next drawing waits at
        # least BUSY times what this one cost, so the hall takes at most a share of the loop and the
        # newcomers' key exchanges and first frames are not queued behind hundreds of redrawn screens.
        self._gap = max(TICK, min(GAP_MAX, BUSY * cpu))
        if len(self._event_rows) > 20000:  # old events of every width: drawn again if ever needed
            self._event_rows.clear()

    # -- shared rows ---------------------------------------------------------------------

    def table_rows(self, lang: str, ascii: bool, width: int) -> list[str]:
        """The table list's rows; drawn again only when its lines changed (a chat line or an arrival
        leaves them as they were: the same row objects, which the doors' diffs pass over at once)."""
        key = (lang, ascii, width)
        cached = self._table_rows.get(key)
        if cached is not None and cached[0] == self.generation:
            return cached[2]
        sig = self._table_sig(lang, ascii)
        if cached is not None and cached[1] == sig:
            self._table_rows[key] = (self.generation, sig, cached[2])
            return cached[2]
        rows = [render_row(line, width) for line in self._lines[(lang, ascii)][2]]
        self.rendered += 1
        self._table_rows[key] = (self.generation, sig, rows)
        return rows

    def _table_sig(self, lang: str, ascii: bool) -> tuple[Any, ...]:
        """The table list's lines of this generation (asked of the club once per language), as a comparable key."""
        known = self._lines.get((lang, ascii))
        if known is not None and known[0] == self.generation:
            return known[1]
        lines = self._tables(lang, ascii)[:TABLE_ROWS]
        sig = tuple((line.plain, str(line.style), tuple(line.spans)) for line in lines)
        self._lines[(lang, ascii)] = (self.generation, sig, lines)
        return sig

    def event_rows(self, seq: int, event: Event, lang: str, ascii: bool, width: int) -> list[str]:
        """The wrapped rows of one hall event as everyone of this width and language sees it."""
        key = (seq, lang, ascii, width)
        rows = self._event_rows.get(key)
        if rows is None:
            line = self._event_text(event, lang)
            rows = wrap_rows(Text(line), width) if line else []
            self.rendered += 1
            self._event_rows[key] = rows
        return rows

    def online(self) -> int:
        """How many are in the club (the headers' count), asked once per change, not once per door."""
        if self._online[0] != self.generation:
            self._online = (self.generation, len(self.club.online()))
        return self._online[1]

    def header_title(self, lang: str) -> tuple[str, int, str]:
        """The headers' shared start in ``lang``: the club's name, its cells, and its escape sequences
        up to the header's own words (made once, not once per person and arrival)."""
        known = self._titles.get(lang)
        if known is None:
            title = " " + tr(lang, "club.name")
            known = self._titles[lang] = (title, cell_len(title), f"{HEADER_TITLE_SGR}{title}\x1b[0m{HEADER_SGR}")
        return known

    def blank(self, width: int) -> str:
        row = self._blank.get(width)
        if row is None:
            row = self._blank[width] = blank_row(width)
        return row

    def rule(self, width: int) -> str:
        row = self._rule.get(width)
        if row is None:
            row = self._rule[width] = render_row(Text("─" * width), width, RULE)
        return row
