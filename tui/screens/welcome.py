"""First visit: the doorman asks for a name and writes it in the book."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static

from tui.commands import ALIASES
from tui.i18n import LANGS, tr
from tui.limits import NAME_MAX, quote
from tui.social import LINK_LINE_MAX, link_words
from tui.screens.base import ClubScreen, log
from tui.widgets.cmdline import CommandLine
from tui.widgets.log import EventLog

NAME = re.compile(r"^[A-Za-z0-9_\-\u0400-\u04FF]{2,%d}$" % NAME_MAX)
"""2–16 letters (Latin or Cyrillic), digits, ``_`` or ``-``."""


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


class WelcomeScreen(ClubScreen):
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
        (every class of the MRO) unless the default is prevented (issue 13 item 2)."""
        event.stop()
        event.prevent_default()
        name = event.value.strip()
        self.cmdline.value = ""
        if not name:
            return
        word, _, rest = name.partition(" ")
        verb = ALIASES.get(word.lower())
        if verb == "quit":
            self.club_app.exit()
            return
        if verb == "lang" and rest.strip().lower() in LANGS:
            self.club_app.set_lang(rest.strip().lower())
            self.say_line(self.t("welcome.ask"))
            return
        code = link_words(name)
        if code is not None:  # ``key link CODE``: this new key joins an account made with another (issue 20)
            keys = getattr(self.club_app, "keys", None)
            linked = keys.link(code) if keys is not None else "social.key_none"
            if linked.startswith("social."):
                self.error(self.t(linked))
                return
            self.club_app.player = linked
            self.club_app.enter_club()
            return
        if not valid_name(name):
            self.error(self.t("welcome.bad_name", name=quote(name)))
            return
        app = self.club_app
        try:
            error = app.register(name) if app.register is not None else (
                self.t("welcome.taken", name=name) if app.club.is_online(name) else None)
        except Exception:  # the book of names failing must not show a traceback
            log.exception("register %r failed", name)
            error = self.t("cmd.failed")
        if error:
            self.error(error)
            return
        app.player = name
        app.enter_club()
