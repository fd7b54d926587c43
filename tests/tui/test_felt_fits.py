"""Every game at its largest table fits 80×24: each seat's name, rating, state and balance whole on screen.

Random legal play at the game's maximum number of seats; after every move the felt's rows on
the Pilot screen must hold every seat's name, its state words (translated: no English in a
Russian session) and its balance — whole, on the seat's own line or the line under it.
"""

from __future__ import annotations

import random
import re

import pytest
from screen import rows, type_line

from engine.games import registry
from engine.ratings import Rating, rating_key
from engine.table.club import Club
from tui.app import ClubApp
from tui.i18n import money, tr
from tui.widgets.felt import seat_words

NAMES = ["rebot-Sonya", "Aleksandra", "Konstantin", "vera-long", "bot-Mitya", "Boris_1234", "Gleb", "Yevgeniya",
         "Xenia_ok"]


class Book:
    """The club's ratings as the server keeps them: every player rated, the longest label (provisional)."""

    def __init__(self, key: str, names: list[str]) -> None:
        self.book = {key: {name: Rating(25.0 + i, 8.0, 3) for i, name in enumerate(names)}}


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
        rated = f"{shown} {view.rating_of(name)}" if view.rating_of(name) else shown
        hits = [r for r, row in enumerate(felt) if f" {rated} " in f"{row} " or row.startswith(f"{rated} ")]
        assert hits, (lang, seat, rated, "\n".join(felt))
        ok = any(all(part in " ".join(felt[r:r + 2]) for part in (words, cash) if part) for r in hits)
        if not ok and words:  # beside the trick and the trump the state words may be cut, never dropped
            ok = any(cut_words(words, " ".join(felt[r:r + 2])) and (not cash or cash in " ".join(felt[r:r + 2]))
                     for r in hits)
        assert ok, (lang, seat, words, cash, "\n".join(felt))
        assert all(len(row) <= width for row in felt)
    cuts = "\n".join(felt).count("…")
    assert cuts <= len(view.names), "\n".join(felt)  # one cut at most per seat's words, nothing else cut


def cut_words(words: str, shown: str) -> bool:
    """``words`` shown whole, or their first part (a third of them at least) then "…"."""
    return any(words[:n] + "…" in shown for n in range(max(1, len(words) // 3), len(words)))


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_name", sorted(set(registry()) - {"highcard"}))
async def test_the_largest_table_fits_80x24(game_name, lang):
    cls = registry()[game_name]
    rng = random.Random(7)
    club = Club([{"game": game_name, "seats": cls.max_players, "clock": 0}], seed=11)
    table = club.tables[1]
    club.ratings = Book(rating_key(game_name, table.options), ["anna", *NAMES])
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
        assert all(label.endswith("?") for _, label in app.screen.tview.view.ratings)
        assert len(app.screen.tview.view.ratings) == cls.max_players  # everyone's rating beside his name
        for _ in range(40):
            if game is None or not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())
            await pilot.pause()
            check_felt(app, lang)
