"""The shared spectator view: public information only, bottom row left empty, redraws on events."""

from __future__ import annotations

import pytest
from screen import rows, text

from engine.table.club import Club
from engine.games import registry
from tui.spectator import SpectatorApp


def public_cards(view: dict) -> set:
    out = {c for _, c in view.get("trick", [])} | {c for _, c in view.get("played", []) or []}
    if view.get("trump_card") is not None:
        out.add(view["trump_card"])
    return {c.text() for c in out}


async def test_spectator_app_shows_the_public_view_and_follows_events(fake_game):
    club = Club([{"game": "highcard", "seats": 3}], seed=6)
    table = club.tables[1]
    for name in ("anna", "boris", "vera"):
        table.sit(name)
        table.start(name)
    app = SpectatorApp(club, 1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = rows(app)
        assert screen[-1].strip() == ""
        assert "Table 1" in screen[0] and "You are watching" in text(app)
        hidden = {c.text() for h in table.game.hands for c in h}
        assert not any(card in text(app) for card in hidden)
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], "knock")
        await pilot.pause()
        assert f"{game.names[seat]} knocks." in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.skipif("stukolka" not in registry(), reason="Стуколка has not landed")
async def test_stukolka_spectator_never_sees_a_hand():
    club = Club([{"game": "stukolka"}], seed=12)
    table = club.tables[1]
    for name in ("anna", "boris", "vera", "gleb"):
        table.sit(name)
        table.start(name)
    game = table.game
    app = SpectatorApp(club, 1, lang="ru", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await pilot.pause()
            view = table.view_for(None)
            public = {c.replace("♠", "S").replace("♣", "C").replace("♦", "D").replace("♥", "H")
                      for c in public_cards(view)}
            screen = text(app)
            for hand in game.hands:
                for card in hand:
                    if card.text(True) not in public:
                        assert f"|{card.text(True):<3}|" not in screen
            if not game.in_deal:
                break
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        assert rows(app)[-1].strip() == ""
