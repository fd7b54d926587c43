"""``at_zero = "refuse"`` holds during a session, not only at sitting down (issue 12, item 11; RULES R5).

R5: balances may go negative by default, and "a table option may forbid actions
a player cannot pay for".  A table that refuses debt checks the club balance
(the ledger, which every journaled change has already paid) each time a player
says ``start`` for the next deal: who cannot pay the table's stake is not dealt
in (he may stand up, or be granted money).  Within a deal the game's own
payments still run, so a balance can end at most one deal's losses below zero.
"""

from __future__ import annotations

import random

import pytest

from engine.table.club import Club
from engine.store.base import GRANTS
from engine.store.sqlite import SqliteStore
from engine.table.owner import TableError

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def play_deal(table, rng: random.Random) -> None:
    for name in table.seated():
        table.start(name, now=1.0)
    while table.game is not None and table.game.in_deal:
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=1.0)


@pytest.mark.parametrize("at_zero", ["refuse", "debt"])
def test_a_player_who_cannot_pay_is_not_dealt_in_again(open_again, at_zero):
    store = open_again()
    for name in NAMES:
        store.create_account(name, grant=10_000)
    club = Club([{"game": "stukolka", "at_zero": at_zero}], store=store, now=0.0)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(5)
    play_deal(table, rng)
    assert table.game is not None and not table.game.in_deal and len(table.game.deals) == 1
    broke = store.balance("Anna")
    store.post([("Anna", -broke), (GRANTS, broke)], reason="test: Anna lost it all elsewhere")
    assert store.balance("Anna") == 0 < table.game_cls.stake(table.options)
    if at_zero == "debt":
        table.start("Anna", now=2.0)
        assert "Anna" in table.ready
        return
    with pytest.raises(TableError) as refused:
        table.start("Anna", now=2.0)
    assert refused.value.key == "money.cannot_start"  # with the way on: stand, or a grant
    assert refused.value.params["have_money"] == 0
    assert "Anna" not in table.ready
    for name in NAMES[1:]:
        table.start(name, now=2.0)
    assert not table.in_deal()  # nobody is dealt in while Anna cannot pay
    table.stand("Anna")  # between deals she may leave; the money of the session is booked
    assert "Anna" not in table.seats
    store.close()
