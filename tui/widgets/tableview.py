"""Everything drawn for one table: header, felt, hand, narration, hint and timer.

Shared by the player's table screen and the spectators' ``SpectatorApp``.  It holds
no table: its owner gives it ``pull``, which takes one ``engine.view.Snapshot`` (the
typed view, the legal actions, the log lines after a number, the deadline), and
``sync`` assigns that to the ``snapshot`` reactive, whose watcher draws it all.  A
spectator's snapshot is built from the public view, so it cannot show a hidden card.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Static

from tui.widgets.quiet import show_text

from engine.cards import Card
from engine.game import Action
from engine.view import Snapshot, TableFacts, TrickView, View, build_view
from tui.hints import actions_hint, prompt  # noqa: F401  (actions_hint: imported from here before)
from tui.i18n import money, tr
from tui.narrate import narrate
from tui.text.answers import TRICK_CARDS, TRICK_ENDS
from tui.social import chat_line, rail_line
from tui.widgets.felt import Felt
from tui.widgets.hand import Hand
from tui.widgets.hintrow import HintRow
from tui.widgets.log import TABLE_KEEP, EventLog
from tui.widgets.timer import TimerBar



Pull = Callable[[int, int], Snapshot]
"""The owner's: a snapshot of its table after log number ``seq`` and rail number ``rail_seq``."""

EMPTY = build_view({})


def header_text(facts: TableFacts, view: View, lang: str, ascii: bool) -> str:
    title = facts.title.get(lang) or view.game
    seal = view.seal  # the sealed deal's seal (engine.shuffle): a short fragment to compare with the log
    sealed = f" · {tr(lang, 'fair.header', seal=seal[:8])}" if seal else ""
    return tr(
        lang, "table.header", id=facts.id, game=title,
        variant=f" ({facts.variant})" if facts.variant else "",
        pot_label=tr(lang, f"table.{facts.pot_name}"),
        pot=money(view.pot, lang),
        trump=tr(lang, "table.trump", suit=view.trump.text(ascii)) if view.trump is not None else "",
        deal=view.deal_no,
    ) + sealed


