"""The example bot at the end of docs/bot-protocol.md, copied out of the document as it stands and run
against a fresh local club (``sukno bot --local``) of every game and every variant: it plays its deals, 0
refusals, 0 crashes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent
DOC = ROOT / "docs" / "bot-protocol.md"
CASES = {
    "stukolka-a": ("stukolka", [], None),
    "stukolka-a-7": ("stukolka", [], 7),
    "stukolka-b": ("stukolka", ["variant=b"], None),  # buying
    "stukolka-v": ("stukolka", ["variant=v"], 5),  # the shlejf
    "stukolka-v-dark-razrez": ("stukolka", ["variant=v", "dark=yes", "razrez=yes"], 4),
    "stukolka-g": ("stukolka", ["variant=g"], 5),  # compulsory deals
    "kopilka": ("kopilka", [], None),
    "french3": ("french3", [], None),
    "ukr_pairs": ("ukr_pairs", [], None),
    "speculator": ("speculator", [], None),
    "speculator-6": ("speculator", [], 6),
    "speculator-10": ("speculator", [], 10),
}
"""Every game, each variant of Стуколка (а б в г, в with dark and razrez), the fewest and the most seats."""
HUNDRED = [case for case in CASES if case != "speculator-10"]
"""The hundred-deal run leaves out the ten-seat Спекулянт: its nine house bots take minutes over 100 deals
(the quick run plays it)."""


def test_the_cases_cover_every_game_and_variant() -> None:
    from engine.games import registry

    assert {game for game, _, _ in CASES.values()} == set(registry())
    variants = {o.name: o.choices for o in registry()["stukolka"].options_spec}["variant"]
    assert {words[0] if words else "variant=a" for game, words, _ in CASES.values() if game == "stukolka"} \
        == {f"variant={v}" for v in variants}


def example(tmp_path: Path) -> Path:
    section = DOC.read_text(encoding="utf-8").split("\n## An example bot", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(code) == 1
    path = tmp_path / "bot.py"
    path.write_text(code[0], encoding="utf-8")
    return path


def run(tmp_path: Path, case: str, deals: int) -> dict:
    game, options, seats = CASES[case]
    env = {**os.environ, "DEALS": str(deals), "PYTHONPATH": str(ROOT)}
    club = [sys.executable, "-m", "net.cli.main", "bot", "--local", game]
    club += [f"--option={word}" for word in options] + ([f"--seats={seats}"] if seats else [])
    done = subprocess.run([sys.executable, str(example(tmp_path)), *club], capture_output=True, text=True,
                          timeout=900, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", list(CASES))
def test_the_example_bot_plays_every_game_without_a_refusal(tmp_path, case):
    assert run(tmp_path, case, 2) == {"deals": 2, "refused": 0}


@pytest.mark.slow
@pytest.mark.parametrize("case", HUNDRED)
def test_the_example_bot_plays_a_hundred_deals_of_every_game(tmp_path, case):
    assert run(tmp_path, case, 100) == {"deals": 100, "refused": 0}
