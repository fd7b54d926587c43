"""Helpers the trick games' tests share: a record cut short, an illegal play that must change nothing.

Importable from any test folder (``tests/`` is on ``sys.path`` through its ``conftest.py``).
"""

from __future__ import annotations

import random

from engine.game import Game, IllegalAction
from engine.record import Record, RecordDeal


def truncated(record: Record, deals: int, actions: int | None = None) -> Record:
    """The record cut after ``deals`` deals, the last one after ``actions`` actions."""
    kept = [RecordDeal(d.decks, list(d.actions)) for d in record.deals[:deals]]
    if actions is not None:
        kept[-1].actions = kept[-1].actions[:actions]
    return Record(record.game, record.players, record.options, record.dealer, record.pot, kept)


def try_illegal_play(game: Game, seat: int, rng: random.Random) -> None:
    """A card of the hand outside the legal ones is refused with a reason, and nothing changes."""
    hand = game.hands[seat]  # type: ignore[attr-defined]  (the trick games keep hands and the trick)
    legal = {a.args[0] for a in game.legal_actions(seat)}
    wrong = [c for c in hand if c not in legal]
    if not wrong:
        return
    before = (list(hand), list(game.trick))  # type: ignore[attr-defined]
    try:
        game.apply(seat, f"play {rng.choice(wrong)}")
    except IllegalAction as err:
        assert "must" in str(err)
    else:
        raise AssertionError("an illegal play was accepted")
    assert (list(game.hands[seat]), list(game.trick)) == before  # type: ignore[attr-defined]
