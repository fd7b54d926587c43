"""The felt, hand and log keep their rows' strips (tui.widgets.rows, issue 16): what they show must be
what a fresh drawing shows, after every move of seeded deals of every game.

After each move the whole 80×24 screen (cells: character and style) is read from the compositor,
then every kept strip and every felt row is dropped and drawn again from the table's current view;
the two screens must be equal cell for cell.  A cache that kept a stale row (a planted one below)
differs from the fresh drawing at some move.  Also: a row drawn by ``Rows`` looks exactly as the
same text drawn by a ``Static`` did (colours and styles), and a move redraws only changed rows.
"""

from __future__ import annotations

import random

import pytest
from rich.text import Text
from screen import type_line
from textual.app import App, ComposeResult
from textual.widgets import Static

import tui.widgets.rows as rows_module
from engine.table.club import Club
from tui.app import ClubApp
from tui.pull import puller
from tui.widgets.felt import FELT_ROWS, Felt, felt_rows
from tui.widgets.hand import Hand
from tui.widgets.hintrow import HintRow
from tui.widgets.log import EventLog
from tui.widgets.rows import Rows

NAMES = ["boris", "Vera_long_name", "gleb", "dasha", "egor", "zhenya", "ilya", "kira", "lev"]
GAMES = [("french3", 3), ("kopilka", 4), ("speculator", 3), ("speculator", 7), ("stukolka", 4),
         ("stukolka", 7), ("ukr_pairs", 4)]


def cells(app: App, only_rows: bool = False) -> list[list[tuple[str, object]]]:
    """The screen as each cell's character and Rich style (``only_rows``: the rows of ``Rows`` widgets alone,
    not the clock, which may tick between two looks)."""
    screen = [[(ch, seg.style) for seg in strip for ch in seg.text]
              for strip in app.screen._compositor.render_strips()]
    if not only_rows:
        return screen
    ys = sorted({y for w in app.screen.query(Rows) if w.display for y in range(w.region.y, w.region.bottom)})
    return [screen[y] for y in ys if y < len(screen)]


async def fresh(app: App, pilot) -> list[list[tuple[str, object]]]:
    """The same screen with every kept row and strip dropped and drawn again from the table."""
    for widget in app.screen.query(Rows):
        widget.forget()
    await pilot.pause()
    return cells(app, only_rows=True)


async def same_after_every_move(game_name: str, seats: int, lang: str, ascii: bool, seed: int,
                                deals: int = 2, moves_max: int = 120) -> int:
    """Plays seeded random legal moves; after each, the cached screen equals a fresh one. Returns the moves."""
    rng = random.Random(seed)
    club = Club([{"game": game_name, "seats": seats, "clock": 0}], seed=seed)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang, ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in NAMES[:seats - 1]:
            table.sit(name)
            club.enter(name)
            table.start(name)
        await type_line(pilot, "start")
        tview = app.screen.tview
        felt = tview.query_one(Felt)
        moves = started = 0
        while moves < moves_max:
            game = table.game
            if game is None or not game.in_deal:
                started += 1
                if started >= deals:
                    break
                for name in ["anna", *NAMES[:seats - 1]]:
                    table.start(name)
                await pilot.pause()
                continue
            seat = rng.choice(game.to_act())
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())
            moves += 1
            await pilot.pause()
            shown = cells(app, only_rows=True)
            view = tview.felt_view(tview.view)
            rows_now = [r.plain for r in felt.row_texts()]
            assert rows_now == [r.plain for r in felt_rows(view, view.seat, lang, ascii, felt.size.width)], moves
            again = await fresh(app, pilot)
            assert shown == again, (game_name, lang, moves, [
                ("".join(c for c, _ in a), "".join(c for c, _ in b)) for a, b in zip(shown, again) if a != b])
        return moves


@pytest.mark.slow  # every game, both languages: ~20 s
@pytest.mark.parametrize("game_name,seats", GAMES)
async def test_the_cached_screen_equals_a_fresh_one_after_every_move(game_name, seats):
    moves = await same_after_every_move(game_name, seats, "en", False, seed=3, moves_max=60)
    moves += await same_after_every_move(game_name, seats, "ru", True, seed=4, deals=1, moves_max=25)
    assert moves >= 10


async def test_a_stale_cache_is_caught(monkeypatch):
    """Planted: a changed row that is not marked dirty keeps its old strip on screen; the check sees it."""
    real = rows_module.changed_spans

    def forgets_the_trick(old, new):  # the felt's trick rows (4..7) never redrawn
        runs = real(old, new)
        if len(new) == FELT_ROWS:
            runs = [(a, b) for a, b in runs if b <= 4 or a >= 8]
        return runs

    monkeypatch.setattr(rows_module, "changed_spans", forgets_the_trick)
    with pytest.raises(AssertionError, match="stukolka"):  # the screens differ (not another check)
        await same_after_every_move("stukolka", 4, "en", False, seed=3, deals=1, moves_max=30)


class _Both(App):
    def compose(self) -> ComposeResult:
        yield Static("", id="static")
        yield Felt()
        yield Hand()
        log = EventLog(id="log")
        log.styles.height = 6
        yield log


