"""Money over time (issue 21 item 3): balance and history draw the balance over the last games as a sparkline,
the best and worst game marked (ASCII in ASCII mode); the text mode says it in a sentence."""

from __future__ import annotations

import json
import random

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from engine.store.sqlite import SqliteStore
from tui.app import ClubApp
from tui.i18n import money
from tui.text.club import TextClub
from tui.widgets.spark import BLOCKS, balance_series, expected_series, marks, sparkline

NAMES = ("anna", "boris", "vera", "gleb")


def test_sparkline_scales_lowest_to_highest_and_marks_best_and_worst() -> None:
    assert sparkline([0, 7, 14]) == "▁▅█"
    assert sparkline([0, 7, 14], ascii=True) == "_+@"
    assert sparkline([5, 5]) == "▄▄" and sparkline([]) == ""
    assert marks(5, 3, 1) == " ▼ ▲" and marks(5, 3, 1, ascii=True) == " v ^"
    assert balance_series(100, [10, -30, 5]) == [120, 90, 100]  # newest first in, oldest first out


@pytest.fixture
def played(tmp_path):
    """Four finished Стуколка sessions (anna stands after each deal, then sits again)."""
    store = SqliteStore(tmp_path / "sukno.db")
    for name in NAMES:
        store.create_account(name, grant=5000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0, seed=4)
    table = club.tables[1]
    rng = random.Random(7)
    for _ in range(4):
        for name in NAMES:
            if name not in table.seats:
                table.sit(name)
        for name in NAMES:
            table.start(name, now=0.0)
        while table.in_deal():
            seat = table.game.to_act()[0]
            table.act(table.game.names[seat], rng.choice(table.game.legal_actions(seat)).text(), now=0.0)
        table.stand("anna")
    yield club, store
    store.close()


def expected(store, name: str) -> tuple[str, list]:
    games = store.history(name, 30)[::-1]
    series = balance_series(store.balance(name), [g.net for g in games[::-1]])
    return sparkline(series), games


@pytest.mark.parametrize("verb", ["balance", "history"])
async def test_balance_and_history_draw_the_chart_with_best_and_worst(played, verb: str) -> None:
    club, store = played
    who = "anna"  # stood up after each session: the hall
    assert len({g.net for g in store.history(who, 30)}) > 1
    spark, games = expected(store, who)
    assert len(games) >= 3 and set(spark) <= set(BLOCKS)
    app = ClubApp(club, who)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, verb)
        shown = rows(app)
        line = next(i for i, r in enumerate(shown) if f"Over your last {len(games)} games:" in r)
        assert spark in shown[line]
        start = shown[line].index(spark)
        nets = [g.net for g in games]
        best, worst = nets.index(max(nets)), len(nets) - 1 - nets[::-1].index(min(nets))
        under = shown[line + 1]
        assert under[start + best] == "▲" and under[start + worst] == "▼"
        b, w = games[best], games[worst]
        sign = "+" if b.net > 0 else ""
        assert f"Best game #{b.id} ({sign}{money(b.net, 'en')}), worst #{w.id}" in text(app)
        assert all(len(r) <= 80 for r in shown)


async def test_ascii_mode_draws_the_chart_in_ascii(played) -> None:
    club, store = played
    app = ClubApp(club, "anna", ascii=True)  # anna stood up: the hall, where the log has room
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "balance")
        line = next(r for r in rows(app) if "Over your last" in r)
        assert not any(ch in line for ch in BLOCKS)
        assert sparkline(balance_series(store.balance("anna"), [g.net for g in store.history("anna", 30)]),
                         ascii=True) in line


def test_the_text_mode_says_the_chart_in_a_sentence(played) -> None:
    club, store = played
    lines: list[str] = []
    person = TextClub(club, "vera", write=lines.append, lang="ru", clock=lambda: 100.0)
    person.start()
    mark = len(lines)
    person.line("счёт")
    said = " ".join(lines[mark:])
    games = store.history("vera", 30)
    assert f"За последние {len(games)} игры ваш счёт прошёл от " in said
    assert f"до {money(store.balance('vera'), 'ru')}" in said
    assert not any(ch in said for ch in BLOCKS)


def analyse_some(store, name: str) -> dict[int, float]:
    """Keep an analysis of two of ``name``'s games, as the club's analyst does; what each says he gave away."""
    from engine.analysis import analyse

    kept: dict[int, float] = {}
    for info in store.history(name, 30)[:3]:
        result = analyse(store.get_record(info.id), budget=8, seed=1)
        store.keep_analysis(info.id, 8, 1, json.dumps(result.to_json()))
        kept[info.id] = sum(s.loss for s in result.seats if s.name == name)
    return kept


async def test_the_chart_draws_the_expected_money_beside_the_real_on_one_scale(played) -> None:
    club, store = played
    kept = analyse_some(store, "anna")
    games = store.history("anna", 30)[::-1]
    series = balance_series(store.balance("anna"), [g.net for g in games[::-1]])
    expected = expected_series(series, [kept.get(g.id, 0.0) for g in games])
    scale = (min(series + expected), max(series + expected))
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "balance")
        shown = rows(app)
        line = next(i for i, r in enumerate(shown) if f"Over your last {len(games)} games:" in r)
        real, ideal = sparkline(series, scale=scale), sparkline(expected, scale=scale)
        start = shown[line].index(real)
        below = next(r for r in shown[line + 1:line + 4] if "Had the analysis's choices:" in r)
        assert below.index(ideal) == start  # one column a game, the two lines aligned
        lost = money(round(sum(kept.values())), "en")
        assert f"{lost} given away by your decisions in 3 analysed games" in text(app)
        assert all(len(r) <= 80 for r in shown)
    assert expected[-1] == round(series[-1] + sum(kept.values()))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_text_mode_says_what_the_analysed_decisions_gave_away(played, lang: str) -> None:
    club, store = played
    kept = analyse_some(store, "anna")
    lines: list[str] = []
    person = TextClub(club, "anna", write=lines.append, lang=lang, clock=lambda: 100.0)
    person.start()
    mark = len(lines)
    person.line("balance" if lang == "en" else "счёт")
    said = " ".join(lines[mark:])
    lost = money(round(sum(kept.values())), lang)
    would = money(round(store.balance("anna") + sum(kept.values())), lang)
    real = money(store.balance("anna"), lang)
    assert sum(kept.values()) > 0  # anna played at random: her decisions cost something
    if lang == "en":
        assert (f"By the analyses of 3 of these games, your decisions gave away {lost} in expectation; "
                f"without that your balance would be about {would} (it is {real}).") in said
    else:
        assert f"По разбору 3 из этих игр ваши решения отдали в среднем {lost}; без этого ваш счёт был бы около {would} (сейчас {real})." in said


def test_a_chart_with_no_analysis_has_no_second_line(played) -> None:
    club, store = played
    lines: list[str] = []
    person = TextClub(club, "anna", write=lines.append, lang="en", clock=lambda: 100.0)
    person.start()
    person.line("balance")
    assert not any("analys" in line for line in lines)
