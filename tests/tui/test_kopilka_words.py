"""Issue 13 item 6: Копилка as a person would say it, and its face-down rows and stock on the felt (80×24)."""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from tui.app import ClubApp


def flat(app: ClubApp) -> str:
    return " ".join(text(app).split())


def hint_row(app: ClubApp) -> str:
    return next(row for row in reversed(rows(app)) if row.strip()).strip()


async def seated(pilot, club: Club) -> None:
    """Seed 15 (the table's repeatable sealed seeds): gleb lays out 3 cards; anna takes first."""
    await type_line(pilot, "sit 1")
    table = club.tables[1]
    for name in ("bot-Mitya", "vera", "gleb"):
        table.sit(name)
        table.start(name)
    await type_line(pilot, "start")
    assert table.game.phase == "take" and table.game.to_act() == (0,)


@pytest.mark.parametrize("lang,take,row,stock,took,others", [
    ("en", "take 1–3 — one of gleb's 3 face-down cards", "▶ gleb's row: 1▮ 2▮ 3▮", "stock ▮×12",
     "You took {card}.", "anna takes the card at place 2 of gleb's row."),
    ("ru", "взять 1–3 — одну из 3 закрытых карт игрока gleb", "▶ ряд gleb: 1▮ 2▮ 3▮", "колода ▮×12",
     "Вы взяли {card}.", "anna берёт карту с места 2 из ряда gleb."),
])
async def test_taking_from_a_laid_out_row(lang, take, row, stock, took, others):
    club = Club([{"game": "kopilka", "clock": 0}], seed=15)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, club)
        game = club.tables[1].game
        assert hint_row(app) == take
        screen = text(app)
        assert row in screen and stock in screen
        card = game.layouts[3].places[1]
        await type_line(pilot, "take 2" if lang == "en" else "взять 2")
        screen = text(app)
        assert took.format(card=card.text()) in screen and others in screen
        assert ("gleb's row: 1▮ 2· 3▮" if lang == "en" else "ряд gleb: 1▮ 2· 3▮") in screen
        public = " ".join(str(e.event.data) for e in club.tables[1].log_since(0))
        assert str(card) not in public  # the others are told a place, not the card


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_discarding_says_how_many_more_and_which_card_to_the_discarder():
    club = Club([{"game": "kopilka", "clock": 0}], seed=15)
    table = club.tables[1]
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot, club)
        game = table.game
        await type_line(pilot, "take 1")
        for _ in range(20):
            if game.phase != "take":
                break
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        while game.phase == "discard" and game.to_act() != (0,):
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        assert game.phase == "discard" and game.to_act() == (0,)
        hand = list(game.hands[0])
        row = hint_row(app)
        assert row.startswith("discard ") and "— 1 more card to discard" in row, row
        assert all(c.text() in row for c in hand), row
        card = hand[-1]
        await type_line(pilot, card.text(ascii=True).lower())  # the card alone: the one action with it
        assert card not in game.hands[0]
        assert f"You discarded {card.text()} face down." in text(app)
        assert "anna discards a card face down." in text(app)


async def test_the_giver_reads_his_own_laid_out_cards_apart_from_their_places():
    """His own row shows his cards, each after its place and a colon (``1:K♥``), never ``1K♥``/``19♠``."""
    club = Club([{"game": "kopilka", "clock": 0}], seed=15)
    table = club.tables[1]
    app = ClubApp(club, "gleb", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        for name in ("anna", "bot-Mitya", "vera"):
            table.sit(name)
        await type_line(pilot, "sit 1")
        for name in ("anna", "bot-Mitya", "vera"):
            table.start(name)
        await type_line(pilot, "начать")
        cards = table.game.layouts[3].places
        assert table.game.names[3] == "gleb" and cards
        row = "ряд gleb: " + " ".join(f"{place}:{card.text()}" for place, card in enumerate(cards, 1))
        assert row in text(app), text(app)
