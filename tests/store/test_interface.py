"""The small interface: the SQLite backend implements every method of ``Store``, with its signature."""

from __future__ import annotations

import inspect

from engine.store import Store
from engine.store_sqlite import SqliteStore


def protocol_methods() -> list[str]:
    return [name for name, value in vars(Store).items() if inspect.isfunction(value) and not name.startswith("_")]


def test_sqlite_store_has_every_method_of_the_interface() -> None:
    assert len(protocol_methods()) > 20
    for name in protocol_methods():
        wanted = inspect.signature(getattr(Store, name))
        have = inspect.signature(getattr(SqliteStore, name))
        assert list(have.parameters) == list(wanted.parameters), name
        for param in wanted.parameters.values():
            assert have.parameters[param.name].kind == param.kind, f"{name}({param.name})"
            assert have.parameters[param.name].default == param.default, f"{name}({param.name})"
