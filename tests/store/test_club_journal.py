"""The club with a store: every change journaled before it is shown, and a restart finds it all."""

from __future__ import annotations

import random
from typing import Callable

import pytest

from engine.table.club import Club
from engine.games import get_game
from engine.store.base import StoreError
from engine.store.sqlite import SqliteStore
from engine.table.owner import TableError

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def club_of(
    open_again: Callable[[], SqliteStore], config: list[dict] | None = None, now: float = 100.0
) -> tuple[SqliteStore, Club]:
    """The club on the store ``open_again`` opens (each backend: tests/store/conftest.py), as at a start."""
    store = open_again()
    for name in NAMES:
        if store.account(name) is None:
            store.create_account(name, grant=10_000)
    return store, Club(config or [{"game": "stukolka"}, {"game": "kopilka"}], store=store, now=now)


def play(club: Club, table_id: int, steps: int, rng: random.Random, now: float = 100.0) -> None:
    table = club.tables[table_id]
    for _ in range(steps):
        game = table.game
        if game is None or not game.in_deal:
            for name in table.seated():
                if name not in table.ready:
                    table.start(name, now=now)
            continue
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=now)


def test_restart_restores_seats_hands_turn_pot_and_money(open_again):
    store, club = club_of(open_again)
    for name in NAMES:
        club.tables[1].sit(name)
    for name in NAMES[:3]:
        club.tables[2].sit(name)
    rng = random.Random(7)
    play(club, 1, 60, rng)
    play(club, 2, 40, rng)
    views = {tid: {n: t.view_for(n) for n in NAMES} for tid, t in club.tables.items()}
    states = {tid: t.state() for tid, t in club.tables.items()}
    balances = {n: club.balance(n) for n in NAMES}
    store.close()

    store, again = club_of(open_again, now=5000.0)
    assert again.restore_errors == []
    assert {tid: t.state() for tid, t in again.tables.items()} == states
    assert {tid: {n: t.view_for(n) for n in NAMES} for tid, t in again.tables.items()} == views
    assert {n: again.balance(n) for n in NAMES} == balances
    store.check_ledger()
    assert store.ledger_sum() == 0
    # and play goes on from there, still balanced
    play(again, 1, 30, rng, now=5000.0)
    assert store.ledger_sum() == 0
    store.close()


def test_subscribers_hear_only_what_is_committed(open_again):
    store, club = club_of(open_again, [{"game": "stukolka"}])
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    heard: list[int] = []
    table.subscribe(lambda events: heard.append(len(store.journal(1))))
    for name in NAMES:
        table.start(name, now=1.0)
    game = table.game
    assert game is not None and game.in_deal
    assert heard and all(n > 0 for n in heard)
    # the journal has the deal before the subscriber hears of it
    seen = len(store.journal(1))
    seat = game.to_act()[0]
    table.act(game.names[seat], game.legal_actions(seat)[0].text(), now=2.0)
    assert heard[-1] == seen + 2  # the action and what the table told of it (engine/table/told.py)
    assert store.journal(1)[-1].kind == "told"
    store.close()


def test_a_failed_write_shows_nothing_and_the_table_is_rebuilt(open_again, monkeypatch):
    store, club = club_of(open_again, [{"game": "stukolka"}])
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    for name in NAMES:
        table.start(name, now=1.0)
    game = table.game
    assert game is not None
    before = table.view_for(NAMES[0])
    heard: list[object] = []
    table.subscribe(heard.append)

    def disk_full(*args, **kwargs):
        raise StoreError("disk full", 74)

    monkeypatch.setattr(store, "append", disk_full)
    seat = game.to_act()[0]
    with pytest.raises(TableError) as refused:
        table.act(game.names[seat], game.legal_actions(seat)[0].text(), now=2.0)
    assert refused.value.key == "store.failed"
    assert heard == []
    assert table.view_for(NAMES[0]) == before
    monkeypatch.undo()
    seat = table.game.to_act()[0]
    table.act(table.game.names[seat], table.game.legal_actions(seat)[0].text(), now=3.0)
    assert heard
    store.close()


def test_zero_balance_refuses_a_seat_unless_the_table_allows_debt(open_again):
    store = open_again()
    store.create_account("Pauper")
    club = Club([{"game": "stukolka"}, {"game": "stukolka", "at_zero": "debt"}], store=store, now=0.0)
    with pytest.raises(TableError) as refused:
        club.tables[1].sit("Pauper")
    assert refused.value.key == "store.not_enough_money"
    assert club.tables[1].seated() == []
    assert club.tables[2].sit("Pauper") == 0
    store.close()


