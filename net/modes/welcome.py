"""A new key's welcome without an App: the doorman asks for a name in a door.

The welcome screen (``tui.screens.welcome.WelcomeScreen``) was an App started
through the server's ``StartQueue`` for every new key, 20-60 ms a step of
the loop.  ``WelcomeDoor`` draws the same screen (the club's name, the
doorman's lines, the hint, a command line of ``LINK_LINE_MAX`` characters with
its dim placeholder) and gives the same answers in the same words: a name
written in the book, ``lang ru``, ``quit``, ``key link CODE``, and every
refusal.  A name chosen, the session goes on to the hall (a hall door, or the
App when a linked account has a seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from net.modes.hallview import HEADER, TITLE, render_row
from net.modes.hall import HallDoor
from tui.social import LINK_LINE_MAX
from tui.welcoming import WelcomeVerbs

if TYPE_CHECKING:
    from net.modes.hallview import HallBoard
    from net.ssh.ports import SessionPort


class WelcomeDoor(HallDoor, WelcomeVerbs):
    """The welcome as a door: his own rows only (no table list, no hall news), until he has a name."""

    def __init__(self, session: SessionPort, board: HallBoard, *, keys: Any = None) -> None:
        super().__init__(session, board, keys=keys)
        self.editor.limit = LINK_LINE_MAX  # a name, ``lang ru``, ``quit`` or ``key link CODE``
        self.placeholder = self.t("welcome.placeholder")
        self._title_key: tuple[str, int] = ("", 0)
        self._title_row = ""

    async def run(self, first: str | None = None) -> tuple[str, Any] | None:
        """Until he has a name (``("hall", None)``) or leaves (None)."""
        try:
            self.say_line(self.t("welcome.title"))
            self.say_line(self.t("welcome.ask"))
            self.say_line(self.t("welcome.link"), style="dim")
            self.hint(self.t("welcome.ask"))
            return await self.open_screen()
        finally:
            for task in list(self._tasks):
                task.cancel()

    def typed(self, line: str) -> None:
        """The line is a name, never a hall command (``tui.welcoming``, as the welcome screen)."""
        self.welcome_line(line)

    def welcome_quit(self) -> None:
        self.finish(None)

    def welcome_lang(self, lang: str) -> None:
        self.relang(lang)

    def welcome_keys(self) -> Any:
        return self.keys

    def welcome_linked(self, name: str) -> None:
        self.finish(("hall", None))  # the key ring gave the session its name

    def welcome_register(self, name: str) -> Any:
        return self.session.register(name)

    def welcome_named(self, name: str) -> None:
        self.finish(("hall", None))

    def relang(self, lang: str) -> None:
        super().relang(lang)
        self.placeholder = self.t("welcome.placeholder")
        self.hint(self.t("welcome.ask"))

    def _complete(self) -> None:
        """Tab completes nothing in the welcome (its screen's ``complete_line``)."""

    def _inbox_news(self) -> None:
        """No inbox before a name."""

    def frame(self) -> list[str]:
        """The club's name, the doorman's log, the hint and the line (the welcome screen's layout)."""
        width, height = self._sized()
        self._tables_now = []
        rows = [self._title(width)]
        room = height - len(rows) - 2
        if room < 0:
            self._region = (0, 0)
            return (rows + [self._hint(width)])[:max(0, height - 1)] + [self._line(width)]
        self._region = (1, 1 + room)
        rows += self._log_rows(width, room)
        rows.append(self._hint(width))
        rows.append(self._line(width))
        return rows

    def _title(self, width: int) -> str:
        title = " " + self.t("club.name")
        if self._title_key != (title, width):
            self._title_key = (title, width)
            self._title_row = render_row(Text(title, style=TITLE), width, HEADER)
        return self._title_row


def wants_welcome(session: SessionPort) -> bool:
    """A new key (no name yet, not a guest) on a server whose hall runs no Apps."""
    return session.name is None and not session.guest and bool(session.server.hall_doors)


__all__ = ["WelcomeDoor", "wants_welcome"]
