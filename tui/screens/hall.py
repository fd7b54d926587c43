"""The hall: a room described in prose, its tables, who is here, the hall chat."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from engine.game import Event
from tui.commands import GAME_VERBS, HALL_VERBS, Command
from tui import social
from tui.screens.base import ClubScreen, game_title, table_lines
from tui.i18n import money
from tui.widgets.cmdline import CommandLine
from tui.widgets.log import EventLog


GAME_ONLY = frozenset(GAME_VERBS) - frozenset(HALL_VERBS)


def at_a_table(app, name: str) -> bool:
    """Seated or watching somewhere: such a person is not standing in the hall (issue 13 item 17)."""
    return app.club.where(name) is not None or any(name in t.spectators for t in app.club.tables.values())


class HallScreen(ClubScreen):
    """The room you enter first; ``look`` describes it, ``tables`` lists the tables."""

    DEFAULT_CSS = """
    HallScreen #header { height: 1; }
    HallScreen #tables { height: auto; max-height: 12; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._seq = 0
        self._table_rows = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="header", classes="header")
        yield Static("", id="tables")
        yield EventLog()
        yield Static("", id="hint", classes="hint")
        yield CommandLine(id="cmd")

    def on_mount(self) -> None:
        super().on_mount()
        self._seq = self.club_app.club.last_seq
        self.relang()
        self.describe()
        line, self.club_app.first_line = getattr(self.club_app, "first_line", None), None
        if line:  # a command net's hall door handed to this App (a replay)
            self.run_line(line)

    def relang(self) -> None:
        self.cmdline.placeholder = ""
        self.refresh_hall()
        self.hint(self.t("hall.hint"))

    def on_screen_resume(self) -> None:
        self.refresh_hall()
        self.cmdline.focus()

    def refresh_hall(self) -> None:
        """Redraw the header and the table list, and tell new hall events."""
        app = self.club_app
        online = len(app.club.online())
        if app.guest:
            header = self.t("header.guest", name=app.player, online=online)
        else:
            total = app.club.balance(app.player)
            header = self.t("header.hall", name=app.player, money=money(total, app.lang), online=online)
        title = Text(" " + self.t("club.name"), style="bold green")
        pad = max(1, self.size.width - title.cell_len - len(header) - 2)
        self.query_one("#header", Static).update(title + Text(" " * pad + header), layout=False)
        lines = table_lines(app)
        self.query_one("#tables", Static).update(Text("\n").join(lines), layout=len(lines) != self._table_rows)
        self._table_rows = len(lines)
        for entry in app.club.hall_since(self._seq):
            self._seq = entry.seq
            line = self.hall_event(entry.event)
            if line:
                self.say_line(line)

    def hall_event(self, event: Event) -> str:
        data = event.data
        if event.kind in ("enter", "leave"):
            if data.get("name") == self.club_app.player:
                return ""
            return self.t(f"hall.{event.kind}", name=data.get("name", ""))
        if event.kind == "say":
            if self.club_app.club.social.hides(self.club_app.player, data.get("name")):
                return ""  # ignored (issue 20)
            return self.t("hall.say", name=data.get("name", ""), text=data.get("text", ""))
        if event.kind in ("away", "back"):
            if data.get("name") == self.club_app.player:
                return ""
            note = data.get("text", "")
            return self.t("hall.away_note" if note else f"hall.{event.kind}", name=data.get("name", ""), text=note)
        if event.kind == "table_open":
            return self.t("hall.table_open", table=data.get("table"), game=data.get("game"))
        return ""

    def on_resize(self) -> None:
        if self.is_mounted:
            self.refresh_hall()

    def on_club_update(self) -> None:
        self.refresh_hall()

    def describe(self) -> None:
        app = self.club_app
        count = len(app.club.tables)
        self.say_line(self.t("hall.describe_one" if count == 1 else "hall.describe", count=count))
        others = [n for n in app.club.online() if n != app.player and not at_a_table(app, n)]
        shown = [social.who_note(app.club, n, app.lang) for n in others]
        self.say_line(self.t("hall.people", names=", ".join(shown)) if others else self.t("hall.alone"))
        for table in app.club.tables.values():
            names = ", ".join(table.seated())
            game = game_title(table, app.lang)
            free = table.seats.count(None)
            if not names:
                key = "hall.table_empty"
            elif table.in_deal():
                key = "hall.table_playing"
            else:
                key = "hall.table_full" if not free else "hall.table_some"
            deal = table.game.deal_no if table.game is not None else 0
            self.say_line(self.t(key, id=table.id, game=game, names=names, free=free, deal=deal,
                                seated=len(table.seated())))
        mine = app.club.where(app.player)
        if mine is not None:
            self.say_line(self.t("hall.you_sit", id=mine.id))
        if app.guest:
            self.say_line(self.t("hall.guest_note"), style="yellow")

    def handle_here(self, command: Command) -> bool:
        """Game verbs and ``start`` mean nothing in the hall: say so."""
        if command.verb == "start" or command.verb in GAME_ONLY:
            self.error(self.t("cmd.not_at_table"))
            return True
        return False
