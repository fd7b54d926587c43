"""The house bots' names: a seat whose name begins ``bot-`` is the house's, played by its bot.

A leaf module (it imports nothing) so that the view, the table and the store can all ask
``is_bot`` without importing the bots themselves.
"""

from __future__ import annotations

BOT_PREFIX = "bot-"
BOT_NAMES = ("Mitya", "Vanya", "Sonya", "Grisha", "Fedya", "Masha", "Petya", "Dasha", "Tolya", "Zina")


def is_bot(name: str | None) -> bool:
    return bool(name) and str(name).startswith(BOT_PREFIX)


def bot_name(taken: set[str] | list[str | None]) -> str:
    """The first bot name not in ``taken`` (then ``bot-Mitya2``…)."""
    used = {n for n in taken if n}
    for round_ in range(1, 100):
        for base in BOT_NAMES:
            name = BOT_PREFIX + base + (str(round_) if round_ > 1 else "")
            if name not in used:
                return name
    raise ValueError("no free bot name")
