"""Fixtures of the admin tests (helpers live in ``adminkit``: a module named conftest is ambiguous)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "net"))

from sshclient import make_config  # noqa: E402


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path / "d")
