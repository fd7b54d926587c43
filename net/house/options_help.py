"""The table options of every installed game, for the admin's ``help`` (``open GAME name=value …``).

Made from the games' own option lists, so what the admin reads is what ``open`` accepts.
"""

from __future__ import annotations

from engine.games import registry


def options_text() -> str:
    """One block per game: each option as ``name=default`` with its choices or limits and what it means."""
    lines = ["table options for open GAME name=value … (default first):"]
    for name, game in sorted(registry().items()):
        lines.append(f"  {name} ({game.title.get('en', name)}):")
        for option in game.options_spec:
            default = option.default
            if isinstance(default, bool) or default is None:
                default = "none" if default is None else "yes" if default else "no"
            allowed = f" [{'|'.join(option.choices)}]" if option.choices else ""
            lines.append(f"    {option.name}={default}{allowed}  {option.doc}")
    return "\n".join(lines)
