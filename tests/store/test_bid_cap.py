"""R5 with Спекулянт's bids (R64): at a table that forbids debt no bid promises money its bidder lacks.

A bid binds the bidder to pay its price the moment the holder accepts, so the
club balance (the ledger, which the antes have already paid) caps it: exactly
the balance is taken, a kopeck more is refused with the reason and changes
nothing.  Accepting a bid the buyer can no longer cover is refused as well.
A player who cannot pay the next stake is told so, and so is the table.
"""

from __future__ import annotations

import pytest

from engine.store.base import GRANTS
from engine.table.club import Club
from engine.table.owner import TableError
from tui.refusals import explain

NAMES = ("Anna", "Boris", "Vera")
GRANT = 10_000  # 100 р.
STAKE = 35  # s = 35 к.: Anna keeps 99 р. 65 к. after the ante
SEED = 1  # repeatable deals: no K♠ (R65's re-ante) before the first trade window


def open_window(table) -> tuple[int, int]:
    """Reveal until a trade window opens; (holder seat, a bidder seat that is not the holder)."""
    for name in NAMES:
        table.start(name, now=1.0)
    game = table.game
    while not game.window_open:
        table.act(game.names[game.revealer], "reveal", now=1.0)
    holder = game.holder
    return holder, (holder + 1) % game.n


def make_table(open_again, at_zero: str = "refuse"):
    store = open_again()
    for name in NAMES:
        store.create_account(name, grant=GRANT)
    club = Club([{"game": "speculator", "options": {"s": STAKE}, "at_zero": at_zero}], store=store, now=0.0,
                seed=SEED)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    return store, table


def test_a_bid_is_capped_by_the_bidders_club_balance(open_again):
    store, table = make_table(open_again)
    holder, bidder = open_window(table)
    game, name = table.game, table.game.names[bidder]
    assert store.balance(name) == GRANT - STAKE == 9965
    with pytest.raises(TableError) as refused:
        table.act(name, "bid 1000000", now=2.0)
    assert refused.value.key == "money.bid_over"
    assert refused.value.params["most"] == 9965
    assert explain(refused.value, "ru") == (
        "На вашем счёте в клубе 99 р. 65 к.; ставка 10000 р. обещала бы деньги, которых у вас нет (R5, R64). "
        "Самое большее — даю 9965 (99 р. 65 к.).")
    assert explain(refused.value, "en") == (
        "You have 99 r. 65 k. in the club; a bid of 10000 r. would promise money you do not have (R5, R64). "
        "At most: bid 9965 (99 r. 65 k.).")
    assert game.bids == {}  # refused: nothing changed
    with pytest.raises(TableError):
        table.act(name, "bid 9966", now=2.0)
    table.act(name, "bid 9965", now=2.0)  # exactly what she has is taken
    assert game.bids == {bidder: 9965}
    table.act(game.names[holder], f"accept {name}", now=2.0)
    assert store.balance(name) == 0  # never below zero
    assert store.balance(game.names[holder]) == GRANT - STAKE + 9965
    store.close()


def test_accepting_a_bid_the_buyer_can_no_longer_pay_is_refused(open_again):
    store, table = make_table(open_again)
    holder, bidder = open_window(table)
    game, name = table.game, table.game.names[bidder]
    table.act(name, "bid 5000", now=2.0)
    store.post([(name, -9000), (GRANTS, 9000)], reason="test: spent elsewhere meanwhile")
    with pytest.raises(TableError) as refused:
        table.act(game.names[holder], f"accept {name}", now=2.0)
    assert refused.value.key == "money.buyer_short"
    assert explain(refused.value, "en") == (
        f"{name} has 9 r. 65 k. in the club and cannot pay the bid of 50 r. (R5, R64); "
        "accept another bid or let the window close.")
    assert game.holder == holder and game.bids == {bidder: 5000}
    assert store.balance(name) == 965
    store.close()


def test_a_table_that_allows_debt_takes_any_bid(open_again):
    store, table = make_table(open_again, at_zero="debt")
    holder, bidder = open_window(table)
    game, name = table.game, table.game.names[bidder]
    table.act(name, "bid 1000000", now=2.0)
    table.act(game.names[holder], f"accept {name}", now=2.0)
    assert store.balance(name) == GRANT - STAKE - 1_000_000
    store.close()


def test_who_cannot_pay_the_next_stake_is_told_the_way_on_and_so_is_the_table(open_again):
    store, table = make_table(open_again)
    seq = table.last_seq
    store.post([("Anna", -GRANT + 10), (GRANTS, GRANT - 10)], reason="test: lost it elsewhere")
    with pytest.raises(TableError) as refused:
        table.start("Anna", now=1.0)
    assert refused.value.key == "money.cannot_start"
    assert explain(refused.value, "ru") == (
        "На вашем счёте в клубе 10 к., а ставка следующей сдачи — 35 к.; в долг здесь не играют (R5). "
        "Наберите встать, чтобы освободить место, или попросите клуб добавить денег.")
    from tui.narrate import narrate
    told = [e for e in table.log_since(seq) if e.event.kind == "cannot_pay"]
    assert len(told) == 1
    line = narrate(told[0].event, told[0].names, "ru")
    assert line == ("Anna: нечем заплатить ставку следующей сдачи, 35 к. (на счёте в клубе 10 к.; в долг здесь "
                    "не играют, R5). Сдачи не будет, пока место не освободят (встать) или клуб не добавит денег.")
    assert "Anna" not in table.ready
    table.stand("Anna")  # the way on: the seat is free for someone who can pay
    assert "Anna" not in table.seats
    store.close()
