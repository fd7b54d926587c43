"""The engine's refusals in the player's language.

The engine raises ``IllegalAction`` with a catalogue key and its parameters
(``engine.game.refuse``) beside the English message; the text here comes from
the catalogue by that key, with cards and suits in the player's notation and
verbs in his spelling (whole actions too, and a list of actions offered as
choices, joined with "or").  A refusal with no key, or a key the catalogue
lacks, is told as the engine wrote it, so a game that lands later never breaks
a screen.
"""

from __future__ import annotations

import re
from typing import Any

from engine.cards import Card, Suit
from engine.game import Action, IllegalAction
from tui.commands import RU_VERB, show_action, verb_word
from tui.i18n import CATALOGUES, money, tr


def explain(err: IllegalAction, lang: str, ascii: bool = False) -> str:
    """The reason for the player: the catalogue's text by key, else the engine's message."""
    if err.key and err.key in CATALOGUES.get(lang, {}):
        params = {k: _param(k, v, lang, ascii) for k, v in err.params.items()}
        return tr(lang, err.key, **params)
    return err.message


def params_for(err: IllegalAction, lang: str, ascii: bool = False) -> dict[str, Any]:
    """The refusal's parameters as the catalogue writes them (cards in the player's notation, his verbs)."""
    return {k: _param(k, v, lang, ascii) for k, v in err.params.items()}


def _param(key: str, value: Any, lang: str, ascii: bool) -> Any:
    if isinstance(value, (Card, Suit)):
        return value.text(ascii)
    if isinstance(value, Action):
        return show_action(value, lang, ascii)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Action) for v in value):
        # the choices a player has: ``play A♠ or draw or pass`` / ``ход A♠ или тянуть или пас``
        return (" или " if lang == "ru" else " or ").join(show_action(a, lang, ascii) for a in value)
    if key in ("verb", "verbs") and isinstance(value, str):
        return _verbs(value, lang)
    if key.endswith("_money") and isinstance(value, int) and not isinstance(value, bool):
        return money(value, lang)  # ``99 р. 65 к.``: kopecks the way the player reads money
    return value


def _verbs(text: str, lang: str) -> str:
    """``knock or pass`` → ``стук или пас`` in Russian."""
    if lang != "ru":
        return text
    words = re.split(r"(\W+)", text)
    return "".join(verb_word(w, lang) if w in RU_VERB else ("или" if w == "or" else w) for w in words)
