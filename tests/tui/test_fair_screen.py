"""Sealed deals on screen (Pilot, 80x24): the seal in the header and the log, cut / снять, the seed only
after the deal, help fair in both languages, verify N in the club (and in the text mode)."""

from __future__ import annotations

import random

import pytest
from screen import text, type_line

from engine.table.club import Club
from engine.shuffle import deck_for
from engine.store.sqlite import SqliteStore
from tui.app import ClubApp
from tui.text.club import TextClub

NAMES = ("anna", "boris", "vera", "gleb")


def finish_deal(table, rng: random.Random) -> None:
    while table.in_deal():
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_seal_is_on_the_felt_the_seed_only_after_the_deal(lang: str) -> None:
    club = Club([{"game": "stukolka"}])  # no seed: a live table's secrets
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        table = club.tables[1]
        for name in NAMES[1:]:
            table.sit(name)
        seal, seed = table.sealed.seal, table.sealed.seed.hex()
        await pilot.pause()
        screen = text(app)
        header = screen.splitlines()[0]
        assert ("seal " if lang == "en" else "печать ") + seal[:8] in header
        assert seal[:16] in screen  # the log's line tells the whole seal
        await type_line(pilot, "cut верба 42" if lang == "en" else "снять верба 42")
        screen = text(app)
        assert ("You cut the next deal with: верба 42" if lang == "en" else "Вы сняли следующую сдачу: верба 42") \
            in screen
        assert ("anna cuts the deck." if lang == "en" else "anna снимает колоду.") in screen
        table.cut("boris", "тайна")
        await type_line(pilot, "start")
        for name in NAMES[1:]:
            table.start(name)
        await pilot.pause()
        assert table.in_deal()
        assert table.game.deals[0].decks[0] == deck_for(bytes.fromhex(seed), 52, "anna:верба 42\nboris:тайна")
        screen = text(app)
        assert seed[:12] not in screen and "тайна" not in screen and seal[:8] in screen.splitlines()[0]
        finish_deal(table, random.Random(1))
        await pilot.pause()
        screen = text(app)
        assert ("The deal is over." if lang == "en" else "Сдача окончена.") in screen  # the result stays in sight
        assert table.sealed.seal[:8] in screen.splitlines()[0]  # and the next deal's seal is in the header
        for _ in range(3):  # the seed, told when the deal ends (just before its result), is in the scrollback
            if seed[:12] in "".join(text(app).split()):
                break
            await pilot.press("pageup")
            await pilot.pause()
        assert seed[:12] in "".join(text(app).split())


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_cut_is_refused_to_a_watcher_and_during_a_deal_with_a_reason() -> None:
    club = Club([{"game": "stukolka"}], seed=3)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    app = ClubApp(club, "zoe")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "watch 1")
        await type_line(pilot, "cut hello")
        assert "You do not sit at this table." in text(app) and table.sealed.cuts == {}
    app = ClubApp(club, "anna", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        await type_line(pilot, "снять")
        assert "Чем снять?" in text(app)
        await type_line(pilot, "снять " + "x" * 65)
        assert "Съём — от 1 до 64 печатных знаков" in text(app) and table.sealed.cuts == {}
        for name in NAMES:
            table.start(name)
        await type_line(pilot, "снять поздно")
        assert "Эта сдача уже сдана" in text(app) and table.sealed.cuts == {}


@pytest.mark.parametrize("lang, words", [
    ("en", ("seal proves", "does not hide the cards", "cut TEXT", "verify N")),
    ("ru", ("Печать доказывает", "Карт от клуба она не", "снять ТЕКСТ", "проверить N")),
])
async def test_help_fair_says_what_the_seal_proves_and_what_it_does_not(lang: str, words: tuple) -> None:
    app = ClubApp(Club([{"game": "stukolka"}]), "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "help fair" if lang == "en" else "помощь честно")
        screen = " ".join(text(app).split())
        told = " ".join(app.screen.log_view.plain().split())  # all of it: the screen shows its newest rows
        assert words[-1] in screen  # the end of the text is on screen
        for word in words:
            assert word in told, word


@pytest.fixture
def kept(tmp_path):
    """A club with a store and one finished sealed Стуколка deal (anna stood up after it)."""
    store = SqliteStore(tmp_path / "sukno.db")
    for name in NAMES:
        store.create_account(name, grant=5000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    table.cut("vera", "v")
    for name in NAMES:
        table.start(name, now=0.0)
    finish_deal(table, random.Random(2))
    table.stand("anna")
    yield club, store
    store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_verify_says_deal_by_deal_whether_it_checks_out(kept, lang: str) -> None:
    club, store = kept
    info = store.history("anna", 1)[0]
    seal = store.get_record(info.id).deals[0].fair["seal"]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"verify {info.id}" if lang == "en" else f"проверить {info.id}")
        screen = text(app)
        assert (f"Deal 1: fair (seal {seal[:8]}…)." if lang == "en" else f"Сдача 1: честная (печать {seal[:8]}…).") \
            in screen
        await type_line(pilot, "verify")  # no number: the latest game of one's history
        assert text(app).count(seal[:8]) >= 2
        await type_line(pilot, "verify 999")
        assert ("There is no record 999." if lang == "en" else "999") in text(app)


def test_a_swapped_card_in_a_kept_record_is_reported_not_fair(kept) -> None:
    from rich.text import Text

    from engine.record import verify
    from tui.fair import check_line

    club, store = kept
    record = store.get_record(store.history("anna", 1)[0].id)
    record.deals[0].decks[0][3], record.deals[0].decks[0][9] = record.deals[0].decks[0][9], record.deals[0].decks[0][3]
    line = check_line(verify(record)[0], "en")
    assert isinstance(line, Text) and line.plain == "Deal 1: NOT fair: deck 0 differs from the seed's (first at card 4)."
    assert check_line(verify(record)[0], "ru").plain.startswith("Сдача 1: НЕ честная: колода 0")


def test_the_text_mode_cuts_and_verifies_too(kept) -> None:
    club, store = kept
    lines: list[str] = []
    anna = TextClub(club, "anna", write=lines.append)
    anna.wake = lambda: anna.news()
    anna.start()
    anna.line("sit 1")
    anna.line("cut на счастье")
    assert any("You cut the next deal with: на счастье" in line for line in lines)
    assert club.tables[1].sealed.cuts.get("anna") == "на счастье"
    anna.line("verify")
    assert any(line.startswith("Deal 1: fair (seal ") for line in lines), lines
