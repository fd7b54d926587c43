"""The games' rules as the repository writes them (docs/rules/GAME.md), for ``rules GAME`` over the bot
protocol: one text, read from the files, never a second copy.  A checkout keeps them at its root's
docs/rules; the wheel installs them beside the code (sukno/_app/docs/rules)."""

from __future__ import annotations

from pathlib import Path

from engine.games import registry

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "rules"


def rules_text(game: str) -> str | None:
    """The rules of ``game`` (a name the club knows), or None for a name it does not."""
    if game not in registry():
        return None
    path = FOLDER / f"{game}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None
