"""Issue 14: the base ``Game`` owns the one legal-action memo (French ``buy``, Стуколка's hot path).

The memo is keyed by a count of changes (``apply``, ``start_deal``): after every
change it lists afresh, a caller's copy can be changed without touching it, and a
refusal leaves it as it was.  Only games whose state changes there alone opt in.
"""

from __future__ import annotations

import random

import pytest

from engine.game import Action, IllegalAction, ShuffledDecks
from engine.games import registry

MEMO_CONFIGS = [("french3", {}, 3), ("stukolka", {"variant": "a"}, 5), ("stukolka", {"variant": "v", "dark": True}, 4),
                ("stukolka", {"variant": "g"}, 4)]


def test_only_unclocked_games_opt_in_and_the_two_that_did() -> None:
    memo = {name for name, cls in registry().items() if cls.memo_legal}
    assert memo == {"french3", "stukolka"}
    assert all(not registry()[name].clocked for name in memo)  # time would change them behind the memo


@pytest.mark.parametrize(("name", "options", "players"), MEMO_CONFIGS)
def test_the_memo_lists_afresh_after_every_change(name: str, options: dict, players: int) -> None:
    cls = registry()[name]
    rng = random.Random(5)
    game = cls([f"p{i}" for i in range(players)], cls.make_options(options))
    decks = ShuffledDecks(cls.deck_size, 9)
    checked = 0
    for _deal in range(4):
        if not game.can_start_deal():
            break
        game.start_deal(decks)
        while game.in_deal:
            seat = sorted(game.to_act())[0]
            legal = game.legal_actions(seat)
            assert legal == game._legal(seat), "the memo is stale"  # a fresh listing of this state
            legal.append(Action("nonsense"))  # the caller's copy: the memo keeps its own
            assert Action("nonsense") not in game.legal_actions(seat)
            with pytest.raises(IllegalAction):
                game.apply(seat, Action("nonsense"))
            assert game.legal_actions(seat) == game._legal(seat)  # a refusal changed nothing
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            checked += 1
    assert checked > 20
