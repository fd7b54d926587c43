"""The felt: seats around the table, the trump, the current trick.

Drawn from a game view alone (the convention every game follows: ``names``,
``hand_counts``, ``status``, ``tricks``, ``trick``, ``trump``…), so every game
gets a felt without code of its own.  The viewer sits at the bottom; the others
follow clockwise: the next seat on the left, the ones across on top, the last
on the right.  A spectator's view has no hand in it, so only backs are drawn.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from rich.text import Text
from textual.widgets import Static

from engine.autoplay import is_bot
from engine.cards import Card, Suit
from tui.i18n import has, money, tr
from tui.widgets.cards import backs, boxes_row, card_box

FELT_ROWS = 10


def seat_label(view: dict[str, Any], seat: int, me: int | None, lang: str, ascii: bool) -> Text:
    """``▶ Boris ▮▮▮ knocked · 1 trick · dealer``."""
    names = view.get("names", [])
    name = names[seat] if seat < len(names) and names[seat] else tr(lang, "table.empty_seat")
    to_act = seat in view.get("to_act", [])
    text = Text("▶ " if to_act and not ascii else ("> " if to_act else ""), style="bold yellow")
    text.append(tr(lang, "table.you") if seat == me else name, style="bold" if to_act else "")
    counts = view.get("hand_counts") or []
    if seat != me and seat < len(counts) and counts[seat]:
        text.append(" " + backs(min(counts[seat], 12), ascii), style="dim")
    words: list[str] = []
    if seat == view.get("dealer") and (view.get("deal_no") or view.get("in_deal")):
        words.append(tr(lang, "table.dealer"))
    status = (view.get("status") or [])
    if seat < len(status) and status[seat]:
        words.extend(status_words(str(status[seat]), lang))
    tricks = view.get("tricks") or []
    if seat < len(tricks) and tricks[seat] and not any(ch.isdigit() for ch in " ".join(words)):
        words.append(tr(lang, "table.tricks", n=tricks[seat]))
    if names and seat < len(names) and names[seat] in view.get("ready", []):
        words.append(tr(lang, "status.ready_deal"))
    if names and seat < len(names) and names[seat] in view.get("away", []):
        words.append(tr(lang, "status.away"))
    if names and seat < len(names) and names[seat] in view.get("bots", []) and not is_bot(names[seat]):
        words.append(tr(lang, "status.bot_plays"))  # a stand-in for an away player
    if words:
        text.append(" · " + " · ".join(words), style="italic")
    return text


_COUNTED = (
    (re.compile(r"^(\d+) tricks?$"), "table.tricks", False),
    (re.compile(r"^bought (\d+)$"), "status.bought", False),
    (re.compile(r"^asks (\d+)$"), "status.asks", True),
    (re.compile(r"^bid (\d+)$"), "status.bid", True),
)


def status_words(raw: str, lang: str) -> list[str]:
    """A game's status (``to reveal, holder``, ``2 tricks``, ``bid 30``) in the player's language."""
    out = []
    for word in raw.split(", "):
        key = f"status.{word}"
        if has(lang, key):
            out.append(tr(lang, key))
            continue
        for pattern, key, is_money in _COUNTED:
            match = pattern.match(word)
            if match:
                n = int(match.group(1))
                out.append(tr(lang, key, n=n, money=money(n, lang)) if is_money else tr(lang, key, n=n))
                break
        else:
            out.append(word)
    return out


def _line(width: int, parts: Sequence[tuple[int, Text]]) -> Text:
    """A line of ``width`` cells with texts placed at columns (later parts win)."""
    line = Text(" " * width)
    out = Text()
    cursor = 0
    for col, part in sorted(parts, key=lambda p: p[0]):
        col = max(col, cursor)
        if col >= width:
            break
        part = part.copy()
        part.truncate(width - col)
        out.append(" " * (col - cursor))
        out.append_text(part)
        cursor = col + part.cell_len
    out.append(" " * max(0, width - cursor))
    return out if out.cell_len else line


def _centre(width: int, text: Text) -> int:
    return max(0, (width - text.cell_len) // 2)


def arrange(n: int, me: int | None) -> tuple[int, list[int], int | None, int | None]:
    """Where the seats go: (bottom, top seats, left, right)."""
    bottom = me if me is not None else 0
    others = [(bottom + i) % n for i in range(1, n)]
    if len(others) <= 1:
        return bottom, others, None, None
    return bottom, others[1:-1], others[0], others[-1]


def render_felt(view: dict[str, Any], me: int | None, lang: str, ascii: bool, width: int) -> Text:
    """The whole felt as ``FELT_ROWS`` lines of text."""
    width = max(width, 20)
    names = view.get("names", [])
    n = len(names)
    rows: list[Text] = [Text(" " * width) for _ in range(FELT_ROWS)]
    if not n:
        return Text("\n").join(rows)
    bottom, top, left, right = arrange(n, me)
    if top:
        slot = width // len(top)
        parts = []
        for i, seat in enumerate(top):
            label = seat_label(view, seat, me, lang, ascii)
            label.truncate(slot - 1)
            parts.append((i * slot + max(0, (slot - label.cell_len) // 2), label))
        rows[0] = _line(width, parts)
    half = width // 2 - 1
    side: list[tuple[int, Text]] = []
    if left is not None:
        label = seat_label(view, left, me, lang, ascii)
        label.truncate(half)
        side.append((1, label))
    if right is not None:
        label = seat_label(view, right, me, lang, ascii)
        label.truncate(half)
        side.append((max(half + 1, width - 1 - label.cell_len), label))
    rows[2] = _line(width, side)
    trick = (view.get("trick") or [])[-max(1, (width - 16) // 6):]  # the newest that fit
    best = winning_card(view)
    boxes = [card_box(c if isinstance(c, Card) else None, ascii, mark=c == best) for _, c in trick]
    trick_rows = boxes_row(boxes) if boxes else [Text(), Text(), Text()]
    col = _centre(width, trick_rows[0]) if boxes else width // 2
    trump_parts = _trump(view, lang, ascii)
    for r in range(3):
        parts = [(col, trick_rows[r])]
        if trump_parts:
            parts.append((width - 12, trump_parts[r]))
        rows[3 + r] = _line(width, parts)
    under = Text()
    for i, (seat, _c) in enumerate(trick):
        who = names[seat] if 0 <= seat < n else "?"
        under.append((" " if i else "") + who[:5].center(5), style="dim")
    rows[6] = _line(width, [(col, under)])
    score = score_text(view, lang)
    if score.plain:
        rows[7] = _line(width, [(_centre(width, score), score)])
    mine = seat_label(view, bottom, me, lang, ascii)
    rows[8] = _line(width, [(_centre(width, mine), mine)])
    rows[9] = _line(width, [(1, _balances(view, lang))])
    return Text("\n").join(rows)


def _trump(view: dict[str, Any], lang: str, ascii: bool) -> list[Text] | None:
    card = view.get("trump_card")
    suit = view.get("trump")
    if isinstance(card, Card):
        box = card_box(card, ascii)
    elif isinstance(suit, Suit):
        box = [Text(), Text(suit.text(ascii), style="red bold" if suit.is_red else "bold"), Text()]
    else:
        return None
    label = Text(tr(lang, "felt.trump") + " ", style="dim")
    return [Text(" " * label.cell_len) + box[0], label + box[1], Text(" " * label.cell_len) + box[2]]


def winning_card(view: dict[str, Any]) -> Card | None:
    """The card now winning the trick: the game's own ``best`` if it says, else trump, else the led suit.

    Games with a ranking of their own (``trump_order``) are not guessed at.
    """
    best = view.get("best")
    if isinstance(best, Card) or "trump_order" in view:
        return best if isinstance(best, Card) else None
    cards = [c for _, c in view.get("trick") or [] if isinstance(c, Card)]
    if not cards:
        return None
    trump = view.get("trump")
    pool = [c for c in cards if c.suit == trump] or [c for c in cards if c.suit == cards[0].suit]
    return max(pool, key=lambda c: c.rank)


def score_text(view: dict[str, Any], lang: str) -> Text:
    """The score sheet of points games: above/below the line, or the teams' records."""
    names = view.get("names", [])
    sheet = view.get("sheet")
    parts: list[str] = []
    if isinstance(sheet, dict) and isinstance(sheet.get("above"), list):
        below = sheet.get("below") or []
        parts = [f"{n} {a}/{below[i] if i < len(below) else 0}" for i, (n, a) in enumerate(zip(names, sheet["above"]))]
    records = view.get("records")
    if isinstance(records, dict):
        parts = [f"{team} {value}" for team, value in records.items()]
    if not parts:
        return Text()
    return Text(tr(lang, "felt.score") + ": " + " · ".join(parts), style="dim")


def _balances(view: dict[str, Any], lang: str) -> Text:
    names = view.get("names", [])
    balances = view.get("balances", [])
    text = Text(style="dim")
    for i, name in enumerate(names):
        if name and i < len(balances):
            text.append(("  " if text.plain else "") + f"{name} {money(balances[i], lang)}")
    return text


class Felt(Static):
    """The table's felt; re-rendered from a view without a layout pass."""

    DEFAULT_CSS = """
    Felt { height: 10; width: 1fr; }
    """

    def __init__(self, **kwargs: Any):
        super().__init__("", **kwargs)
        self._args: tuple | None = None

    def show(self, view: dict[str, Any], me: int | None, lang: str, ascii: bool) -> None:
        self._args = (view, me, lang, ascii)
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if self._args is None:
            return
        view, me, lang, ascii = self._args
        self.update(render_felt(view, me, lang, ascii, self.size.width or 80), layout=False)
