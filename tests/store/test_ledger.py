"""The double-entry ledger: every posting balances, and random multi-table play conserves money."""

from __future__ import annotations

import random
import sqlite3

import pytest
from store_play import GAME_SEATS, SHORT, open_table, seat_money, step

from engine.store.base import GRANTS, LedgerError, NotEnoughMoney, StoreError, check_funds, pot_purse, restore_table
from engine.store.sqlite import SqliteStore

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]
GRANT = 5_000


def test_a_posting_must_balance(store: SqliteStore) -> None:
    store.create_account("Anna")
    with pytest.raises(LedgerError, match="sum to zero, not 10"):
        store.post([("Anna", -20), ("table:1:pot", 30)])
    with pytest.raises(LedgerError, match="whole number of kopecks"):
        store.post([("Anna", -0.5), ("table:1:pot", 0.5)])  # type: ignore[list-item]
    with pytest.raises(LedgerError, match="whole number"):
        store.post([("Anna", True), ("table:1:pot", -1)])  # type: ignore[list-item]
    with pytest.raises(LedgerError, match="no account named 'Boris'"):
        store.post([("Boris", -5), ("table:1:pot", 5)])
    with pytest.raises(LedgerError, match=r"\(purse, kopecks\)"):
        store.post([("Anna",)])  # type: ignore[list-item]
    assert store.post([("Anna", 0), ("table:1:pot", 0)]) is None
    assert store.purses() == {} and store.ledger_sum() == 0


def test_statement_shows_movements_newest_first(store: SqliteStore) -> None:
    store.create_account("Anna", grant=100, now=1.0)
    store.post([("anna", -30), (pot_purse(7), 30)], table_id=7, deal_no=1, reason="ante", now=2.0)
    store.post([(pot_purse(7), -30), ("Anna", 30)], table_id=7, deal_no=1, reason="pot won", now=3.0)
    lines = store.statement("ANNA")
    assert [(m.amount, m.reason, m.table_id, m.deal_no, m.at) for m in lines] == [
        (30, "pot won", 7, 1, 3.0),
        (-30, "ante", 7, 1, 2.0),
        (100, "starting grant", None, None, 1.0),
    ]
    assert store.balance("Anna") == 100 and store.balance(pot_purse(7)) == 0


def test_amounts_beyond_64_bits_are_exact(open_again) -> None:  # type: ignore[no-untyped-def]
    huge = 3 * 2**70 + 7
    with open_again() as store:
        store.create_account("Anna")
        store.post([(GRANTS, -huge), (pot_purse(1), huge)], reason="carried pot")
        store.post([(pot_purse(1), -huge), ("Anna", huge - 1), ("club:house", 1)])
        store.post([("Anna", -(2**63)), ("club:house", 2**63)])
    with open_again() as store:
        assert store.balance("Anna") == huge - 1 - 2**63
        assert store.balance("club:house") == 2**63 + 1
        assert store.ledger_sum() == 0
        store.check_ledger()


def test_check_ledger_catches_a_cached_balance_that_drifted(store: SqliteStore) -> None:
    store.create_account("Anna", grant=100)
    store.check_ledger()
    behind_its_back(store, "UPDATE purse SET balance = 99 WHERE name = 'Anna'")
    with pytest.raises(StoreError, match="disagree with the ledger"):
        store.check_ledger()


def behind_its_back(store, sql: str) -> None:  # type: ignore[no-untyped-def]
    """Change the database with another connection, as a careless hand would."""
    if isinstance(store, SqliteStore):
        with sqlite3.connect(store.path) as db:
            db.execute(sql)
    else:
        import psycopg

        with psycopg.connect(store.url, autocommit=True) as db:
            db.execute(sql)


def test_a_failed_batch_leaves_nothing(store: SqliteStore) -> None:
    store.create_account("Anna", grant=100)
    with pytest.raises(LedgerError):
        with store.batch():
            store.post([("Anna", -10), ("table:1:pot", 10)])
            store.post([("Anna", -10), ("table:1:pot", 11)])
    assert store.balance("Anna") == 100 and store.balance("table:1:pot") == 0
    assert len(store.statement("Anna")) == 1


