"""What a player sees of reports and the message of the day: the hall (Pilot, 80×24) and the text mode, en/ru.

The message of the day is plain text: ``[red]x[/]`` is shown as typed, never as markup.
"""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.table.club import Club
from tui.app import ClubApp
from tui.text.club import TextClub

MOTD = "[red]x[/] tonight at eight"


@pytest.fixture
def club(fake_game) -> Club:
    club = Club([{"game": "highcard", "seats": 3}], seed=1)
    club.motd = MOTD
    return club


def text_club(club: Club, name: str, lang: str, arrival: object | None = None) -> tuple[TextClub, list[str]]:
    lines: list[str] = []
    person = TextClub(club, name, write=lines.append, lang=lang, clock=lambda: 100.0)
    if arrival is not None:
        person.arrival = arrival
    person.wake = lambda: person.news()
    person.start()
    return person, lines


@pytest.mark.parametrize(("lang", "notice"), [("en", "Notice of the house: "), ("ru", "Объявление дома: ")])
def test_the_text_mode_shows_the_motd_once_a_session_as_typed(club, lang: str, notice: str) -> None:
    session = type("Session", (), {})()  # one session, whichever mode runs it
    _, lines = text_club(club, "anna", lang, session)
    assert lines[1] == notice + MOTD
    _, again = text_club(club, "anna", lang, session)  # ``mode text`` again in the same session
    assert not any(MOTD in line for line in again)
    club.motd = ""
    _, none = text_club(club, "boris", lang)
    assert not any(notice in line for line in none)


@pytest.mark.parametrize(("lang", "verb", "filed", "usage", "self_line", "nobody"), [
    ("en", "report", "Thank you: the house has your report about boris, with his last words you could see.",
     "Type report, a name and what happened", "You cannot report yourself.",
     "Nobody named zed is here or was heard lately."),
    ("ru", "пожаловаться", "Спасибо: дом получил вашу жалобу на boris вместе с его последними словами",
     "Наберите пожаловаться, имя и что случилось", "На себя жаловаться нельзя.",
     "Никого по имени zed здесь нет и не было слышно в последнее время."),
])
def test_the_text_mode_files_a_report_and_explains_refusals(club, lang, verb, filed, usage, self_line,
                                                            nobody) -> None:
    club.enter("boris")
    club.say("boris", "you play like a mule")
    anna, lines = text_club(club, "anna", lang)
    for line in (f"{verb} boris cheats and insults", f"{verb} boris", f"{verb} anna rude", f"{verb} zed rude"):
        anna.line(line)
    said = "\n".join(lines)
    assert filed in said and usage in said and self_line in said and nobody in said
    [report] = club.reports.kept
    assert (report.reporter, report.target, report.words) == ("anna", "boris", "cheats and insults")
    assert [x.text for x in report.seen] == ["you play like a mule"]


async def test_the_hall_shows_the_motd_as_typed_and_takes_a_report(club) -> None:
    club.enter("boris")
    club.say("boris", "mule")
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Notice of the house: " + MOTD in text(app)
        await type_line(pilot, "report boris rude in the hall")
        assert "Thank you: the house has your report about boris" in text(app)
        await type_line(pilot, "lang ru")
        await type_line(pilot, "пожаловаться anna x")
        assert "На себя жаловаться нельзя." in text(app)
    assert [r.words for r in club.reports.kept] == ["rude in the hall"]
    assert [x.text for x in club.reports.kept[0].seen] == ["mule"]


async def test_the_hall_door_app_leaves_the_motd_to_the_door(club) -> None:
    app = ClubApp(club, "anna")
    app.on_hall = lambda: None  # a session's App: its hall door told the notice on arrival
    async with app.run_test(size=(80, 24)):
        assert MOTD not in text(app)
