"""What lies face down on the felt besides the trick: Копилка's laid-out rows and the stock.

Drawn from the typed view alone (Копилка's ``engine.view.PartiyaSheet``: its
``laid`` rows with ``places`` and ``taken_by``, ``taking_from``, ``stock_count``),
so a spectator sees the same backs a player does; a giver sees his own cards in
his row.  ``tui.widgets.felt`` calls these
two functions and places what they return.
"""

from __future__ import annotations

from rich.text import Text

from engine.view import PartiyaSheet, View
from tui.i18n import tr
from tui.widgets.cards import backs, card_text


def laid_out(view: View, lang: str, ascii: bool, room: int) -> list[Text]:
    """One line per giver's row: ``gleb: 1▮ 2▮ 3▮`` (a taken place shows ·, the row being taken is marked; the
    giver sees his own cards, ``1:9♠ 2:10♠``)."""
    sheet = view.sheet
    if not isinstance(sheet, PartiyaSheet):
        return []
    names = view.names
    current = sheet.taking_from
    out: list[Text] = []
    for row in sheet.laid:
        giver = row.giver
        if giver >= len(names):
            continue
        line = Text(("▶ " if not ascii else "> ") if giver == current else "  ",
                    style="bold yellow" if giver == current else "")
        line.append(tr(lang, "felt.laid_row", name=names[giver]), style="bold" if giver == current else "")
        for place, (card, taker) in enumerate(zip(row.places, row.taken_by)):
            line.append(f" {place + 1}", style="dim")
            if taker is not None:
                line.append("·", style="dim")
            elif card is not None:  # the giver's own card: "1:9♠", never "19♠" (place 1, or a nineteen?)
                line.append(":", style="dim")
                line.append_text(card_text(card, ascii))
            else:
                line.append(backs(1, ascii), style="dim")
        line.truncate(max(1, room), overflow="ellipsis")
        out.append(line)
    return out


def stock_label(view: View, lang: str, ascii: bool) -> Text | None:
    """``stock ▮×12``: the cards left to draw, where a game keeps a drawing stock and shows no trump."""
    sheet = view.sheet
    count = sheet.stock_count if isinstance(sheet, PartiyaSheet) else None
    if count is None:
        return None
    return Text(tr(lang, "felt.stock", n=count) + " " + backs(1, ascii) + ("x" if ascii else "×") + str(count),
                style="dim")
