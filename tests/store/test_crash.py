"""kill -9 in the middle of play loses nothing that was committed, and leaves the money balanced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.store.base import pot_purse, restore_table
from engine.store.sqlite import SqliteStore

WRITER = Path(__file__).with_name("crash_writer.py")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("seed", [1, 2])
def test_everything_committed_survives_sigkill(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "sukno.db"
    child = subprocess.Popen(
        [sys.executable, str(WRITER), str(db), str(seed)], stdout=subprocess.PIPE, text=True
    )
    try:
        acknowledged = 0
        assert child.stdout is not None
        for line in child.stdout:
            acknowledged = int(line)
            if acknowledged >= 300 + 37 * seed:
                os.kill(child.pid, signal.SIGKILL)
                break
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL and acknowledged >= 300
    with SqliteStore(db) as store:
        entries = store.journal(1)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert len(entries) >= acknowledged  # the entry being written when killed may be there too
        store.check_ledger()
        assert store.ledger_sum() == 0
        game = restore_table(store, 1).game
        assert [store.balance(n) - 1_000 for n in ("Anna", "Boris", "Vera", "Gleb")] == game.balances
        assert store.balance(pot_purse(1)) == game.pot
