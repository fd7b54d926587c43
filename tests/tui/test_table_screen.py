"""Pilot tests of the table screen: playing, picking cards, refusals, a whole Стуколка deal."""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.cards import Card
from engine.table.club import Club
from engine.games import registry
from tui.app import ClubApp
from tui.commands import show_action
from tui.screens.table import TableScreen


def typed(action, lang: str, ascii: bool = False) -> str:
    """What a person types for ``action``: a bare ``buy`` (keep the hand) is typed ``buy 0`` (issue 13 item 7)."""
    line = show_action(action, lang, ascii)
    return line + " 0" if action.verb == "buy" and not action.args else line


def hand_of(app: ClubApp) -> list[Card]:
    return app.screen.tview.my_hand()


async def seated_fake(pilot, club: Club) -> None:
    await type_line(pilot, "sit 1")
    club.tables[1].sit("boris")
    club.tables[1].start("boris")
    await type_line(pilot, "ready")  # the fake game has no verb ready: it means start


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_playing_the_fake_game_from_the_command_line(fake_game, size):
    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=size) as pilot:
        await seated_fake(pilot, club)
        table = club.tables[1]
        assert table.in_deal() and isinstance(app.screen, TableScreen)
        game = table.game
        mine = hand_of(app)
        assert len(mine) == 2 and all(c.text() in text(app) for c in mine)
        if game.to_act() == (1,):
            table.act("boris", "knock")
            await pilot.pause()
        assert "You may: knock" in text(app)
        shown = rows(app)
        at = next(i for i, row in enumerate(shown) if "boris" in row)
        assert "away" in shown[at + 1]  # a seat's state is the line under its name
        club.enter("boris")
        await pilot.pause()
        assert "away" not in text(app)
        await type_line(pilot, "look")
        assert "Table 1, High card. Seats: 1. anna, 2. boris." in text(app)
        await type_line(pilot, "стук")
        assert "anna knocks." in text(app)
        if game.to_act() == (1,):
            await type_line(pilot, f"ход {mine[0].text()}")
            assert "It is not your turn; waiting for boris." in text(app)
            table.act("boris", game.legal_actions(1)[0].text())
            await pilot.pause()
        # a card that is not in the hand: refused with a reason and the legal moves
        stranger = next(c for c in game.hands[1])
        await type_line(pilot, f"play {stranger.text(True)}")
        assert "you may: play" in text(app).lower()
        assert len(hand_of(app)) == 2
        await type_line(pilot, "lang ru")
        await type_line(pilot, "стук")
        assert "Сейчас нельзя стук; можно: ход." in text(app)
        await type_line(pilot, "lang en")
        # pick card 1 by its number and Enter, confirm with Enter
        await type_line(pilot, "1")
        assert app.screen.cmdline.value == f"play {mine[0].text()}"
        await pilot.press("enter")
        await pilot.pause()
        assert f"anna plays {mine[0].text()}." in text(app)
        assert hand_of(app) == mine[1:]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_tab_completes_legal_cards_and_garbage_changes_nothing(fake_game):
    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated_fake(pilot, club)
        table, game = club.tables[1], club.tables[1].game
        while 0 not in game.to_act() or game.phase != "play":
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        before = list(game.deals[-1].actions)
        first = hand_of(app)[0]
        app.screen.cmdline.value = f"play {first.text(True)[0].lower()}"
        app.screen.cmdline.cursor_position = len(app.screen.cmdline.value)
        await pilot.press("tab")
        assert app.screen.cmdline.value.startswith(f"play {first.text()[0]}")
        await type_line(pilot, "play zz")
        assert "'zz' is not a card" in text(app)
        await type_line(pilot, "frobnicate")
        assert "I do not know 'frobnicate'" in text(app)
        assert game.deals[-1].actions == before


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_spectator_inside_the_app_sees_no_hand(fake_game):
    club = Club([{"game": "highcard"}], seed=2)
    table = club.tables[1]
    table.sit("boris"), table.sit("vera")
    table.start("boris"), table.start("vera")
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "watch 1")
        assert isinstance(app.screen, TableScreen) and "anna" in table.spectators
        screen = text(app)
        assert "watching" in screen
        for card in table.game.hands[0] + table.game.hands[1]:
            assert card.text() not in screen
        await type_line(pilot, "knock")
        assert "You are only watching" in screen or "You are only watching" in text(app)
        await type_line(pilot, "leave")
        assert "anna" not in table.spectators


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.skipif("stukolka" not in registry(), reason="Стуколка has not landed")
async def test_a_whole_stukolka_deal_at_120x40():
    club = Club([{"game": "stukolka", "options": {"variant": "b"}}], seed=9)
    app = ClubApp(club, "anna", lang="ru")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "сесть 1")
        table = club.tables[1]
        for name in ("boris", "vera", "gleb"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "начать")
        game = table.game
        assert game is not None and game.in_deal
        count = 0
        for _ in range(200):
            if not game.in_deal:
                break
            seat = game.to_act()[0]
            action = game.legal_actions(seat)[0]
            if seat == 0:
                await type_line(pilot, typed(action, "ru"))
                count += 1
            else:
                table.act(game.names[seat], action.text())
                await pilot.pause()
        assert not game.in_deal and count >= 2
        screen = text(app)
        assert "Сдача окончена." in screen
        assert "Наберите start" in screen
        names = ["anna", "boris", "vera", "gleb"]
        assert sum(table.balance(n) for n in names) + table.pot == 0
        assert rows(app)[0].startswith(" Стол 1 · Стуколка (б)")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_clicking_a_card_puts_its_action_on_the_line(fake_game):
    from tui.widgets.hand import Hand

    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated_fake(pilot, club)
        second = hand_of(app)[1]
        await pilot.click(Hand, offset=(7, 1))
        await pilot.pause()
        assert app.screen.cmdline.value == f"play {second.text()}"
        assert "Card 2:" in text(app)
        await pilot.press("escape")
        app.screen.cmdline.value = ""
        await type_line(pilot, "9")
        assert "You have no card 9: your cards are 1–2." in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("game_name", sorted(registry()))
