"""The example bot at the end of docs/bot-protocol.md, copied out of the document as it stands and run
against a fresh local club (``sukno bot --local``) of every game: it plays its deals, 0 refusals."""

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
GAMES = ["stukolka", "kopilka", "french3", "ukr_pairs", "speculator"]


def example(tmp_path: Path) -> Path:
    section = DOC.read_text(encoding="utf-8").split("\n## An example bot", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(code) == 1
    path = tmp_path / "bot.py"
    path.write_text(code[0], encoding="utf-8")
    return path


def run(tmp_path: Path, game: str, deals: int) -> dict:
    env = {**os.environ, "DEALS": str(deals), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(example(tmp_path)), sys.executable, "-m", "net.cli.main", "bot",
                           "--local", game], capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("game", GAMES)
def test_the_example_bot_plays_every_game_without_a_refusal(tmp_path, game):
    assert run(tmp_path, game, 2) == {"deals": 2, "refused": 0}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_example_bot_plays_a_hundred_deals_of_every_game(tmp_path, game):
    assert run(tmp_path, game, 100) == {"deals": 100, "refused": 0}
