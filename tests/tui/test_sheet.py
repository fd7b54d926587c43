"""Score sheets as the seeds describe them (issue 21 item 2), at 80x24, in both languages.

The three-hander's paper sheet (RULES.md example B1: E above 2 / below 4, M 3 (2+1) / 0, D 3 / 0), Копилка's
partiya sheet by suit with the A♠ multiplier and the kitty, the pairs game's record from the agreed start with
рожок/тринька marked; in the replay (s) and at a live table (score, F2), and as sentences in the text mode.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from engine.record import load_record
from tui.app import ClubApp
from tui.replay_app import ReplayApp
from tui.text.club import TextClub

RECORDS = Path(__file__).parents[1] / "records"


def columns(line: str) -> list[str]:
    """The cells of a sheet row, split on runs of spaces."""
    return [cell.strip() for cell in line.strip().split("  ") if cell.strip()]


async def sheet_at_end(name: str, lang: str) -> list[str]:
    app = ReplayApp(load_record(RECORDS / name), name, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "s")
        shown = rows(app)
        assert all(len(row) <= 80 for row in shown)
        await pilot.press("s")
        assert "┌───┐" in text(app) or "trump" in text(app) or "козырь" in text(app)  # s again: the felt
    return shown


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_three_handers_sheet_shows_example_b1(lang: str) -> None:
    shown = await sheet_at_end("french3_B1.json", lang)
    # record seats: C (= D, the dealer), A (= E), B (= M)
    assert [c.strip() for c in columns(shown[2])] == ["C", "A", "B"]
    above = next(i for i, r in enumerate(shown) if ("Above the line" if lang == "en" else "Над чертой") in r)
    assert columns(shown[above + 1]) == ["1 ♠", "3", "2", "2+1"]  # exchanged + short: D 0+3, E 2, M 2+1
    assert "─" * 40 in shown[above + 2]  # the line
    assert columns(shown[above + 4]) == ["1 ♠", "·", "4", "·"]  # below: E's 8 tricks are 4 over four
    total = next(r for r in shown if r.strip().startswith("Total" if lang == "en" else "Итог"))
    assert columns(total)[1:] == ["3 | 0/10", "2 | 4/10", "3 | 0/10"]  # above | below / the target
    assert ("Nobody has 10 below the line yet." if lang == "en" else "Под чертой 10 пока ни у кого нет.") \
        in "\n".join(shown)


async def test_the_three_handers_winner_is_marked_when_he_reaches_the_target() -> None:
    shown = "\n".join(await sheet_at_end("french3_B2.json", "en"))
    assert "★ A" in shown and "A wrote 11 below the line, the target is 10: A wins the game." in shown
    assert "25 | 0/10" in shown and "8 | 11/10" in shown and "10 | 10/10" in shown  # RULES.md B2 after deal 10
    assert "(and 4 earlier deals)" in shown  # ten deals: the newest that fit 24 rows


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_kopilkas_partiya_sheet_by_suit_with_the_ace_and_the_kitty(lang: str) -> None:
    shown = await sheet_at_end("kopilka_A1.json", lang)
    joined = "\n".join(shown)
    k = "k." if lang == "en" else "к."
    assert f"♠ 1 {k}" in joined and f"♥ 4 {k}" in joined  # each suit's value heads its column
    p1 = next(r for r in shown if r.strip().startswith("P1"))
    assert columns(p1) == ["P1", "1 (A♠×2)", "·", "·", "1", f"6 {k}"]  # ♠ won by the A♠ ×2 = 2, ♥ 4
    assert ("Kitty 15 k." if lang == "en" else "Копилка 15 к.") in joined


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_pairs_record_is_written_off_from_the_start_with_trinka_marked(lang: str) -> None:
    shown = await sheet_at_end("ukr_pairs_C2.json", lang)
    joined = "\n".join(shown)
    start = next(r for r in shown if r.strip().startswith("start" if lang == "en" else "начало"))
    assert columns(start)[1:] == ["12", "12"]
    assert ("9 (−3) trinka" if lang == "en" else "9 (−3) тринька") in joined  # 6:3 — A writes off 3
    assert ("Left to write off: A 9 · B 12." if lang == "en" else "Осталось списать: A 9 · B 12.") in joined


def finish_deal(table, rng: random.Random) -> None:
    while table.in_deal():
        seat = table.game.to_act()[0]
        table.act(table.game.names[seat], rng.choice(table.game.legal_actions(seat)).text())


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_score_and_f2_at_a_live_table_show_the_sheet_in_place_of_the_felt() -> None:
    club = Club([{"game": "french3", "clock": 0}], seed=5)
    table = club.tables[1]
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera"):
            table.sit(name)
        for name in ("anna", "boris", "vera"):
            table.start(name)
        finish_deal(table, random.Random(3))
        await pilot.pause()
        await type_line(pilot, "score")
        shown = rows(app)
        assert all(len(row) <= 80 for row in shown)
        total = next(r for r in shown if r.strip().startswith("Total"))
        game = table.game
        assert columns(total)[1:] == [f"{a} | {b}/10" for a, b in zip(game.above, game.below)]
        assert "score or F2: back to the felt" in text(app)
        await type_line(pilot, "score")  # toggles back
        assert not any(r.strip().startswith("Total") for r in rows(app))
        await pilot.press("f2")
        assert any(r.strip().startswith("Total") for r in rows(app))
        await type_line(pilot, "pot")  # any other line: the felt again, with its answer in the log
        assert not any(r.strip().startswith("Total") for r in rows(app)) and "The pot holds 0 k." in text(app)
        assert "back to the felt" not in text(app)


def test_score_in_the_text_mode_is_the_sheet_in_sentences() -> None:
    club = Club([{"game": "french3", "think": 0, "clock": 0}], seed=5)
    lines: list[str] = []
    person = TextClub(club, "anna", write=lines.append, lang="ru", clock=lambda: 100.0)
    person.wake = lambda: person.news()
    person.start()
    person.line("sit 1")
    table = club.tables[1]
    for name in ("boris", "vera"):
        table.sit(name)
    for name in ("anna", "boris", "vera"):
        table.start(name)
    finish_deal(table, random.Random(3))
    mark = len(lines)
    person.line("очки")
    told = lines[mark:]
    game = table.game
    each = "; ".join(f"{n}: над чертой {a}, под чертой {b}" for n, a, b in zip(game.names, game.above, game.below))
    assert f"Запись игры 1, до 10 под чертой: {each}." in told
