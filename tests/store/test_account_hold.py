"""The house's hold on accounts in the store: disable, close (the name freed after its wait), rename
(the id, records and ledger kept), on both backends (the ``store`` fixture), and the migration."""

from __future__ import annotations

import pytest

from engine.record import Record
from engine.store.base import GRANTS, AccountError, BanRow, TableHeader
from engine.store.sqlite import SCHEMA_VERSION, SqliteStore


def club(store) -> None:
    """Anna and Boris with a grant each and one hand of money between them, and a finished record."""
    store.create_account("Anna", key="SHA256:anna", grant=1000, now=100.0)
    store.create_account("Boris", key="SHA256:boris", grant=1000, now=100.0)
    store.post([("Anna", -150), ("Boris", 150)], reason="a deal", now=110.0)
    store.save_record(Record("stukolka", ["Anna", "Boris"], {}, 0, 0, []), result=[-150, 150], now=111.0)


def test_disable_close_and_the_name_freed_after_its_wait(store) -> None:
    club(store)
    assert store.account("Anna").state == "active"
    assert store.set_account_state("anna", "disabled") == "Anna"
    assert store.account("Anna").state == "disabled" and store.shut_accounts() == {"Anna": "disabled"}
    store.set_account_state("Anna", "active")
    assert store.shut_accounts() == {}
    # closed: the name is held until free_at, the ledger and record untouched
    store.set_account_state("Anna", "closed", free_at=500.0)
    with pytest.raises(AccountError, match="closed already"):
        store.set_account_state("Anna", "closed", free_at=9000.0)
    assert store.account("Anna").free_at == 500.0 and store.shut_accounts() == {"Anna": "closed"}
    assert store.release_names(now=499.0) == []
    with pytest.raises(AccountError, match="taken"):
        store.create_account("ANNA", key="SHA256:other")
    store.set_ignore("Boris", "Anna", True)
    store.set_mute("Anna", None, "rude", "house")
    store.put_ban(BanRow("name", "anna", "Anna", None, "rude", "house", 400.0))
    store.put_ban(BanRow("key", "SHA256:anna", "SHA256:anna", None, "rude", "house", 400.0))
    assert store.release_names(now=500.0) == ["Anna"]
    assert store.ignores("Boris") == [] and store.mutes() == []  # nothing catches the next Anna
    assert [b.kind for b in store.bans()] == ["key"]  # her name's ban went with the name; her key's stays
    freed = [a for a in store.accounts() if a.name.startswith("closed:")]
    assert len(freed) == 1 and freed[0].name.endswith(":Anna") and freed[0].balance == 850
    assert freed[0].keys == ("SHA256:anna",) and freed[0].state == "closed"
    assert store.account("Anna") is None
    # the name is free: a newcomer takes it and starts from his own grant, not the old purse
    store.create_account("Anna", key="SHA256:new", grant=1000)
    assert store.balance("Anna") == 1000
    assert store.balance(freed[0].name) == 850
    assert [m.amount for m in store.statement(freed[0].name)] == [-150, 1000]
    assert store.ledger_sum() == 0 and store.balance(GRANTS) == -3000
    store.check_ledger()
    with pytest.raises(AccountError, match="freed"):
        store.set_account_state(freed[0].name, "active")


def test_a_ban_of_his_name_follows_a_rename_in_the_same_transaction(store) -> None:
    """R: a banned account renamed is still banned; an unbanned one renamed does not lift another's ban."""
    club(store)
    store.create_account("Vera", key="SHA256:vera", grant=1000, now=100.0)
    store.put_ban(BanRow("name", "anna", "Anna", None, "card counting", "unix:root", 120.0))
    store.put_ban(BanRow("name", "anya", "Аnуа", 9000.0, "an old ban", "unix:root", 90.0))  # a look-alike of Anya
    store.put_ban(BanRow("name", "verka", "Verka", None, "spam", "unix:root", 130.0))
    store.put_ban(BanRow("key", "SHA256:boris", "SHA256:boris", None, "cheating", "unix:root", 140.0))
    assert store.rename_account("Anna", "Anya") == ("Anna", "Anya")
    assert sorted((b.kind, b.key, b.target, b.reason) for b in store.bans()) == [
        ("key", "SHA256:boris", "SHA256:boris", "cheating"),
        ("name", "anya", "Anya", "card counting"),  # hers, under her new name (the look-alike's ban replaced)
        ("name", "verka", "Verka", "spam")]
    assert store.rename_account("Anya", "ANYA") == ("Anya", "ANYA")  # the same looks: the ban respelt
    assert [(b.key, b.target) for b in store.bans() if b.kind == "name" and b.reason == "card counting"] == [
        ("anya", "ANYA")]
    assert store.rename_account("Vera", "Verka") == ("Vera", "Verka")  # he was not banned: Verka's ban stays
    assert sorted(b.target for b in store.bans() if b.kind == "name") == ["ANYA", "Verka"]
    assert store.rename_account("Boris", "Borya") == ("Boris", "Borya")  # a key's ban is not a name's
    assert [b.target for b in store.bans() if b.kind == "key"] == ["SHA256:boris"]


