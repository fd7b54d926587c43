"""At 80×24 the longest state words a seat can carry (Russian) never push the trick or the trump off the
felt: the words are cut with an ellipsis on the rows beside the trick and the trump, and only there."""

from __future__ import annotations

from screen import rows, type_line

from engine.cards import parse_card
from engine.table.club import Club
from tui.app import ClubApp
from tui.widgets.felt import felt_rows

NAMES = ("Аня", "Борислав", "Вера", "Глеб", "Дина", "Егор", "Зоя", "Илья", "Кира", "Лев")


async def test_speculators_ten_seats_keep_the_trick_and_the_trump_beside_the_longest_words() -> None:
    club = Club([{"game": "speculator", "seats": 10, "think": 0, "clock": 0}], seed=3)
    table = club.tables[1]
    app = ClubApp(club, "Аня", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in NAMES[1:]:
            table.sit(name)
            table.start(name, now=0.0)
        await type_line(pilot, "начать")
        game = table.game
        while not game.window_open:
            table.act(game.names[game.to_act()[0]], "reveal", now=0.0)
        holder = game.names[game.view(0)["holder"]]
        table.act(holder, "sell 1050", now=0.0)  # «держит старшую · просит 10 р. 50 к.»
        for name in NAMES:
            if name != holder:
                table.act(name, "bid 1000", now=0.0)  # «даёт 10 р. · не торгуется»
                table.act(name, "ready", now=0.0)
        await pilot.pause()
        felt = rows(app)[:12]
        shown = "\n".join(felt)
        card = game.view(0)["trick"][-1][1]
        assert sum(card.text() in line and "║" in line for line in felt) == 1, shown  # the newest card, whole
        assert any("козырь ♦" in line for line in felt), shown
        assert "держит старшую · просит 10 р. 50 к." in shown, shown  # its row has nothing beside it: whole
        assert shown.count("даёт 10 р. · не торгуется") >= 6, shown


def test_stukolkas_seven_seats_cut_only_the_words_beside_the_trick_and_the_trump_card() -> None:
    club = Club([{"game": "stukolka", "seats": 7, "think": 0, "clock": 0}], seed=3)
    table = club.tables[1]
    for name in NAMES[:7]:
        table.sit(name)
        table.start(name, now=0.0)
    view = table.view_for("Аня")
    view["status"] = ["forced"] * 7  # «играет вынужденно»
    view["tricks"] = [2] * 7
    view["away"] = list(NAMES[:7])
    view["stand_ins"] = list(NAMES[:7])  # «… · нет на месте»
    view["trump_card"] = parse_card("qd")
    view["trick"] = [[1, parse_card("9h")], [2, parse_card("kh")], [3, parse_card("ah")]]
    view["best"] = parse_card("ah")
    felt = [row.plain for row in felt_rows(view, 0, "ru", False, 78)]
    shown = "\n".join(felt)
    assert "│K♥ │ ║A♥ ║" in felt[1] and "│9♥" not in shown, shown  # the newest two cards, whole
    assert felt[6].rstrip().endswith("козырь │Q♦ │"), shown
    assert all(len(line) == 78 for line in felt), shown
    for row in (0, 1, 2, 3, 5, 6):
        assert "…" in felt[row], shown
    assert "…" not in felt[4] and felt[4].rstrip().endswith("2 взятки · нет на месте"), shown
