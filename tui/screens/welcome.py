"""First visit: the doorman asks for a name and writes it in the book."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static

from tui.i18n import tr
from tui.screens.base import ClubScreen
from tui.social import LINK_LINE_MAX
from tui.widgets.cmdline import CommandLine
from tui.widgets.log import EventLog
from tui.welcoming import WelcomeVerbs


class WelcomeScreen(ClubScreen, WelcomeVerbs):
    """Asks for a name until ``register`` accepts one, then opens the hall."""

    def compose(self) -> ComposeResult:
        yield Static("", id="header", classes="header")
        yield EventLog()
        yield Static("", id="hint", classes="hint")
        yield CommandLine(id="cmd", max_length=LINK_LINE_MAX)  # a name, ``lang ru``, ``quit`` or ``key link CODE``

    def on_mount(self) -> None:
        super().on_mount()
        self.relang()
        self.say_line(self.t("welcome.title"))
        self.say_line(self.t("welcome.ask"))
        self.say_line(self.t("welcome.link"), style="dim")

    def relang(self) -> None:
        lang = self.club_app.lang
        self.query_one("#header", Static).update(Text(" " + tr(lang, "club.name"), style="bold green"))
        self.cmdline.placeholder = tr(lang, "welcome.placeholder")
        self.hint(tr(lang, "welcome.ask"))

    def complete_line(self, line: str) -> tuple[str, list[str]]:
        return line, []

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The line is a name, never a hall command: Textual would also call ClubScreen's handler
        (every class of the MRO) unless the default is prevented."""
        event.stop()
        event.prevent_default()
        line = event.value
        self.cmdline.value = ""
        self.welcome_line(line)

    def welcome_quit(self) -> None:
        self.club_app.exit()

    def welcome_lang(self, lang: str) -> None:
        self.club_app.set_lang(lang)

    def welcome_keys(self) -> Any:
        return getattr(self.club_app, "keys", None)

    def welcome_linked(self, name: str) -> None:
        self.club_app.player = name
        self.club_app.enter_club()

    def welcome_register(self, name: str) -> Any:
        app = self.club_app
        if app.register is not None:
            return app.register(name)
        return self.t("welcome.taken", name=name) if app.club.is_online(name) else None

    def welcome_named(self, name: str) -> None:
        self.club_app.player = name
        self.club_app.enter_club()
