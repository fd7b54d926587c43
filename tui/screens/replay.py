"""``replay ID`` (and ``sukno replay FILE --screen``): a finished record stepped through on the felt.

The frames come from ``tui.replay``, which plays the record through the
game's own rules (nothing here re-implements them); this screen draws one
frame on the same felt as the live table (``tui.widgets.felt``), every hand
face up underneath — the game is over, nothing is secret any more — then the
lines the step added to the story and the money.  → ← (or n p) move one
action, PgUp PgDn a deal, Home End the ends, a number jumps to that deal; Esc
or q goes back.  A sealed deal shows its seal and seed in the header.
"""

from __future__ import annotations

from types import SimpleNamespace

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine.cards import Card
from engine.games import get_game
from engine.record import Record
from tui.analysis import decision_line
from tui.i18n import money, tr
from tui.narrate import narrate
from tui.replay import Frame, frames, money_line
from tui.text.answers import TRICK_CARDS, TRICK_ENDS
from tui.widgets.felt import Felt
from tui.widgets.sheet import has_sheet, sheet_lines

LOG_LINES = 4
TWO_A_LINE = 6  # from this many seats two hands share a line (Спекулянт's ten still fit 24 rows)


def felt_view(frame: Frame) -> dict[str, Any]:
    """The frame's table for the felt: no backs (the hands are shown face up below), a taken trick kept whole."""
    view = dict(frame.view)
    view["hand_counts"] = []
    view["seat"] = None
    if not view.get("trick"):
        playing: list[tuple[int, Card]] = []
        finished: list[tuple[int, Card]] = []
        taker = None
        for event in frame.events:
            if event.kind in TRICK_CARDS and isinstance(event.data.get("card"), Card) and event.seat is not None:
                if not playing:
                    finished, taker = [], None
                playing.append((event.seat, event.data["card"]))
            elif event.kind in TRICK_ENDS and playing:
                finished, taker, playing = playing, event.seat, []
        if finished:
            view["trick"] = [[s, c] for s, c in finished]
            best = next((c for s, c in finished if s == taker), None)
            if best is not None:
                view["best"] = best
    return view


def seal_text(frame: Frame, lang: str) -> str:
    fair = frame.fair
    if not fair:
        return ""
    return tr(lang, "replay.sealed", seal=fair.get("seal", "")[:16], seed=fair.get("seed", "")[:24])


