"""What Apps share and skip so a crowd costs less (issue 16), checked on what the screen shows.

- Every App of the process uses one parse of the CSS (tui/sharedcss.py): the same rule objects,
  the same styles drawn; another theme's variables get rules of their own.
- A seated player's App under net's hall door keeps no hall screen under his table.
- A Static redrawn with the very same text is not rendered again (tui/widgets/quiet.py), and a
  change of style alone is.
- The timer bar keeps its width when a shorter name's turn comes (no layout pass for every
  App at every move): its right end stays in place.
"""

from __future__ import annotations

from rich.text import Text
from screen import rows, type_line
from textual.app import App, ComposeResult
from textual.widgets import Static

from engine.table.club import Club
from tui.app import ClubApp
from tui.screens.hall import HallScreen
from tui.screens.table import TableScreen
from tui.sharedcss import SharedStylesheet, share_stylesheet
from tui.widgets.log import TABLE_KEEP, EventLog
from tui.widgets.quiet import show_text
from tui.widgets.timer import TimerBar


def _rules_by_source(app: App) -> dict:
    return {key: app.stylesheet._parse_cache.get((src.content, key, src.is_defaults, src.tie_breaker, src.scope))
            for key, src in app.stylesheet.source.items()}


async def test_two_apps_use_one_parse_of_the_css_and_draw_the_same():
    screens, rules = [], []
    for _ in range(2):  # two clubs alike, one person each: the same screen expected
        app = ClubApp(Club([{"game": "stukolka"}], seed=3), "anna")
        assert isinstance(app.stylesheet, SharedStylesheet)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screens.append(rows(app))
            rules.append({id(r) for r in app.stylesheet.rules})
            styles = app.screen.query_one("#header", Static).styles
            assert styles.height.value == 1  # sukno.tcss applied through the shared rules
    assert rules[0] == rules[1] and rules[0]  # the very same rule objects
    assert screens[0] == screens[1]


def test_other_variables_get_their_own_rules():
    one = SharedStylesheet(variables={"primary": "#ff0000"})
    two = SharedStylesheet(variables={"primary": "#ff0000"})
    other = SharedStylesheet(variables={"primary": "#00ff00"})
    assert one._parse_cache is two._parse_cache
    assert other._parse_cache is not one._parse_cache
    css = "Static { color: $primary; }"
    first = one._parse_rules(css, ("x", ""))
    assert two._parse_rules(css, ("x", "")) is first  # parsed once
    assert other._parse_rules(css, ("x", "")) is not first  # its own colour
    shared = one._parse_cache
    one.set_variables({"primary": "#00ff00"})  # a theme change takes the new variables' rules
    assert one._parse_cache is other._parse_cache and len(shared) == 1  # and clears nobody's


def test_an_app_with_its_own_stylesheet_is_left_alone():
    app = ClubApp(Club([{"game": "stukolka"}]), "anna")
    assert not share_stylesheet(app)  # already shared: not replaced twice


async def test_a_seated_players_app_under_a_door_keeps_no_hall_screen():
    club = Club([{"game": "stukolka"}], seed=3)
    club.sit("anna", 1, 0)
    app = ClubApp(club, "anna")
    halls: list[str] = []
    app.on_hall = lambda: halls.append("door")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert not any(isinstance(s, HallScreen) for s in app.screen_stack)
        assert any("Table 1" in row or "1 ·" in row for row in rows(app)[:2]), rows(app)[:2]
        await type_line(pilot, "stand")
        assert halls == ["door"]  # the hall is net's door, as before
        assert "anna" not in club.tables[1].seats


async def test_without_a_door_the_hall_screen_stays_under_the_table():
    club = Club([{"game": "stukolka"}], seed=3)
    club.sit("anna", 1, 0)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await type_line(pilot, "leave")
        assert isinstance(app.screen, HallScreen)  # `sukno play` and tests: the App's own hall


class _One(App):
    def compose(self) -> ComposeResult:
        yield Static("", id="s")


