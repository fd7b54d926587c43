"""Cards drawn as text: colours (red suits red), boxes, backs; Unicode or ASCII."""

from __future__ import annotations

from rich.text import Text

from engine.cards import Card

BOX_WIDTH = 5
BACK = "▮"
BACK_ASCII = "#"


def card_text(card: Card, ascii: bool = False, *, dim: bool = False, bold: bool = False) -> Text:
    """A card's name, red for ♦ ♥, in the text colour for ♠ ♣."""
    style = "red" if card.suit.is_red else ""
    if dim:
        style += " dim"
    if bold:
        style += " bold reverse"
    return Text(card.text(ascii), style=style.strip())


def backs(count: int, ascii: bool = False) -> str:
    """Hidden cards as backs: ``▮▮▮``."""
    return (BACK_ASCII if ascii else BACK) * count


def card_box(card: Card | None, ascii: bool = False, *, dim: bool = False, mark: bool = False) -> list[Text]:
    """Three rows of one boxed card (a back when ``card`` is None)."""
    top, side, bottom = ("+---+", "|", "+---+") if ascii else ("┌───┐", "│", "└───┘")
    if mark:
        top, bottom = ("+===+", "+===+") if ascii else ("╔═══╗", "╚═══╝")
        side = "|" if ascii else "║"
    frame = "dim" if dim else ("bold" if mark else "")
    middle = Text(side, style=frame)
    if card is None:
        middle.append(backs(3, ascii), style="dim")
    else:
        middle.append_text(card_text(card, ascii, dim=dim))
        middle.append(" " * (3 - len(card.text(ascii))))
    middle.append(side, style=frame)
    return [Text(top, style=frame), middle, Text(bottom, style=frame)]


def boxes_row(boxes: list[list[Text]], gap: int = 1) -> list[Text]:
    """Put boxed cards side by side: three lines."""
    rows = [Text(), Text(), Text()]
    for i, box in enumerate(boxes):
        for r in range(3):
            if i:
                rows[r].append(" " * gap)
            rows[r].append_text(box[r])
    return rows
