"""The small interface: each backend (SQLite, PostgreSQL) implements every method of ``Store``, with its signature."""

from __future__ import annotations

import inspect

import pytest

from engine.store import Store
from engine.store_pg import PgStore
from engine.store_sqlite import SqliteStore


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
