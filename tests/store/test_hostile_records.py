"""``sukno replay`` on hostile files: exit 2 with one line, never a traceback (issue 12, item 11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).parent.parent / "records"
ROOT = Path(__file__).resolve().parents[2]


def replay(path: Path) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "net.cli.main", "replay", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def check_refused(path: Path, words: str) -> None:
    status, out, err = replay(path)
    assert status == 2
    assert "Traceback" not in err and "Traceback" not in out
    assert len(err.strip().splitlines()) == 1 and err.startswith("sukno replay: ")
    assert words in err
    assert json.loads(out)["ok"] is False


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_deeply_nested_file(tmp_path: Path) -> None:
    path = tmp_path / "nested.json"
    path.write_text('{"format": "sukno-record/1", "deals": ' + "[" * 100_000 + "]" * 100_000 + "}")
    check_refused(path, "nested too deeply")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_number_of_5000_digits(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "stukolka_D1.json").read_text("utf-8"))
    text = json.dumps(data).replace('"pot": 0', '"pot": ' + "9" * 5000, 1)
    assert "9" * 5000 in text
    path = tmp_path / "digits.json"
    path.write_text(text)
    check_refused(path, "digits")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_bid_of_4400_digits(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "speculator_E1.json").read_text("utf-8"))
    deal = next(d for d in data["deals"] if any(": bid " in a for a in d["actions"]))
    index = next(i for i, a in enumerate(deal["actions"]) if ": bid " in a)
    name = deal["actions"][index].split(":")[0]
    deal["actions"][index] = f"{name}: bid " + "7" * 4400
    path = tmp_path / "bid.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    status, out, err = replay(path)
    assert status == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert json.loads(out)["ok"] is False


@pytest.mark.parametrize("name", [" Anna", "Anna ", "\tAnna", "An\x1bna"])
def test_names_with_spaces_around_them_are_refused(tmp_path: Path, name: str) -> None:
    data = json.loads((RECORDS / "stukolka_D1.json").read_text("utf-8"))
    old = data["players"][0]
    data["players"][0] = name
    for deal in data["deals"]:
        deal["actions"] = [name + a[len(old):] if a.startswith(old + ":") else a for a in deal["actions"]]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    check_refused(path, "'players' must be a list of names")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_huge_value_is_quoted_in_one_short_line(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "stukolka_D1.json").read_text("utf-8"))
    data["options"] = {"a": "x\n" * 50_000}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    status, out, err = replay(path)
    assert status == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and len(err) < 400
