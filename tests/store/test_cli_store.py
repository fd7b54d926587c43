"""The CLI and the store: ``sukno export ID`` writes a record ``sukno replay`` reads back;
``sukno serve`` on a locked, unreadable or newer database says why and exits, never a traceback."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.table.club import Club
from engine.record import load_record
from engine.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]


def sukno(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "net.cli.main", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    assert "Traceback" not in proc.stderr
    return proc


def finished_session(data: Path) -> None:
    store = SqliteStore(data / "sukno.db")
    names = ("Anna", "Boris", "Vera", "Gleb")
    for name in names:
        store.create_account(name, grant=1000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0, seed=5)
    table = club.tables[1]
    for name in names:
        table.sit(name)
    for name in names:
        table.start(name, now=0.0)
    rng = random.Random(4)
    while table.in_deal():
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=0.0)
    table.stand("Gleb")
    store.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_export_writes_a_record_that_replay_reads_back(tmp_path):
    finished_session(tmp_path)
    out = tmp_path / "r1.json"
    proc = sukno("export", "1", "--data", str(tmp_path), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    record = load_record(out)
    assert record.game == "stukolka" and record.players == ["Anna", "Boris", "Vera", "Gleb"] and record.deals
    replayed = sukno("replay", str(out))
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["ok"] is True
    to_stdout = sukno("export", "1", "--data", str(tmp_path))
    assert json.loads(to_stdout.stdout) == json.loads(out.read_text("utf-8"))


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_export_of_a_missing_record_or_folder_says_so(tmp_path):
    finished_session(tmp_path)
    missing = sukno("export", "9", "--data", str(tmp_path))
    assert missing.returncode == 65 and "no record number 9" in missing.stderr
    nowhere = sukno("export", "1", "--data", str(tmp_path / "nope"))
    assert nowhere.returncode == 78 and "does not exist" in nowhere.stderr


def newer(data: Path) -> None:
    SqliteStore(data / "sukno.db").close()
    db = sqlite3.connect(data / "sukno.db")
    db.execute("INSERT INTO schema_version VALUES (999, 0)")
    db.commit()
    db.close()


def garbage(data: Path) -> None:
    (data / "sukno.db").write_bytes(b"this is not a database at all" * 200)


def damaged(data: Path) -> None:
    """A real club's file with its pages overwritten past the header (issue 12, item 9)."""
    with SqliteStore(data / "sukno.db") as store:
        for i in range(300):
            store.create_account(f"Player{i}", key=f"SHA256:{i}", grant=i)
    with open(data / "sukno.db", "r+b") as f:
        size = f.seek(0, 2)
        f.seek(3 * 4096)
        f.write(b"\xa5" * (size - 4 * 4096))


def emptied(data: Path) -> None:
    (data / "sukno.db").write_bytes(b"")


@pytest.mark.parametrize("spoil, status, words", [
    (newer, 78, "newer sukno"),
    (garbage, 65, "not an SQLite database"),
    (damaged, 65, "sukno.db is damaged"),
    (emptied, 65, "is empty (0 bytes)"),
])
def test_serve_refuses_a_database_it_cannot_use(tmp_path, spoil, status, words):
    spoil(tmp_path)
    proc = sukno("serve", "--data", str(tmp_path), "--port", "0")
    assert proc.returncode == status and words in proc.stderr


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_serve_refuses_a_data_folder_in_use(tmp_path):
    held = SqliteStore(tmp_path / "sukno.db", exclusive=True)
    try:
        proc = sukno("serve", "--data", str(tmp_path), "--port", "0")
    finally:
        held.close()
    assert proc.returncode == 75 and "another 'sukno serve'" in proc.stderr


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_serve_new_starts_a_club_over_an_empty_file(tmp_path):
    """``--new`` is what lets an empty sukno.db become a new club (here: it opens, then is stopped)."""
    emptied(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--data", str(tmp_path), "--port", "0",
                             "--new"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:
            assert "Traceback" not in line
            if "the club is open" in line:
                break
        else:
            raise AssertionError(f"sukno serve --new ended with {proc.wait()}")
    finally:
        proc.terminate()
        proc.wait(20)
    assert (tmp_path / "sukno.db").stat().st_size > 0
