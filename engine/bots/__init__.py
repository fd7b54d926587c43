"""Bots: a random bot and a rule-of-thumb bot for every game.

    bot = make_bot("stukolka", "rule", seed=1)
    action = bot.choose(game.view(seat), game.legal_actions(seat))

A bot decides from its seat's view and the legal actions only (``base``); a
table owns one bot per bot seat, since a bot may remember the cards it has
seen played in the deal.  ``default_action`` is what a turn clock takes for
a seat whose time ran out: the safest legal action of that game (each rule
module's ``default`` says which), never a guess at hidden cards.

``choose`` and ``default_action`` return ``None`` only in Спекулянт's trade
windows, where every seat may act and one with nothing to add waits for the
window's own clock.

The defaults, per game:

=============  ===============================================================
stukolka       ``pass`` (declaring, razrez); ``shlejf`` (58.в dealer);
               ``buy`` alone (stand pat); else the rule bot (forced dealer,
               discards, cards)
kopilka        ``pass`` when void; else the rule bot (first free ``take``,
               discards, leads, follows)
french3        ``buy`` alone (keep all: nothing above the line); cards by the
               rule bot
ukr_pairs      the rule bot's card
speculator     ``reveal`` on one's turn; ``ready`` in a window; None when ready
=============  ===============================================================
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Callable, Sequence

from engine.bots.base import Bot, BotError, View
from engine.bots.random_bot import RandomBot
from engine.game import Action

__all__ = ["Bot", "BotError", "KINDS", "RULE_BOTS", "default_action", "make_bot"]

RULE_BOTS: dict[str, str] = {
    "stukolka": "StukolkaBot",
    "kopilka": "KopilkaBot",
    "french3": "French3Bot",
    "ukr_pairs": "UkrPairsBot",
    "speculator": "SpeculatorBot",
}
"""Game id → class name in ``engine.bots.<game id>``."""

KINDS = ("random", "rule")


def _module(game_name: str) -> ModuleType:
    if game_name not in RULE_BOTS:
        known = ", ".join(sorted(RULE_BOTS))
        raise KeyError(f"no bot plays {game_name!r}; bots play: {known}")
    return import_module(f"engine.bots.{game_name}")


def make_bot(game_name: str, kind: str = "rule", seed: int | None = None) -> Bot:
    """A new bot of ``kind`` ("random" or "rule") for one seat of ``game_name``."""
    if kind not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; kinds: {', '.join(KINDS)}")
    module = _module(game_name)
    if kind == "random":
        return RandomBot(game_name, seed)
    return getattr(module, RULE_BOTS[game_name])(game_name, seed)


def default_action(game_name: str, view: View, legal: Sequence[Action]) -> Action | None:
    """The turn clock's action for a seat out of time (see the game's bot module); None: nothing to do."""
    if not legal:
        return None
    default: Callable[[View, Sequence[Action]], Action | None] = _module(game_name).default
    action = default(view, legal)
    assert action is None or action in legal
    return action
