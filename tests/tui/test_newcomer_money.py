"""Money a newcomer meets at 80×24: a bid over one's club balance is refused on the screen with the reason."""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.store.sqlite import SqliteStore
from engine.table.club import Club
from tui.app import ClubApp

NAMES = ("anna", "boris", "vera")


def flat(app: ClubApp) -> str:
    return " ".join(text(app).split())


@pytest.mark.parametrize("lang,refusal,taken", [
    ("en", "You have 99 r. 65 k. in the club; a bid of 10000 r. would promise money you do not have (R5, R64). "
           "At most: bid 9965 (99 r. 65 k.).", "anna bids 99 r. 65 k."),
    ("ru", "На вашем счёте в клубе 99 р. 65 к.; ставка 10000 р. обещала бы деньги, которых у вас нет (R5, R64). "
           "Самое большее — даю 9965 (99 р. 65 к.).", "anna даёт 99 р. 65 к."),
])
async def test_a_bid_over_the_club_balance_is_refused_on_the_screen(tmp_path, lang, refusal, taken):
    store = SqliteStore(tmp_path / "sukno.db")
    for name in NAMES:
        store.create_account(name, grant=10_000)
    club = Club([{"game": "speculator", "options": {"s": 35}, "clock": 0}], store=store, now=0.0, seed=3)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in NAMES[1:]:
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start" if lang == "en" else "начать")
        game = table.game
        while not (game.window_open and game.holder != 0):
            if game.phase == "reveal":
                table.act(game.names[game.revealer], "reveal")
            else:
                seat = next(s for s in game.to_act() if any(a.verb == "ready" for a in game.legal_actions(s)))
                table.act(game.names[seat], "ready")
        assert store.balance("anna") == 9965
        await pilot.pause()
        await type_line(pilot, "bid 1000000" if lang == "en" else "даю 1000000")
        assert refusal in flat(app)
        assert game.bids == {}
        await type_line(pilot, "bid 9965" if lang == "en" else "даю 9965")
        assert taken in flat(app)
        assert game.bids == {0: 9965}
    store.close()


@pytest.mark.parametrize("lang,said", [
    ("en", "the kitty of 1 r. 25 k. is paid out now (R16)"),
    ("ru", "копилка (1 р. 25 к.) выплачивается сейчас (R16)"),
])
async def test_everyone_is_told_what_happens_to_the_kitty_when_a_player_leaves(lang, said):
    import random
    club = Club([{"game": "kopilka", "clock": 0}], seed=7)
    table = club.tables[1]
    app = ClubApp(club, "Anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("Boris", "Vera", "Gleb"):
            table.sit(name)
        rng = random.Random(2)
        for _ in range(2):
            for name in table.seated():
                table.start(name, now=1.0)
            game = table.game
            while game.in_deal:
                seat = game.to_act()[0]
                table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=1.0)
        assert table.pot == 125
        table.stand("Vera")
        await pilot.pause()
        assert table.pot == 0
        if said not in flat(app):  # at 80×24 the payout lines that follow may fill the log: PageUp brings it back
            await pilot.press("pageup")
            await pilot.pause()
        assert said in flat(app)
        assert ("rows back" if lang == "en" else "назад на") in flat(app)
        await pilot.press("pagedown")
        await pilot.pause()
        await type_line(pilot, "log 8" if lang == "en" else "журнал 8")
        assert said in flat(app)
