"""Every Стуколка worked example of RULES.md §5.14 replays to its expected result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import load_record, record_of, rebuild, replay

RECORDS = Path(__file__).parent.parent / "records"
NAMES = ["stukolka_D1", "stukolka_D2", "stukolka_D2b", "stukolka_D3", "stukolka_D4"]


@pytest.mark.parametrize("name", NAMES)
def test_worked_example_replays_exactly(name: str) -> None:
    """D1 (golets, trump-ace lead, triple remiz), D2 (R39 forced dealer), D2b (R38 all pass),
    D3 (58.в shlejf, dark, razrez), D4 (58.г compulsory then voluntary)."""
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    status, out = replay(load_record(RECORDS / f"{name}.json"))
    assert status == expected["exit"]
    assert out["ok"] is expected["ok"]
    assert out["over"] is expected["over"]
    assert out["balances"] == expected["balances"]
    assert out["pot"] == expected["pot"]
    record = load_record(RECORDS / f"{name}.json")
    assert sum(out["balances"].values()) + out["pot"] == record.pot


@pytest.mark.parametrize("name", NAMES)
def test_record_of_a_rebuilt_game_is_the_same_record(name: str) -> None:
    """record_of(rebuild(r)) writes back the decks and actions it was given (RULES.md §9.3)."""
    record = load_record(RECORDS / f"{name}.json")
    again = record_of(rebuild(record))
    assert [d.actions for d in again.deals] == [d.actions for d in record.deals]
    assert [d.decks[: len(a.decks)] for d, a in zip(record.deals, again.deals)] == [a.decks for a in again.deals]
    assert replay(again) == replay(record)


def test_d1_per_deal_money() -> None:
    """D1's net this deal: P0 −60, P1 +30, P2 −30, P3 0, P4 −30 (R43)."""
    _, out = replay(load_record(RECORDS / "stukolka_D1.json"))
    assert out["deals"][0]["money"] == {"P0": -60, "P1": 30, "P2": -30, "P3": 0, "P4": -30}


def test_d4_deal_money() -> None:
    """D4: deal 1 P0 −150, P1 +50, P2 −150, P3 +10; deal 2 P2 +160, P3 +80 (R57, R58)."""
    _, out = replay(load_record(RECORDS / "stukolka_D4.json"))
    assert out["deals"][0]["money"] == {"P0": -150, "P1": 50, "P2": -150, "P3": 10}
    assert out["deals"][1]["money"] == {"P0": 0, "P1": 0, "P2": 160, "P3": 80}
