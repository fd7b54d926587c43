"""Fixtures of the store tests: a fresh SQLite store in a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from engine.store_sqlite import SqliteStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "sukno.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(db_path)
    yield opened
    opened.close()
