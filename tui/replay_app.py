"""``sukno replay FILE --screen``: the replay screen alone in this terminal, from a record file.

No club, no store, no SSH: the record is loaded and checked by ``engine.record``,
played through the rules by ``tui.replay`` and drawn by the club's own
``ReplayScreen``; q or Esc ends the program.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from engine.record import Record
from tui.screens.replay import ReplayScreen


class ReplayApp(App):
    """A one-screen app around ``ReplayScreen``."""

    CSS_PATH = str(Path(__file__).with_name("sukno.tcss"))
    replay_only = True  # leaving the replay leaves the program (ReplayScreen.action_back)

    def __init__(self, record: Record, label: str, lang: str = "en", ascii: bool = False,
                 analysis: dict | None = None) -> None:
        super().__init__()
        self.record, self.label, self.lang, self.ascii = record, label, lang, ascii
        self.analysis = analysis

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.label, self.record, None, self.lang, self.ascii, self.analysis))
