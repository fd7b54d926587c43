"""docs/rules/ has every game the club plays, as a player and a bot author need it: every option with
its default, every move, the numbered resolutions the game's code cites, and the club's own ``rules GAME``
text word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import registry
from tui.i18n import CATALOGUES

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


@pytest.mark.parametrize("game", GAMES)
def test_the_clubs_rules_text_is_the_files_own(game):
    text = (RULES / f"{game}.md").read_text(encoding="utf-8")
    for lang in ("en", "ru"):
        assert f"> {CATALOGUES[lang][f'rules.{game}']}\n" in text, (game, lang)
