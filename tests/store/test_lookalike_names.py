"""Names that look alike are one name in the store itself, on every node, not only in one process."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any, Callable

import pytest

from engine.store.base import AccountError
from engine.store.sql import fill_look_keys

CYRILLIC_ANNA = "\u0410nna"  # А (Cyrillic) + "nna"


def test_a_lookalike_name_is_refused_by_another_connection(open_again: Callable[..., Any]) -> None:
    one, other = open_again(), open_again()  # two nodes' stores on one club
    try:
        one.create_account("Anna")
        for alike in (CYRILLIC_ANNA, "ANNA", "anna"):
            with pytest.raises(AccountError, match="taken"):
                other.create_account(alike)
        with pytest.raises(AccountError, match="looks like 'Anna'"):
            other.create_account(CYRILLIC_ANNA)
        other.create_account("Anya")  # a different name still goes in
        assert sorted(a.name for a in one.accounts()) == ["Anna", "Anya"]
    finally:
        one.close()
        other.close()


def _as_before_names_were_folded(store: Any) -> None:
    """Put the store back to the schema before the look-alike key, holding two look-alike accounts (the
    tables of the migrations after it dropped too: they run again after it)."""
    migrations = sys.modules[type(store).__module__].MIGRATIONS
    number = next(i + 1 for i, steps in enumerate(migrations) if fill_look_keys in steps)
    later = [re.search(r"CREATE TABLE (\w+)", step) for steps in migrations[number:] for step in steps
             if isinstance(step, str)]
    with store.batch():
        store._x("DROP INDEX account_look_key")
        store._x("ALTER TABLE account DROP COLUMN look_key")
        for made in filter(None, later):
            store._x(f"DROP TABLE {made.group(1)}")
        store._x("DELETE FROM schema_version WHERE version >= ?", (number,))
        for name in ("Anna", CYRILLIC_ANNA, "Boris"):
            store._x("INSERT INTO account (name, name_key, language, role, created, last_seen) "
                     "VALUES (?, ?, 'en', 'player', 0, 0)", (name, name.casefold()))


def test_old_lookalike_accounts_are_kept_apart_and_named(open_again: Callable[..., Any]) -> None:
    store = open_again()
    latest = store.schema_version()
    _as_before_names_were_folded(store)
    store.close()
    store = open_again()  # the migration runs again, on old data with a clash
    try:
        assert store.schema_version() == latest
        assert store.name_clashes() == [(CYRILLIC_ANNA, "Anna")]
        assert {a.name for a in store.accounts()} == {"Anna", CYRILLIC_ANNA, "Boris"}  # nothing merged
        assert store.account(CYRILLIC_ANNA).name == CYRILLIC_ANNA  # both still enter
        with pytest.raises(AccountError):
            store.create_account("ANNA")
    finally:
        store.close()


def test_db_upgrade_reports_the_lookalike_accounts(tmp_path) -> None:
    from engine.store.sqlite import SqliteStore

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    store = SqliteStore(data / "sukno.db")
    _as_before_names_were_folded(store)
    store.close()
    run = subprocess.run([sys.executable, "-m", "net.cli.main", "db", "upgrade", "--data", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"the account {CYRILLIC_ANNA!r} looks like the older 'Anna'" in run.stdout
    assert "rename one" in run.stdout


def test_a_rename_to_a_lookalike_name_is_refused_and_a_renamed_name_is_kept(open_again: Callable[..., Any]) -> None:
    store = open_again()
    try:
        store.create_account("Anna")
        store.create_account("Boris")
        with pytest.raises(AccountError, match="looks like 'Anna'"):
            store.rename_account("Boris", CYRILLIC_ANNA)
        store.rename_account("Boris", "Borya")
        with pytest.raises(AccountError):
            store.create_account("B0rya")  # the new name is held by its looks too (0 for o)
        store.create_account("Boris")  # and the old one is free
    finally:
        store.close()
