"""``top``, ``rating``, ``league`` and the marks beside names, as the text mode says them in both languages."""

from __future__ import annotations

import time

import pytest
from ratingkit import accounts, save_games

from engine.ratings import Rating
from engine.store.sqlite import SqliteStore
from engine.table.club import Club
from tui.ratings import game_named, league_start
from tui.text.club import TextClub


class Book:
    def __init__(self, book: dict[str, dict[str, Rating]]) -> None:
        self.book = book

    def of(self, name: str) -> dict[str, Rating]:
        return {k: v[name] for k, v in self.book.items() if name in v}


BOOK = {
    "kopilka": {"anna": Rating(30.0, 2.0, 40), "Boris": Rating(24.0, 2.5, 35), "Vera": Rating(26.0, 7.0, 3)},
    "stukolka/v": {"anna": Rating(27.0, 3.0, 22)},
}


def person(lang: str, store=None) -> tuple[TextClub, list[str]]:
    club = Club([{"game": "kopilka"}], store=store, seed=3)
    club.ratings = Book(BOOK)
    lines: list[str] = []
    text = TextClub(club, "anna", write=lines.append, lang=lang, clock=lambda: 100.0)
    text.start()
    return text, lines


def said(text: TextClub, lines: list[str], line: str) -> list[str]:
    mark = len(lines)
    text.line(line)
    return lines[mark:]


def test_top_lists_the_best_first_with_their_deals_and_a_provisional_mark() -> None:
    text, lines = person("en")
    rows = sorted(BOOK["kopilka"].items(), key=lambda i: (-i[1].shown, -i[1].deals, i[0]))
    assert [name for name, _ in rows] == ["anna", "Boris", "Vera"]  # Vera's mean is higher, her uncertainty too
    assert said(text, lines, "top kopilka") == ["The best at The Kitty:"] + [
        f"{n}. {name}, rating {r.label()}, {r.deals} deal{'s' if r.deals != 1 else ''}."
        for n, (name, r) in enumerate(rows, 1)]
    assert BOOK["kopilka"]["Vera"].label().endswith("?") and not BOOK["kopilka"]["anna"].label().endswith("?")


def test_russian_words_and_game_names_reach_the_same_table() -> None:
    text, lines = person("ru")
    got = said(text, lines, "лучшие копилка")
    assert got[0] == "Лучшие в игре «Копилка»:" and got[1] == f"1. anna, рейтинг {BOOK['kopilka']['anna'].label()}, 40 сдач."
    got = said(text, lines, "лучшие стуколка в")
    assert got == ["Лучшие в игре «Стуколка (в)»:", f"1. anna, рейтинг {BOOK['stukolka/v']['anna'].label()}, 22 сдачи."]
    assert said(text, lines, "лучшие вист") == ["Игры «вист» нет. Игры: french3, kopilka, speculator, stukolka, ukr_pairs."]


def test_rating_says_each_game_and_place_and_who_shows_the_mark() -> None:
    text, lines = person("en")
    assert said(text, lines, "rating") == [
        "Ratings of anna:",
        f"The Kitty: {BOOK['kopilka']['anna'].label()}, 40 deals, place 1 of 3.",
        f"Stukolka (в): {BOOK['stukolka/v']['anna'].label()}, 22 deals, place 1 of 1.",
    ]
    assert said(text, lines, "rating Vera")[-1] == "A question mark means provisional: fewer than 20 deals so far."
    assert said(text, lines, "rating Gleb") == ["Gleb has no rating yet: ratings come from finished deals."]
    assert f"anna [{BOOK['kopilka']['anna'].label()}]" in said(text, lines, "who")[0]


def test_game_names_in_either_language_and_league_weeks() -> None:
    assert game_named("Копилка") == "kopilka" == game_named("kopilka")
    assert game_named("stukolka v") == "stukolka/v" and game_named("стуколка г") == "stukolka/g"
    assert game_named("whist") is None and game_named("kopilka x") is None
    saturday = 1764979200.0 + 12 * 3600  # 2025-12-06 12:00 UTC, a Saturday
    assert time.gmtime(league_start("monday", saturday))[:3] == (2025, 12, 1)
    assert time.gmtime(league_start("month", saturday))[:3] == (2025, 12, 1)
    assert league_start("day", saturday) == 1764979200.0


@pytest.mark.parametrize("lang, head", [("en", "This league of French three-hand"), ("ru", "Лига игры «")])
def test_the_league_is_money_won_since_the_week_began(tmp_path, lang: str, head: str) -> None:
    store = SqliteStore(tmp_path / "sukno.db")
    accounts(store)
    save_games(store, 4, seed=6, finished_at=time.time())
    text, lines = person(lang, store)
    got = said(text, lines, "league french3")
    assert got[0].startswith(head) and len(got) >= 2
    assert all("Bot Ivan" not in line for line in got)
    store.close()
