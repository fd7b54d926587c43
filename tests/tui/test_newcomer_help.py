"""What a newcomer reads at 80×24: Копилка's payments, the score sheet and the last trick in help, the
asking price of a sale, Стуколка в's trump told as the felt shows it, the hint's words to type."""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.game import Event
from engine.table.club import Club
from tui.app import ClubApp
from tui.narrate import narrate


def flat(app: ClubApp) -> str:
    return " ".join(text(app).split())


@pytest.mark.parametrize("lang,lines", [
    ("en", {"help kitty": "after each deal everyone but the first to shed his cards pays S (5 k.)",
            "help score": "score (очки, F2): the score sheet",
            "help last": "last (последняя): the last trick again"}),
    ("ru", {"помощь копилка": "после каждой сдачи все, кроме первого избавившегося от карт, платят S (5 к.)",
            "помощь очки": "очки (score, F2): лист записи",
            "помощь последняя": "последняя (last): последняя взятка ещё раз"}),
])
async def test_help_explains_the_kitty_the_sheet_and_the_last_trick(lang, lines):
    club = Club([{"game": "kopilka"}], seed=2)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        for typed, said in lines.items():
            await type_line(pilot, typed)
            assert said in flat(app), typed


@pytest.mark.parametrize("lang,pays,fine,settled", [
    ("en", "Boris pays 5 k. into the kitty, as all but the first to shed his cards do (R15).",
     "Boris pays 10 k. into the kitty: 5 k., as all but the first to shed his cards do, and 5 k. for a deal "
     "without a trick (R15).",
     "Settlement of the partiya (R16): the kitty holds 1 r. 60 k. and the tricks are worth 60 k.; each player "
     "receives his tricks' worth (a share of it when the kitty is short), the rest goes to the first to shed "
     "his cards in the 4th deal."),
    ("ru", "Boris платит в копилку 5 к. — плата всех, кроме первого избавившегося от карт (R15).",
     "Boris платит в копилку 10 к.: 5 к. — плата всех, кроме первого избавившегося от карт, и 5 к. — штраф за "
     "сдачу без взяток (R15).",
     "Расчёт партии (R16): в копилке 1 р. 60 к., взятки стоят 60 к.; каждый получает стоимость своих взяток "
     "(долю, если копилки не хватает), остаток — первому избавившемуся от карт в 4-й сдаче."),
])
def test_kopilka_payments_are_explained_where_they_happen(lang, pays, fine, settled):
    names = ["Anna", "Boris", "Vera", "Gleb"]
    assert narrate(Event("pays", 1, {"amount": 5, "stake": 5}), names, lang) == pays
    assert narrate(Event("pays", 1, {"amount": 10, "stake": 5, "fine": 5}), names, lang) == fine
    assert narrate(Event("settlement", 0, {"kitty": 160, "won": 60}), names, lang) == settled


def test_the_kopilka_engine_tells_only_the_parts_paid():
    import random

    club = Club([{"game": "kopilka", "clock": 0}], seed=7)
    table = club.tables[1]
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        table.sit(name)
        table.start(name)
    game, rng = table.game, random.Random(2)
    while game.in_deal:
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())
    paid = [e.event.data for e in table.log_since(0) if e.event.kind == "pays"]
    assert paid and all(v for data in paid for v in data.values())
    assert all(data["amount"] == data.get("stake", 0) + data.get("fine", 0) for data in paid)


@pytest.mark.parametrize("lang,asks", [
    ("en", "boris offers the card for sale, asking 1 r. 50 k."), ("ru", "boris: «Продаю!» — просит 1 р. 50 к."),
])
async def test_everyone_reads_the_asking_price_of_a_sale(lang, asks):
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
        while not (game.window_open and game.holder == 1):
            if game.phase == "reveal":
                table.act(game.names[game.revealer], "reveal")
            else:
                seat = next(s for s in game.to_act() if any(a.verb == "ready" for a in game.legal_actions(s)))
                table.act(game.names[seat], "ready")
        table.act("boris", "sell 150")
        await pilot.pause()
        assert asks in flat(app)


@pytest.mark.parametrize("lang,told,felt", [
    ("en", "announces ♠ as trump; the shlejf card itself lies face down (R51).", "trump ♠"),
    ("ru", "объявляет козырь ♠; сама карта шлейфа лежит закрытой (R51).", "козырь ♠"),
])
async def test_stukolka_v_tells_the_announced_trump_as_the_felt_shows_it(lang, told, felt):
    club = Club([{"game": "stukolka", "options": {"variant": "v"}, "clock": 0}], seed=3)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera", "gleb"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        dealer = game.names[game.dealer]
        if any(a.verb == "shlejf" for a in game.legal_actions(game.dealer)):
            table.act(dealer, "shlejf")  # the dealer keeps the shlejf (not open, R50)
        await pilot.pause()
        assert game.trump_where == "shlejf"
        suit = table.game.trump.text()
        screen = flat(app)
        assert told.replace("♠", suit) in screen
        assert felt.replace("♠", suit) in rows(app)[0]  # the header: the same suit, announced


async def test_a_hint_too_long_for_its_row_ends_in_an_ellipsis_and_keeps_a_space_before_the_clock():
    from rich.text import Text

    from tui.widgets.hintrow import HintRow

    club = Club([{"game": "kopilka"}], seed=2)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        row = app.screen.query_one(HintRow)
        row.set_hint(Text(" You may: buy + up to 12 cards to give (buy 7♠ 8♦) · and a good deal more words here"))
        row.set_clock(Text("your turn"), 9)
        await pilot.pause()
        shown = rows(app)[row.region.y]
        assert shown.endswith("… your turn") and "toyour" not in shown
