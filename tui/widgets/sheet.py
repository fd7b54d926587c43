"""Score sheets drawn the way the seeds describe them (issue 21 item 2), from a game's view alone.

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

from typing import Any, Callable

from rich.text import Text

from engine.cards import Suit
from engine.games.french3 import deal_score
from engine.games.kopilka import SUIT_VALUE_OPTIONS
from engine.games.ukr_pairs import NICKNAME
from tui.i18n import money, tr

SUITS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def has_sheet(view: dict[str, Any]) -> bool:
    return view.get("game") in DRAWERS


def sheet_lines(view: dict[str, Any], lang: str, ascii: bool, width: int = 80, rows: int = 20) -> list[Text]:
    """The game's sheet as lines, or one line saying this game keeps none."""
    drawer = DRAWERS.get(str(view.get("game")))
    if drawer is None:
        return [Text(tr(lang, "sheet.none"))]
    lines = drawer(view, lang, ascii, width, rows)
    for line in lines:
        line.truncate(width)
    return lines[:rows]


def sheet_sentences(view: dict[str, Any], lang: str, ascii: bool) -> list[str]:
    """The sheet told in sentences (the text mode's ``score``); [] for a game without one."""
    teller = TELLERS.get(str(view.get("game")))
    return teller(view, lang, ascii) if teller else []


def _cell(text: str, width: int) -> str:
    return text[:width].center(width)


def _names(view: dict[str, Any]) -> list[str]:
    return [n or "?" for n in view.get("names", [])]


# -- the three-hander ----------------------------------------------------------------------------


def _french3_rows(view: dict[str, Any]) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """Per deal of this game: (its trump, per seat (exchanged, short, over)) — R22 through the engine."""
    par = int(view.get("par", 4))
    out = []
    for row in view.get("history") or []:
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


