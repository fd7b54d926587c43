"""The hall: a room described in prose, its tables, who is here, the hall chat."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tui.commands import Command
from tui.screens.base import ClubScreen, table_lines
from tui.i18n import money
from tui.verbs import GAME_ONLY, at_a_table  # noqa: F401  (their home was here)
from tui.widgets.cmdline import CommandLine
from tui.widgets.log import EventLog


class HallScreen(ClubScreen):
    """The room you enter first; ``look`` describes it, ``tables`` lists the tables."""

    DEFAULT_CSS = """
    HallScreen #header { height: 1; }
    HallScreen #tables { height: auto; max-height: 12; }
    """

    is_hall = True
    """What a screen above asks to know it returns to the hall (``ReplayScreen.action_back``)."""

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
        app = self.club_app
        if getattr(app, "on_hall", None) is None:  # a session's hall door told it already
            self.tell_motd(app)
        line, app.first_line = getattr(app, "first_line", None), None
        if line:  # a command net's hall door handed to this App (a replay); the door echoed it
            self.run_line(line, echo=False)
            on_hall = getattr(app, "on_hall", None)
            if on_hall is not None and app.screen is self:  # refused (no such record): the door says so
                on_hall()

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
        if app.guest or app.player is None:
            header = self.t("header.guest", name=app.player, online=online)
        else:
            total = app.club.balance(app.player)
            header = self.t("header.hall", name=app.player, money=money(total, app.lang), online=online)
        title = Text(" " + self.t("club.name"), style="bold green")
        pad = max(1, self.size.width - title.cell_len - len(header) - 2)
        self.query_one("#header", Static).update(title + Text(" " * pad + header), layout=False)
        lines = table_lines(app.club, app.lang, app.ascii)
        self.query_one("#tables", Static).update(Text("\n").join(lines), layout=len(lines) != self._table_rows)
        self._table_rows = len(lines)
        for entry in app.club.hall_since(self._seq):
            self._seq = entry.seq
            line = self.hall_event(entry.event)
            if line:
                self.say_line(line)

    def on_resize(self) -> None:
        if self.is_mounted:
            self.refresh_hall()

    def on_club_update(self) -> None:
        self.refresh_hall()

    def describe(self) -> None:
        self.describe_hall()

    def handle_here(self, command: Command) -> bool:
        return self.refuse_game_verbs(command)