class ReplayScreen(Screen):
    """One finished record, one step at a time, on the felt."""

    BINDINGS = [
        Binding("right,n", "step(1)", show=False),
        Binding("left,p", "step(-1)", show=False),
        Binding("pagedown", "deal(1)", show=False),
        Binding("pageup", "deal(-1)", show=False),
        Binding("home", "go(0)", show=False),
        Binding("end", "go(-1)", show=False),
        Binding("enter", "jump", show=False),
        Binding("s,f2", "sheet", show=False),
        Binding("escape,q", "back", show=False),
    ]

    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: 1; }
    ReplayScreen #replay-hands { height: auto; }
    ReplayScreen #replay-log { height: 1fr; }
    ReplayScreen #replay-money { height: auto; }
    ReplayScreen #replay-keys { height: 1; }
    ReplayScreen #replay-sheet { height: 1fr; display: none; }
    """

    def __init__(self, record_id: int | str, record: Record, viewer: str | None, lang: str, ascii: bool,
                 analysis: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.judged = {(d["deal"], d["index"]): d for d in (analysis or {}).get("decisions", [])}
        """The analysis's decisions by (deal, action): shown beside the action they judge."""
        self.record_id = record_id
        self.record = record
        self.viewer = viewer
        self.lang = lang
        self.ascii = ascii
        self.frames: list[Frame] = frames(record, viewer)
        self.title_text = get_game(record.game).title.get(lang, record.game)
        self.index = 0
        self.typed = ""  # digits of a deal number being typed
        self.sheet = False  # the score sheet instead of the felt (s)

    def compose(self) -> ComposeResult:
        yield Static("", id="replay-head", classes="header")
        yield Felt(id="replay-felt")
        yield Static("", id="replay-hands")
        yield Static("", id="replay-log")
        yield Static("", id="replay-sheet")
        yield Static("", id="replay-money")
        yield Static("", id="replay-keys", classes="hint")

    def on_mount(self) -> None:
        self.draw()

    def t(self, key: str, **params: object) -> str:
        return tr(self.lang, key, **params)

    # -- moving -------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.typed = ""
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self.draw()

    def action_go(self, where: int) -> None:
        self.typed = ""
        self.index = where % len(self.frames) if self.frames else 0
        self.draw()

    def action_deal(self, delta: int) -> None:
        """To the start of the next (or this/previous) deal."""
        if not self.frames:
            return
        deal = self.frames[self.index].deal + delta
        if delta < 0 and self.frames[self.index].step > 0:
            deal += 1
        self.go_deal(deal)

    def go_deal(self, deal: int) -> bool:
        starts = [i for i, f in enumerate(self.frames) if f.step == 0 and f.deal == deal]
        if starts:
            self.index = starts[0]
        self.draw()
        return bool(starts)

    def on_key(self, event: events.Key) -> None:
        """Digits make a deal number: it is jumped to once no further digit could make another (or on Enter)."""
        if event.character and event.character.isdigit() and self.frames:
            event.stop()
            self.typed = (self.typed + event.character).lstrip("0")[:6]
            deals = self.frames[-1].deals
            if self.typed and int(self.typed) * 10 > deals:
                self.action_jump()
            else:
                self.draw()

    def action_jump(self) -> None:
        typed, self.typed = self.typed, ""
        if typed and not self.go_deal(int(typed)):
            self.query_one("#replay-keys", Static).update(
                Text(self.t("replay.no_deal", deal=typed, deals=self.frames[-1].deals), style="red"))

    def action_sheet(self) -> None:
        """s: the game's score sheet as it stood at this step, in place of the felt; s again: the felt."""
        if not self.frames or not has_sheet(self.frames[0].view):
            return
        self.sheet = not self.sheet
        for name in ("#replay-felt", "#replay-hands", "#replay-log"):
            self.query_one(name).display = not self.sheet
        self.query_one("#replay-sheet").display = self.sheet
        self.draw()

    def action_back(self) -> None:
        if len(self.app.screen_stack) <= 2 and getattr(self.app, "replay_only", False):
            self.app.exit()
        else:
            self.app.pop_screen()
            on_hall = getattr(self.app, "on_hall", None)
            if on_hall is not None and getattr(self.app.screen, "is_hall", False):
                on_hall()  # net gave this App for the replay only: the hall door again

    # -- drawing ------------------------------------------------------------------------

    def draw(self) -> None:
        keys = self.query_one("#replay-keys", Static)
        typed = self.t("replay.typed", deal=self.typed) if self.typed else self.t("replay.keys")
        if not self.typed and self.frames and has_sheet(self.frames[0].view):
            typed += self.t("replay.key_sheet_off" if self.sheet else "replay.key_sheet")
        keys.update(Text(typed, style="dim"))
        head = self.query_one("#replay-head", Static)
        if not self.frames:
            head.update(Text(self.t("replay.empty", id=self.record_id)))
            return
        frame = self.frames[self.index]
        head.update(Text(self.head_line(frame), style="bold"))
        self.query_one(Felt).show(felt_view(frame), None, self.lang, self.ascii)
        self.query_one("#replay-hands", Static).update(self.hands(frame))
        self.query_one("#replay-log", Static).update(self.story(frame))
        if self.sheet:
            self.query_one("#replay-sheet", Static).update(
                Text("\n").join(sheet_lines(frame.view, self.lang, self.ascii, width=80, rows=20)))
        cash = Text(" " + money_line(self.record, frame, self.lang), style="bold" if frame.over else "")
        sealed = seal_text(frame, self.lang)
        if sealed:
            cash.append("\n " + sealed, style="dim")
        judged = self.judged.get((frame.deal, frame.step))
        if judged is not None:
            cash.append("\n " + decision_line(SimpleNamespace(**judged), self.lang),
                        style="bold red" if judged["mark"] == "blunder" else "red" if judged["mark"] else "dim")
        self.query_one("#replay-money", Static).update(cash)

    def head_line(self, frame: Frame, width: int = 80) -> str:
        """``Record 3 · Stukolka · deal 1/2 · move 5/17 · pot 30 k.``, the game's title cut to fit one row."""
        pot = " · " + self.t("replay.pot", money=money(frame.pot, self.lang))

        def line(game: str) -> str:
            return " " + self.t("replay.head", id=self.record_id, game=game, deal=frame.deal, deals=frame.deals,
                                step=frame.step, steps=frame.steps) + pot

        full = line(self.title_text)
        over = len(full) - (width - 1)
        if over <= 0:
            return full
        return line(self.title_text[:max(4, len(self.title_text) - over - 1)] + "…")

    def hands(self, frame: Frame) -> Text:
        """Every hand face up: what is left of it while the deal is played, as dealt once it is over."""
        names = self.record.players
        shown = frame.dealt if frame.over else [h or [] for h in (frame.view.get("hands") or [])]
        width = max((len(n) for n in names), default=4)
        cells = []
        for seat, name in enumerate(names):
            hand = shown[seat] if seat < len(shown) else []
            cards = " ".join(card.text(self.ascii) for card in hand or []) or "—"
            cells.append(f"{name[:12]:<{min(width, 12)}} {cards}")
        out = Text(self.t("replay.dealt") + "\n" if frame.over else "", style="dim")
        if len(cells) >= TWO_A_LINE:
            half = 39
            pairs = [cells[i:i + 2] for i in range(0, len(cells), 2)]
            lines = [" " + "  ".join(c[:half - 1].ljust(half - 1) for c in pair).rstrip() for pair in pairs]
        else:
            lines = [" " + c for c in cells]
        out.append("\n".join(lines))
        return out

    def story(self, frame: Frame) -> Text:
        """The step's own lines bright, the few before them dim (the deal's story so far)."""
        names = tuple(self.record.players)
        out = Text()
        told = [(i >= frame.first, line) for i, e in enumerate(frame.events)
                if (line := narrate(e, names, self.lang, self.ascii))]
        for i, (mine, line) in enumerate(told[-LOG_LINES:]):
            out.append(("\n" if i else "") + " " + line, style="" if mine else "dim")
        return out
