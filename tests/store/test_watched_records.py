"""Who watched a finished game may analyse it, as its players may (both stores)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.record import record_of
from engine.store.sqlite import SqliteStore
from engine.table.club import Club


def test_a_record_keeps_its_watchers_with_accounts(store: Any) -> None:
    from engine.games import get_game

    for name in ("Anna", "Cleo", "Dan"):
        store.create_account(name)
    game = get_game("kopilka")(["Anna", "bot-Mitya", "bot-Vanya", "bot-Sonya"], {}, dealer=0)
    record_id = store.save_record(record_of(game), accounts={"Anna": "Anna"}, result=[0, 0, 0, 0],
                                  watchers=["Cleo", "guest-7"])  # a guest has no account: skipped
    assert store.played(record_id, "Anna") and store.played(record_id, "cleo")
    assert not store.played(record_id, "Dan") and not store.played(record_id, "guest-7")


def test_a_member_who_watched_a_table_may_analyse_its_record_and_one_who_did_not_may_not(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "club.db")
    for name in ("anna", "cleo", "dan"):
        store.create_account(name, grant=100_000)
    club = Club([{"game": "kopilka", "think": 0, "clock": 0, "at_zero": "debt"}], seed=5, store=store, now=0.0)
    table = club.tables[1]
    table.sit("anna")
    for _ in range(3):
        table.sit_bot()
    table.watch("cleo")
    table.unwatch("cleo")  # he watched for a while and left: he saw it all the same
    clock = 0.0
    while not store.history("anna") and clock < 5000:
        clock += 1.0
        if not table.in_deal():
            table.start("anna", now=clock)
        club.tick(clock)
        game = table.game
        if game is not None and table.in_deal() and game.to_act() and game.names[game.to_act()[0]] == "anna":
            table.act("anna", game.legal_actions(game.to_act()[0])[0].text(), now=clock)
    (info,) = store.history("anna")[-1:]
    assert store.played(info.id, "cleo")
    assert not store.played(info.id, "dan")
    store.close()
