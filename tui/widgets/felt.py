"""The felt: seats around the table, the trump, the current trick.

Drawn from a typed view alone (``engine.view.View``: its seats with their
counts, states and tricks, the trick with its ``best``, the trump…), so every
game gets a felt without code of its own.  Up to five seats the viewer sits at the
bottom and the others follow clockwise: the next seat on the left, the ones
across on top, the last on the right, each in two lines (name, hidden cards and
balance over its state).  From six seats on they are a roster in seat order, one
line each with its cards of the trick, so that every name, state and balance is
whole at 80 columns.  A spectator's view has no hand in it, so only backs are drawn.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from rich.text import Text
from tui.widgets.rows import Rows

from engine.cards import Card
from engine.games import view_of
from engine.view import LineSheet, RecordSheet, View
from tui.i18n import has, money, tr
from tui.widgets.cards import BOX_WIDTH, backs, boxes_row, card_box, card_text

FELT_ROWS = 10


ROSTER_FROM = 6  # from this many seats the felt lists them in a column instead of round the table
MANY_BACKS = 6  # more hidden cards than this are written as a count: ``▮×12``


def seat_name(view: View, seat: int, me: int | None, lang: str, ascii: bool) -> Text:
    """``▶ Boris ▮▮▮``: whose turn it is, the name, the hidden cards."""
    place = view.seats[seat] if 0 <= seat < len(view.seats) else None
    name = place.name if place is not None and place.name else tr(lang, "table.empty_seat")
    to_act = seat in view.to_act
    text = Text("▶ " if to_act and not ascii else ("> " if to_act else ""), style="bold yellow")
    text.append(tr(lang, "table.you") if seat == me else name, style="bold" if to_act else "")
    rating = view.rating_of(place.name) if place is not None and place.name else ""
    if rating:
        text.append(" " + rating, style="dim")
    if seat != me and place is not None and place.count:
        count = place.count
        shown = backs(count, ascii) if count <= MANY_BACKS else backs(1, ascii) + ("x" if ascii else "×") + str(count)
        text.append(" " + shown, style="dim")
    return text


def seat_words(view: View | Mapping[str, Any], seat: int, lang: str) -> list[str]:
    """``dealer · knocked · 1 trick``: the seat's state in the player's language."""
    view = view_of(view)
    if not 0 <= seat < len(view.seats):
        return []
    place = view.seats[seat]
    words: list[str] = []
    if seat == view.dealer and (view.deal_no or view.in_deal):
        words.append(tr(lang, "table.dealer"))
    raw = place.status
    if raw:
        said = status_words(raw, lang)
        if seat in view.to_act:  # the ▶ says it already
            said = [w for w in said if w != tr(lang, "status.to play")]
        words.extend(said)
    if place.tricks and not any(ch.isdigit() for ch in raw) and "won" not in raw:
        words.append(tr(lang, "table.tricks", n=place.tricks))
    name = place.name
    if name and name in view.ready:
        words.append(tr(lang, "status.ready_deal"))
    if name and name in view.away:
        words.append(tr(lang, "status.away"))
    if name and name in view.stand_ins:
        words.append(tr(lang, "status.bot_plays"))  # a stand-in for an away player
    if name and name in view.robots:
        words.append(tr(lang, "status.robot"))  # a program plays this account (sukno-bot/1)
    return words


def seat_money(view: View, seat: int, lang: str) -> str:
    place = view.seats[seat] if 0 <= seat < len(view.seats) else None
    return money(place.balance, lang) if place is not None and place.name else ""


def seat_block(view: View | Mapping[str, Any], seat: int, me: int | None, lang: str, ascii: bool) -> list[Text]:
    """A seat in two lines: ``▶ Boris ▮▮▮  30 k.`` over ``knocked · 1 trick``."""
    view = view_of(view)
    first = seat_name(view, seat, me, lang, ascii)
    cash = seat_money(view, seat, lang)
    if cash:
        first.append("  " + cash, style="dim")
    return [first, Text(" · ".join(seat_words(view, seat, lang)), style="italic")]


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
    """A line of ``width`` cells with texts placed at columns (a later part starts after an earlier one)."""
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
    return out


def _centre(width: int, text: Text) -> int:
    return max(0, (width - text.cell_len) // 2)


def arrange(n: int, me: int | None) -> tuple[int, list[int], int | None, int | None]:
    """Where the seats go: (bottom, top seats, left, right)."""
    bottom = me if me is not None else 0
    others = [(bottom + i) % n for i in range(1, n)]
    if len(others) <= 1:
        return bottom, others, None, None
    return bottom, others[1:-1], others[0], others[-1]


def _put(rows: list[list[tuple[int, Text]]], row: int, col: int, block: list[Text]) -> None:
    for i, line in enumerate(block):
        if 0 <= row + i < len(rows):
            rows[row + i].append((col, line))


def _width(block: list[Text]) -> int:
    return max((line.cell_len for line in block), default=0)


def _fit(block: list[Text], width: int) -> list[Text]:
    out = []
    for line in block:
        line = line.copy()
        line.truncate(max(1, width), overflow="ellipsis")
        out.append(line)
    return out


def render_felt(view: View | Mapping[str, Any], me: int | None, lang: str, ascii: bool, width: int) -> Text:
    """The whole felt as ``FELT_ROWS`` lines of text (``felt_rows`` joined)."""
    return Text("\n").join(felt_rows(view, me, lang, ascii, width))


def felt_rows(view: View | Mapping[str, Any], me: int | None, lang: str, ascii: bool, width: int) -> list[Text]:
    """The felt's ``FELT_ROWS`` rows, each ``width`` cells.

    Up to five seats sit round the table, each in two lines (name and hidden cards over its state
    and balance); from six on they are listed in a column with the trick beside it, so that at 80
    columns every name, state and balance is whole even at Спекулянт's ten.
    """
    view = view_of(view)
    width = max(width, 20)
    n = len(view.seats)
    parts: list[list[tuple[int, Text]]] = [[] for _ in range(FELT_ROWS)]
    if n >= ROSTER_FROM:
        _roster(view, me, lang, ascii, width, parts)
    elif n:
        _round(view, me, lang, ascii, width, parts)
    return [_line(width, row) for row in parts]


def _round(view: View, me: int | None, lang: str, ascii: bool, width: int,
           parts: list[list[tuple[int, Text]]]) -> None:
    bottom, top, left, right = arrange(len(view.seats), me)
    score = score_text(view, lang)
    if top:
        slot = width // len(top)
        for i, seat in enumerate(top):
            block = _fit(seat_block(view, seat, me, lang, ascii), slot - 1)
            _put(parts, 0, i * slot + max(0, (slot - _width(block)) // 2), block)
        if score.plain and len(top) == 1:
            parts[0].append((max(0, width - score.cell_len - 1), score))
    elif score.plain:
        parts[0].append((_centre(width, score), score))
    half = width // 2 - 1
    if left is not None:
        _put(parts, 2, 1, _fit(seat_block(view, left, me, lang, ascii), half))
    if right is not None:
        block = _fit(seat_block(view, right, me, lang, ascii), half)
        _put(parts, 2, max(half + 1, width - 1 - _width(block)), block)
    trump = _trump(view, lang, ascii)
    room = width - (TRUMP_COLUMNS + 1 if trump else 2)
    _trick(view, names=view.names, ascii=ascii, row=4, left=1, room=room, parts=parts)
    if trump:
        _put(parts, 4, width - TRUMP_COLUMNS, trump)
    _face_down(view, lang, ascii, width, room, parts, trump is None)
    if score.plain and len(top) > 1:
        parts[7].append((max(0, width - score.cell_len - 1), score))
    for i, line in enumerate(_fit(seat_block(view, bottom, me, lang, ascii), width - 2)):
        parts[8 + i].append((_centre(width, line), line))


def _face_down(view: View, lang: str, ascii: bool, width: int, room: int,
               parts: list[list[tuple[int, Text]]], no_trump: bool) -> None:
    """Hook for ``tui.widgets.laid``: Копилка's laid-out rows where the trick would lie, the stock at the right
    (Копилка's typed ``PartiyaSheet``)."""
    from tui.widgets.laid import laid_out, stock_label

    if not view.trick:
        rows = laid_out(view, lang, ascii, room - 2)
        if rows:
            _put(parts, 4, 1 + max(0, (room - _width(rows)) // 2), rows)
    stock = stock_label(view, lang, ascii) if no_trump else None
    if stock is not None:
        _put(parts, 6, max(0, width - stock.cell_len - 1), [stock])


def _roster(view: View, me: int | None, lang: str, ascii: bool, width: int,
            parts: list[list[tuple[int, Text]]]) -> None:
    """One line a seat, in seat order, aligned in columns: name, hidden cards, balance, state."""
    seats = list(range(len(view.seats)))[:FELT_ROWS]
    names = [seat_name(view, s, me, lang, ascii) for s in seats]
    marked = any(s in view.to_act for s in seats)
    names = [t if not marked or s in view.to_act else Text("  ") + t for s, t in zip(seats, names)]
    cash = [seat_money(view, s, lang) for s in seats]
    words = [" · ".join(seat_words(view, s, lang)) for s in seats]
    name_w = max(t.cell_len for t in names)
    cash_w = max((len(c) for c in cash), default=0)
    best = view.trick.best
    played: dict[int, Text] = {}
    for seat, card in view.trick.cards:
        shown = played.setdefault(seat, Text())
        if shown.plain:
            shown.append(" ")
        if isinstance(card, Card):
            shown.append_text(card_text(card, ascii, bold=card == best))
        else:
            shown.append(backs(1, ascii), style="dim")
    cards_w = max((t.cell_len for t in played.values()), default=0)
    lines = []
    limits = _roster_limits(view, width)
    for s, name, c, w, limit in zip(seats, names, cash, words, limits):
        line = Text(" ")
        line.append_text(name)
        line.append(" " * (name_w - name.cell_len + 2))
        line.append(c.rjust(cash_w), style="dim")
        if cards_w:
            mine = played.get(s, Text())
            line.append("  ")
            line.append_text(mine)
            line.append(" " * (cards_w - mine.cell_len))
        if w:
            said = Text("  " + w, style="italic")
            said.truncate(max(0, limit - line.cell_len), overflow="ellipsis")
            line.append_text(said)
        lines.append(line)
    roster_w = max(line.cell_len for line in lines)
    for i, line in enumerate(lines):
        parts[i].append((0, line))
    if roster_w > limits[0]:  # a long line below the trick: the trick keeps its place beside the rows it is on
        roster_w = max(line.cell_len for line in lines[:TRICK_ROWS])
    left = roster_w + 3
    trump = _trump(view, lang, ascii)
    room = width - left - 1
    _trick(view, names=view.names, ascii=ascii, row=0, left=left, room=room, parts=parts)
    if trump:
        _put(parts, 5, width - TRUMP_COLUMNS, trump)  # its rows' words stop short of it (_roster_limits)
    score = score_text(view, lang)
    if score.plain:
        parts[9].append((max(left, width - score.cell_len - 1), score))


TRUMP_COLUMNS = 13
"""The trump's place at the felt's right edge: its label (``козырь``, the longest) and a card box."""


TRICK_ROWS = 4
"""The roster's rows the trick is drawn beside (its boxes and the names under them); the trump is on the
three after the next."""


def _roster_limits(view: View, width: int) -> list[int]:
    """How far each roster line may reach: long state words (``держит старшую · просит 10 р. 50 к. · …``)
    are cut short with an ellipsis on a row where they would push the trick's newest two cards or the
    trump off the felt, and only there."""
    shown = min(len(view.trick.cards), 2)
    trick = width - (shown * (BOX_WIDTH + 1) - 1) - 4 if shown else width
    trump = width - TRUMP_COLUMNS - 2 if _has_trump(view) else width
    return [trick] * TRICK_ROWS + [width, trump, trump, trump, width, width]


def _has_trump(view: View) -> bool:
    return view.trump_card is not None or view.trump is not None


def _trick(view: View, *, names: Sequence[str], ascii: bool, row: int, left: int, room: int,
           parts: list[list[tuple[int, Text]]]) -> None:
    """The cards on the felt, centred in ``room`` columns from ``left``: the newest that fit, who played each."""
    fits = max(1, (room + 1) // (BOX_WIDTH + 1))
    trick = view.trick.cards[-fits:]
    if not trick:
        return
    best = view.trick.best
    boxes = [card_box(c if isinstance(c, Card) else None, ascii, mark=c == best) for _, c in trick]
    trick_rows = boxes_row(boxes)
    under = Text()
    for i, (seat, _c) in enumerate(trick):
        who = names[seat] if 0 <= seat < len(names) and names[seat] else "?"
        under.append((" " if i else "") + who[:BOX_WIDTH].center(BOX_WIDTH), style="dim")
    col = left + max(0, (room - trick_rows[0].cell_len) // 2)
    _put(parts, row, col, trick_rows + [under])


def _trump(view: View, lang: str, ascii: bool) -> list[Text] | None:
    card = view.trump_card
    suit = view.trump
    if card is not None:
        box = card_box(card, ascii)
    elif suit is not None:
        box = [Text(), Text(suit.text(ascii), style="red bold" if suit.is_red else "bold"), Text()]
    else:
        return None
    label = Text(tr(lang, "felt.trump") + " ", style="dim")
    return [Text(" " * label.cell_len) + box[0], label + box[1], Text(" " * label.cell_len) + box[2]]


def winning_card(view: View | Mapping[str, Any]) -> Card | None:
    """The card now winning the trick, as the game's view says (``best``): the felt draws, never judges.

    Who wins a trick is written once, in ``engine.trick`` (and a game's own rule, as Копилка's A♠);
    every trick game puts the result in its view."""
    return view_of(view).trick.best


def score_text(view: View | Mapping[str, Any], lang: str) -> Text:
    """The score sheet of points games (the game's typed ``sheet``): above/below the line, or the teams' records."""
    view = view_of(view)
    names = view.names
    sheet = view.sheet
    parts: list[str] = []
    if isinstance(sheet, LineSheet):
        below = sheet.below
        parts = [f"{n} {a}/{below[i] if i < len(below) else 0}" for i, (n, a) in enumerate(zip(names, sheet.above))]
    if isinstance(sheet, RecordSheet):  # the pairs game: what each team has left to write off
        listed = " · ".join(f"{team} {value}" for team, value in sheet.records)
        mine = sheet.team_of(view.seat)
        text = tr(lang, "felt.records_you", records=listed, team=mine) if mine else tr(lang, "felt.records", records=listed)
        return Text(text, style="dim")
    if not parts:
        return Text()
    return Text(tr(lang, "felt.score") + ": " + " · ".join(parts), style="dim")


class Felt(Rows):
    """The table's felt: its rows made again only when what it shows changes, and only changed rows drawn.

    A move usually changes a few rows (the trick, a seat's cards and state, whose turn): the rest
    keep their strips and are not sent again (``tui.widgets.rows``)."""

    DEFAULT_CSS = """
    Felt { height: 10; width: 1fr; }
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._args: tuple | None = None
        self._drawn: tuple | None = None  # the arguments and width the rows shown were made from

    def show(self, view: View | Mapping[str, Any], me: int | None, lang: str, ascii: bool) -> None:
        self._args = (view_of(view), me, lang, ascii)
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def forget(self) -> None:
        """Make the rows again from the view and every strip afresh (see ``Rows.forget``)."""
        self._drawn = None
        super().forget()
        self._draw()

    def _draw(self) -> None:
        if self._args is None:
            return
        width = self.size.width or 80
        drawn = (self._args, width)
        if drawn == self._drawn:  # the same view at the same width: the same rows
            return
        self._drawn = drawn
        view, me, lang, ascii = self._args
        self.show_rows(felt_rows(view, me, lang, ascii, width))
