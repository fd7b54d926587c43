"""Issue 14 step 5: the table screen pulls one snapshot and assigns it to ``TableView.snapshot``.

The widget draws what the snapshot says and nothing else: a snapshot put in by hand (a pot
the table does not hold, a hand taken away) is what the 80x24 screen shows, and the next
pull of the table brings the table's own state back.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen import text, type_line

from engine.table.club import Club
from engine.view import Snapshot
from tui.app import ClubApp
from tui.i18n import money


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_the_screen_draws_the_snapshot_it_pulled():
    club = Club([{"game": "stukolka", "clock": 0}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        table = club.tables[1]
        for name in ("boris", "vera", "gleb"):
            club.sit(name, 1)
        for name in ("boris", "vera", "gleb"):
            table.start(name)
        await type_line(pilot, "ready")
        await pilot.pause()
        tview = app.screen.tview
        first = tview.snapshot
        assert isinstance(first, Snapshot) and first.view.seat == 0 and first.view.in_deal
        assert first.view.deal_no == table.game.deal_no and first.facts.id == 1
        assert f"pot {money(table.game.pot, 'en')}" in text(app)

        fake = replace(first.view, pot=123456)
        tview.snapshot = replace(first, view=fake, log=())
        await pilot.pause()
        assert money(123456, "en") in text(app)  # drawn from the snapshot, not read from the table

        tview.sync()  # a pull: the table's own state again
        await pilot.pause()
        assert tview.snapshot is not first and tview.snapshot.view.pot == table.game.pot
        assert money(123456, "en") not in text(app)
