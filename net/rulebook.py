"""The games' rules for the bot protocol's ``rules GAME``: the very files people's ``rules GAME`` reads
(``tui.rulebook``), so a bot and a person are told one text."""

from __future__ import annotations

from tui.rulebook import FOLDER, rules_text

__all__ = ["FOLDER", "rules_text"]
