"""Fixtures of the store tests: a fresh store of each backend (SQLite in a temporary folder, PostgreSQL
in a fresh schema of the session's throw-away cluster, tests/pgkit.py); the PostgreSQL cases are
skipped with a one-line reason on a machine without it (``pg_url``: tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from engine.store.sqlite import SqliteStore

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "sukno.db"


@pytest.fixture(params=BACKENDS)
def open_again(request: pytest.FixtureRequest, db_path: Path) -> Callable[..., Any]:
    """Opens the same store again (a restart): an SQLite file, or a PostgreSQL schema."""
    if request.param == "sqlite":
        return lambda **options: SqliteStore(db_path, **options)
    from engine.store.postgres import PgStore

    url = request.getfixturevalue("pg_url")
    return lambda **options: PgStore(url, **options)


@pytest.fixture
def store(open_again: Callable[..., Any]) -> Iterator[Any]:
    opened = open_again()
    yield opened
    opened.close()
