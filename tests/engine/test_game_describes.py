"""Issue 14 step 2: each game says what it is; nothing outside ``engine/games`` guesses it.

The rest of the house once compared game ids (``game_name == "kopilka"``), read variant letters
(``view["variant"] in ("b", "v")``), kept its own ``{"a": "а", …}`` label table, searched option
names for a stake and asked ``hasattr(game, "start_clock")``.  The scan below fails if any of that
comes back; the other tests check that what the games declare is whole.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.game import Game
from engine.games import registry
from tui.i18n import has, tr

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry()
IDS = "|".join(re.escape(name) for name in GAMES)
LETTERS = sorted({v for cls in GAMES.values() for v in cls.variant_labels})

FORBIDDEN = [
    (re.compile(rf"""(==|!=)\s*["']({IDS})["']|["']({IDS})["']\s*(==|!=)"""), "compares a game id"),
    (re.compile(rf"""\bin\s*[(\[{{][^)\]}}]*["']({IDS})["']"""), "tests a game id against a list"),
    (re.compile(r"""variant\W{0,3}\s*(==|!=|\bin\b|\bnot in\b)"""), "compares a variant letter"),
    (re.compile(r"""["'][a-z]["']\s*:\s*["'][а-я]["']"""), "keeps its own variant labels"),
    (re.compile(r"""(hasattr|getattr)\([^)]*["'](start_clock|live_clock)["']"""), "guesses the clock hook"),
    (re.compile(r"""options\.get\(["'](a|ante|s|S|stake|b|u)["']\)"""), "guesses the stake option"),
]


def _outside_games() -> list[Path]:
    files = []
    for top in ("engine", "tui", "net"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.is_relative_to(ROOT / "engine" / "games"):
                continue
            files.append(path)
    return files


def test_no_test_helper_guesses_the_clock_hook() -> None:
    """Every game has ``start_clock`` now (a no-op unless ``clocked``): ``hasattr`` says yes for all of them."""
    clock = next(p for p, what in FORBIDDEN if what == "guesses the clock hook")
    me = Path(__file__).resolve()
    found = [f"{path.relative_to(ROOT)}:{no}: {line.strip()}"
             for path in sorted((ROOT / "tests").rglob("*.py")) if path != me
             for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if clock.search(line)]
    assert not found, "ask game.clocked instead:\n" + "\n".join(found)


def test_scan_sees_the_house() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _outside_games()}
    assert {"engine/table/owner.py", "engine/store/base.py", "tui/widgets/tableview.py", "net/cli/botclient.py"} <= files
    assert not any(f.startswith("engine/games/") for f in files)


def test_the_scan_catches_what_it_forbids() -> None:
    """The patterns are not blind: each catches the line it was written for."""
    samples = ['if table.game_name == "kopilka":', 'ok = "stukolka" != name', 'if game in ("french3", "x"):',
               'buying = view["variant"] in ("b", "v")', 'VARIANT = {"a": "а", "b": "б"}',
               'if hasattr(game, "start_clock"):', 'value = table.options.get("ante")']
    for line in samples:
        assert any(p.search(line) for p, _ in FORBIDDEN), line
    for line in ['RULE_BOTS = {"kopilka": "KopilkaBot"}', 'if game_name not in RULE_BOTS:',
                 'label = f"table.{cls.pot_name}"']:
        assert not any(p.search(line) for p, _ in FORBIDDEN), line


def test_nothing_outside_the_games_guesses_what_a_game_is() -> None:
    found = []
    for path in _outside_games():
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in FORBIDDEN:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{no}: {what}: {line.strip()}")
    assert not found, "ask the Game class instead (issue 14 step 2):\n" + "\n".join(found)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_itself(name: str) -> None:
    cls = GAMES[name]
    options = cls.make_options()
    assert cls.stake(options) >= 1
    assert cls.stake_option is None or cls.stake_option in options
    assert cls.deck_size in (32, 36, 48, 52)
    low, high = cls.player_range(options)
    assert 2 <= low <= high
    for lang in ("ru", "en"):
        for where in ("table", "text"):
            assert has(lang, f"{where}.{cls.pot_name}"), (lang, where, cls.pot_name)
    choices = next((o.choices for o in cls.options_spec if o.name == "variant"), ())
    assert tuple(cls.variant_labels) == tuple(choices)  # a label for each variant, none for a game without
    for letter in choices:
        label = cls.variant_label(cls.make_options({"variant": letter}))
        assert label and label == cls.variant_labels[letter]
        cls.player_range(cls.make_options({"variant": letter}))
    if not choices:
        assert cls.variant_label(options) == ""
    assert cls.clocked == ("start_clock" in vars(cls)), "a clocked game has its own start_clock, others the no-op"


def test_declared_values_are_the_ones_shown() -> None:
    stukolka, kopilka, french3 = GAMES["stukolka"], GAMES["kopilka"], GAMES["french3"]
    assert stukolka.variant_label(stukolka.make_options({"variant": "v"})) == "в"
    assert stukolka.stake(stukolka.make_options({"a": 60})) == 60
    assert kopilka.pot_name == "kitty" and tr("ru", f"table.{kopilka.pot_name}") != tr("ru", "table.pot")
    assert kopilka.stake(kopilka.make_options({"S": 0})) == 1  # nothing at stake still asks a kopeck
    assert french3.stake_per_point and french3.stake(french3.make_options({"u": 3})) == 3
    assert [n for n, c in GAMES.items() if c.clocked] == ["speculator"]


def test_an_unclocked_game_has_a_no_op_clock() -> None:
    game = GAMES["stukolka"](["A", "B", "C", "D"])
    assert isinstance(game, Game) and not game.live_clock
    assert game.start_clock(5.0) == [] and not game.live_clock
    spec = GAMES["speculator"](["A", "B", "C"])
    assert not spec.live_clock
    spec.start_clock(1.0)
    assert spec.live_clock
