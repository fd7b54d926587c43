"""Стуколка's legal plays against R41/R42 written plainly, over random deals of every variant (issue 14).

The game lists its plays on the engine bench's hot path (suits as numbers, one pass over the hand,
the winning card kept as cards fall); this test reads the rules the slow, obvious way — the trick's
winner from ``engine.trick.winning``, suits and ranks from the cards — and checks that both agree in
every play state of a few hundred seeded deals, and that an illegal play is refused with the rule.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, Rank, Suit
from engine.game import IllegalAction, ShuffledDecks, card_action
from engine.games.stukolka import PLAY, Stukolka
from engine.trick import winning

CONFIGS = [("a", 4, {}), ("a", 7, {}), ("b", 5, {}), ("v", 5, {"dark": True, "razrez": True}), ("g", 4, {})]


def plays_by_the_rules(hand: list[Card], trick: list[tuple[int, Card]], trump: Suit) -> set[Card]:
    """R42: on lead, the ace of trumps must be led if held; R41: follow and head, else trump and overtrump."""
    if not trick:
        ace = Card.of(Rank.ACE, trump)
        return {ace} if ace in hand else set(hand)
    led = trick[0][1].suit
    best = winning(trick, trump)[1]  # type: ignore[index]
    follow = [c for c in hand if c.suit == led]
    if follow:
        higher = [c for c in follow if best.suit == led and c.rank > best.rank]
        return set(higher or follow)
    trumps = [c for c in hand if c.suit == trump]
    if trumps:
        higher = [c for c in trumps if best.suit == trump and c.rank > best.rank]
        return set(higher or trumps)
    return set(hand)


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_the_listed_plays_are_the_rules_plays(variant: str, players: int, options: dict) -> None:
    rng = random.Random(players * 7 + ord(variant))
    game = Stukolka([f"p{i}" for i in range(players)], {"variant": variant, **options})
    decks = ShuffledDecks(52, seed=players)
    states = refused = 0
    for _deal in range(120):
        if not game.can_start_deal():
            break
        game.start_deal(decks)
        while game.in_deal:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if game.phase == PLAY and game.pending is None:
                hand = list(game.hands[seat])
                expected = plays_by_the_rules(hand, game.trick, game.trump)
                assert legal == [card_action("play", c) for c in hand if c in expected]  # in the hand's order
                states += 1
                wrong = [c for c in hand if c not in expected]
                if wrong:
                    before = game.view(-2)
                    with pytest.raises(IllegalAction) as refusal:
                        game.apply(seat, card_action("play", wrong[0]))
                    assert refusal.value.key.startswith("stukolka.")  # the rule is named (R41/R42)
                    assert game.view(-2) == before
                    refused += 1
            game.apply(seat, rng.choice(legal))
    assert states > 300 and refused > 20