async def test_every_registered_game_renders_through_a_deal(game_name):
    """Random legal play; anna types her moves. No screen may fail on any game's view."""
    import random

    rng = random.Random(3)
    club = Club([{"game": game_name}], seed=5)
    table = club.tables[1]
    app = ClubApp(club, "anna", ascii=game_name == "kopilka")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for i in range(1, len(table.seats)):
            table.sit(f"p{i}")
            table.start(f"p{i}")
        await type_line(pilot, "start")
        game = table.game
        for _ in range(60):
            if game is None or not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            action = rng.choice(game.legal_actions(seat))
            if seat == 0:
                await type_line(pilot, typed(action, "ru", app.ascii))
            else:
                table.act(game.names[seat], action.text(), now=app.clock())
                await pilot.pause()
        assert rows(app)[0].startswith(" Table 1")
        assert "Traceback" not in text(app)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_bug_in_a_game_is_one_line_not_a_traceback(fake_game, monkeypatch):
    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated_fake(pilot, club)

        def broken(*args, **kwargs):
            raise ZeroDivisionError("bug")

        monkeypatch.setattr(club.tables[1], "act", broken)
        await type_line(pilot, "knock")
        assert "error in the club" in text(app)
        assert app.is_running


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.skipif("speculator" not in registry(), reason="Спекулянт has not landed")
async def test_a_trade_window_shows_a_timer_bar():
    now = [100.0]
    club = Club([{"game": "speculator", "clock": 0}], seed=3)  # the window's clock, no turn clock
    table = club.tables[1]
    app = ClubApp(club, "anna", clock=lambda: now[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera"):
            table.sit(name)
            table.start(name, now=now[0])
        await type_line(pilot, "start")
        assert "⏱" not in text(app)
        game = table.game
        while table.deadline() is None:
            seat = game.to_act()[0]
            table.act(game.names[seat], "reveal", now=now[0])
        await pilot.pause()
        hint_row = rows(app)[-2]
        assert "⏱ ██████████" in hint_row and " s" in hint_row
        table.tick(table.deadline())
        await pilot.pause()
        assert "⏱" not in text(app)
