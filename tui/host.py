"""What the one dispatcher of typed lines needs of the mode that runs it.

``tui.verbs.HallVerbs`` (with ``tui.social`` and ``tui.pending``) understands every club verb once; the
player's App, the hall door, the text mode and a watcher's row each run it.  ``Host`` is what it asks of
that mode: who the person is, the club, his settings, where a store job runs, and where his wishes go
(a table, the hall, another table's watchers, another language, the end).  ``Lines`` is where its answers
go: the mode's own lines, in his language.  Each mode implements both for real; nothing copies a shape.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from rich.text import Text

    from engine.game import Action, IllegalAction
    from engine.table.club import Club
    from engine.table.face import TableLike


class Host(Protocol):
    """The person a mode serves, his club, and where his wishes go."""

    @property
    def club(self) -> Club: ...

    @property
    def player(self) -> str | None: ...

    @property
    def lang(self) -> str: ...

    @property
    def ascii(self) -> bool: ...

    @property
    def guest(self) -> bool: ...

    @property
    def prefs(self) -> Any:
        """His settings (``tui.text.prefs.Prefs``), or None where none are kept."""
        ...

    @property
    def admin(self) -> Any:
        """The house's runner for ``admin …`` (``net.house.admin``), or None: not the house."""
        ...

    @property
    def keys(self) -> Any:
        """His keys (``net.ssh.keyring``), or None where a key cannot be added."""
        ...

    @property
    def store_read(self) -> Callable[[Callable[[Any], Any], str], Any] | None:
        """``(work, op)``: ``work(store)`` off the loop, as a ``Pending``; None: read here."""
        ...

    @property
    def on_mode(self) -> Callable[[str], bool] | None:
        """``mode text`` / ``mode screen``: the session changes mode (None: it cannot)."""
        ...

    def clock(self) -> float: ...

    def set_lang(self, lang: str) -> None: ...

    def show_table(self, table_id: int) -> None:
        """He sits (or sat) at ``table_id``: his table."""
        ...

    def show_hall(self) -> None: ...

    def watch_table(self, table_id: int) -> None:
        """Among ``table_id``'s watchers (the table's refusal raised as any refusal)."""
        ...

    def push_screen(self, screen: Any) -> Any:
        """A screen of its own (a replay): shown, or said why not."""
        ...

    def exit(self) -> None: ...


class ScreenHost(Host, Protocol):
    """The App as its screens see it: the ``Host`` and what only a screen asks of the App (the screens
    name this, never the App, which imports them)."""

    player: str | None
    said: deque[Text]
    """The lines said since the last typed line, for net's hall door."""
    first_line: str | None
    register: Callable[[str], Any] | None

    @property
    def screen(self) -> Any: ...

    def enter_club(self) -> None: ...

    def table_callback(self, table_id: int) -> Callable[[list[Any]], None]: ...

    def ring_bell(self) -> None: ...


class Lines(Protocol):
    """Where the dispatcher's answers go, and the mode's ``Host``."""

    @property
    def club_app(self) -> Host: ...

    def t(self, key: str, **params: Any) -> str: ...

    def say_line(self, text: str | Text, style: str = "") -> None: ...

    def error(self, text: str) -> None: ...

    def explain(self, err: IllegalAction) -> str: ...

    def table_here(self) -> TableLike | None: ...


class TableLines(Lines, Protocol):
    """A mode at a table (the table screen, the text mode): its ``Lines`` and what the table's verbs
    (``tui.screens.table.TableVerbs``) read of it."""

    by_ear: bool

    @property
    def table(self) -> TableLike | None: ...

    def legal(self) -> list[Action]: ...

    def forget_chosen(self) -> None: ...

    def action_sheet(self) -> bool: ...
