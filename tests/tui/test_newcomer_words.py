"""Issue 13 (the table as a newcomer finds it): right reasons and words, read off the screen at 80×24."""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.table.club import Club
from tui.app import ClubApp


def flat(app: ClubApp) -> str:
    """The screen's words with line breaks and padding squeezed (a log line may wrap at 80 columns)."""
    return " ".join(text(app).split())


def play_out(table) -> None:
    game = table.game
    while game.in_deal:
        seat = game.to_act()[0]
        table.act(game.names[seat], game.legal_actions(seat)[0].text())


@pytest.mark.parametrize("lang,full,seated", [
    ("en", "Table 1 is full; type watch 1 to watch it.",
     "You already sit at table 2; type stand to give up that seat (between deals)."),
    ("ru", "Стол 1 полон; наберите смотреть 1, чтобы посмотреть игру.",
     "Вы уже сидите за столом 2; наберите встать, чтобы освободить место (между сдачами)."),
])
async def test_a_full_table_between_deals_says_full_and_offers_watch(fake_game, lang, full, seated):
    club = Club([{"game": "highcard"}, {"game": "highcard"}], seed=3)
    table = club.tables[1]
    for name in ("boris", "vera"):
        table.sit(name)
        table.start(name)
    play_out(table)  # between deals of a running session: full, not "a game is in progress"
    assert table.game is not None and not table.in_deal()
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        assert full in flat(app)
        await type_line(pilot, "sit 2")
        await type_line(pilot, "leave")
        await type_line(pilot, "sit 1")
        assert seated in flat(app)
        assert table.seats == ["boris", "vera"]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("lang,word", [("en", "open"), ("ru", "открыть"), ("en", "reveal"), ("ru", "вскрыть")])
async def test_the_speculators_reveal_answers_to_the_logs_own_verb(lang, word):
    club = Club([{"game": "speculator", "clock": 0}], seed=3)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        while game.to_act() != (0,) or game.phase != "reveal":
            if game.phase == "reveal":
                table.act(game.names[game.to_act()[0]], "reveal")
                continue
            seat = next(s for s in game.to_act() if any(a.verb == "ready" for a in game.legal_actions(s)))
            table.act(game.names[seat], "ready")
        await pilot.pause()
        revealed = len(game._revealed)
        await type_line(pilot, word)
        screen = text(app)
        assert ("anna reveals " if lang == "en" else "anna открывает ") in screen
        assert "not at a table" not in screen and "не за столом" not in screen
        assert len(game._revealed) == revealed + 1
        while game.phase == "reveal" and game.to_act() != (0,):
            table.act(game.names[game.to_act()[0]], "reveal")
        await pilot.pause()
        assert any(a.verb == "bid" for a in game.legal_actions(0))  # seed 3: a window anna may bid in
        await type_line(pilot, "buy 5" if lang == "en" else "купить 5")  # «X buys 10♥ from Y»: a bid here
        assert ("anna bids 5 k." if lang == "en" else "anna даёт 5 к.") in flat(app)
        await type_line(pilot, "knock")  # another game's verb at a table: this game's verbs, not "not at a table"
        assert ("This game has no 'knock'; it knows reveal, sell, bid, accept, ready." if lang == "en" else
                "В этой игре нет 'knock'; есть: вскрыть, продаю, даю, принять, готов.") in flat(app)


@pytest.mark.parametrize("lang,note,refusal", [
    ("en", "make a key with  ssh-keygen -t ed25519  and connect again",
     "Guests may watch and talk but not sit down to play: make a key with  ssh-keygen -t ed25519"),
    ("ru", "создайте ключ командой  ssh-keygen -t ed25519  и зайдите снова",
     "Гости могут смотреть и говорить, но не садиться играть: создайте ключ командой  ssh-keygen -t ed25519"),
])
async def test_a_guest_is_told_how_to_get_a_name(fake_game, lang, note, refusal):
    club = Club([{"game": "highcard"}], seed=1)
    app = ClubApp(club, "guest-1", guest=True, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        assert " ".join(note.split()) in flat(app)
        await type_line(pilot, "sit 1")
        assert " ".join(refusal.split()) in flat(app)


async def test_the_halls_here_lists_people_in_the_hall_not_at_tables(fake_game):
    club = Club([{"game": "highcard"}, {"game": "highcard"}], seed=1)
    for name in ("boris", "vera", "gleb"):
        club.enter(name)
    club.tables[1].sit("boris")
    club.tables[2].watch("vera")
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "look")
        screen = text(app)
        assert "Here: gleb." in screen
        assert "Here: boris" not in screen and "vera," not in screen


@pytest.mark.parametrize("lang,pot", [("en", "The pot holds 4 k."), ("ru", "В кону 4 к.")])
async def test_money_ends_a_sentence_with_one_full_stop(fake_game, lang, pot):
    club = Club([{"game": "highcard"}], seed=3)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        table.sit("boris")
        table.start("boris")
        await type_line(pilot, "start")
        await type_line(pilot, "look")
        screen = text(app)
        assert pot in screen
        assert "k.." not in screen and "к.." not in screen and "р.." not in screen


async def test_sit_bot_at_the_table_is_told_once():
    club = Club([{"game": "french3", "think": 0}], seed=3)
    app = ClubApp(club, "anna", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "сесть 1")
        await type_line(pilot, "сесть бот")
        assert sum("bot-Mitya садится" in row for row in text(app).splitlines()) == 1
