"""docs/rules/ has every game the club plays, as a player and a bot author need it: every option with
its default, every move, the numbered resolutions the game's code cites; a Russian twin of each citing the
same resolutions and options; and the brief the club's ``rules GAME`` says first, at each file's end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import registry

ROOT = Path(__file__).parent.parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = sorted(registry())


def test_every_game_has_a_file_and_the_index_names_it():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert (RULES / f"{game}.md").exists(), game
        assert f"({game}.md)" in index and f"`{game}`" in index


@pytest.mark.parametrize("game", GAMES)
def test_each_file_lists_the_options_moves_and_resolutions_of_its_game(game):
    text = (RULES / f"{game}.md").read_text(encoding="utf-8")
    index = (RULES / "README.md").read_text(encoding="utf-8")
    cls = registry()[game]
    options = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    for option in cls.options_spec:
        row = next((line for line in options.splitlines() if line.startswith(f"| `{option.name}` |")), None)
        assert row is not None, f"{game}: option {option.name} is not in its table"
        default = "none" if option.default is None else str(option.default).lower()
        assert f"| {default} |" in row.lower().replace("`", ""), (game, option.name, row)
        if option.maximum is not None:
            assert str(option.maximum) in row, (game, option.name, row)
    moves = text.split("## Moves", 1)[1].split("\n## ", 1)[0]
    for verb in cls.verbs:
        assert f"`{verb}" in moves, f"{game}: the move {verb} is not listed"
    code = (ROOT / "engine" / "games" / f"{game}.py").read_text(encoding="utf-8")
    cited = set(re.findall(r"\bR\d+[a-z]?\b", code))
    missing = {r for r in cited if not re.search(rf"\b{r}\b", text + index)}
    assert not missing, f"{game}: resolutions the code cites but the rules do not: {sorted(missing)}"


def option_rows(text: str, heading: str) -> dict[str, str]:
    """Option name → its default, from a file's table of options."""
    table = text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \|", table, flags=re.M)
    return {name: default.strip() for name, default in rows}


@pytest.mark.parametrize("game", GAMES)
def test_the_russian_file_is_the_english_ones_twin(game):
    english = (RULES / f"{game}.md").read_text(encoding="utf-8")
    russian = (RULES / "ru" / f"{game}.md").read_text(encoding="utf-8")
    assert set(re.findall(r"\bR\d+[a-z]?\b", russian)) == set(re.findall(r"\bR\d+[a-z]?\b", english))
    english_options, russian_options = option_rows(english, "Options"), option_rows(russian, "Настройки")
    assert list(russian_options) == list(english_options)
    for name, default in english_options.items():  # defaults alike (none is «нет» in Russian)
        assert russian_options[name].replace("нет", "none") == default, (game, name)
    moves = russian.split("## Ходы", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{verb}" in moves for verb in registry()[game].verbs)


@pytest.mark.parametrize("game", GAMES)
def test_each_file_ends_with_the_brief_the_club_says_first(game):
    from tui.rulebook import brief

    for lang, path in (("en", RULES / f"{game}.md"), ("ru", RULES / "ru" / f"{game}.md")):
        last = path.read_text(encoding="utf-8").rstrip("\n").splitlines()[-1]
        assert last.startswith("> ") and brief(game, lang) == last[2:].replace("`", ""), (game, lang)