def test_rename_keeps_the_id_the_records_and_the_ledger(store) -> None:
    club(store)
    store.set_ignore("Boris", "Anna", True)
    store.set_ignore("Anna", "Boris", True)
    store.set_mute("Anna", 5000.0, "rude", "house")
    assert store.rename_account("anna", "Anya") == ("Anna", "Anya")
    assert store.ignores("Boris") == ["Anya"] and store.ignores("Anya") == ["Boris"]
    assert store.mutes() == [("Anya", 5000.0, "rude", "house")]
    assert store.account("Anna") is None
    anya = store.account("anya")
    assert anya.name == "Anya" and anya.balance == 850 and anya.keys == ("SHA256:anna",)
    assert [m.amount for m in store.statement("Anya")] == [-150, 1000]
    assert [r.net for r in store.history("Anya")] == [-150]  # the record is still his (by his id)
    assert store.history("Anya")[0].players == ["Anna", "Boris"]  # under the name it was played
    assert store.account_by_key("SHA256:anna").name == "Anya"
    assert store.ledger_sum() == 0
    store.check_ledger()
    with pytest.raises(AccountError, match="taken"):
        store.rename_account("Anya", "boris")
    assert store.rename_account("Anya", "ANYA") == ("Anya", "ANYA")  # his own name in other letters
    assert store.balance("ANYA") == 850
    with pytest.raises(AccountError, match="no account"):
        store.rename_account("Nobody", "Somebody")
    with pytest.raises(AccountError, match="':'"):
        store.rename_account("ANYA", "a:b")


def test_rename_is_refused_while_he_plays(store) -> None:
    club(store)
    store.open_table_journal(1, TableHeader("stukolka", {}, ["Anna", "bot-1"], seats=["Anna", "bot:1"]))
    with pytest.raises(AccountError, match="plays at table 1"):
        store.rename_account("Anna", "Anya")
    store.open_table_journal(2, TableHeader("stukolka", {}, ["bot-2", "bot-3"], seats=["bot:2", "bot:3"]))
    store.append(2, "seat", {"seat": 0, "purse": "Boris"})
    with pytest.raises(AccountError, match="plays at table 2"):
        store.rename_account("boris", "Bors")
    store.close_table_journal(1)
    assert store.rename_account("Anna", "Anya") == ("Anna", "Anya")


def test_the_states_are_checked(store) -> None:
    club(store)
    with pytest.raises(AccountError, match="state"):
        store.set_account_state("Anna", "asleep")
    assert store.account_list() == [("Anna", "active"), ("Boris", "active")]


def test_an_older_store_is_migrated_with_everyone_active(tmp_path) -> None:
    """A club from before the states: its accounts come through the migration active."""
    import sqlite3

    from engine.store import sqlite as backend

    path = tmp_path / "sukno.db"
    old = backend.MIGRATIONS
    backend.MIGRATIONS = old[:-1]
    backend.SCHEMA_VERSION = len(old) - 1
    try:
        with SqliteStore(path) as before, before.batch():  # the old columns only
            before._x("INSERT INTO account (name, name_key, language, role, created, last_seen) "
                      "VALUES ('Anna', 'anna', 'ru', 'player', 1, 1)")
            before.post([(GRANTS, -5), ("Anna", 5)], reason="starting grant")
    finally:
        backend.MIGRATIONS, backend.SCHEMA_VERSION = old, SCHEMA_VERSION
    with SqliteStore(path) as after:
        assert after.schema_version() == SCHEMA_VERSION
        assert after.account("Anna").state == "active" and after.account("Anna").balance == 5
    assert sqlite3.connect(path).execute("SELECT state FROM account").fetchall() == [("active",)]