async def test_a_row_looks_as_a_static_drew_it():
    """Felt, hand and log rows: the same cells (characters, colours, bold/dim/italic) as a Static's."""
    club = Club([{"game": "stukolka", "clock": 0}], seed=5)
    table = club.tables[1]
    for name in ["anna", *NAMES[:3]]:
        table.sit(name)
        club.enter(name)
        table.start(name)
    app = _Both()
    async with app.run_test(size=(80, 34)) as pilot:
        static = app.query_one("#static", Static)
        static.styles.height = FELT_ROWS
        felt = app.query_one(Felt)
        for step in range(6):
            game = table.game
            seat = game.to_act()[0]
            view = puller(table, "anna", club.is_online, club.is_away)(0, 0).view
            for ascii in (False, True):
                felt.show(view, view.seat, "ru" if step % 2 else "en", ascii)
                static.styles.height = FELT_ROWS
                static.update(Text("\n").join(felt.row_texts()))
                await pilot.pause()
                # colours and attributes (str of the style); Textual's selection offsets on trailing
                # blanks differ (a Static's wrapping folds them), no drawn cell does
                screen = [[(ch, str(style)) for ch, style in row] for row in cells(app)]
                top, at = static.region.y, felt.region.y
                assert screen[top:top + FELT_ROWS] == screen[at:at + FELT_ROWS], step
            hand = app.query_one(Hand)
            hand.show(list(view.hand), set(list(view.hand)[:2]), set(list(view.hand)[1:2]), "keys", step % 2 == 1)
            log = app.query_one(EventLog)
            log.add(Text(f"line {step} " + "word " * 30, style="cyan" if step % 2 else ""))
            for widget, height in ((hand, 4), (log, 6)):
                static.styles.height = height
                static.update(Text("\n").join(widget.row_texts()))
                await pilot.pause()
                screen = [[(ch, str(style)) for ch, style in row] for row in cells(app)]
                top, at = static.region.y, widget.region.y
                assert screen[top:top + height] == screen[at:at + height], (step, type(widget).__name__)
            table.act(game.names[seat], game.legal_actions(seat)[0].text())


async def test_a_move_redraws_only_the_rows_it_changed():
    club = Club([{"game": "stukolka", "clock": 0}], seed=5)
    table = club.tables[1]
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in NAMES[:3]:
            table.sit(name)
            club.enter(name)
            table.start(name)
        await type_line(pilot, "start")
        felt = app.screen.tview.query_one(Felt)
        made = felt.rows_made
        app.screen.tview.sync()  # nothing changed: nothing made
        await pilot.pause()
        assert felt.rows_made == made
        game = table.game
        seat = next(s for s in game.to_act() if s != 0) if any(s != 0 for s in game.to_act()) else game.to_act()[0]
        table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        assert 0 < felt.rows_made - made < FELT_ROWS  # some rows, never the whole felt for one move


class _HintRows(App):
    CSS_PATH = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "tui" / "sukno.tcss")
    CSS = "#old, #new { height: 1; } #old Static.hint { width: 1fr; } #clock { width: 1; }"

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal, Vertical

        with Vertical(id="oldbox"):
            with Horizontal(id="old"):
                yield Static("", id="hint", classes="hint")
                yield Static("", id="clock")
        with Vertical(id="newbox"):
            yield HintRow(id="new", classes="hint")


async def test_the_hint_row_looks_as_the_hint_and_the_timer_widgets_did():
    """The hint and the timer bar drawn in one row: the same cells as the two widgets side by side had."""
    from tui.widgets.timer import RED

    app = _HintRows()
    clocks = [None, Text("bo ⏱ ") + Text("██████", style=RED) + Text("░░░░", style="dim") + Text(" <45 s "),
              Text("bartholomew ⏱ ██░░░░░░░░   4 s ", style=f"bold {RED}")]
    hints = ["You may: knock · pass", "Вы можете: продать [N] — цена от 1 к. · согласиться · " * 3, ""]
    async with app.run_test(size=(80, 6)) as pilot:
        new = app.query_one(HintRow)
        for clock in clocks:
            for hint in hints:
                text = Text(" " + hint, style="dim")
                app.query_one("#hint", Static).update(text)
                span = clock.cell_len if clock is not None else 0
                box = app.query_one("#clock", Static)
                box.display = clock is not None
                box.styles.width = max(1, span)
                box.update(clock if clock is not None else "")
                new.set_hint(text)
                new.set_clock(clock, span)
                await pilot.pause()
                screen = [[(ch, str(style)) for ch, style in row] for row in cells(app)]
                if text.cell_len <= 80 - span - 1:
                    assert screen[app.query_one("#old").region.y] == screen[new.region.y], (hint, clock)
                    continue
                # a hint too long for its room ends in "…" where it is cut, one blank cell before the clock
                row = "".join(ch for ch, _ in screen[new.region.y])
                room = 80 - span - (1 if span else 0)
                assert row[room - 1] == "…" and (not span or row[room] == " "), row
