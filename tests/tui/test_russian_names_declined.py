"""A name put into a Russian sentence anywhere (not only the game log) is in the case the sentence needs,
by the one helper (``tui.i18n.names``), or the sentence is said another way with the name as typed."""

from __future__ import annotations

import pytest

from engine.table.club import Club
from tui.i18n import tr
from tui.i18n.names import accusative
from tui.text.club import TextClub
from tui.text.prefs import Prefs


@pytest.mark.parametrize("name,acc", [
    ("Аня", "Аню"), ("Ольга", "Ольгу"), ("Никита", "Никиту"), ("Мария", "Марию"), ("Илья", "Илью"),
    ("Борис", "Бориса"), ("Андрей", "Андрея"), ("Пьеро", "Пьеро"), ("Игорь", None), ("anna", None),
])
def test_accusative_of_russian_first_names(name, acc):
    assert accusative(name) == acc


def person(club: Club, name: str) -> tuple[TextClub, list[str]]:
    lines: list[str] = []
    text = TextClub(club, name, write=lines.append, lang="ru", clock=lambda: 0.0, prefs=Prefs())
    text.wake = text.news
    text.start()
    return text, lines


def said(text: TextClub, lines: list[str], line: str) -> list[str]:
    before = len(lines)
    text.line(line)
    return lines[before:]


@pytest.mark.parametrize("other, gen, acc", [("Аня", "Ани", "Аню"), ("Борис", "Бориса", "Бориса")])
def test_whisper_ignore_and_forgive_decline_the_name(other, gen, acc) -> None:
    club = Club([{"game": "stukolka"}], seed=1)
    vera, lines = person(club, "Вера")
    assert f"{gen} сейчас нет в клубе." in said(vera, lines, f"шепнуть {other} привет")
    person(club, other)
    assert any(line.startswith(f"Вы больше не слышите {acc}: ни разговоров, ни шёпота (простить {other}")
               for line in said(vera, lines, f"игнор {other}"))
    assert f"Вы снова слышите {acc}." in said(vera, lines, f"простить {other}")
    assert f"Вы и так слышите {acc}." in said(vera, lines, f"простить {other}")


def test_a_name_whose_case_its_ending_does_not_tell_is_said_as_typed() -> None:
    club = Club([{"game": "stukolka"}], seed=1)
    vera, lines = person(club, "Вера")
    assert "Игорь сейчас не в клубе." in said(vera, lines, "шепнуть Игорь привет")
    person(club, "Игорь")
    assert any(line.startswith("Игорь: вы больше не слышите этого человека")
               for line in said(vera, lines, "игнор Игорь"))
    assert tr("en", "social.not_here", name="Игорь") == "Игорь is not in the club now."
    assert tr("ru", "social.not_here", name="anna") == "anna сейчас не в клубе."
