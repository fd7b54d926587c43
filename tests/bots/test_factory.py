"""``make_bot`` has both kinds for every registered game and refuses what it does not know."""

from __future__ import annotations

import pytest

from engine.bots import KINDS, RULE_BOTS, make_bot
from engine.bots.random_bot import RandomBot
from engine.game import ShuffledDecks
from engine.games import get_game, registry


def test_every_game_has_a_random_and_a_rule_bot() -> None:
    assert set(RULE_BOTS) == set(registry())
    for name in registry():
        rule = make_bot(name)
        assert (rule.game, rule.kind) == (name, "rule") and not isinstance(rule, RandomBot)
        assert make_bot(name, "random").kind == "random"


def test_unknown_game_or_kind_is_refused() -> None:
    with pytest.raises(KeyError, match="bots play"):
        make_bot("durak")
    with pytest.raises(ValueError, match=", ".join(KINDS)):
        make_bot("kopilka", "search")


def test_a_seed_repeats_a_random_bot() -> None:
    game = get_game("french3")(["A", "B", "C"])
    game.start_deal(ShuffledDecks(48, 3))
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    first = [make_bot("french3", "random", 42).choose(view, legal) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    assert len({make_bot("french3", "random", s).choose(view, legal) for s in range(20)}) > 1
