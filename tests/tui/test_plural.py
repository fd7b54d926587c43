"""Plural forms by the CLDR rules in both catalogues (issue 13, item 16).

Every catalogue message that takes a count is run with 0, 1, 2, 5, 11, 21, 22 and 25 in both
languages; the form it shows is checked against the CLDR categories written out here by hand
(not computed by the code under test), and nothing says ``(s)``.
"""

from __future__ import annotations

import re
import string

import pytest
from screen import text, type_line

from engine.table.club import Club
from engine.game import Event
from tui.app import ClubApp
from tui.i18n import en, plural, ru, tr
from tui.i18n.plural import category
from tui.narrate import narrate

COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)
# CLDR cardinal categories, copied from the CLDR plural rules chart (ru: one/few/many; en: one/other).
CLDR = {
    "ru": {0: "many", 1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many",
           3: "few", 4: "few", 12: "many", 14: "many", 101: "one", 111: "many", 112: "many", 104: "few"},
    "en": {0: "other", 1: "one", 2: "other", 5: "other", 11: "other", 21: "other", 22: "other", 25: "other",
           3: "other", 4: "other", 12: "other", 14: "other", 101: "other", 111: "other", 112: "other", 104: "other"},
}
ORDER = {"ru": ("one", "few", "many"), "en": ("one", "other")}
# Blanks that hold a count of things (a noun follows it, or a verb agrees with it).
COUNT_NAMES = {"count", "n", "cards", "stock", "left", "back", "drew", "free", "balance", "needed", "seated"}
# Count-named blanks that are not counts of things, and why.
NOT_COUNTS = {
    ("who.list", "count"): "a number in brackets, no noun",
    ("cmd.select_card", "n"): "a card's position in the hand: a label",
    ("cmd.no_card", "n"): "a card's position in the hand: a label",
    ("kopilka.take_first", "free"): "a list of places",
    ("kopilka.no_place", "free"): "a list of places",
    ("kopilka.place_taken", "free"): "a list of places",
    ("hint.kopilka_discard", "cards"): "a list of cards to type",
}
CATALOGUE = {"en": en.MESSAGES, "ru": ru.MESSAGES}


