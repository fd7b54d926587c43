"""The house's operations on the club itself (engine.table.admin_ops), without a network."""

from __future__ import annotations

import pytest

from engine.table.admin_ops import AdminError, admin_view, close_table, open_table, parse_duration, seat_player, show_duration
from engine.table.club import Club
from engine.game import ADMIN
from engine.table.owner import TableError


@pytest.fixture
def club() -> Club:
    return Club([{"game": "stukolka"}], seed=7)


def play_deal(club: Club, table) -> None:
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        seat_player(club, table, str(len(table.seated()) + 1), name)
    for name in table.seated():
        table.start(name, 0.0)


def finish_deal(table) -> None:
    while table.in_deal():
        seat = table.game.to_act()[0]
        table.act(table.game.names[seat], table.game.legal_actions(seat)[0].text(ascii=True), 0.0)


def test_open_with_rules_options(club):
    """Options are RULES.md's names, checked by the game; seats= sets the player count."""
    table = open_table(club, "stukolka", ["variant=v", "dark=on", "seats=6"])
    assert (table.options["variant"], table.options["dark"], len(table.seats)) == ("v", True, 6)
    for words, reason in ((["a=4"], "multiple of 3"), (["seats=1"], "played by"), (["x=1"], "unknown option"),
                          (["seats=two"], "whole number")):
        with pytest.raises(AdminError, match=reason):
            open_table(club, "stukolka", words)
    assert list(club.tables) == [1, 2]


def test_close_refuses_mid_deal_and_after_deal_waits(club):
    """close mid-deal is refused; --after-deal lets the deal finish, starts no new one, then closes."""
    table = club.tables[1]
    heard: list[str] = []
    club.subscribe(lambda events: heard.extend(e.kind for e in events))
    play_deal(club, table)
    with pytest.raises(AdminError, match="--after-deal"):
        close_table(club, table, after_deal=False)
    assert close_table(club, table, after_deal=True) is False
    assert 1 in club.tables and table.closing
    finish_deal(table)
    assert 1 not in club.tables and "table_close" in heard
    assert table.seated() == []
    assert club.where("Anna") is None


def test_a_closing_table_starts_no_deal(club):
    table = club.tables[1]
    table.closing = True
    table.sit("Anna")
    with pytest.raises(TableError, match="closing"):
        table.start("Anna")


def test_close_now_stands_everyone(club):
    table = club.tables[1]
    table.sit("Anna")
    table.watch("Boris")
    assert close_table(club, table, after_deal=False) is True
    assert club.tables == {} and club.where("Anna") is None


def test_seat_refusals(club):
    table = club.tables[1]
    seat_player(club, table, "2", "Anna")
    with pytest.raises(AdminError, match="seat 2 is taken|Seat 2 is taken"):
        seat_player(club, table, "2", "Boris")
    with pytest.raises(AdminError, match="seats 1–4"):
        seat_player(club, table, "5", "Boris")
    with pytest.raises(AdminError, match="already sits"):
        seat_player(club, open_table(club, "stukolka", []), "1", "Anna")


def test_admin_view_shows_every_hand(club):
    """watch: every seat's hidden cards, as view(ADMIN) has them."""
    table = club.tables[1]
    play_deal(club, table)
    text, data = admin_view(table)
    hands = table.game.view(ADMIN)["hands"]
    for seat, hand in enumerate(hands):
        assert data["hands"][seat] == [c.text() for c in hand]
        assert all(c.text() in text for c in hand)


def test_durations():
    assert [parse_duration(t) for t in ("90", "90s", "15m", "2h", "1d", "1w")] == [90, 90, 900, 7200, 86400, 604800]
    for bad in ("", "soon", "-5m", "0"):
        with pytest.raises(AdminError):
            parse_duration(bad)
    assert (show_duration(7200), show_duration(90), show_duration(3599)) == ("2h", "1m 30s", "59m 59s")


def test_a_closed_table_stays_closed_with_a_store(tmp_path):
    """With the store, close ends the table's journal: its number can be opened again, a restart skips it."""
    from engine.store.opening import open_store

    store = open_store(tmp_path)
    try:
        club = Club([{"game": "stukolka"}], seed=7, store=store, now=0.0)
        table = open_table(club, "kopilka", [])
        table.sit("Anna")
        close_table(club, table, after_deal=False)
        again = open_table(club, "french3", [])
        assert again.id == table.id and again.game_name == "french3"
        close_table(club, again, after_deal=False)
        restarted = Club([{"game": "stukolka"}], seed=7, store=store, now=0.0)
        assert [(t.id, t.game_name) for t in restarted.tables.values()] == [(1, "stukolka")]
    finally:
        store.close()


def test_seat_bot_and_table_settings_on_open(club):
    """``seat T S bot`` seats a bot (its name says so); ``open … clock= grace= bots=fill`` are table settings."""
    from engine.table.admin_ops import seat_bot

    table = club.tables[1]
    assert seat_bot(club, table, "3") == (2, "bot-Mitya")
    with pytest.raises(AdminError, match="Seat 3 is taken"):
        seat_bot(club, table, "3")
    with pytest.raises(AdminError, match="seats 1–4"):
        seat_bot(club, table, "0")
    opened = open_table(club, "french3", ["clock=20", "grace=90", "bots=fill"])
    settings = opened.auto.settings
    assert (settings.clock, settings.grace, settings.fill) == (20.0, 90.0, True)
    before = list(club.tables)
    with pytest.raises(AdminError, match="grace must be"):
        open_table(club, "french3", ["grace=-1"])
    assert list(club.tables) == before