def test_without_a_store_nothing_is_written(tmp_path):
    club = Club([{"game": "stukolka"}], seed=1)
    assert club.tables[1].keeper is None and club.store is None
    assert list(tmp_path.iterdir()) == []


def test_a_session_that_ends_is_kept_as_a_record(open_again):
    store, club = club_of(open_again, [{"game": "stukolka"}])
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(3)
    play(club, 1, 5, rng)
    while table.in_deal():
        play(club, 1, 1, rng)
    table.stand("Anna")
    history = store.history("Boris")
    assert len(history) == 1 and history[0].table_id == 1 and history[0].game == "stukolka"
    record = store.get_record(history[0].id)
    assert record.players == list(NAMES) and record.deals
    store.close()
    store, again = club_of(open_again, [{"game": "stukolka"}])
    assert again.tables[1].seats == [None, "Boris", "Vera", "Gleb"] and again.tables[1].game is None
    store.close()


def test_a_closed_table_is_not_restored(open_again):
    store, club = club_of(open_again)
    club.close_table(2)
    store.close()
    store, again = club_of(open_again, [{"game": "stukolka"}])
    assert list(again.tables) == [1]
    store.close()


def test_a_trade_window_gets_back_the_time_it_had_left(open_again):
    """Спекулянт's clock: the restart's ``now`` is where the journal's last moment lands."""
    store, club = club_of(open_again, [{"game": "speculator", "clock": 0}], now=0.0)  # the window's clock only
    table = club.tables[1]
    seats = len(table.seats)
    for name in NAMES[:seats]:
        table.sit(name)
    rng = random.Random(5)
    now = 50.0
    for _ in range(200):
        if table.deadline() is not None:
            break
        game = table.game
        if game is None or not game.in_deal:
            for name in table.seated():
                table.start(name, now=now)
            continue
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=now)
        now += 0.5
    deadline = table.deadline()
    assert deadline is not None, "no trade window opened"
    left = deadline - (now - 0.5)
    view = table.view_for(NAMES[0])
    store.close()
    store, again = club_of(open_again, [{"game": "speculator"}], now=9000.0)
    restored = again.tables[1]
    assert restored.deadline() == pytest.approx(9000.0 + left)
    assert restored.view_for(NAMES[0]).get("hands") == view.get("hands")
    store.close()


def test_the_story_of_the_deal_in_play_comes_back(open_again):
    store, club = club_of(open_again, [{"game": "stukolka"}])
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    play(club, 1, 8, random.Random(9))
    assert table.in_deal()
    deal_no = table.game.deal_no
    told = [(e.event.kind, e.event.seat, e.event.data) for e in table.log_since(0)]
    start = max(i for i, t in enumerate(told) if t[0] == "deal_start")
    store.close()
    store, again = club_of(open_again, [{"game": "stukolka"}])
    back = [(e.event.kind, e.event.seat, e.event.data) for e in again.tables[1].log_since(0)]
    assert again.tables[1].game.deal_no == deal_no
    assert back == [t for t in told[start:] if t[0] not in ("table_ready", "deal_over")]
    assert type(again.tables[1].game) is get_game("stukolka")  # no longer recording
    store.close()


def test_a_journal_that_no_longer_replays_is_reported_and_skipped(open_again):
    store, club = club_of(open_again)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    play(club, 1, 6, random.Random(1))
    store.append(1, "action", {"seat": 0, "action": "fly away"})  # no such verb (the rules changed under it)
    store.close()
    store, again = club_of(open_again)
    assert len(again.restore_errors) == 1 and again.restore_errors[0].startswith("table 1:")
    assert list(again.tables) == [2]
    assert again.open_table("stukolka").id == 3  # number 1 stays with its journal
    store.close()


def test_every_deal_of_stukolka_is_a_record_that_replays_to_its_result(open_again):
    """Стуколка reaches a natural end after every deal (RULES.md §9.4): one record each, pot carried."""
    from engine.record import replay

    store, club = club_of(open_again, [{"game": "stukolka"}])
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(12)
    while table.game is None or table.game.deal_no < 3 or table.in_deal():
        play(club, 1, 1, rng)
    store.close()
    store, again = club_of(open_again, [{"game": "stukolka"}])  # the next record starts where it should
    table = again.tables[1]
    play(again, 1, 1, rng)
    while table.in_deal():
        play(again, 1, 1, rng)
    history = list(reversed(store.history("Anna")))
    assert len(history) == 4
    pot = 0
    for info in history:
        record = store.get_record(info.id)
        assert len(record.deals) == 1 and record.pot == pot
        status, out = replay(record)
        assert status == 0 and out["ok"] and out["over"]
        assert out["balances"]["Anna"] == info.net
        pot = out["pot"]
    store.close()
