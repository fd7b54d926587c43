"""A ``[[tables]]`` entry is checked at start: an unknown key, game, option or value, or seats the game
is not played by, is refused with the key and the file named (exit 78), never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from net.config import ConfigError, load

CASES = [
    ('game = "stukolka"\noptions = {variant = "c"}', ["tables[1].options", "variant", "a, b, v, g"]),
    ('game = "stukolka"\nclok = 30', ["tables[1].clok", "clock"]),
    ('game = "stukolka"\nvariant = "b"', ["tables[1].variant", "options = {…}"]),
    ('game = "poker"', ["tables[1].game", "poker", "speculator"]),
    ('game = "speculator"\noptions = {W = 0}', ["tables[1].options", "'W'", "W (1–600)"]),
    ('game = "speculator"\nseats = 2', ["tables[1].seats", "3–10"]),
    ('game = "kopilka"\noptions = 5', ["tables[1].options must be a table"]),
]


@pytest.mark.parametrize("entry,words", CASES)
def test_a_bad_table_entry_is_refused_with_its_key_and_file(tmp_path, entry, words):
    path = tmp_path / "club.toml"
    path.write_text(f'[[tables]]\ngame = "french3"\n\n[[tables]]\n{entry}\n'.replace("tables[1]", ""),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path, environ={})
    text = str(caught.value)
    assert text.startswith(str(path))
    for word in words:
        assert word.replace("tables[1]", "tables[2]") in text, text


def test_the_good_entries_still_load(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('[[tables]]\ngame = "stukolka"\noptions = {variant = "v"}\nclock = 30\nbots = "fill"\n'
                    '[[tables]]\ngame = "speculator"\nseats = 5\noptions = {W = 5, Wmax = 20}\n', encoding="utf-8")
    config = load(path, environ={})
    assert [t["game"] for t in config.tables] == ["stukolka", "speculator"]


def test_sukno_serve_exits_78_with_the_message_and_no_traceback(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('[[tables]]\ngame = "stukolka"\noptions = {variant = "c"}\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "net.cli.main", "serve", "--config", str(path), "--port", "0",
                           "--data", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 78, done.stderr
    assert "Traceback" not in done.stderr
    assert "tables[1].options" in done.stderr and str(path) in done.stderr
