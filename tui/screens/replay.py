"""``replay ID``: step through a finished record with ← and →, the story of the deal beside it.

The frames come from ``tui.replay`` (what the player saw then: his own hand
while the deal is played, every hand once it is over); this screen only draws
one frame and moves between them.  Esc (or q) goes back where the player was.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine.games import get_game
from engine.record import Record
from tui.i18n import money, tr
from tui.narrate import narrate
from tui.replay import Frame, frames

LOG_LINES = 12


class ReplayScreen(Screen):
    """One finished record, one step at a time."""

    BINDINGS = [
        Binding("right", "step(1)", show=False),
        Binding("left", "step(-1)", show=False),
        Binding("pagedown", "deal(1)", show=False),
        Binding("pageup", "deal(-1)", show=False),
        Binding("home", "go(0)", show=False),
        Binding("end", "go(-1)", show=False),
        Binding("escape", "back", show=False),
        Binding("q", "back", show=False),
    ]

    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: 1; }
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-keys { height: 1; }
    """

    def __init__(self, record_id: int, record: Record, viewer: str | None, lang: str, ascii: bool) -> None:
        super().__init__()
        self.record_id = record_id
        self.record = record
        self.lang = lang
        self.ascii = ascii
        self.frames: list[Frame] = frames(record, viewer)
        self.title_text = get_game(record.game).title.get(lang, record.game)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="replay-head", classes="header")
        yield Static("", id="replay-body")
        yield Static("", id="replay-keys", classes="hint")

    def on_mount(self) -> None:
        self.draw()

    def t(self, key: str, **params: object) -> str:
        return tr(self.lang, key, **params)

    # -- moving -------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self.draw()

    def action_go(self, where: int) -> None:
        self.index = where % len(self.frames) if self.frames else 0
        self.draw()

    def action_deal(self, delta: int) -> None:
        """To the start of the next (or this/previous) deal."""
        if not self.frames:
            return
        deal = self.frames[self.index].deal + delta
        if delta < 0 and self.frames[self.index].step > 0:
            deal += 1
        starts = [i for i, f in enumerate(self.frames) if f.step == 0 and f.deal == deal]
        if starts:
            self.index = starts[0]
            self.draw()

    def action_back(self) -> None:
        self.app.pop_screen()

    # -- drawing ------------------------------------------------------------------------

    def draw(self) -> None:
        keys = self.query_one("#replay-keys", Static)
        keys.update(Text(self.t("replay.keys"), style="dim"))
        head = self.query_one("#replay-head", Static)
        body = self.query_one("#replay-body", Static)
        if not self.frames:
            head.update(Text(self.t("replay.empty", id=self.record_id)))
            body.update("")
            return
        frame = self.frames[self.index]
        head.update(Text(" " + self.t(
            "replay.head", id=self.record_id, game=self.title_text, deal=frame.deal, deals=frame.deals,
            step=frame.step, steps=frame.steps,
        ), style="bold"))
        body.update(self.body(frame))

    def body(self, frame: Frame) -> Text:
        names = self.record.players
        out = Text()
        if frame.over:
            out.append(self.t("replay.dealt") + "\n", style="bold")
        for seat, name in enumerate(names):
            hand = frame.hands[seat] if seat < len(frame.hands) else None
            if hand is None:
                count = frame.counts[seat] if seat < len(frame.counts) else 0
                cards = self.t("replay.hidden", count=count)
            else:
                cards = " ".join(card.text(self.ascii) for card in hand) or "—"
            out.append(f" {name:<12} {cards}\n")
        out.append(self.t("replay.pot", money=money(frame.pot, self.lang)) + "\n\n", style="dim")
        names_t = tuple(names)
        lines = [narrate(event, names_t, self.lang, self.ascii) for event in frame.events]
        for line in lines[-LOG_LINES:]:
            out.append(line + "\n")
        return out
