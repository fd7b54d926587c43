"""Every text a person types is bounded, and told so (issue 12, item 1): the command line, the name, pastes."""

from __future__ import annotations

import pytest
from screen import text, type_keys
from textual import events

from engine.table.club import Club
from engine.shuffle import MAX_CUT
from tui.app import ClubApp
from tui.limits import COMMAND_MAX, CUT_MAX, NAME_MAX, QUOTE_MAX, quote
from tui.screens.hall import HallScreen


@pytest.fixture
def club(fake_game) -> Club:
    return Club([{"game": "highcard", "seats": 3}], seed=1)


def test_limits_agree_with_the_engine():
    assert CUT_MAX == MAX_CUT
    assert quote("x" * 500) == "x" * (QUOTE_MAX - 1) + "…" and quote("short") == "short"


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_command_line_holds_its_bound_and_says_why(club):
    """Keys past COMMAND_MAX change nothing; one line says the line is full; Enter still runs it."""
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.screen.cmdline
        typed = "say " + "hello " * 50
        await type_keys(pilot, typed)
        assert line.value == typed[:COMMAND_MAX]
        screen = text(app)
        assert screen.count("The line is full") == 1  # told once, not once per key
        assert f"at most {COMMAND_MAX} characters" in screen
        await pilot.press("enter")
        await pilot.pause()
        assert line.value == ""
        assert "anna says: hello hello" in text(app)
        # room again: a new overflow is told again
        await type_keys(pilot, "b" * (COMMAND_MAX + 1))
        assert text(app).count("The line is full") == 2


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_paste_that_does_not_fit_is_refused_whole(club):
    """Half a megabyte pasted: nothing of it is inserted (not cut mid-word), and the line says why."""
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.screen.cmdline
        await type_keys(pilot, "say hi ")
        line.post_message(events.Paste("word " * 100_000))
        await pilot.pause()
        assert line.value == "say hi "
        assert "The line is full" in text(app)
        line.post_message(events.Paste("there"))  # a paste that fits goes in
        await pilot.pause()
        assert line.value == "say hi there"


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_russian_player_reads_it_in_russian(club):
    app = ClubApp(club, "anna", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "x" * (COMMAND_MAX + 1))
        assert "Строка полна" in text(app) and str(COMMAND_MAX) in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_name_field_holds_a_name(club):
    """The welcome line takes at most LINK_LINE_MAX characters (a name, ``lang ru``, ``quit`` or
    ``key link CODE``, issue 20); a name longer than NAME_MAX is refused, a name of NAME_MAX is taken."""
    from tui.social import LINK_LINE_MAX

    asked: list[str] = []
    app = ClubApp(club, None, register=lambda name: asked.append(name))
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "Konstantinopolsky" + "x" * 30)
        assert app.screen.cmdline.value == ("Konstantinopolsky" + "x" * 30)[:LINK_LINE_MAX]
        assert f"at most {LINK_LINE_MAX} characters" in text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert asked == [] and not isinstance(app.screen, HallScreen)
        await type_keys(pilot, "Konstantinopolsk")
        await pilot.press("enter")
        await pilot.pause()
        assert asked == ["Konstantinopolsk"] and isinstance(app.screen, HallScreen)