class TableView(Vertical):
    """A table as seen by ``viewer`` (a seated name, or anyone else: the public view)."""

    DEFAULT_CSS = """
    TableView { height: 1fr; }
    TableView #theader { height: 1; }
    TableView #hintrow { height: 1; }
    TableView TimerBar { display: none; }
    TableView #tsheet { height: 1fr; display: none; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, layout=False, repaint=False,
                                                   init=False)
    """The last pull of the table (``sync`` assigns it; ``watch_snapshot`` draws it).

    No repaint of the whole view when it is assigned: each part that changed redraws itself
    (``show_text``), and a repaint of this container put every one of its rows in the frame, the
    unchanged too: a move's frame to each watcher 2.9 → 2.4 KB and ~20% less of a hub's drawing."""

    def __init__(self, pull: Pull, viewer: str | None, *, clock: Callable[[], float] = time.monotonic,
                 hides: Callable[[str], bool] | None = None, timer_step: float = 1.0, **kwargs: Any):
        super().__init__(**kwargs)
        self.timer_step = timer_step
        """The timer bar's step (``TimerBar.step``): 1 for a person's own screen, coarser for the watchers'."""
        self.pull = pull
        self.hides = hides
        """Whether the viewer ignores a speaker: his words are not drawn."""
        self.rail_seq = 0
        self.rail_primed = False  # the rail said before this screen opened is not told as new
        self.viewer = viewer
        self.clock = clock
        self.lang = "en"
        self.ascii = False
        self.seq = 0
        self.chosen: set[Card] = set()
        self.hint_override = ""
        self._playing: list[tuple[int, Card]] = []  # the cards of the trick being played, from the log
        self.finished: list[tuple[int, Card]] = []  # the trick just taken, shown until the next card lands
        self.finished_by: int | None = None
        self.sheet_shown = False  # the score sheet in place of the felt, hand and log (tui.widgets.sheet)

    def compose(self) -> ComposeResult:
        yield Static("", id="theader", classes="header")
        yield Felt()
        yield Hand()
        yield EventLog(keep=TABLE_KEEP)
        yield Static("", id="tsheet")
        row = HintRow(id="hintrow", classes="hint")  # the hint and the timer's text in one row
        bar = TimerBar(clock=self.clock, step=self.timer_step)  # the clock; its own widget hidden
        bar.on_text = row.set_clock
        yield row
        yield bar

    @property
    def view(self) -> View:
        """The typed view last drawn (an empty one before the first pull)."""
        return self.snapshot.view if self.snapshot is not None else EMPTY

    @property
    def seat(self) -> int | None:
        return self.view.seat

    def my_hand(self) -> list[Card]:
        return list(self.view.hand)

    def legal(self) -> list[Action]:
        """The legal actions of the last pull (the screen asks its table when it acts)."""
        return list(self.snapshot.legal) if self.snapshot is not None else []

    def set_lang(self, lang: str, ascii: bool) -> None:
        """Switch language: the whole narration is told again."""
        self.lang, self.ascii = lang, ascii
        self.query_one(EventLog).clear_lines()
        self.seq = 0
        self._playing, self.finished, self.finished_by = [], [], None
        self.rail_seq = 0
        self.sync()

    def sync(self) -> None:
        """Pull the table's snapshot after what was told; drawing it tells the events not yet told."""
        self.snapshot = self.pull(self.seq, self.rail_seq)

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        view = snap.view
        me = view.seat
        log = self.query_one(EventLog)
        seated = me is not None
        told: list[tuple[str, Text]] = []
        for entry in snap.log:
            if entry.seq <= self.seq:
                continue
            self.seq = entry.seq
            self._follow_trick(entry.event)
            style = "cyan" if entry.event.kind in ("say", "rail_summary") else ""
            line = chat_line(entry.event, entry.names, self.lang, self.viewer, seated, self.hides)
            if line == "":
                line = narrate(entry.event, entry.names, self.lang, self.ascii)
            if line:
                told.append((entry.event.kind, Text(line, style=style)))
        for _kind, text in results_last(told):
            log.add(text)
        if not seated:  # the rail: watchers only, never a seated player's screen
            fresh = self.rail_primed
            self.rail_primed = True
            for entry in snap.rail:
                if entry.seq <= self.rail_seq:
                    continue
                self.rail_seq = entry.seq
                line = rail_line(entry.event, self.lang, self.hides)
                if line and fresh:  # a new watcher is not handed the rail's old words as if just said
                    log.add(Text(line, style="magenta"))
        show_text(self.query_one("#theader", Static),
                  Text(" " + header_text(snap.facts, view, self.lang, self.ascii), style="bold"))
        self.query_one(Felt).show(self.felt_view(view), me, self.lang, self.ascii)
        legal = list(snap.legal)
        playable = {a for act in legal for a in act.args if isinstance(a, Card)}
        hand = self.my_hand()
        self.chosen &= set(hand)
        if hand:
            note = tr(self.lang, "table.hand_keys", last=len(hand))
        else:
            note = tr(self.lang, "table.watching", id=snap.facts.id) if me is None else ""
        self.query_one(Hand).show(hand, playable, self.chosen, note, self.ascii)
        self.show_hint(self.hint_override or self.hint_text(view, legal))
        self.query_one(TimerBar).set_deadline(snap.deadline, self.ascii, self.turn_of(view),
                                                tr(self.lang, "timer.seconds"))
        self.draw_sheet()

    def show_sheet(self, on: bool) -> None:
        """The score sheet instead of the felt, the hand and the log (``score``/F2 toggles it), or back."""
        self.sheet_shown = on
        for kind in (Felt, Hand, EventLog):
            self.query_one(kind).display = not on
        self.query_one("#tsheet").display = on
        self.draw_sheet()

    def draw_sheet(self) -> None:
        if not self.sheet_shown:
            return
        from tui.widgets.sheet import sheet_lines

        lines = sheet_lines(self.view, self.lang, self.ascii, width=self.size.width or 80,
                            rows=max(5, (self.size.height or 23) - 2))
        self.query_one("#tsheet", Static).update(Text("\n").join(lines), layout=False)

    def _follow_trick(self, event: Any) -> None:
        """Keep the cards of the trick from the log, so a taken trick can stay whole on the felt for a beat."""
        if event.kind == "deal_start":
            self._playing, self.finished, self.finished_by = [], [], None
        elif event.kind in TRICK_CARDS and isinstance(event.data.get("card"), Card) and event.seat is not None:
            if not self._playing:
                self.finished, self.finished_by = [], None  # the next trick's first card: the old one goes
            self._playing.append((event.seat, event.data["card"]))
        elif event.kind in TRICK_ENDS and self._playing:
            self.finished, self.finished_by, self._playing = self._playing, event.seat, []

    def felt_view(self, view: View) -> View:
        """The view drawn on the felt: a trick just taken stays whole (its winner's card marked) until the next card."""
        if view.trick or not self.finished:
            return view
        taker = next((c for s, c in self.finished if s == self.finished_by), None)
        return replace(view, trick=TrickView(tuple(self.finished), taker if taker is not None else view.trick.best))

    def turn_of(self, view: View) -> str:
        """Whose time the bar counts: ``you``, one name, or nobody in particular (several act at once)."""
        to_act = view.to_act
        names = view.names
        if len(to_act) != 1 or not view.in_deal:
            return ""
        seat = to_act[0]
        if seat == view.seat:
            return tr(self.lang, "table.your_turn")
        return names[seat] if seat < len(names) and names[seat] else ""

    def show_hint(self, text: str) -> None:
        self.query_one(HintRow).set_hint(Text(" " + text, style="dim"))

    def hint_text(self, view: View, legal: list[Action]) -> str:
        lang, snap = self.lang, self.snapshot
        names = view.names
        if view.seat is None:  # a watcher: whose turn it is (his own commands are on his prompt)
            waiting = ", ".join(names[s] for s in view.to_act if s < len(names) and names[s])
            return tr(lang, "table.hint_wait", names=waiting) if view.in_deal and waiting \
                else tr(lang, "table.hint_spectator")
        if legal and snap is not None:
            return prompt(snap, self.viewer or "", view, legal, lang, self.ascii)
        if view.in_deal:
            waiting = ", ".join(names[s] for s in view.to_act if s < len(names))
            return tr(lang, "table.hint_wait", names=waiting)
        facts = snap.facts if snap is not None else None
        if facts is not None and facts.free:
            return tr(lang, "table.hint_need", count=facts.free)
        return tr(lang, "table.hint_ready", ready=len(view.ready), total=facts.seats if facts else len(names))


RESULTS = frozenset({"deal_over", "session_over"})
SEALS = frozenset({"fair_open", "fair_seal"})


def results_last(told: list[tuple[str, Text]]) -> list[tuple[str, Text]]:
    """A deal's result stays the newest line: the seal lines told with it (long: a 64-digit seed and the
    next seal) go before it, so at 80×24 they never push the result out of the log."""
    out: list[tuple[str, Text]] = []
    first_result: int | None = None
    for kind, text in told:
        if kind in SEALS and first_result is not None:
            out.insert(first_result, (kind, text))
            first_result += 1
            continue
        if kind in RESULTS and first_result is None:
            first_result = len(out)
        out.append((kind, text))
    return out
