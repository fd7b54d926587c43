"""``rules GAME`` (``правила ИГРА``) for people reads docs/rules — the text the bot protocol sends — in the
person's language: the brief, then how to hear it whole; ``rules GAME all`` the whole file as plain lines.
Checked by the exact lines the text mode sends."""

from __future__ import annotations

import pytest

from engine.table.club import Club
from tui.rulebook import plain_lines, rules_text
from tui.text.club import TextClub


def person(lang: str) -> tuple[TextClub, list[str]]:
    club = Club([{"game": "kopilka", "think": 0, "clock": 0}, {"game": "ukr_pairs", "think": 0, "clock": 0}],
                seed=11)
    lines: list[str] = []
    anna = TextClub(club, "anna", write=lines.append, lang=lang, clock=lambda: 100.0)
    anna.wake = anna.news
    anna.start()
    lines.clear()
    return anna, lines


def said(anna: TextClub, lines: list[str], typed: str) -> list[str]:
    lines.clear()
    anna.line(typed)
    return list(lines)


@pytest.mark.parametrize("typed", ["правила копилка", "правила копилку", "правила Копилка", "правила kopilka"])
def test_russian_rules_in_brief_take_russian_game_names(typed: str) -> None:
    anna, lines = person("ru")
    assert said(anna, lines, typed) == [
        "Копилка: 4 игрока, по 5 карт и колода. Перед игрой обмен длинными мастями; кто не имеет масти хода, "
        "берёт из колоды. Платежи идут в копилку и из неё каждую сдачу; расчёт в конце партии.",
        "Все правила, строка за строкой: правила копилка все."]


def test_russian_rules_whole_are_the_russian_file_line_by_line() -> None:
    anna, lines = person("ru")
    whole = said(anna, lines, "правила копилка все")
    assert whole[:4] == [
        "Копилка (kopilka)",
        "Четверо игроков, каждый сам за себя, 32 карты, козырей нет. По пять карт на руках и колода для добора; "
        "масть обязательна, а у кого нет масти хода, может тянуть из колоды в надежде на неё.",
        "Взятки записываются по мастям в течение партии из четырёх сдач и оплачиваются из копилки в её конце; "
        "в каждой сдаче все, кроме первым сбросившего карты, платят в копилку.",
        "Колода и игроки:"]
    assert "Настройки:" in whole
    assert "D — по умолчанию: 20; пределы: 0–1000000000; что это: взнос каждого в копилку в начале партии (R6)" \
        in whole
    assert "take N (взять: место, с 1), discard C (снести), play C (ход), draw (тянуть), pass (пас)." in whole
    assert said(anna, lines, "правила копилка полностью") == whole
    assert not [line for line in whole if "`" in line or "**" in line or line.startswith(("#", "|", ">"))]


def test_english_rules_read_the_same_file_the_bot_protocol_sends() -> None:
    anna, lines = person("en")
    brief = said(anna, lines, "rules the kitty")
    assert brief == ["The Kitty: 4 players, 5 cards each and a stock. Long suits are exchanged before play; in "
                     "tricks a player void in the led suit draws from the stock.",
                     "Payments go into and out of the kitty each deal; the partiya is settled at its end.",
                     "The whole rules, line by line: rules the kitty all."]
    text = rules_text("kopilka")
    assert text is not None and "> " + " ".join(brief[:2]) + "\n" in text  # the quotation the protocol sends too
    whole = said(anna, lines, "rules kopilka all")
    assert whole[0] == "Копилка, the Kitty (kopilka)" and "Options:" in whole
    assert "M — default: 2; range: 1–100; what: how many times a trick won by the A♠ counts (R11)" in whole
    assert len(whole) >= len(plain_lines("kopilka", "en") or [])  # long lines are said sentence by sentence


def test_at_a_table_rules_alone_is_its_game_and_an_unknown_game_is_refused() -> None:
    anna, lines = person("ru")
    anna.line("сесть 2")
    answer = said(anna, lines, "правила")
    assert answer[0].startswith("Украинская парная: двое на двое, 36 карт, по 9")
    assert answer[-1] == "Все правила, строка за строкой: правила украинская парная все."
    assert said(anna, lines, "правила все")[0] == "Украинская парная (ukr_pairs)"
    assert said(anna, lines, "правила покер") == ["Правил игры 'покер' нет; в клубе играют: kopilka, ukr_pairs."]


async def test_the_hall_at_80_by_24_shows_the_rules_in_brief_and_whole() -> None:
    from screen import text, type_line

    from tui.app import ClubApp

    club = Club([{"game": "kopilka", "think": 0, "clock": 0}], seed=11)
    app = ClubApp(club, "anna", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "правила копилку")
        screen = " ".join(text(app).split())
        assert "расчёт в конце партии." in screen and "Все правила, строка за строкой: правила копилка все." in screen
        await type_line(pilot, "правила копилка все")  # the log ends with the file's last lines
        screen = " ".join(text(app).split())
        assert "pass (пас)." in screen and "правила копилка все — весь этот текст:" in screen
