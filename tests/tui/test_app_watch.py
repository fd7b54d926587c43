"""The player's App keeps Textual's own ``watch`` (a reactive's watcher): the club's "watch a table"
is ``watch_table``, so a widget or Textual itself watching the App's reactives still works."""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.table.club import Club
from tui.app import ClubApp
from tui.screens.table import TableScreen


@pytest.fixture
def club(fake_game) -> Club:
    return Club([{"game": "highcard", "seats": 3}], seed=1)


async def test_textual_watch_on_the_app_still_watches_a_reactive(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        seen: list[tuple[str, str]] = []
        app.watch(app, "sub_title", lambda old, new: seen.append((old, new)), init=False)
        app.sub_title = "table 1"
        await pilot.pause()
        assert seen == [("", "table 1")]


async def test_watch_typed_in_the_hall_shows_the_table_to_a_watcher(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        club.tables[1].sit("boris")
        await type_line(pilot, "watch 1")
        assert isinstance(app.screen, TableScreen) and app.screen.table is club.tables[1]
        assert "anna" in club.tables[1].spectators and "watching" in text(app).lower()
