"""The timer bar says whose time it is and turns yellow, then red, as the time runs out (issue 13, item 13)."""

from __future__ import annotations

import pytest
from screen import rows, type_line

from engine.table.club import Club
from tui.app import ClubApp
from tui.widgets.timer import GREEN, RED, YELLOW, TimerBar


def bar_colours(app: ClubApp) -> set[str]:
    """The colours of the bar's filled cells on the screen."""
    colours = set()
    for strip in app.screen._compositor.render_strips():
        for seg in strip:
            if "█" in seg.text and seg.style is not None and seg.style.color is not None:
                colours.add(seg.style.color.triplet.hex if seg.style.color.triplet else seg.style.color.name)
    return colours


@pytest.mark.parametrize(("lang", "mine"), [("en", "your turn ⏱"), ("ru", "ваш ход ⏱")])
async def test_the_bar_names_whose_turn_and_changes_colour(lang, mine):
    now = [100.0]
    club = Club([{"game": "french3", "clock": 40}], seed=8)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang, clock=lambda: now[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera"):
            table.sit(name)
            club.enter(name)
            table.start(name, now=now[0])
        await type_line(pilot, "start")
        game = table.game
        bar = app.screen.tview.query_one(TimerBar)
        for _ in range(3):  # whoever is to act: the bar says who
            seat = game.to_act()[0]
            hint_row = rows(app)[-2]
            who = mine if seat == 0 else f"{game.names[seat]} ⏱"
            assert who in hint_row and hint_row.rstrip().endswith("s" if lang == "en" else "с"), hint_row
            assert bar_colours(app) == {GREEN}
            if seat == 0:
                break
            table.act(game.names[seat], game.legal_actions(seat)[0].text(), now=now[0])
            await pilot.pause()
        now[0] += 25  # 15 of 40 s left
        bar._draw()
        await pilot.pause()
        assert bar_colours(app) == {YELLOW}, rows(app)[-2]
        now[0] += 11  # 4 s left
        bar._draw()
        await pilot.pause()
        assert bar_colours(app) == {RED}, rows(app)[-2]
        assert ("  4 s" if lang == "en" else "  4 с") in rows(app)[-2]  # seconds in the player's language