def test_the_zero_rule_of_a_table() -> None:
    check_funds(0, 30, allow_debt=True)
    check_funds(30, 30, allow_debt=False)
    with pytest.raises(NotEnoughMoney) as err:
        check_funds(12, 30, allow_debt=False)
    assert err.value.params == {"balance": 12, "needed": 30} and "needs at least 30" in str(err.value)
    with pytest.raises(NotEnoughMoney, match="does not allow debt"):
        check_funds(-5, 30, allow_debt=False)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_money_is_conserved_over_random_multi_table_play(store: SqliteStore) -> None:
    """Every registered game at its own table, players sitting at several tables at once."""
    for name in NAMES:
        store.create_account(name, grant=GRANT)
    rng = random.Random(7)
    tables = [
        open_table(store, number, game, rng.sample(NAMES, GAME_SEATS[game]), number, SHORT.get(game))
        for number, game in enumerate(sorted(GAME_SEATS), 1)
    ]
    for _ in range(2500):
        step(store, rng.choice(tables), rng)
        if rng.random() < 0.02:
            assert store.ledger_sum() == 0
    assert sum(t.game.deal_no for t in tables) > 50 and any(t.sessions for t in tables)
    assert store.ledger_sum() == 0
    store.check_ledger()
    money = seat_money(tables)
    assert {name: store.balance(name) for name in NAMES} == {name: GRANT + money.get(name, 0) for name in NAMES}
    for table in tables:
        assert store.balance(pot_purse(table.table_id)) == table.game.pot
    assert store.balance(GRANTS) == -GRANT * len(NAMES)


def test_a_pot_past_2_to_the_63_is_conserved(store: SqliteStore) -> None:
    """Стуколка's remiz can push money past 64 bits; the ledger keeps it exactly."""
    for name in NAMES[:4]:
        store.create_account(name)
    carried = 3 * 2**64
    store.post([(GRANTS, -carried), (pot_purse(1), carried)], table_id=1, reason="carried pot")
    rng = random.Random(3)
    table = open_table(store, 1, "stukolka", NAMES[:4], 1, {"variant": "g"}, pot=carried)
    for _ in range(400):
        step(store, table, rng)
    assert max(abs(store.balance(n)) for n in NAMES[:4]) > 2**63
    assert store.ledger_sum() == 0
    store.check_ledger()
    assert store.balance(pot_purse(1)) == table.game.pot
    assert [store.balance(n) for n in NAMES[:4]] == table.game.balances
    restored = restore_table(store, 1)
    assert (restored.game.pot, restored.game.balances) == (table.game.pot, table.game.balances)


def test_balances_reads_many_names_at_once_as_balance_reads_each(store: SqliteStore) -> None:
    """A hall's doors read in one statement (``net.modes.balances``): the same figures as ``balance`` one by one,
    a name in any case, None for a name without an account, more names than one ``IN (…)`` holds."""
    store.create_account("Anna", grant=100, now=1.0)
    store.create_account("Анна", grant=50, now=1.0)
    store.create_account("Boris", now=1.0)  # no grant: no purse row yet
    store.post([("anna", -30), (pot_purse(7), 30)], table_id=7, deal_no=1, reason="ante", now=2.0)
    names = ["Anna", "ANNA", "анна", "Boris", "guest-7", *(f"nobody{i}" for i in range(600))]
    got = store.balances(names)
    assert set(got) == set(names)
    assert got["Anna"] == got["ANNA"] == store.balance("Anna") == 70
    assert got["анна"] == store.balance("Анна") == 50
    assert got["Boris"] == store.balance("Boris") == 0
    assert got["guest-7"] is None and all(got[f"nobody{i}"] is None for i in range(600))
    assert store.balances([]) == {}
