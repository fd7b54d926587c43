"""What the hall and a table have in common on the screen: the command line, the log, the club's verbs.

A screen owns a ``CommandLine`` and an ``EventLog``.  A typed line is parsed by
``tui.commands``; the screen first offers it to ``handle_here`` (verbs that
mean something only where it stands), then to the club verbs, which live in
``tui.verbs.HallVerbs`` (the text mode and the hall door use the same class).
Every refusal is one line in the log saying why, and changes nothing.
"""

from __future__ import annotations

import logging

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static

from tui import commands
from tui.host import ScreenHost
from tui.titles import game_title, stakes
from tui.verbs import HallVerbs, table_lines, who_line
from tui.widgets.cmdline import CommandLine
from tui.widgets.log import EventLog
from tui.widgets.quiet import show_text


log = logging.getLogger("sukno.tui")


class ClubScreen(HallVerbs, Screen):
    """Base of the hall and table screens: the club's verbs (``HallVerbs``) on a screen."""

    BINDINGS = [Binding("f1", "help", show=False),
                Binding("pageup", "log_page(1)", show=False),  # the log's scrollback: nothing said is lost
                Binding("pagedown", "log_page(-1)", show=False)]

    @property
    def club_app(self) -> ScreenHost:
        return self.app  # type: ignore[return-value]  # Textual types it as any App; only ClubApp shows these

    # -- the line -------------------------------------------------------------------

    @property
    def cmdline(self) -> CommandLine:
        return self.query_one(CommandLine)

    @property
    def log_view(self) -> EventLog:
        return self.query_one(EventLog)

    def on_mount(self) -> None:
        self.cmdline.completer = self.complete_line
        self.cmdline.focus()
        self.log_view.back_note = lambda rows: self.t("log.back", rows=rows)

    def action_log_page(self, pages: int) -> None:
        self.log_view.page(pages)

    def action_help(self) -> None:
        self.run_line("help")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value
        self.cmdline.value = ""
        self.cmdline.remember(line.strip())
        if line.strip():
            self.run_line(line)

    def on_command_line_completed(self, message: CommandLine.Completed) -> None:
        self.hint(self.t("cmd.complete", options="  ".join(message.options[:12])))

    def on_command_line_too_long(self, message: CommandLine.TooLong) -> None:
        self.error(self.t("cmd.too_long", limit=message.limit))

    def run_line(self, line: str, echo: bool = True) -> None:
        said = getattr(self.club_app, "said", None)
        if said is not None:
            said.clear()  # what this line's answer says, for net's hall door if it hands him back
        super().run_line(line, echo)

    def echo(self, line: str) -> None:
        self._show(Text("> " + line, style="dim"))

    def say_line(self, text: str | Text, style: str = "") -> None:
        self._show(text if isinstance(text, Text) else Text(text, style=style))

    def _show(self, line: Text) -> None:
        self.log_view.add(line)
        said = getattr(self.club_app, "said", None)
        if said is not None:
            said.append(line)

    def hint(self, text: str) -> None:
        for widget in self.query("#hint").results(Static):
            show_text(widget, Text(text, style="dim"))

    def relang(self) -> None:
        """Redraw every text after ``lang``."""

    def complete_line(self, line: str) -> tuple[str, list[str]]:
        app = self.club_app
        return commands.complete(
            line, lang=app.lang, ascii=app.ascii, legal=self.legal(), tables=list(app.club.tables),
            games=[t.game_name for t in app.club.tables.values()], game_verbs=self.game_verbs(),
        )


__all__ = ["ClubScreen", "game_title", "log", "stakes", "table_lines", "who_line"]
