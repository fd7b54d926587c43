"""A tiny stand-in App with the shape of ``tui.app.ClubApp``.

It lets the server's own behaviour (driver, identity, input, cleanup) be
tested without depending on the real screens' wording.
"""

from __future__ import annotations

from typing import Any, Callable

from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from engine.table.pending import Pending


class StandInClubApp(App[None]):
    """Shows who you are and a command line: ``name X`` registers, ``watch N``, ``quit``."""

    CSS = "Input { dock: bottom; }"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, club: Any, name: str | None, *, lang: str = "en", ascii: bool = False,
                 guest: bool = False, register: Callable[[str], str | None] | None = None,
                 on_watch: Callable[[int], None] | None = None) -> None:
        super().__init__()
        self.club, self.who, self.lang, self.ascii, self.guest = club, name, lang, ascii, guest
        self.register, self.on_watch = register, on_watch

    def compose(self) -> ComposeResult:
        yield Static(self._status(), id="status")
        yield Static("", id="answer")
        yield Input(id="cmd")

    def _status(self) -> str:
        who = self.who or "newcomer: type your name"
        return f"HALL {who} lang={self.lang} ascii={self.ascii} guest={self.guest}"

    def on_mount(self) -> None:
        if self.who:
            self.club.enter(self.who, guest=self.guest)

    def on_unmount(self) -> None:
        if self.who:
            self.club.leave(self.who)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        answer = self.query_one("#answer", Static)
        if self.who is None:
            problem = self.register(line) if self.register else "no register"

            def named(problem: str | None) -> None:
                if problem:
                    answer.update(f"ERR {problem}")
                else:
                    self.who = line
                    self.club.enter(line)
                    self.query_one("#status", Static).update(self._status())

            if isinstance(problem, Pending):  # written by the store's thread (issue 15): answered later
                problem.then(lambda got: self.call_later(named, got))
            else:
                named(problem)
            return
        if line.startswith("watch ") and self.on_watch:
            self.on_watch(int(line.split()[1]))
        elif line.startswith("sit"):
            try:
                self.club.tables[1].sit(self.who)
                answer.update("SAT")
            except Exception as err:
                answer.update(f"ERR {err}")
        elif line == "quit":
            self.exit()
        else:
            answer.update(f"ECHO {line}")
