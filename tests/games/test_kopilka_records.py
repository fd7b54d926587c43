"""Копилка: the worked examples of RULES.md §2.10 (A1, A2, A3a, A3b) as records.

Each record is replayed as ``sukno replay`` does and compared with its
``.expected.json``; the two single-deal examples are also checked card by card.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import Suit, parse_card
from engine.game import ADMIN
from engine.record import load_record, rebuild, replay

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES = ["A1", "A2", "A3a", "A3b"]


def cards(text: str) -> list:
    return [parse_card(word) for word in text.split()]


@pytest.mark.parametrize("name", NAMES)
def test_record_matches_expected(name: str) -> None:
    """§2.10 examples: exit status, ok, over, balances and kitty exactly as expected (R15, R16)."""
    record = load_record(RECORDS / f"kopilka_{name}.json")
    expected = json.loads((RECORDS / f"kopilka_{name}.expected.json").read_text(encoding="utf-8"))
    status, out = replay(record)
    assert status == expected["exit"]
    for key in ("ok", "over", "balances", "pot"):
        assert out[key] == expected[key], key
    assert sum(out["balances"].values()) + out["pot"] == record.pot


def test_a1_deal_details() -> None:
    """A1: draws, A♠ doubling a spade trick (R11), P1 first shedder; final stock of 6 cards (R14)."""
    game = rebuild(load_record(RECORDS / "kopilka_A1.json"))
    assert not game.in_deal
    assert game.first_shedder == 1
    assert game.stock == cards("Q♣ 8♠ 10♥ J♦ 7♣ 8♥")
    assert game.won() == [3, 6, 2, 4]
    assert [(t.suit, t.doubled) for t in game.tricks[1]] == [(Suit.SPADES, True), (Suit.HEARTS, False)]
    assert game.pot == 15


def test_a2_exchange_and_deal() -> None:
    """A2: P2 gives ♥×3 by fixed places (R7, R8); A♠ wins a heart trick ×2 (R11); failed lead (R12); Z (R15)."""
    record = load_record(RECORDS / "kopilka_A2.json")
    exchange = record.deals[0].actions[:6]
    record.deals[0].actions = exchange
    game = rebuild(record)
    hands = game.view(ADMIN)["hands"]
    assert hands[1] == sorted(cards("A♣ K♣ Q♦ 10♥ A♥"))
    assert hands[2] == sorted(cards("9♠ J♦ Q♥ 10♦ K♠"))
    assert hands[3] == sorted(cards("A♠ 10♣ 9♣ K♦ 8♦"))
    assert hands[0] == sorted(cards("Q♠ J♠ 7♣ 9♦ K♥"))
    assert game.stock == cards("J♣ 9♥ 8♠ A♦ Q♣ J♥ 10♠ 8♣ 7♥")
    assert game.phase == "play" and game.to_act() == (1,)

    game = rebuild(load_record(RECORDS / "kopilka_A2.json"))
    assert game.won() == [0, 11, 1, 8]
    assert game.first_shedder == 1
    assert game.deals[-1].money == [-10, 0, -5, -5]


def test_a3_partiya_is_a_natural_end() -> None:
    """A3a: the partiya of 4 deals settles (R16, R17) and the record ends at a natural end (§9.4)."""
    game = rebuild(load_record(RECORDS / "kopilka_A3a.json"))
    assert game.natural_end() and not game.is_over()
    assert game.won() == [16, 16, 10, 13]
    assert game.last_settlement == [16 + 95, 16, 10, 13]
    assert [log.dealer for log in game.deals] == [0, 1, 2, 3]
