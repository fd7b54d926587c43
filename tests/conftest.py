"""Shared test helpers: where the bundled records live; a PostgreSQL for the tests that need one;
the whole suite's three workers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pgkit import Unavailable, shared_cluster, stop_shared

RECORDS = Path(__file__).parent / "records"

# pytest-xdist workers for a run of the whole suite (SUKNO_TEST_WORKERS overrides).  More than this
# machine's two cores on purpose: two workers kept the cores only 58 % busy (user+sys 364 s in 312 s),
# the rest waiting on child servers, SSH and Pilot's pauses (each at least 20 ms: 3,600 of them).
WORKERS = 3


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config) -> Any:
    """A run of the whole suite (``pytest``, ``pytest -m "not slow"``: no paths given) is spread over
    WORKERS pytest-xdist processes, because most of its time is spent waiting (servers, SSH, Pilot);
    a run of named files or tests stays in one process.  ``-n N`` (``-n 0``: one process) or
    ``-p no:xdist`` decide otherwise; each worker has its own PostgreSQL (tests/pgkit.py)."""
    if (config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput")
            and config.args_source == pytest.Config.ArgsSource.TESTPATHS
            and config.option.numprocesses is None and config.option.dist == "no" and not config.option.tx
            and not config.option.usepdb):
        config.option.numprocesses = int(os.environ.get("SUKNO_TEST_WORKERS", WORKERS))
        config.option.dist = "worksteal"  # an idle worker takes queued tests from a busy one: the long ones end together
    return (yield)


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
