"""Shared test helpers: where the bundled records live; a PostgreSQL for the tests that need one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pgkit import Unavailable, shared_cluster, stop_shared

RECORDS = Path(__file__).parent / "records"


@pytest.fixture
def records_dir() -> Path:
    return RECORDS


@pytest.fixture
def pg_url() -> str:
    """A PostgreSQL URL whose schema is empty (tests/pgkit.py; skips the test when there is no PostgreSQL)."""
    try:
        return shared_cluster().url()
    except Unavailable as err:
        pytest.skip(str(err))


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    stop_shared()  # the session's cluster, if a test started one
