"""Score sheets drawn the way they are kept on paper, from a game's view alone.

* the three-hander (``french3``): a paper sheet — a column per player, each
  deal's exchanged cards and shortfall above the line ("сверху минус"), its
  tricks over four below ("снизу плюс"), the totals, the target, the winner;
* Копилка: the partiya sheet — each player's tricks by suit with the suit's
  value, the tricks the A♠ won (× the multiplier), what they are worth, the kitty;
* the pairs game (``ukr_pairs``): each pair's record written down deal by
  deal from the agreed start, рожок and тринька marked.

``sheet_lines`` gives at most ``rows`` lines of at most ``width`` cells (the
newest deals when there are more); ``sheet_sentences`` says the same in
sentences for the text mode.  The numbers are the engine's own (its history
rows and ``deal_score``); nothing is scored here.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from rich.text import Text

from engine.cards import Suit
from engine.games import view_of
from engine.games.french3 import deal_score
from engine.games.ukr_pairs import NICKNAME
from engine.view import LineSheet, PartiyaSheet, RecordSheet, View
from tui.i18n import money, tr

SUITS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def has_sheet(view: View | Mapping[str, Any]) -> bool:
    return (view.game if isinstance(view, View) else view.get("game")) in DRAWERS


def sheet_lines(view: View | Mapping[str, Any], lang: str, ascii: bool, width: int = 80,
                rows: int = 20) -> list[Text]:
    """The game's sheet as lines, or one line saying this game keeps none.

    Read from the typed view (``engine.view``: the game's ``score_view``) where a field is typed,
    from ``View.extra`` for the rest (a deal's history, the target)."""
    view = view_of(view)
    drawer = DRAWERS.get(view.game)
    if drawer is None:
        return [Text(tr(lang, "sheet.none"))]
    lines = drawer(view, lang, ascii, width, rows)
    for line in lines:
        line.truncate(width)
    return lines[:rows]


def sheet_sentences(view: View | Mapping[str, Any], lang: str, ascii: bool) -> list[str]:
    """The sheet told in sentences (the text mode's ``score``); [] for a game without one."""
    view = view_of(view)
    teller = TELLERS.get(view.game)
    return teller(view, lang, ascii) if teller else []


def _cell(text: str, width: int) -> str:
    return text[:width].center(width)


def _names(view: View) -> list[str]:
    return [n or "?" for n in view.names]


def _line_sheet(view: View) -> tuple[list[int], list[int]]:
    """Above and below the line per seat (zeros before the first deal)."""
    sheet, n = view.sheet, len(view.seats)
    if not isinstance(sheet, LineSheet):
        return [0] * n, [0] * n
    return list(sheet.above) or [0] * n, list(sheet.below) or [0] * n


# -- the three-hander ----------------------------------------------------------------------------


def _french3_rows(view: View) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """Per deal of this game: (its trump, per seat (exchanged, short, over)) — R22 through the engine."""
    par = int(view.extra.get("par", 4))
    out = []
    for row in view.extra.get("history") or []:
        cells = []
        for tricks, bought in zip(row.get("tricks", []), row.get("bought", [])):
            above, below = deal_score(tricks, bought, par)
            cells.append((bought, above - bought, below))
        out.append((str(row.get("trump", "")), cells))
    return out


def _trump(word: str, ascii: bool, lang: str) -> str:
    if word == "NT":
        return tr(lang, "sheet.no_trump")
    suit = next((s for s in Suit if s.symbol == word), None)
    return suit.text(ascii) if suit else word


def _french3(view: View, lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    names = _names(view)
    n = max(1, len(names))
    extra = view.extra
    target = extra.get("target", 10)
    winner = extra.get("winner")
    label_w = 8
    col = max(6, (width - label_w - 1) // n)
    deals = _french3_rows(view)
    above, below = _line_sheet(view)
    head = Text(" " + tr(lang, "sheet.french3_head", game=extra.get("game_no", 1), target=target,
                          par=extra.get("par", 4)), style="bold")
    star = "*" if ascii else "★"
    cols = Text(" " * label_w)
    for seat, name in enumerate(names):
        cols.append(_cell((star + " " if seat == winner else "") + name, col), style="bold")
    room = max(1, (rows - 7) // 2)  # head, names, two labels, the line, the totals, the verdict
    shown = deals[-room:]
    first = len(deals) - len(shown) + 1
    lines = [head, cols]
    earlier = tr(lang, "sheet.earlier", n=first - 1) if first > 1 else ""
    lines.append(Text(" " + tr(lang, "sheet.above_label") + earlier, style="dim"))
    for i, (trump, cells) in enumerate(shown, first):
        line = Text(f" {i:>2} {_trump(trump, ascii, lang):<4}"[:label_w].ljust(label_w))
        for bought, short, _over in cells:
            parts = [str(x) for x in (bought, short) if x]
            line.append(_cell("+".join(parts) if parts else "·", col), style="red" if parts else "dim")
        lines.append(line)
    rule = "-" if ascii else "─"
    lines.append(Text(" " + rule * (label_w - 2 + col * n), style="bold"))
    lines.append(Text(" " + tr(lang, "sheet.below_label", target=target), style="dim"))
    for i, (trump, cells) in enumerate(shown, first):
        line = Text(f" {i:>2} {_trump(trump, ascii, lang):<4}"[:label_w].ljust(label_w))
        for _bought, _short, over in cells:
            line.append(_cell(str(over) if over else "·", col), style="green" if over else "dim")
        lines.append(line)
    total = Text(tr(lang, "sheet.total")[:label_w - 1].ljust(label_w), style="bold")
    total = Text(" ") + total
    total.truncate(label_w)
    for seat in range(n):
        a = above[seat] if seat < len(above) else 0
        b = below[seat] if seat < len(below) else 0
        total.append(_cell(f"{a} | {b}/{target}", col), style="bold")
    lines.append(total)
    if winner is not None and 0 <= winner < n:
        lines.append(Text(" " + tr(lang, "sheet.french3_winner", name=names[winner], below=below[winner],
                                    target=target), style="bold yellow"))
    else:
        lines.append(Text(" " + tr(lang, "sheet.french3_goal", target=target), style="dim"))
    return lines


def _french3_say(view: View, lang: str, ascii: bool) -> list[str]:
    names = _names(view)
    sheet = view.sheet
    above, below = (list(sheet.above), list(sheet.below)) if isinstance(sheet, LineSheet) else ([], [])
    target = view.extra.get("target", 10)
    each = "; ".join(tr(lang, "sheet.french3_each", name=n, above=a, below=b)
                     for n, a, b in zip(names, above, below))
    out = [tr(lang, "sheet.french3_say", game=view.extra.get("game_no", 1), target=target, each=each)]
    winner = view.extra.get("winner")
    if winner is not None and 0 <= winner < len(names):
        out.append(tr(lang, "sheet.french3_winner", name=names[winner], below=below[winner], target=target))
    return out


# -- Копилка -------------------------------------------------------------------------------------


def _partiya(view: View) -> PartiyaSheet:
    sheet = view.sheet
    if isinstance(sheet, PartiyaSheet):
        return sheet
    return PartiyaSheet(deal=0, tallies=(), won=(), multiplier=2, suit_values=())  # before the first deal


def _kopilka(view: View, lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    names = _names(view)
    sheet = _partiya(view)
    mult = sheet.multiplier
    name_w = min(14, max((len(n) for n in names), default=4) + 1)
    col = max(8, (width - name_w - 12) // 4)
    x = "x" if ascii else "×"
    lines = [Text(" " + tr(lang, "sheet.kopilka_head", deal=sheet.deal, kitty=money(view.pot, lang)), style="bold")]
    lines.append(Text(" " + tr(lang, "sheet.kopilka_values", ace="A" + Suit.SPADES.text(ascii),
                               mult=f"{x}{mult}"), style="dim"))
    head = Text(" " + " " * name_w)
    for suit in SUITS:
        head.append(_cell(f"{suit.text(ascii)} {money(sheet.value_of(suit), lang)}", col),
                    style="red bold" if suit.is_red else "bold")
    head.append(tr(lang, "sheet.kopilka_won").rjust(10), style="bold")
    lines.append(head)
    for seat, name in enumerate(names):
        line = Text(" " + name[:name_w - 1].ljust(name_w))
        for suit in SUITS:
            tally = sheet.tally(seat, suit)
            count, doubled = (tally.tricks, tally.doubled) if tally is not None else (0, 0)
            text = str(count) if count else "·"
            if doubled:
                text += f" (A{Suit.SPADES.text(ascii)}{x}{mult}" + (f" {doubled}" if doubled > 1 else "") + ")"
            line.append(_cell(text, col), style="" if count else "dim")
        line.append(money(sheet.won_by(seat), lang).rjust(10), style="bold")
        lines.append(line)
    lines.append(Text(" " + tr(lang, "sheet.kopilka_kitty", kitty=money(view.pot, lang),
                               won=money(sum(sheet.won), lang)), style="dim"))
    return lines


def _kopilka_say(view: View, lang: str, ascii: bool) -> list[str]:
    names = _names(view)
    sheet = _partiya(view)
    out = []
    for seat, tallies in enumerate(sheet.tallies):
        if not tallies or seat >= len(names):
            continue
        parts = []
        for tally in tallies:
            part = f"{tally.suit.text(ascii)} {tally.tricks}"
            if tally.doubled:
                part += " " + tr(lang, "sheet.kopilka_ace", n=tally.doubled, mult=sheet.multiplier)
            parts.append(part)
        out.append(tr(lang, "sheet.kopilka_each", name=names[seat], tricks=", ".join(parts),
                      money=money(sheet.won_by(seat), lang)))
    head = tr(lang, "sheet.kopilka_say", deal=sheet.deal, kitty=money(view.pot, lang), won=money(sum(sheet.won), lang))
    return [head] + (out or [tr(lang, "sheet.kopilka_empty")])


# -- the pairs game ------------------------------------------------------------------------------


def _mark(row: dict[str, Any], lang: str) -> str:
    tricks = row.get("tricks") or [0, 0]
    best = max(tricks) if tricks else 0
    if row.get("written_off") is None:
        return tr(lang, "sheet.pairs_slam")
    nick = NICKNAME.get(best, "")
    return tr(lang, f"sheet.nick_{'rozhok' if best == 8 else 'trinka'}") if nick else ""


def _records(view: View) -> dict[str, int]:
    return dict(view.sheet.records) if isinstance(view.sheet, RecordSheet) else {}


def _team_names(view: View, team: str) -> str:
    names = view.names
    seats = dict(view.sheet.teams).get(team, ()) if isinstance(view.sheet, RecordSheet) else ()
    return " · ".join(names[s] for s in seats if s < len(names) and names[s])


def _pairs(view: View, lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    extra = view.extra
    start = extra.get("T", 12)
    records = _records(view)
    history = extra.get("history") or []
    col = max(14, (width - 20) // 2)
    lines = [Text(" " + tr(lang, "sheet.pairs_head", match=extra.get("match_no", 1), start=start), style="bold")]
    head = Text(" " + tr(lang, "sheet.pairs_deal")[:12].ljust(13))
    for team in ("A", "B"):
        head.append(_cell(f"{team}: {_team_names(view, team)}", col), style="bold")
    lines.append(head)
    first = Text(" " + tr(lang, "sheet.pairs_start")[:12].ljust(13))
    for _team in ("A", "B"):
        first.append(_cell(str(start), col))
    lines.append(first)
    room = max(1, rows - 5)
    shown = history[-room:]
    if len(shown) < len(history):
        lines.append(Text(" " + tr(lang, "sheet.earlier", n=len(history) - len(shown)).strip(), style="dim"))
    for row in shown:
        tricks = row.get("tricks") or [0, 0]
        line = Text(f" {row.get('deal', '?'):>2}  {tricks[0]}:{tricks[1]}".ljust(14))
        for team in ("A", "B"):
            if row.get("winner") == team:
                off = row.get("written_off")
                mark = _mark(row, lang)
                text = f"{row.get(team)} (−{off})" if off else (f"{row.get(team)} (0)" if off == 0 else mark)
                if mark and off is not None:
                    text += " " + mark
                line.append(_cell(text, col), style="bold")
            else:
                line.append(_cell(str(row.get(team, "")), col), style="dim")
        lines.append(line)
    now = " · ".join(f"{team} {value}" for team, value in records.items())
    winner = extra.get("match_winner")
    key = "sheet.pairs_won" if extra.get("match_over") and winner else "sheet.pairs_now"
    lines.append(Text(" " + tr(lang, key, records=now, team=winner or ""), style="bold yellow" if winner else "dim"))
    return lines


def _pairs_say(view: View, lang: str, ascii: bool) -> list[str]:
    extra = view.extra
    start = extra.get("T", 12)
    records = _records(view)
    out = [tr(lang, "sheet.pairs_say", match=extra.get("match_no", 1), start=start,
              a=_team_names(view, "A"), b=_team_names(view, "B"), ra=records.get("A"), rb=records.get("B"))]
    for row in (extra.get("history") or [])[-3:]:
        tricks = row.get("tricks") or [0, 0]
        mark = _mark(row, lang)
        out.append(tr(lang, "sheet.pairs_row", deal=row.get("deal"), split=f"{tricks[0]}:{tricks[1]}",
                      team=row.get("winner"), off=row.get("written_off") if row.get("written_off") is not None else "—",
                      mark=f" ({mark})" if mark else ""))
    return out


DRAWERS: dict[str, Callable[..., list[Text]]] = {"french3": _french3, "kopilka": _kopilka, "ukr_pairs": _pairs}
TELLERS: dict[str, Callable[..., list[str]]] = {"french3": _french3_say, "kopilka": _kopilka_say,
                                                 "ukr_pairs": _pairs_say}
