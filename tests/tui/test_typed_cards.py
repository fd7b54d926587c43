"""Issue 13 item 1: a typed card is a card; a bare number and Enter picks a card of the hand (1–12).

Keys are pressed one by one (``pilot.press``), as a person types them, so the
command line's own key handling is what is tested.
"""

from __future__ import annotations

from screen import rows, text, type_line

import pytest

from engine.cards import parse_card
from engine.table.club import Club
from tui.app import ClubApp

async def to_annas_lead(pilot, club: Club) -> None:
    """French three-hander: anna sits, two players join, everyone stands pat, play until anna leads."""
    await type_line(pilot, "sit 1")
    table = club.tables[1]
    for name in ("boris", "vera"):
        table.sit(name)
        table.start(name)
    await type_line(pilot, "start")
    game = table.game
    for _ in range(100):
        seat = game.to_act()[0]
        if game.phase == "play" and seat == 0 and not game.trick:
            break
        action = "buy" if game.phase == "exchange" else game.legal_actions(seat)[0].text()
        table.act(game.names[seat], action)
    await pilot.pause()


async def press(pilot, keys: str) -> None:
    await pilot.press(*keys, "enter")
    await pilot.pause()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_bare_number_and_enter_picks_a_card_up_to_12():
    """At 120 columns the hand's note fits beside 12 cards; at 80 the numbers 10–12 stand under the cards."""
    club = Club([{"game": "french3", "clock": 0}], seed=10)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(120, 40)) as pilot:
        await to_annas_lead(pilot, club)
        game = club.tables[1].game
        hand = list(game.hands[0])
        assert len(hand) == 12
        assert "a card's number 1–12 and Enter" in text(app)
        await press(pilot, "12")  # two digits, then Enter: card 12 is picked, nothing is played
        assert app.screen.cmdline.value == f"play {hand[11].text()}"
        assert "Card 12:" in text(app) and len(game.hands[0]) == 12
        app.screen.cmdline.value = ""
        await press(pilot, "13")
        assert "You have no card 13: your cards are 1–12." in text(app)
        assert len(game.hands[0]) == 12


# the table's repeatable sealed seeds (engine.shuffle.repeatable_seed), anna's 12 cards at her lead:
# seed 6: 10♣ is card 8 (card 1 is 6♠); seed 7: 8♠ is card 2; seed 9: 9♥ is card 11; seed 25: A♣ (тк) is card 6
@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("seed,lang,word", [(6, "en", "10c"), (7, "en", "8s"), (9, "ru", "9ч"), (25, "ru", "тк")])
async def test_a_card_typed_as_help_cards_teaches_plays_that_card(seed, lang, word):
    club = Club([{"game": "french3", "clock": 0}], seed=seed)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_annas_lead(pilot, club)
        game = club.tables[1].game
        card, first = parse_card(word), game.hands[0][0]
        assert card in game.hands[0] and card != first
        await press(pilot, word)
        assert card not in game.hands[0] and first in game.hands[0] and len(game.hands[0]) == 11
        screen = text(app)
        assert f"> {word}" in screen
        assert any(row.startswith("anna ") and row.rstrip().endswith(f" {card.text()}.") for row in rows(app))
        assert not any(("Не знаю" in row or "I do not know" in row or "no card" in row) for row in rows(app))
