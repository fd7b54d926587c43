"""Pilot tests of balance, history and replay ID against a club with a store."""

from __future__ import annotations

import random

import pytest
from screen import text, type_line

from engine.table.club import Club
from engine.store.sqlite import SqliteStore
from tui.app import ClubApp
from tui.screens.replay import ReplayScreen

NAMES = ("Anna", "Boris", "Vera", "Gleb")


@pytest.fixture
def club(tmp_path):
    """A Стуколка table with one finished session (Anna stood up after a deal) in the store."""
    store = SqliteStore(tmp_path / "sukno.db")
    for name in NAMES:
        store.create_account(name, grant=5000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0, seed=11)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    for name in NAMES:
        table.start(name, now=0.0)
    rng = random.Random(2)
    while table.in_deal():
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=0.0)
    table.stand("Anna")
    yield club
    store.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_balance_shows_the_ledger_and_the_hall_header_has_it(club):
    app = ClubApp(club, "Boris")
    async with app.run_test(size=(100, 30)) as pilot:
        balance = club.store.balance("Boris")
        await type_line(pilot, "sit 1")
        await type_line(pilot, "leave")
        from tui.i18n import money

        assert money(balance, "en") in text(app).splitlines()[0]
        await type_line(pilot, "balance")
        assert f"Your club balance: {money(balance, 'en')}" in text(app) and "k.." not in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_history_lists_the_session_and_replay_steps_through_it(club):
    app = ClubApp(club, "Vera")
    async with app.run_test(size=(100, 30)) as pilot:
        await type_line(pilot, "history")
        screen = text(app)
        assert "Your last games" in screen and "#1" in screen and "table 1" in screen
        await type_line(pilot, "replay 1")
        assert isinstance(app.screen, ReplayScreen)
        screen = text(app)
        assert "Record 1 · Stukolka" in screen and "move 0/" in screen
        assert "cards, hidden" not in screen  # the game is over: every hand face up (issue 21)
        for hand in app.screen.frames[0].dealt:
            assert all(card.text() in screen for card in hand)
        await pilot.press("right")
        assert "move 1/" in text(app)
        await pilot.press("left", "left")
        assert "move 0/" in text(app)
        await pilot.press("end")
        screen = text(app)
        assert "every hand as it was dealt" in screen and "cards, hidden" not in screen
        for hand in app.screen.frames[-1].dealt:
            assert all(card.text() in screen for card in hand)
        await pilot.press("escape")
        assert not isinstance(app.screen, ReplayScreen)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_bad_replay_ids_and_russian_words(club):
    app = ClubApp(club, "Gleb", lang="ru")
    async with app.run_test(size=(100, 30)) as pilot:
        await type_line(pilot, "повтор 99")
        assert "Записи 99 нет." in text(app)
        await type_line(pilot, "повтор x")
        assert "Какую запись?" in text(app)
        await type_line(pilot, "счёт")
        assert "Ваш счёт в клубе" in text(app)
        await type_line(pilot, "история")
        assert "Ваши последние игры" in text(app)


async def test_without_a_store_balance_is_the_money_at_the_tables(fake_game):
    club = Club([{"game": "highcard"}], seed=1)
    app = ClubApp(club, "Anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "balance")
        assert "this club keeps no ledger" in text(app)
        await type_line(pilot, "history")
        assert "This club keeps no records." in text(app)


async def test_a_player_at_zero_is_told_why_he_cannot_sit(tmp_path):
    store = SqliteStore(tmp_path / "sukno.db")
    store.create_account("Pauper")
    club = Club([{"game": "stukolka"}], store=store, now=0.0)
    app = ClubApp(club, "Pauper")
    async with app.run_test(size=(100, 30)) as pilot:
        await type_line(pilot, "sit 1")
        assert "Your club balance is 0 kopecks" in text(app) and "does not allow debt" in text(app)
        assert club.tables[1].seated() == []
    store.close()


async def test_replay_in_the_club_marks_the_decisions_of_a_kept_analysis(club):
    """Once ``analyse ID`` has kept an analysis, ``replay ID`` shows each judged action's verdict beside it."""
    import json

    from types import SimpleNamespace

    from engine.analysis import analyse
    from tui.analysis import decision_line

    store = club.store
    analysis = analyse(store.get_record(1), budget=8, seed=1).to_json()
    store.keep_analysis(1, 8, 1, json.dumps(analysis))
    judged = analysis["decisions"][0]
    app = ClubApp(club, "Vera")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "replay 1")
        assert isinstance(app.screen, ReplayScreen)
        for _ in range(judged["index"]):
            await pilot.press("right")
        screen = text(app)
        assert f"move {judged['index']}/" in screen
        said = decision_line(SimpleNamespace(**judged), "en")
        assert " ".join(said.split()) in " ".join(" ".join(row.strip() for row in screen.splitlines()).split())


async def test_replay_in_the_club_without_an_analysis_has_no_marks(club):
    app = ClubApp(club, "Vera")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "replay 1")
        for _ in range(3):
            await pilot.press("right")
        assert "was better by" not in text(app) and "the search's choice" not in text(app)
