"""``ShuffledDecks`` writes ``random.shuffle`` out for speed: it must deal exactly the same decks."""

from __future__ import annotations

import random

import pytest

from engine.cards import deck
from engine.game import ShuffledDecks


@pytest.mark.parametrize("size", [32, 36, 48, 52])
def test_the_same_decks_as_random_shuffle(size: int) -> None:
    for seed in (0, 1, 2, 12345, 2**62 + 7):
        decks, rng = ShuffledDecks(size, seed), random.Random(seed)
        for _ in range(20):
            expected = deck(size)
            rng.shuffle(expected)
            assert decks.next_deck() == expected
