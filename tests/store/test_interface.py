"""The small interface: each backend (SQLite, PostgreSQL) implements every method of ``Store``, with its signature."""

from __future__ import annotations

import inspect

import pytest

from engine.store.base import Store
from engine.store.postgres import PgStore
from engine.store.sqlite import SqliteStore


def protocol_methods() -> list[str]:
    return [name for name, value in vars(Store).items() if inspect.isfunction(value) and not name.startswith("_")]


@pytest.mark.parametrize("backend", [SqliteStore, PgStore])
def test_each_backend_has_every_method_of_the_interface(backend: type) -> None:
    assert len(protocol_methods()) > 20
    for name in protocol_methods():
        wanted = inspect.signature(getattr(Store, name))
        have = inspect.signature(getattr(backend, name))
        assert list(have.parameters) == list(wanted.parameters), name
        for param in wanted.parameters.values():
            assert have.parameters[param.name].kind == param.kind, f"{name}({param.name})"
            assert have.parameters[param.name].default == param.default, f"{name}({param.name})"


# What a backend may keep of its own (issue 15, one DB-API base): how it closes, and the ledger's
# sums (SQLite adds amounts in Python, since a sum past 64 bits would turn REAL; PostgreSQL in NUMERIC).
OWN = {"close", "ledger_sum", "check_ledger"}


@pytest.mark.parametrize("backend", [SqliteStore, PgStore])
def test_the_interface_s_sql_is_written_once_in_the_shared_base(backend: type) -> None:
    from engine.store.sql import SqlStore

    assert issubclass(backend, SqlStore)
    shared = {name for name in protocol_methods() if name in vars(SqlStore)}
    assert shared == set(protocol_methods()) - {"ledger_sum", "check_ledger"}  # close: a stub each overrides
    assert {name for name in protocol_methods() if name in vars(backend)} == OWN, \
        "a backend defines again a method the base shares: keep only what truly differs"
