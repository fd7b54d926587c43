"""Every game at its largest table fits 80×24: each seat's name, state and balance whole on screen (issue 13, item 10).

Random legal play at the game's maximum number of seats; after every move the felt's rows on
the Pilot screen must hold every seat's name, its state words (translated: no English in a
Russian session) and its balance — whole, on the seat's own line or the line under it.
"""

from __future__ import annotations

import random
import re

import pytest
from screen import rows, type_line

from engine.table.club import Club
from engine.games import registry
from tui.app import ClubApp
from tui.i18n import money, tr
from tui.widgets.felt import seat_words

NAMES = ["rebot-Sonya", "Aleksandra", "Konstantin", "vera-long", "bot-Mitya", "Boris_1234", "Gleb", "Yevgeniya",
         "Xenia_ok"]


def check_felt(app: ClubApp, lang: str) -> None:
    tview = app.screen.tview
    view = tview.view
    felt = rows(app)[1:11]
    width = app.size.width
    for seat, name in enumerate(view.names):
        shown = tr(lang, "table.you") if seat == view.seat else name
        words = " · ".join(seat_words(view, seat, lang))
        if lang == "ru":
            assert not re.search("[A-Za-z]", words), words  # the game's state words translated (item 15)
        cash = money(view.balances[seat], lang) if view.balances else ""
        hits = [r for r, row in enumerate(felt) if f" {shown} " in f"{row} " or row.startswith(f"{shown} ")]
        assert hits, (lang, seat, shown, "\n".join(felt))
        ok = any(all(part in " ".join(felt[r:r + 2]) for part in (words, cash) if part) for r in hits)
        assert ok, (lang, seat, words, cash, "\n".join(felt))
        assert all(len(row) <= width for row in felt)
    assert "…" not in "\n".join(felt)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_name", sorted(set(registry()) - {"highcard"}))
async def test_the_largest_table_fits_80x24(game_name, lang):
    cls = registry()[game_name]
    rng = random.Random(7)
    club = Club([{"game": game_name, "seats": cls.max_players, "clock": 0}], seed=11)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in NAMES[:cls.max_players - 1]:
            table.sit(name)
            club.enter(name)  # online: no "away" on the felt
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        check_felt(app, lang)
        for _ in range(40):
            if game is None or not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())
            await pilot.pause()
            check_felt(app, lang)
