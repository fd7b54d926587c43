"""Your hand at the bottom of the felt: boxed cards, numbered, clickable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message

from tui.widgets.rows import Rows

from engine.cards import Card
from tui.widgets.cards import BOX_WIDTH, boxes_row, card_box

STEP = BOX_WIDTH + 1


class Hand(Rows):
    """The viewer's cards; cards not playable now are dimmed, the chosen one is framed.

    Its four rows are drawn again only when they change (``tui.widgets.rows``): a watcher's hand
    (a note alone) never, a player's when his cards or the playable ones change."""

    DEFAULT_CSS = """
    Hand { height: 4; width: 1fr; }
    """

    @dataclass
    class CardChosen(Message):
        """The player clicked card ``index`` (0-based) of his hand."""

        index: int

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.playable: set[Card] = set()
        self.chosen: set[Card] = set()
        self.note = ""
        self.ascii = False

    def show(self, cards: list[Card], playable: set[Card], chosen: set[Card], note: str, ascii: bool) -> None:
        self.cards, self.playable, self.chosen, self.note, self.ascii = list(cards), playable, chosen, note, ascii
        self.show_rows(self._render_hand())

    def _render_hand(self) -> list[Text]:
        if not self.cards:
            return [Text(), Text(" " + self.note, style="italic dim"), Text(), Text()]
        boxes = [
            card_box(c, self.ascii, dim=bool(self.playable) and c not in self.playable, mark=c in self.chosen)
            for c in self.cards
        ]
        rows = boxes_row(boxes)
        numbers = Text("".join(str(i + 1).center(BOX_WIDTH) + " " for i in range(len(self.cards))), style="dim")
        if self.note:
            numbers.append("  " + self.note, style="dim italic")
        for row in rows + [numbers]:
            row.no_wrap = True
            row.overflow = "ellipsis"
        return rows + [numbers]

    def on_click(self, event: events.Click) -> None:
        index = event.x // STEP
        if 0 <= index < len(self.cards) and event.x % STEP < BOX_WIDTH:
            self.post_message(self.CardChosen(index))
