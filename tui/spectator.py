"""``SpectatorApp``: the shared, input-free view of one table for all its spectators.

Interface used by ``net/modes/spectate.py``::

    SpectatorApp(club, table_id, *, lang="en", ascii=False)

It draws the public (SPECTATOR) view with the same widgets as the players'
screens and leaves the bottom two rows of the screen empty: the server draws each
spectator's own note and command line there.  It redraws only on the table's events
(posted as a coalescing message, once the players' own Apps have drawn them:
``tui.framegate``) and the timer bar's clock; nothing else ticks.  The viewer
name is None, so its snapshots (``Table.pull``) hold the public view and no
hand is ever in it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Callable

from textual.app import App, ComposeResult
from textual.widgets import Static

from engine.table.club import Club
from tui.app import TableChanged
from tui.framegate import gate
from tui.pull import puller
from tui.ratings import label_in
from tui.sharedcss import share_stylesheet
from tui.widgets.tableview import TableView

WATCH_STEP = 5.0
"""The watchers' clock says ``<45 s`` and is drawn again every 5 s (and with every change, and each of
the last 10 s): one tick a second was a frame a second to every watcher (tui.widgets.timer)."""


class SpectatorApp(App):
    """One table's public view; no input of its own."""

    CSS_PATH = str(Path(__file__).with_name("sukno.tcss"))
    ENABLE_COMMAND_PALETTE = False
    DEFAULT_CSS = """
    SpectatorApp #inputrow { height: 2; }
    """

    def __init__(self, club: Club, table_id: int, *, lang: str = "en", ascii: bool = False,
                 hide: frozenset[str] = frozenset()):
        super().__init__()
        share_stylesheet(self)  # the CSS parsed once for every App (tui.sharedcss)
        self.hide = hide  # the names these watchers ignore (one hub per ignore list: ``net.modes.spectate.HubKey``)
        self.club = club
        self.table = club.table(table_id)
        self.lang = lang
        self.ascii = ascii
        self._unsubscribe: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        from engine.table.social import name_key

        hide = self.hide
        yield TableView(puller(self.table, None, self.club.is_online, self.club.is_away, partial(label_in, self.club)), None,
                        hides=(lambda speaker: name_key(speaker) in hide) if hide else None,
                        timer_step=WATCH_STEP)
        yield Static("", id="inputrow")

    def on_mount(self) -> None:
        self._unsubscribe = self.table.subscribe(self._told)
        self.query_one(TableView).set_lang(self.lang, self.ascii)

    def _told(self, events: list) -> None:
        """The table changed: drawn once the seated players' own Apps have drawn it (tui.framegate)."""
        gate().after(self.table.id, self._redraw)

    def _redraw(self) -> None:
        self.post_message(TableChanged(self.table.id))

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_table_changed(self, message: TableChanged) -> None:
        self.query_one(TableView).sync()
