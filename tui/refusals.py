"""The engine's refusals in the player's language.

The rules explain a refused action in English (``IllegalAction.message``);
the common, game-independent reasons of ``engine.game`` and ``engine.cards``
are recognised here and told from the catalogue.  A game's own reasons stay as
the game wrote them until it gives them catalogue keys (``IllegalAction.key``).
"""

from __future__ import annotations

import re

from engine.game import IllegalAction
from tui.commands import RU_VERB, verb_word
from tui.i18n import CATALOGUES, tr

PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), key) for p, key in (
        (r"^It is not your turn; waiting for (?P<names>.+)\.$", "refuse.not_turn"),
        (r"^You cannot (?P<verb>\S+) now; you may (?P<verbs>.+)\.$", "refuse.cannot"),
        (r"^'(?P<action>.+)' is not allowed now; you may: (?P<options>.+)\.$", "refuse.not_allowed"),
        (r"^No deal is being played now\.$", "refuse.no_deal"),
        (r"^'(?P<text>.+)' is not a card: expected", "refuse.not_card"),
        (r"^Unknown action '(?P<verb>.+)': this game knows (?P<verbs>.+)\.$", "refuse.unknown_verb"),
        (r"^'(?P<verb>\w+)' takes exactly one card", "refuse.one_card"),
        (r"^'(?P<verb>\w+)' takes no arguments\.$", "refuse.no_args"),
    )
)


def explain(err: IllegalAction, lang: str) -> str:
    """The reason for the player: the catalogue's text by key or known pattern, else the engine's."""
    if err.key and err.key in CATALOGUES.get(lang, {}):
        return tr(lang, err.key, **err.params)
    for pattern, key in PATTERNS:
        match = pattern.match(err.message)
        if match:
            params = {k: _verbs(v, lang) if k in ("verb", "verbs") else v for k, v in match.groupdict().items()}
            return tr(lang, key, **params)
    return err.message


def _verbs(text: str, lang: str) -> str:
    """``knock or pass`` → ``стук или пас`` in Russian."""
    if lang != "ru":
        return text
    words = re.split(r"(\W+)", text)
    return "".join(verb_word(w, lang) if w in RU_VERB else ("или" if w == "or" else w) for w in words)