def _french3(view: dict[str, Any], lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    names = _names(view)
    n = max(1, len(names))
    target = view.get("target", 10)
    winner = view.get("winner")
    label_w = 8
    col = max(6, (width - label_w - 1) // n)
    deals = _french3_rows(view)
    sheet = view.get("sheet") or {}
    above, below = sheet.get("above") or [0] * n, sheet.get("below") or [0] * n
    head = Text(" " + tr(lang, "sheet.french3_head", game=view.get("game_no", 1), target=target,
                          par=view.get("par", 4)), style="bold")
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


def _french3_say(view: dict[str, Any], lang: str, ascii: bool) -> list[str]:
    names = _names(view)
    sheet = view.get("sheet") or {}
    above, below = sheet.get("above") or [], sheet.get("below") or []
    target = view.get("target", 10)
    each = "; ".join(tr(lang, "sheet.french3_each", name=n, above=a, below=b)
                     for n, a, b in zip(names, above, below))
    out = [tr(lang, "sheet.french3_say", game=view.get("game_no", 1), target=target, each=each)]
    winner = view.get("winner")
    if winner is not None and 0 <= winner < len(names):
        out.append(tr(lang, "sheet.french3_winner", name=names[winner], below=below[winner], target=target))
    return out


# -- Копилка -------------------------------------------------------------------------------------


def _kopilka_cells(view: dict[str, Any]) -> list[dict[Suit, tuple[int, int, int]]]:
    """Per player, per suit: (tricks, of them won by the A♠, their value)."""
    out = []
    for tricks in view.get("sheet") or []:
        cells: dict[Suit, tuple[int, int, int]] = {}
        for t in tricks:
            suit = t["suit"]
            count, doubled, value = cells.get(suit, (0, 0, 0))
            cells[suit] = (count + 1, doubled + bool(t["doubled"]), value + int(t["value"]))
        out.append(cells)
    return out


def _kopilka(view: dict[str, Any], lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    names = _names(view)
    options = view.get("options") or {}
    mult = options.get("M", 2)
    cells = _kopilka_cells(view)
    won = view.get("won") or [0] * len(names)
    name_w = min(14, max((len(n) for n in names), default=4) + 1)
    col = max(8, (width - name_w - 12) // 4)
    x = "x" if ascii else "×"
    lines = [Text(" " + tr(lang, "sheet.kopilka_head", deal=view.get("partiya_deal", 0),
                           kitty=money(view.get("pot", 0), lang)), style="bold")]
    lines.append(Text(" " + tr(lang, "sheet.kopilka_values", ace="A" + Suit.SPADES.text(ascii),
                               mult=f"{x}{mult}"), style="dim"))
    head = Text(" " + " " * name_w)
    for suit in SUITS:
        head.append(_cell(f"{suit.text(ascii)} {money(options.get(SUIT_VALUE_OPTIONS[suit], 0), lang)}", col),
                    style="red bold" if suit.is_red else "bold")
    head.append(tr(lang, "sheet.kopilka_won").rjust(10), style="bold")
    lines.append(head)
    for seat, name in enumerate(names):
        line = Text(" " + name[:name_w - 1].ljust(name_w))
        mine = cells[seat] if seat < len(cells) else {}
        for suit in SUITS:
            count, doubled, _value = mine.get(suit, (0, 0, 0))
            text = str(count) if count else "·"
            if doubled:
                text += f" (A{Suit.SPADES.text(ascii)}{x}{mult}" + (f" {doubled}" if doubled > 1 else "") + ")"
            line.append(_cell(text, col), style="" if count else "dim")
        line.append(money(won[seat] if seat < len(won) else 0, lang).rjust(10), style="bold")
        lines.append(line)
    total = sum(won)
    lines.append(Text(" " + tr(lang, "sheet.kopilka_kitty", kitty=money(view.get("pot", 0), lang),
                               won=money(total, lang)), style="dim"))
    return lines


def _kopilka_say(view: dict[str, Any], lang: str, ascii: bool) -> list[str]:
    names = _names(view)
    options = view.get("options") or {}
    won = view.get("won") or []
    out = []
    for seat, cells in enumerate(_kopilka_cells(view)):
        if not cells:
            continue
        parts = []
        for suit in SUITS:
            if suit in cells:
                count, doubled, _value = cells[suit]
                part = f"{suit.text(ascii)} {count}"
                if doubled:
                    part += " " + tr(lang, "sheet.kopilka_ace", n=doubled, mult=options.get("M", 2))
                parts.append(part)
        out.append(tr(lang, "sheet.kopilka_each", name=names[seat], tricks=", ".join(parts),
                      money=money(won[seat] if seat < len(won) else 0, lang)))
    head = tr(lang, "sheet.kopilka_say", deal=view.get("partiya_deal", 0), kitty=money(view.get("pot", 0), lang),
              won=money(sum(won), lang))
    return [head] + (out or [tr(lang, "sheet.kopilka_empty")])


# -- the pairs game ------------------------------------------------------------------------------


def _mark(row: dict[str, Any], lang: str) -> str:
    tricks = row.get("tricks") or [0, 0]
    best = max(tricks) if tricks else 0
    if row.get("written_off") is None:
        return tr(lang, "sheet.pairs_slam")
    nick = NICKNAME.get(best, "")
    return tr(lang, f"sheet.nick_{'rozhok' if best == 8 else 'trinka'}") if nick else ""


def _team_names(view: dict[str, Any], team: str) -> str:
    names = view.get("names", [])
    seats = (view.get("teams") or {}).get(team, [])
    return " · ".join(names[s] for s in seats if s < len(names) and names[s])


def _pairs(view: dict[str, Any], lang: str, ascii: bool, width: int, rows: int) -> list[Text]:
    start = view.get("T", 12)
    records = view.get("records") or {}
    history = view.get("history") or []
    col = max(14, (width - 20) // 2)
    lines = [Text(" " + tr(lang, "sheet.pairs_head", match=view.get("match_no", 1), start=start), style="bold")]
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
    winner = view.get("match_winner")
    key = "sheet.pairs_won" if view.get("match_over") and winner else "sheet.pairs_now"
    lines.append(Text(" " + tr(lang, key, records=now, team=winner or ""), style="bold yellow" if winner else "dim"))
    return lines


def _pairs_say(view: dict[str, Any], lang: str, ascii: bool) -> list[str]:
    start = view.get("T", 12)
    records = view.get("records") or {}
    out = [tr(lang, "sheet.pairs_say", match=view.get("match_no", 1), start=start,
              a=_team_names(view, "A"), b=_team_names(view, "B"), ra=records.get("A"), rb=records.get("B"))]
    for row in (view.get("history") or [])[-3:]:
        tricks = row.get("tricks") or [0, 0]
        mark = _mark(row, lang)
        out.append(tr(lang, "sheet.pairs_row", deal=row.get("deal"), split=f"{tricks[0]}:{tricks[1]}",
                      team=row.get("winner"), off=row.get("written_off") if row.get("written_off") is not None else "—",
                      mark=f" ({mark})" if mark else ""))
    return out


DRAWERS: dict[str, Callable[..., list[Text]]] = {"french3": _french3, "kopilka": _kopilka, "ukr_pairs": _pairs}
TELLERS: dict[str, Callable[..., list[str]]] = {"french3": _french3_say, "kopilka": _kopilka_say,
                                                 "ukr_pairs": _pairs_say}
