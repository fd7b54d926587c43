"""The admin's help says how to open each game's tables, Стуколка в and г included, from the games themselves."""

from __future__ import annotations

from engine.games import registry
from net.house.commands import HELP
from net.house.options_help import options_text


def test_admin_help_shows_how_to_open_stukolka_variants_and_every_option():
    assert "RULES.md" not in HELP  # a file the club does not ship
    assert "open stukolka variant=v dark=yes razrez=yes seats=5" in HELP
    assert "open stukolka variant=g" in HELP
    text = options_text()
    assert "    variant=a [a|b|v|g]  58.а base, 58.б buying, 58.в shlejf, 58.г compulsory" in text
    for name, game in registry().items():
        if name == "highcard":
            continue
        for option in game.options_spec:
            assert f"    {option.name}=" in text, (name, option.name)