def fields(template: str) -> list[tuple[str, str]]:
    return [(name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name]


def counted(key: str, template: str) -> set[str]:
    return {name for name, _ in fields(template) if name in COUNT_NAMES and (key, name) not in NOT_COUNTS}


def expected(lang: str, template: str, n: int, filler: dict) -> str:
    """The text by hand: each plural blank replaced by the form of the CLDR category above."""
    def form(match: re.Match) -> str:
        forms = match.group(2).split("|")
        assert len(forms) == len(ORDER[lang]), (lang, template)
        return forms[ORDER[lang].index(CLDR[lang][n])].replace("#", str(n))
    return re.sub(r"\{(\w+):plural:([^}]*)\}", form, template).format(**filler)


def filler_for(template: str, n: int) -> dict:
    return {name: (n if name in COUNT_NAMES else f"<{name}>") for name, _ in fields(template)}


def test_cldr_categories():
    for lang, table in CLDR.items():
        for n, cat in table.items():
            assert category(lang, n) == cat, (lang, n)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_message_with_a_count_takes_the_cldr_form(lang):
    seen = 0
    for key, template in CATALOGUE[lang].items():
        assert "(s)" not in template and "(а)" not in template and "(ы)" not in template, key
        blanks = counted(key, template) | counted(key, CATALOGUE["en"][key])
        if not blanks:
            continue
        plural_blanks = {name for name, spec in fields(template) if spec.startswith("plural:")}
        # every count with a noun or an agreeing verb goes through a plural form
        missing = {b for b in blanks if f"{{{b}:plural:" not in template and not re.search(
            r"\{%s\}\)?$|: \{%s\}|\{%s\} из|of \{%s\}|most \{%s\}" % ((b,) * 5), template)}
        assert not missing, (lang, key, missing, template)
        seen += 1
        for n in COUNTS:
            filler = filler_for(template, n)
            shown = tr(lang, key, **filler)
            assert "{" not in shown and "(s)" not in shown, (key, shown)
            if plural_blanks:
                assert shown == expected(lang, template, n, filler), (lang, key, n, shown)
            if lang == "en" and n == 1:
                assert not re.search(r"\b1 (more )?[a-z]+s\b(?! is)", shown.replace("1 seat is", "")), shown
    assert seen >= 14


@pytest.mark.parametrize(("n", "shown"), [(1, "1 карта"), (3, "3 карты"), (5, "5 карт"), (11, "11 карт"),
                                           (21, "21 карта"), (22, "22 карты"), (0, "0 карт"), (112, "112 карт")])
def test_russian_cards(n, shown):
    assert tr("ru", "replay.hidden", count=n) == f"{shown} рубашкой вверх"
    assert plural("ru", n, "# карта", "# карты", "# карт") == shown


def test_russian_instrumental_and_english_one():
    assert "Над 21 столом зелёного" in tr("ru", "hall.describe", count=21)
    assert "Над 5 столами" in tr("ru", "hall.describe", count=5)
    assert tr("en", "table.tricks", n=1) == "1 trick" and tr("en", "table.tricks", n=0) == "0 tricks"
    assert tr("ru", "table.tricks", n=21) == "21 взятка" and tr("ru", "table.tricks", n=12) == "12 взяток"
    assert tr("en", "table.hint_need", count=1).startswith("Waiting for one more player to")
    assert plural("en", 1, "# seat", other="# seats") == "1 seat" and plural("en", 2, "# seat", other="# seats") == "2 seats"


def test_narration_counts_cards_in_the_accusative():
    names = ["anna", "boris"]
    assert narrate(Event("buy", 0, {"count": 21}), names, "ru") == "anna прикупает 21 карту."
    assert narrate(Event("buy", 0, {"k": 3, "widow": 2}), names, "ru") == "anna прикупает 3 карты. В прикупе 2 карты."
    assert narrate(Event("buy", 1, {"count": 1}), names, "en") == "boris buys 1 card."
    assert narrate(Event("lay_out", 0, {"cards": 5}), names, "ru") == "anna выкладывает 5 карт рубашкой вверх."
    assert narrate(Event("exchange_done", None, {"stock": 2}), names, "en").endswith("2 cards remain in the stock.")


def test_russian_statuses_need_no_gender():
    """A status or an event about a person reads the same for a man and a woman (neutral wording)."""
    for key in ("status.ready_deal", "status.away", "status.played", "status.led", "status.knock", "status.forced",
                "ev.table_ready", "ev.timeout", "ev.stand_in", "ev.away", "ev.back", "ev.gone", "ev.redeal"):
        shown = tr("ru", key, name="Вера", who="Вера", card="A♠", action="пас")
        assert not re.search(r"(готов|обязан|отошёл|вернулся|сыграл|зашёл|стукнул|открыл|него)\b", shown), shown


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_hall_says_seats_and_people_in_their_forms():
    club = Club([{"game": "stukolka"}, {"game": "stukolka"}], seed=1)
    club.tables[1].sit("boris")
    for name in ("vera", "gleb"):
        club.tables[2].sit(name)
    for lang, one, many in (("en", "boris sits at table 1", "vera, gleb sit at table 2"),
                            ("ru", "сидит boris; свободно", "сидят vera, gleb; свободно")):
        app = ClubApp(club, "anna", lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await type_line(pilot, "look")
            screen = text(app)
            assert one in screen and many in screen, screen
            assert "(s)" not in screen
            if lang == "ru":
                assert "свободно 3 места" in screen and "свободно 2 места" in screen and "Над 2 столами" in screen
            else:
                assert "3 seats are free" in screen and "over 2 tables" in screen
