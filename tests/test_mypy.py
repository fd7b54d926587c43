"""The whole program (engine/, net/, tui/) type-checks clean under the project's own mypy settings
(``[tool.mypy]`` in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_engine_net_and_tui_type_check_clean() -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra")
    out = subprocess.run([sys.executable, "-m", "mypy", "engine", "net", "tui"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "Success: no issues found" in out.stdout
