"""`sukno replay FILE` (RULES.md §9.4): the output object, exit status 2 for illegal actions and bad files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).parent.parent / "records"


def run(path: Path | str) -> tuple[int, dict, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "net.cli.main", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "r.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_replay_prints_the_output_object() -> None:
    status, out, _ = run(RECORDS / "stukolka_D1.json")
    assert status == 0
    assert out["ok"] is True and out["actions"] == 17 and out["over"] is True
    assert out["balances"] == {"P0": -60, "P1": 30, "P2": -30, "P3": 0, "P4": -30} and out["pot"] == 90
    assert out["deals"][0]["money"]["P1"] == 30 and out["deals"][0]["events"]


def test_an_illegal_action_stops_with_its_index_and_reason(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "stukolka_D1.json").read_text(encoding="utf-8"))
    data["deals"][0]["actions"][6] = "P4: play 2♣"  # P4 is void in ♦ and holds trumps: R41
    status, out, err = run(write(tmp_path, data))
    assert status == 2
    assert out == {
        "ok": False, "deal": 1, "action": 7, "line": "P4: play 2♣",
        "error": out["error"],
    }
    assert "must trump" in out["error"] and "R41" in out["error"]
    assert "deal 1, action 7" in err


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_record_stopping_mid_deal_is_not_over(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "stukolka_D1.json").read_text(encoding="utf-8"))
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:8]
    status, out, _ = run(write(tmp_path, data))
    assert status == 0 and out["over"] is False
    assert sum(out["balances"].values()) + out["pot"] == 0


@pytest.mark.parametrize(
    "content,message",
    [
        ("not json at all", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ({"format": "sukno-record/9"}, "unknown record format"),
        ({"format": "sukno-record/1", "game": "poker", "players": ["a"], "deals": []}, "unknown game"),
        ({"format": "sukno-record/1", "game": "stukolka", "players": "ab", "deals": []}, "players"),
        ({"format": "sukno-record/1", "game": "stukolka", "players": ["a", "b", "c", "d"],
          "deals": [{"decks": [["Q♠", "ZZ"]], "actions": []}]}, "not a card"),
        ({"format": "sukno-record/1", "game": "stukolka", "players": ["a", "b", "c", "d"],
          "deals": [{"decks": [["Q♠"]], "actions": []}]}, "not a full deck"),
        ({"format": "sukno-record/1", "game": "stukolka", "players": ["a", "b"], "deals": []}, "4–7 players"),
        ({"format": "sukno-record/1", "game": "stukolka", "options": {"a": 10},
          "players": ["a", "b", "c", "d"], "deals": []}, "multiple of 3"),
    ],
)
def test_malformed_files_get_exit_2_and_a_clear_message(tmp_path: Path, content: object, message: str) -> None:
    status, out, err = run(write(tmp_path, content))
    assert status == 2 and out["ok"] is False
    assert message in out["error"]


def test_missing_file(tmp_path: Path) -> None:
    status, out, _ = run(tmp_path / "nope.json")
    assert status == 2 and "no such file" in out["error"]


def test_a_deal_starting_before_the_previous_ends_is_malformed(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "stukolka_D4.json").read_text(encoding="utf-8"))
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:5]
    status, out, _ = run(write(tmp_path, data))
    assert status == 2 and "unfinished" in out["error"]