def _styles_of(app: App, word: str) -> set:
    return {str(seg.style) for strip in app.screen._compositor.render_strips()[:1] for seg in strip
            if word in seg.text and seg.style is not None}


async def test_the_same_text_is_not_drawn_again_and_a_new_style_is():
    app = _One()
    async with app.run_test(size=(40, 5)) as pilot:
        widget = app.query_one("#s", Static)
        assert show_text(widget, Text("hello", style="bold red"))
        await pilot.pause()
        assert rows(app)[0].startswith("hello")
        red = _styles_of(app, "hello")
        assert not show_text(widget, Text("hello", style="bold red"))  # the same: nothing to render
        assert show_text(widget, Text("hello", style="green"))  # Text.__eq__ would call these equal
        await pilot.pause()
        assert _styles_of(app, "hello") != red and red
        assert show_text(widget, Text("world", style="green"))
        await pilot.pause()
        assert rows(app)[0].startswith("world")


async def test_the_timer_bar_keeps_its_width_for_a_shorter_name():
    now = [100.0]
    club = Club([{"game": "french3", "clock": 40}], seed=8)
    app = ClubApp(club, "anna", clock=lambda: now[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "watch 1")
        bar = app.screen.tview.query_one(TimerBar)
        bar.set_deadline(now[0] + 40, who="bartholomew")
        await pilot.pause()
        long_row = rows(app)[-2]
        width = bar.cells
        assert width and long_row.endswith(" s ") and "bartholomew ⏱" in long_row[-width:]  # its cells at the right
        bar.set_deadline(now[0] + 40, who="bo")
        await pilot.pause()
        short_row = rows(app)[-2]
        assert bar.cells == width  # the same cells for the shorter name
        assert "bo ⏱" in short_row and "bartholomew" not in short_row
        assert short_row.rstrip().endswith(" s") and len(short_row.rstrip()) == len(long_row.rstrip())
        bar.set_deadline(None)
        await pilot.pause()
        assert bar.cells == 0 and "⏱" not in rows(app)[-2]  # no timer: the hint has the row
        bar.set_deadline(now[0] + 40, who="bo")  # a new timer is as wide as its own name again
        await pilot.pause()
        assert 0 < bar.cells < width and rows(app)[-2].rstrip().endswith(" s")


async def test_a_timer_coming_growing_and_going_is_no_layout_pass(monkeypatch):
    """The hint and the timer share one row (tui.widgets.hintrow): the clock never resizes a widget,
    so no App showing the table lays its screen out again (each pass cost a hub several ms, issue 16)."""
    from textual.screen import Screen

    now = [100.0]
    club = Club([{"game": "french3", "clock": 40}], seed=8)
    app = ClubApp(club, "anna", clock=lambda: now[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "watch 1")
        passes = [0]
        real = Screen._refresh_layout

        def counted(self, *args, **kwargs):
            passes[0] += 1
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Screen, "_refresh_layout", counted)
        bar = app.screen.tview.query_one(TimerBar)
        for who in ("bo", "bartholomew", "vera", None, "gleb"):
            bar.set_deadline(None if who is None else now[0] + 40, who=who or "")
            await pilot.pause()
            assert (who or "⏱") in rows(app)[-2] if who else "⏱" not in rows(app)[-2]
        assert passes[0] == 0


class _Log(App):
    def compose(self) -> ComposeResult:
        yield EventLog(keep=TABLE_KEEP)


async def test_a_table_log_keeps_enough_for_the_tallest_window():
    from net.config import Config

    rows_max = Config().max_rows
    assert TABLE_KEEP >= rows_max  # a line takes a row at least: the tallest window is filled
    app = _Log()
    async with app.run_test(size=(80, rows_max)) as pilot:
        log = app.query_one(EventLog)
        for i in range(3 * TABLE_KEEP):
            log.add(f"line {i}")
        await pilot.pause()
        shown = rows(app)
        assert shown[-1].startswith(f"line {3 * TABLE_KEEP - 1}")
        assert shown[0].startswith(f"line {3 * TABLE_KEEP - rows_max}")  # every row of the window used
        assert len(log.lines) == TABLE_KEEP
