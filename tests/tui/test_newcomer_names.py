"""Russian names in the cases a sentence needs, a second click that plays, a fresh watcher's rail."""

from __future__ import annotations

import pytest
from screen import text, type_line

from engine.cards import parse_card
from engine.game import Event
from engine.table.club import Club
from tui.app import ClubApp
from tui.i18n.names import genitive
from tui.narrate import narrate


@pytest.mark.parametrize("name,gen", [
    ("Аня", "Ани"), ("Ольга", "Ольги"), ("Саша", "Саши"), ("Никита", "Никиты"), ("Борис", "Бориса"),
    ("Глеб", "Глеба"), ("Андрей", "Андрея"), ("Мария", "Марии"), ("Дарья", "Дарьи"), ("Илья", "Ильи"),
    ("Пьеро", "Пьеро"), ("Игорь", None), ("Любовь", None), ("anna", None), ("Анна-Мария", None), ("Аня2", None),
])
def test_genitive_of_russian_first_names(name, gen):
    assert genitive(name) == gen


@pytest.mark.parametrize("name,timeout,window", [
    ("Аня", "Время Ани вышло; ход делает клуб: ход Q♠.", "У Ани старшая карта, Q♦: торг открыт."),
    ("Борис", "Время Бориса вышло; ход делает клуб: ход Q♠.", "У Бориса старшая карта, Q♦: торг открыт."),
    ("Игорь", "Игорь: время вышло; ход делает клуб: ход Q♠.", "Игорь: старшая карта, Q♦; торг открыт."),
    ("anna", "anna: время вышло; ход делает клуб: ход Q♠.", "anna: старшая карта, Q♦; торг открыт."),
])
def test_a_name_is_declined_or_kept_in_the_nominative(name, timeout, window):
    names = [name, "Вера"]
    assert narrate(Event("timeout", 0, {"name": name, "action": ["play", parse_card("qs")]}), names, "ru") == timeout
    assert narrate(Event("window_open", 0, {"card": parse_card("qd")}), names, "ru") == window
    assert narrate(Event("trade", 1, {"card": parse_card("qd"), "price": 50, "seller": 0}), names, "en") == \
        f"Вера buys Q♦ from {name} for 50 k."


async def test_a_second_click_on_the_same_card_plays_it(fake_game):
    from tui.widgets.hand import Hand

    club = Club([{"game": "highcard"}], seed=4)
    table = club.tables[1]
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        table.sit("boris")
        table.start("boris")
        await type_line(pilot, "ready")
        game = table.game
        while game.in_deal and not (game.to_act() == (0,) and any(a.args for a in game.legal_actions(0))):
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        hand = list(game.hands[0]) if hasattr(game, "hands") else app.screen.tview.my_hand()
        legal = game.legal_actions(0)
        card = next(a.args[0] for a in legal if a.args)
        index = app.screen.tview.my_hand().index(card)
        await pilot.click(Hand, offset=(7 * index + 2, 1))
        await pilot.pause()
        assert app.screen.cmdline.value.endswith(card.text())
        assert card in app.screen.tview.my_hand()  # one click only picks it
        await pilot.click(Hand, offset=(7 * index + 2, 1))
        await pilot.pause()
        assert card not in app.screen.tview.my_hand() and app.screen.cmdline.value == ""
        assert hand


async def test_a_new_watcher_is_not_handed_the_rails_old_words_as_new(fake_game):
    club = Club([{"game": "highcard"}], seed=4)
    table = club.tables[1]
    for name in ("boris", "vera"):
        table.sit(name)
        table.start(name)
    assert table.in_deal()
    table.watch("zoe")
    table.say("zoe", "старое слово")
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "watch 1")
        assert "старое слово" not in text(app)
        table.say("zoe", "новое слово")
        await pilot.pause()
        assert "новое слово" in text(app)
