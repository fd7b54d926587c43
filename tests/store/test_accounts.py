"""Accounts: names, keys, language, role, timestamps, and the starting grant."""

from __future__ import annotations

import pytest

from engine.store.base import GRANTS, AccountError
from engine.store.sqlite import SqliteStore


def test_a_new_account_with_key_language_and_grant(store: SqliteStore) -> None:
    anna = store.create_account("Anna", key="SHA256:a1", language="en", grant=10_000, now=100.0)
    assert (anna.name, anna.language, anna.role, anna.keys) == ("Anna", "en", "player", ("SHA256:a1",))
    assert (anna.created, anna.last_seen, anna.balance) == (100.0, 100.0, 10_000)
    assert store.balance(GRANTS) == -10_000
    assert store.ledger_sum() == 0


def test_names_are_unique_whatever_the_case(store: SqliteStore) -> None:
    store.create_account("Анна")
    with pytest.raises(AccountError, match="taken"):
        store.create_account("анна")
    assert store.account("АННА").name == "Анна"  # type: ignore[union-attr]
    assert store.account("Boris") is None


@pytest.mark.parametrize("name", ["", "   ", "a:b", "x" * 33, "bell\x07"])
def test_bad_names_are_refused(store: SqliteStore, name: str) -> None:
    with pytest.raises(AccountError):
        store.create_account(name)


def test_bad_role_language_or_grant_are_refused(store: SqliteStore) -> None:
    with pytest.raises(AccountError, match="role"):
        store.create_account("Anna", role="god")
    with pytest.raises(AccountError, match="language"):
        store.create_account("Anna", language="")
    with pytest.raises(AccountError, match="grant"):
        store.create_account("Anna", grant=-5)
    assert store.accounts() == []


def test_one_account_many_keys_one_key_one_account(store: SqliteStore) -> None:
    store.create_account("Anna", key="SHA256:laptop", now=1.0)
    store.add_key("anna", "SHA256:phone", now=2.0)
    store.add_key("Anna", "SHA256:phone")  # again: nothing changes
    store.create_account("Boris", key="SHA256:boris")
    assert store.account("Anna").keys == ("SHA256:laptop", "SHA256:phone")  # type: ignore[union-attr]
    assert store.account_by_key("SHA256:phone").name == "Anna"  # type: ignore[union-attr]
    with pytest.raises(AccountError, match="already belongs to the account 'Anna'"):
        store.add_key("Boris", "SHA256:laptop")
    with pytest.raises(AccountError, match="already belongs"):
        store.create_account("Vera", key="SHA256:boris")
    assert store.account("Vera") is None  # the refused account was not half-made
    store.remove_key("SHA256:phone")
    assert store.account_by_key("SHA256:phone") is None


def test_language_role_and_last_seen_change(store: SqliteStore) -> None:
    store.create_account("Anna", now=1.0)
    store.set_language("Anna", "en")
    store.set_role("Anna", "admin")
    store.touch("Anna", now=50.0)
    anna = store.account("Anna")
    assert anna is not None and (anna.language, anna.role, anna.last_seen, anna.created) == ("en", "admin", 50.0, 1.0)
    with pytest.raises(AccountError, match="no account named 'Gleb'"):
        store.touch("Gleb")


def test_accounts_are_listed_by_name(store: SqliteStore) -> None:
    for name in ("vera", "Anna", "Boris"):
        store.create_account(name, grant=100)
    assert [a.name for a in store.accounts()] == ["Anna", "Boris", "vera"]
    assert all(a.balance == 100 for a in store.accounts())


def test_settings_are_kept_per_account_and_survive_reopening(store: SqliteStore, open_again) -> None:
    """The text mode's choices (mode, bell, cards…) live in the store (migration 5)."""
    store.create_account("Anna")
    store.create_account("Boris")
    assert store.settings("Anna") == {}
    store.set_setting("Anna", "mode", "text")
    store.set_setting("Anna", "cards", "words")
    store.set_setting("Anna", "mode", "screen")  # a second choice replaces the first
    store.set_setting("Boris", "bell", "on")
    assert store.settings("anna") == {"mode": "screen", "cards": "words"}
    assert store.settings("Boris") == {"bell": "on"}
    store.set_setting("Anna", "cards", "")  # empty: forgotten
    assert store.settings("Anna") == {"mode": "screen"}
    assert store.settings("Nobody") == {}
    store.close()
    again = open_again()
    try:
        assert again.settings("Anna") == {"mode": "screen"}
    finally:
        again.close()


@pytest.mark.parametrize("key, value", [("", "x"), ("a b", "x"), ("k" * 33, "x"), ("mode", "x" * 33),
                                        ("mode", "bell\x07")])
def test_bad_settings_are_refused_and_change_nothing(store: SqliteStore, key: str, value: str) -> None:
    store.create_account("Anna")
    with pytest.raises(AccountError):
        store.set_setting("Anna", key, value)
    with pytest.raises(AccountError):
        store.set_setting("Nobody", "mode", "text")
    assert store.settings("Anna") == {}
