"""What lies face down on the felt besides the trick: Копилка's laid-out rows and the stock (issue 13 item 6).

Drawn from the view alone (``layouts``: per seat ``places`` and ``taken_by``;
``taking_from``; ``stock_count``), so a spectator sees the same backs a player
does; a giver sees his own cards in his row.  ``tui.widgets.felt`` calls these
two functions and places what they return.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from engine.cards import Card
from tui.i18n import tr
from tui.widgets.cards import backs, card_text


def laid_out(view: dict[str, Any], lang: str, ascii: bool, room: int) -> list[Text]:
    """One line per giver's row: ``gleb: 1▮ 2▮ 3▮`` (a taken place shows ·, the row being taken is marked)."""
    names = view.get("names") or []
    rows = view.get("layouts") or []
    current = view.get("taking_from")
    out: list[Text] = []
    for giver, row in enumerate(rows):
        if not row or giver >= len(names):
            continue
        line = Text(("▶ " if not ascii else "> ") if giver == current else "  ",
                    style="bold yellow" if giver == current else "")
        line.append(tr(lang, "felt.laid_row", name=names[giver]), style="bold" if giver == current else "")
        for place, (card, taker) in enumerate(zip(row.get("places") or [], row.get("taken_by") or [])):
            line.append(f" {place + 1}", style="dim")
            if taker is not None:
                line.append("·", style="dim")
            elif isinstance(card, Card):
                line.append_text(card_text(card, ascii))
            else:
                line.append(backs(1, ascii), style="dim")
        line.truncate(max(1, room), overflow="ellipsis")
        out.append(line)
    return out


def stock_label(view: dict[str, Any], lang: str, ascii: bool) -> Text | None:
    """``stock ▮×12``: the cards left to draw, where a game keeps a drawing stock and shows no trump."""
    count = view.get("stock_count")
    if not isinstance(count, int) or isinstance(count, bool) or "layouts" not in view:
        return None
    return Text(tr(lang, "felt.stock", n=count) + " " + backs(1, ascii) + ("x" if ascii else "×") + str(count),
                style="dim")
