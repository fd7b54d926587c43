"""Everything drawn for one table: header, felt, hand, narration, hint and timer.

Shared by the player's table screen and the spectators' ``SpectatorApp``; it
reads the table only through ``Table.view_for`` and ``Table.log_since``, so a
spectator's screen is built from the public view and cannot show a hidden card.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from engine.autoplay import is_bot
from engine.cards import Card
from engine.game import Action
from engine.table import Table
from tui.hints import actions_hint, prompt  # noqa: F401  (actions_hint: imported from here before)
from tui.i18n import money, tr
from tui.narrate import narrate
from tui.text.answers import TRICK_CARDS, TRICK_ENDS
from tui.social import chat_line, rail_line
from tui.widgets.felt import Felt
from tui.widgets.hand import Hand
from tui.widgets.log import EventLog
from tui.widgets.timer import TimerBar



def header_text(table: Table, view: dict[str, Any], lang: str, ascii: bool) -> str:
    title = table.title.get(lang) or table.game_name
    variant = table.game_cls.variant_label(table.options)
    trump = view.get("trump")
    seal = view.get("seal")  # the sealed deal's seal (engine.shuffle): a short fragment to compare with the log
    sealed = f" · {tr(lang, 'fair.header', seal=seal[:8])}" if isinstance(seal, str) and seal else ""
    return tr(
        lang, "table.header", id=table.id, game=title,
        variant=f" ({variant})" if variant else "",
        pot_label=tr(lang, f"table.{table.game_cls.pot_name}"),
        pot=money(view.get("pot", 0), lang),
        trump=tr(lang, "table.trump", suit=trump.text(ascii)) if trump is not None and hasattr(trump, "text") else "",
        deal=view.get("deal_no", 0),
    ) + sealed


class TableView(Vertical):
    """A table as seen by ``viewer`` (a seated name, or anyone else: the public view)."""

    DEFAULT_CSS = """
    TableView { height: 1fr; }
    TableView #theader { height: 1; }
    TableView #hintrow { height: 1; }
    TableView #hint { width: 1fr; height: 1; }
    TableView #tsheet { height: 1fr; display: none; }
    """

    def __init__(self, table: Table, viewer: str | None, *, clock: Callable[[], float] = time.monotonic,
                 is_online: Callable[[str], bool] | None = None, is_away: Callable[[str], bool] | None = None,
                 hides: Callable[[str], bool] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.table = table
        self.is_online = is_online
        self.is_away = is_away
        self.hides = hides
        """Whether the viewer ignores a speaker (issue 20): his words are not drawn."""
        self.rail_seq = 0
        self.viewer = viewer
        self.clock = clock
        self.lang = "en"
        self.ascii = False
        self.seq = 0
        self.view: dict[str, Any] = {}
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
        yield EventLog()
        yield Static("", id="tsheet")
        with Horizontal(id="hintrow"):
            yield Static("", id="hint", classes="hint")
            yield TimerBar(clock=self.clock)

    @property
    def seat(self) -> int | None:
        return self.table.seat_of(self.viewer) if self.viewer else None

    def my_hand(self) -> list[Card]:
        seat = self.view.get("seat")
        hands = self.view.get("hands") or []
        if seat is None or seat >= len(hands) or hands[seat] is None:
            return []
        return list(hands[seat])

    def legal(self) -> list[Action]:
        return self.table.legal_actions(self.viewer) if self.viewer else []

    def set_lang(self, lang: str, ascii: bool) -> None:
        """Switch language: the whole narration is told again."""
        self.lang, self.ascii = lang, ascii
        self.query_one(EventLog).clear_lines()
        self.seq = 0
        self._playing, self.finished, self.finished_by = [], [], None
        self.rail_seq = 0
        self.sync()

    def sync(self) -> None:
        """Redraw from the table's current state and tell the events not yet told."""
        table = self.table
        self.view = view = table.view_for(self.viewer)
        if self.is_online is not None:
            view["away"] = [n for n in table.seated() if not is_bot(n) and (not self.is_online(n) or (
                self.is_away is not None and self.is_away(n)))]
        me = view.get("seat")
        log = self.query_one(EventLog)
        seated = me is not None
        for entry in table.log_since(self.seq):
            self.seq = entry.seq
            self._follow_trick(entry.event)
            style = "cyan" if entry.event.kind in ("say", "rail_summary") else ""
            line = chat_line(entry.event, entry.names, self.lang, self.viewer, seated, self.hides)
            if line == "":
                line = narrate(entry.event, entry.names, self.lang, self.ascii)
            if line:
                log.add(Text(line, style=style))
        if not seated:  # the rail: watchers only, never a seated player's screen (issue 20)
            for entry in table.rail.since(self.rail_seq):
                self.rail_seq = entry.seq
                line = rail_line(entry.event, self.lang, self.hides)
                if line:
                    log.add(Text(line, style="magenta"))
        self.query_one("#theader", Static).update(
            Text(" " + header_text(table, view, self.lang, self.ascii), style="bold"), layout=False)
        self.query_one(Felt).show(self.felt_view(view), me, self.lang, self.ascii)
        legal = self.legal()
        playable = {a for act in legal for a in act.args if isinstance(a, Card)}
        hand = self.my_hand()
        self.chosen &= set(hand)
        if hand:
            note = tr(self.lang, "table.hand_keys", last=len(hand))
        else:
            note = tr(self.lang, "table.watching", id=table.id) if me is None else ""
        self.query_one(Hand).show(hand, playable, self.chosen, note, self.ascii)
        self.show_hint(self.hint_override or self.hint_text(view, legal))
        self.query_one(TimerBar).set_deadline(table.timer_deadline(), self.ascii, self.turn_of(view),
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

        view = {"game": self.table.game_name, **self.view}
        lines = sheet_lines(view, self.lang, self.ascii, width=self.size.width or 80,
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

    def felt_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view drawn on the felt: a trick just taken stays whole (its winner's card marked) until the next card."""
        if view.get("trick") or not self.finished:
            return view
        shown = dict(view)
        shown["trick"] = [[s, c] for s, c in self.finished]
        taker = next((c for s, c in self.finished if s == self.finished_by), None)
        if taker is not None:
            shown["best"] = taker
        return shown

    def turn_of(self, view: dict[str, Any]) -> str:
        """Whose time the bar counts: ``you``, one name, or nobody in particular (several act at once)."""
        to_act = list(view.get("to_act") or [])
        names = view.get("names", [])
        if len(to_act) != 1 or not self.table.in_deal():
            return ""
        seat = to_act[0]
        if seat == view.get("seat"):
            return tr(self.lang, "table.your_turn")
        return names[seat] if seat < len(names) and names[seat] else ""

    def show_hint(self, text: str) -> None:
        self.query_one("#hint", Static).update(Text(" " + text, style="dim"), layout=False)

    def hint_text(self, view: dict[str, Any], legal: list[Action]) -> str:
        lang, table = self.lang, self.table
        if view.get("seat") is None:  # a watcher: whose turn it is (his own commands are on his prompt)
            names = view.get("names", [])
            waiting = ", ".join(names[s] for s in view.get("to_act", []) if s < len(names) and names[s])
            return tr(lang, "table.hint_wait", names=waiting) if table.in_deal() and waiting \
                else tr(lang, "table.hint_spectator")
        if legal:
            return prompt(table, self.viewer or "", view, legal, lang, self.ascii)
        if table.in_deal():
            names = view.get("names", [])
            waiting = ", ".join(names[s] for s in view.get("to_act", []) if s < len(names))
            return tr(lang, "table.hint_wait", names=waiting)
        if not table.full():
            return tr(lang, "table.hint_need", count=table.seats.count(None))
        return tr(lang, "table.hint_ready", ready=len(view.get("ready", table.ready)), total=len(table.seats))
