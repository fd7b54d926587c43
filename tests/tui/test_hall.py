"""Pilot tests of the welcome and hall screens (80×24 and 120×40)."""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.table.club import Club
from tui.app import ClubApp
from tui.screens.hall import HallScreen
from tui.screens.table import TableScreen


@pytest.fixture
def club(fake_game) -> Club:
    return Club([{"game": "highcard", "seats": 3}, {"game": "highcard"}], seed=1)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_welcome_asks_for_a_name_until_register_accepts(club):
    asked: list[str] = []

    def register(name: str) -> str | None:
        asked.append(name)
        return "that name is taken" if name in ("anna", "lokk") else None

    app = ClubApp(club, None, register=register)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "book of names" in text(app)
        await type_line(pilot, "x")
        assert "will not do" in text(app) and asked == []
        await type_line(pilot, "anna")
        assert "that name is taken" in text(app)
        await type_line(pilot, "lokk")
        assert "lokk" in asked
        # a refused name is not also run as a hall command (issue 13 item 2)
        assert "I do not know" not in text(app) and "Did you mean" not in text(app)
        asked.remove("lokk")
        await type_line(pilot, "Вера_2")
        assert asked == ["anna", "Вера_2"]
        assert isinstance(app.screen, HallScreen)
        assert "Вера_2" in text(app) and club.online() == ["Вера_2"]
    assert club.online() == []


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_hall_look_tables_who_and_errors(club, size):
    app = ClubApp(club, "anna")
    async with app.run_test(size=size) as pilot:
        club.tables[1].sit("boris")
        await pilot.pause()
        screen = text(app)
        assert "The hall of the club" in screen and "1/3" in screen and "0/2" in screen
        await type_line(pilot, "who")
        assert "Online (1): anna." in text(app)
        await type_line(pilot, "lokk")
        assert "I do not know 'lokk'. Did you mean look" in text(app)
        await type_line(pilot, "sit 9")
        assert "There is no table 9." in text(app)
        await type_line(pilot, "sit x")
        assert "'x' is not a table number." in text(app)
        await type_line(pilot, "rules highcard")
        assert "High card: a test game" in text(app)
        await type_line(pilot, "правила Дурак")
        assert "No rules for 'Дурак'" in text(app)
        await type_line(pilot, "knock")
        assert "You are not at a table" in text(app)
        assert club.tables[1].seats == ["boris", None, None]


async def test_hall_chat_is_sanitised_and_reaches_everyone(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        club.enter("boris")
        club.say("boris", "\x1b[2Jкто в [bold]стуколку[/bold]?\x07")
        await pilot.pause()
        await pilot.pause()
        screen = text(app)
        assert "boris comes into the club." in screen
        assert "boris says: кто в [bold]стуколку[/bold]?" in screen
        await type_line(pilot, "say привет")
        assert club.hall_since(0)[-1].event.data == {"name": "anna", "text": "привет"}


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_tab_completes_verbs_and_history_recalls_lines(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "a", "tab")
        assert app.screen.cmdline.value == "tables "
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("w", "h", "o", "enter")
        await pilot.pause()
        await pilot.press("up")
        assert app.screen.cmdline.value == "who"
        await pilot.press("up")
        assert app.screen.cmdline.value == "tables"
        await pilot.press("down", "down")
        assert app.screen.cmdline.value == ""
        await pilot.press("s", "tab")
        assert "Possible:" in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_lang_switches_and_russian_verbs_work(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "lang ru")
        assert "Теперь здесь говорят по-русски." in text(app)
        await type_line(pilot, "кто")
        assert "В клубе (1): anna." in text(app)
        await type_line(pilot, "lang de")
        assert "Неизвестный язык 'de'" in text(app)
        await type_line(pilot, "правила Старшая карта")
        assert "Старшая карта: тестовая игра." in text(app)
        await type_line(pilot, "сесть 2")
        assert isinstance(app.screen, TableScreen)
        assert "Стол 2" in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_guest_may_watch_and_talk_but_not_sit(club):
    watched: list[int] = []
    app = ClubApp(club, "guest1", guest=True, on_watch=watched.append)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "You are a guest" in text(app)
        await type_line(pilot, "sit 1")
        assert "Guests may watch and talk but not sit" in text(app)
        assert club.tables[1].seats == [None, None, None]
        await type_line(pilot, "watch 1")
        assert watched == [1]  # net's shared view watches for the session (tui.app)
        assert isinstance(app.screen, HallScreen)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_quit_exits_and_leaving_keeps_the_seat(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1 2")
        assert club.tables[1].seats == [None, "anna", None]
        await type_line(pilot, "quit")
    assert club.online() == [] and club.tables[1].seats[1] == "anna"
    again = ClubApp(club, "anna")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, TableScreen) and again.screen.table.id == 1


async def test_welcome_understands_lang_and_quit(club):
    app = ClubApp(club, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "lang ru")
        assert "Швейцар раскрывает книгу имён" in text(app)
        assert app.screen.cmdline.cursor_blink is False
        await type_line(pilot, "выход")
    assert club.online() == []


async def test_f1_shows_help(club):
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert "In the hall: look" in text(app)


async def test_tab_in_a_burst_completes_what_was_typed_before_it(club):
    """Keys that arrive in one packet (a paste, tmux send-keys) reach the line in order: Tab sees 'ta'."""
    from textual import events

    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, char in (("t", "t"), ("a", "a"), ("tab", "\t")):
            app.post_message(events.Key(key, char))
        await pilot.pause()
        await pilot.pause()
        assert app.screen.cmdline.value == "tables "


async def test_a_seat_that_is_not_a_number_is_refused_and_changes_nothing(club):
    """``sit N SEAT`` and ``sit bot SEAT`` read the seat alike: a word is refused by name, in his language."""
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1 x")
        assert "'x' is not a seat number." in text(app)
        assert club.tables[1].seats == [None, None, None] and isinstance(app.screen, HallScreen)
        await type_line(pilot, "lang ru")
        await type_line(pilot, "сесть 1 х")
        assert "'х' — не номер места." in text(app)
        assert club.tables[1].seats == [None, None, None]
        await type_line(pilot, "сесть 1 2")
        assert club.tables[1].seats == [None, "anna", None] and isinstance(app.screen, TableScreen)
        await type_line(pilot, "sit bot x")
        assert "'x' — не номер места." in text(app)
        assert club.tables[1].seats == [None, "anna", None]
