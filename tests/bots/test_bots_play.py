"""Bots play whole sessions of every game without one illegal or out-of-turn action.

Each configuration plays ``DEALS`` deals (500, half that for a game's second
table; ``SUKNO_LONG=1``: 5,000 and 2,500) with a seeded mix of rule and random
bots, every seat asked only through the ``Arena`` (a seat's own view and legal actions), every answer checked by
``Game.apply`` (which raises on anything illegal or out of turn).  After each
deal money is conserved, and at a sample of decisions the turn clock's
``default_action`` is legal too.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from engine.bots import default_action, make_bot
from engine.bots.arena import Arena
from engine.game import ShuffledDecks
from engine.games import get_game, registry

LONG = os.environ.get("SUKNO_LONG") == "1"
DEALS = 5_000 if LONG else 500
SESSION = 50
"""Deals per session: a new table (and a new mix of bots) after that many."""

QUICK_WINDOWS = {"W": 5, "Wmax": 10}
"""Спекулянт's windows shortened so random bidders do not make the test slow."""

CONFIGS: list[tuple[str, int, dict[str, Any], bool, int]] = [
    # game, players, options, live clock (Спекулянт), deals
    ("stukolka", 4, {"variant": "a"}, True, DEALS),
    ("stukolka", 7, {"variant": "a"}, True, DEALS // 2),
    ("stukolka", 5, {"variant": "b"}, True, DEALS),
    ("stukolka", 6, {"variant": "v", "dark": True, "razrez": True}, True, DEALS),
    ("stukolka", 4, {"variant": "v"}, True, DEALS // 2),
    ("stukolka", 5, {"variant": "g", "remiz_cap": 300}, True, DEALS),
    ("kopilka", 4, {}, True, DEALS),
    ("french3", 3, {}, True, DEALS),
    ("ukr_pairs", 4, {}, True, DEALS),
    ("speculator", 4, QUICK_WINDOWS, True, DEALS),
    ("speculator", 3, QUICK_WINDOWS, False, DEALS // 2),
    ("speculator", 7, QUICK_WINDOWS, True, DEALS // 2),
]


def test_every_registered_game_is_configured() -> None:
    assert {c[0] for c in CONFIGS} == set(registry())


class CheckedDefaults:
    """An arena timer hook would not see legal lists; this wraps bots to test ``default_action`` too."""

    def __init__(self, bot, game_name: str, rng: random.Random):
        self.bot, self.game_name, self.rng = bot, game_name, rng
        self.checked = 0

    def choose(self, view, legal):
        if self.rng.random() < 0.2:
            action = default_action(self.game_name, view, legal)
            assert action is not None or self.game_name == "speculator"
            assert action is None or action in legal
            self.checked += 1
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("name,players,options,clock,deals", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}-{''.join(str(v) for v in c[2].values())}-{c[3]}" for c in CONFIGS])
@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_bots_play_legally(name: str, players: int, options: dict[str, Any], clock: bool, deals: int) -> None:
    cls = get_game(name)
    rng = random.Random(f"{name}{players}{options}")
    names = [f"P{i}" for i in range(players)]
    played = checked = 0
    kinds_seen: set[str] = set()
    while played < deals:
        kinds = [rng.choice(("rule", "random")) for _ in range(players)]
        kinds[rng.randrange(players)] = "rule"
        kinds_seen.update(kinds)
        bots = [CheckedDefaults(make_bot(name, k, rng.randrange(1 << 30)), name, rng) for k in kinds]
        game = cls(names, options, dealer=rng.randrange(players))
        arena = Arena(game, bots, rng=random.Random(rng.random()), clock=clock)  # type: ignore[arg-type]
        decks = ShuffledDecks(cls.deck_size, rng.randrange(1 << 62))
        for _ in range(min(SESSION, deals - played)):
            if not game.can_start_deal():
                break
            pot = game.pot
            money = arena.play_deal(decks)
            assert sum(game.balances) + game.pot == game.start_pot
            assert game.deal_over() and not game.to_act()
            assert sum(money) == pot - game.pot  # what the players lost, the pot gained
            played += 1
        checked += sum(b.checked for b in bots)
    assert kinds_seen == {"rule", "random"}
    assert checked > 0

