"""Issue 13 item 19: ``sukno play --help`` names every variant; a closed pipe ends ``sukno`` quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def sukno(*words: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "net.cli.main", *words], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_play_help_lists_every_game_and_every_variant():
    from engine.games import registry
    from engine.games.stukolka import PLAYERS

    out = sukno("play", "--help").stdout
    flat = " ".join(out.split())
    assert all(game in flat for game in registry())
    assert f"stukolka: {', '.join(PLAYERS)}" in flat and "a, b, v, g" in flat


@pytest.mark.parametrize("words", [("admin", "--json", "tables"), ("admin", "tables"), ("play", "--help"),
                                   ("replay", "tests/records/stukolka_D1.json")])
@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_reader_that_left_gets_no_traceback(tmp_path, words):
    """The pipe's reader is gone before sukno writes (``| head`` that has read enough): no BrokenPipeError."""
    if words[0] == "admin":
        words = ("admin", "--data", str(tmp_path), *words[1:])  # no server: it still writes its answer
    read, write = os.pipe()
    os.close(read)
    try:
        done = sukno(*words, stdout=write)
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr


def test_readme_keeps_its_two_commands_and_says_a_key_and_a_venv_may_be_needed():
    """Issue 13 item 18: the README's two commands word for word, the key and the virtual environment."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.strip() for line in readme.splitlines()]
    assert "pip install -e . && sukno serve" in lines
    assert "pip install -e '.[test]' && python -m pytest" in lines
    flat = " ".join(readme.split())
    assert "A name needs an SSH key" in flat and "ssh-keygen -t ed25519" in flat
    assert "refuses `pip install`" in flat and "python3 -m venv .venv && . .venv/bin/activate" in flat
