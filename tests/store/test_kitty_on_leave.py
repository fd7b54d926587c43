"""A Копилка partiya cut short by a player who stands up (R16): the kitty is paid out, to the kopeck.

The partiya cannot go on without its fourth player, so R16 settles it as if the
last deal played were its 4th: each player his tricks' worth W, the rest to
that deal's first shedder (split equally when it had none, the odd kopecks one
each clockwise from the next eldest).  The ledger books it, and the next
player to sit starts with an empty kitty.
"""

from __future__ import annotations

import random

from engine.cards import Suit
from engine.game import DealLog
from engine.games.kopilka import Kopilka, TrickRecord
from engine.table.club import Club
from tui.narrate import narrate

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def play_deals(table, deals: int, rng: random.Random) -> None:
    for _ in range(deals):
        for name in table.seated():
            table.start(name, now=1.0)
        game = table.game
        while game.in_deal:
            seat = game.to_act()[0]
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=1.0)


def test_standing_up_mid_partiya_pays_the_kitty_out_by_R16_to_the_kopeck(open_again):
    store = open_again()
    for name in NAMES:
        store.create_account(name, grant=10_000)
    club = Club([{"game": "kopilka", "clock": 0}], store=store, now=0.0, seed=7)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    play_deals(table, 2, random.Random(2))
    game = table.game
    # two deals of the partiya: 4 × D=20 deposits, then S and Z each deal
    assert (game.partiya_deal, game.pot, game.won(), game.first_shedder) == (2, 125, [2, 18, 0, 10], 1)
    assert game.balances == [-35, -25, -40, -25]
    seq = table.last_seq
    table.stand("Vera")
    # W paid in full (30 к. ≤ 1 р. 25 к.), the rest 95 к. to Boris, first shedder of the last deal
    assert table.money == {"Anna": -33, "Boris": 88, "Vera": -40, "Gleb": -15}
    assert table.pot == 0 and table.carried_pot == 0
    assert {n: store.balance(n) - 10_000 for n in NAMES} == table.money  # the ledger booked it
    told = [narrate(e.event, e.names, "en") for e in table.log_since(seq)]
    assert told[:4] == [
        "A seat is given up, so the partiya ends after deal 2 of 4 and the kitty of 1 r. 25 k. is paid out now "
        "(R16): each player gets his tricks' worth (30 k. in all), the rest goes to Boris, who shed first in the "
        "last deal. The next players start with an empty kitty.",
        "Boris receives 1 r. 13 k.", "Gleb receives 10 k.", "Anna receives 2 k."]
    ru = narrate(table.log_since(seq)[0].event, table.log_since(seq)[0].names, "ru")
    assert ru == ("Место освободилось, поэтому партия кончается после 2-й сдачи из 4, и копилка (1 р. 25 к.) "
                  "выплачивается сейчас (R16): каждый получает стоимость своих взяток (всего 30 к.), остаток "
                  "получает Boris (в последней сдаче первым снёс карты). Следующие игроки начнут с пустой копилкой.")
    store.create_account("Dasha", grant=10_000)
    table.sit("Dasha")
    assert table.view_for("Dasha")["pot"] == 0  # the newcomer never sees an old kitty
    for name in table.seated():
        table.start(name, now=2.0)
    assert table.game.pot == 4 * 20  # only the new partiya's deposits (R6)
    store.close()


def test_a_short_kitty_is_paid_pro_rata_and_no_odd_kopeck_stays():
    game = Kopilka(list(NAMES), {"D": 0, "S": 0, "Z": 0})
    game.pot, game.balances = 10, [-3, -3, -2, -2]  # a kitty of 10 к. after one deal
    game.deals.append(DealLog(0, [], [], [-3, -3, -2, -2]))
    game.partiya_deal, game.eldest = 1, 1
    heart = TrickRecord(1, Suit.HEARTS, False, 4)
    game.sheet = [[heart] * 3, [heart] * 2, [], []]
    # W = 12 and 8 with ♥ = 4; the kitty of 10 is short: floor(12·10/20) = 6, floor(8·10/20) = 4, nothing left
    step = game.close_step()
    assert step is not None and game.pot == 0
    assert game.last_settlement == [6, 4, 0, 0]
    game.pot, game.settled = 3, False
    game.sheet = [[], [], [], []]
    game.first_shedder = None
    game.close_step()  # no tricks, no shedder: 3 odd kopecks one each clockwise from the next eldest (seat 2)
    assert game.last_settlement == [1, 0, 1, 1] and game.pot == 0
