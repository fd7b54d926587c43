"""Game C, the Ukrainian pairs game (RULES.md §4, R25–R31): worked examples C1–C3 and rule tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import Card, deck, parse_card
from engine.game import ADMIN, SPECTATOR, Action, GivenDecks, IllegalAction
from engine.games.ukr_pairs import TRUMP_ORDER, UkrPairs, is_trump, power, suit_of
from engine.record import load_record, rebuild, record_of, replay
from playkit import truncated

RECORDS = Path(__file__).parent.parent / "records"
NAMES = ["P0", "P1", "P2", "P3"]


def cards(text: str) -> list[Card]:
    return [parse_card(w) for w in text.split()]


def ukr_deck(hands: dict[int, list[Card]], dealer: int) -> list[Card]:
    """The deck order that deals these hands: one card at a time from the eldest (§9.3)."""
    eldest = (dealer + 1) % 4
    order = [hands[(eldest + i) % 4][i // 4] for i in range(36)]
    assert sorted(order) == sorted(deck(36))
    return order


def play(card: str) -> Action:
    return Action("play", (parse_card(card),))


# --- worked examples ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["ukr_pairs_C1", "ukr_pairs_C2", "ukr_pairs_C3"])
def test_worked_example_replays_exactly(name: str) -> None:
    """C1 (9:0 slam, R29: ±24 each), C2 (6:3 «тринька», A writes off 3: 9/12), C3 (a match to
    A's record 0, B pays its remaining 8 each, R30) give their expected money and records."""
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    record = load_record(RECORDS / f"{name}.json")
    status, out = replay(record)
    assert status == expected["exit"]
    assert out["ok"] is expected["ok"]
    assert out["over"] is expected["over"]
    assert out["balances"] == expected["balances"]
    assert out["pot"] == expected["pot"]
    if "score" in expected:
        assert out["score"] == expected["score"]
    assert sum(out["balances"].values()) + out["pot"] == record.pot


def test_score_after_a_match_shows_the_ended_match() -> None:
    """§9.4: the score of a record ending a match is that match's last records (C1: 12/12, C3: 0/8)."""
    assert replay(load_record(RECORDS / "ukr_pairs_C1.json"))[1]["score"] == {"A": 12, "B": 12}
    assert replay(load_record(RECORDS / "ukr_pairs_C3.json"))[1]["score"] == {"A": 0, "B": 8}


@pytest.mark.parametrize("name", ["ukr_pairs_C1", "ukr_pairs_C2", "ukr_pairs_C3"])
def test_record_of_a_rebuilt_game_is_the_same_record(name: str) -> None:
    """record_of(rebuild(r)) writes back the decks and actions it was given (§9.3)."""
    record = load_record(RECORDS / f"{name}.json")
    again = record_of(rebuild(record))
    assert [d.actions for d in again.deals] == [d.actions for d in record.deals]
    assert [d.decks for d in again.deals] == [d.decks for d in record.deals]
    assert replay(again) == replay(record)


def test_c1_p1_takes_all_nine_tricks() -> None:
    """C1: the eldest P1 wins every trick; money moves at once (R29)."""
    game = rebuild(load_record(RECORDS / "ukr_pairs_C1.json"))
    assert game.tricks == [0, 9, 0, 0]
    assert game.natural_end() and game.match_winner == 1
    assert game.settlement == [-24, 24, -24, 24]


def test_c2_tricks() -> None:
    """C2: P2 takes five tricks, P0 one, P3 two, P1 one: 6 : 3 for team A (R27)."""
    game = rebuild(load_record(RECORDS / "ukr_pairs_C2.json"))
    assert game.tricks == [1, 1, 5, 2]
    assert game.team_tricks() == [6, 3]
    assert game.records == [9, 12] and not game.natural_end()
    assert game.balances == [0, 0, 0, 0]


def test_c3_records_deal_by_deal() -> None:
    """C3: 6:3 A, 7:2 B, 8:1 B, 5:4 A, 6:3 A, 6:3 A, 6:3 B, 6:3 A give A 9 9 9 9 6 3 3 0 and
    B 12 12 11 11 11 11 8 8 (R28: only 8:1 and 6:3 write off, 1 and 3)."""
    game = rebuild(load_record(RECORDS / "ukr_pairs_C3.json"))
    rows = game.view(SPECTATOR)["history"]
    assert [r["A"] for r in rows] == [9, 9, 9, 9, 6, 3, 3, 0]
    assert [r["B"] for r in rows] == [12, 12, 11, 11, 11, 11, 8, 8]
    assert [r["tricks"] for r in rows] == [[6, 3], [2, 7], [1, 8], [5, 4], [6, 3], [6, 3], [3, 6], [6, 3]]
    assert [r["written_off"] for r in rows] == [3, 0, 1, 0, 3, 3, 3, 3]
    for deal in range(1, 8):
        assert not rebuild(truncated(load_record(RECORDS / "ukr_pairs_C3.json"), deal)).natural_end()
    assert game.balances == [8, -8, 8, -8]


def test_match_money_is_times_u() -> None:
    """R30: each loser pays the remaining record × u."""
    record = load_record(RECORDS / "ukr_pairs_C3.json")
    record.options = {"u": 3}
    assert replay(record)[1]["balances"] == {"P0": 24, "P1": -24, "P2": 24, "P3": -24}


def test_slam_pays_double_the_option_t() -> None:
    """R29: a 9:0 costs each loser 2·T·u, with T from the options."""
    record = load_record(RECORDS / "ukr_pairs_C1.json")
    record.options = {"T": 5, "u": 2}
    assert replay(record)[1]["balances"] == {"P0": -20, "P1": 20, "P2": -20, "P3": 20}


# --- trumps and following (R26) ---------------------------------------------------------


def test_trump_order() -> None:
    """§4.3: 6♣ > J♣ > J♠ > J♥ > J♦ > A♣ > … > 7♣, all twelve one suit; plain suits have 8 cards."""
    assert TRUMP_ORDER == tuple(cards("6♣ J♣ J♠ J♥ J♦ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣"))
    assert sorted(TRUMP_ORDER, key=power, reverse=True) == list(TRUMP_ORDER)
    assert {suit_of(c) for c in TRUMP_ORDER} == {"trump"}
    plain = [c for c in deck(36) if not is_trump(c)]
    assert len(plain) == 24 and all(sum(1 for c in plain if c.suit == s) == 8 for s in {c.suit for c in plain})


def test_a_jack_led_is_a_trump_lead() -> None:
    """R26: after J♠ is led, P2 (spades but no trump) may play anything; P3 must play his trump J♦."""
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C1.json"), 1, 9))
    assert game.trick == [(1, parse_card("J♠"))]
    p2 = game.legal_actions(2)
    assert len(p2) == len(game.hands[2]) == 7 and play("Q♠") in p2
    game.apply(2, "play 9♦")
    assert game.legal_actions(3) == [play("J♦")]
    with pytest.raises(IllegalAction, match="trump was led"):
        game.apply(3, "play 9♠")


def test_a_jack_never_follows_its_printed_suit() -> None:
    """R26: on a heart lead P1 must play a heart, not his J♥; without hearts a jack is just any card."""
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 11))  # P2 ♥A, P3 ♥8, P0 ♥Q
    assert parse_card("J♥") in game.hands[1]
    assert game.legal_actions(1) == [play("7♥"), play("6♥")]
    with pytest.raises(IllegalAction, match=r"J♥ is a trump, not a ♥ \(R26\)"):
        game.apply(1, "play J♥")


def test_void_player_may_play_anything_without_trumping() -> None:
    """§4.4: void in the suit led, any card, with no duty to trump (C2 trick 4, P0 chose K♣)."""
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 14))  # P2 ♥10, P3 ♥K
    hand = game.hands[0]
    assert not any(c.suit.symbol == "♥" and not is_trump(c) for c in hand)
    assert game.legal_actions(0) == [play(str(c)) for c in hand]


def test_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    """§4.4: in C2 trick 5 J♣ beats J♠ and J♥; in trick 6 ♦A wins a diamond trick."""
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 20))
    assert game.last_trick[-1] == (3, parse_card("J♣")) and game.leader == 3
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 24))
    assert game.leader == 3 and game.tricks[3] == 2


# --- scoring and the match (R27–R30) ------------------------------------------------------


def slam_for_the_eldest(dealer: int) -> list[Card]:
    """A deck where the eldest holds the nine highest trumps and so takes all nine tricks."""
    eldest = (dealer + 1) % 4
    rest = [c for c in deck(36) if c not in TRUMP_ORDER[:9]]
    hands = {eldest: list(TRUMP_ORDER[:9])}
    for k, seat in enumerate(s for s in range(4) if s != eldest):
        hands[seat] = rest[9 * k:9 * k + 9]
    return ukr_deck(hands, dealer)


def play_out(game: UkrPairs) -> None:
    while game.in_deal:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])


def test_nine_nil_ends_the_match_at_once() -> None:
    """R29: after C2 (A 9, B 12) a 9:0 for B ends the match: A's players pay 2·T = 24 each, not a
    remainder; the next deal starts a new match at 12 / 12 (§4.5)."""
    game = rebuild(load_record(RECORDS / "ukr_pairs_C2.json"))
    game.start_deal(GivenDecks([slam_for_the_eldest(dealer=2)]))
    assert game.dealer == 2 and game.to_act() == (3,)
    play_out(game)
    assert game.team_tricks() == [0, 9]
    assert game.natural_end() and game.match_winner == 1
    assert game.balances == [-24, 24, -24, 24]
    assert game.score() == {"A": 9, "B": 12}  # nothing written off: the match simply ends
    game.start_deal(GivenDecks([slam_for_the_eldest(dealer=3)]))
    assert game.score() == {"A": 12, "B": 12} and game.match_no == 2
    assert not game.natural_end()


def test_the_dealer_rotates_across_matches() -> None:
    """R31, R2: the deal passes clockwise after every deal, a new match included."""
    game = rebuild(load_record(RECORDS / "ukr_pairs_C1.json"))
    assert game.dealer == 0
    game.start_deal(GivenDecks([slam_for_the_eldest(dealer=1)]))
    assert game.dealer == 1 and game.to_act() == (2,)


def test_play_refusals_say_why() -> None:
    """Not one's turn, a card not held (also on lead), and a revoke are refused with a reason."""
    lead = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 0))
    with pytest.raises(IllegalAction, match="do not hold 6♦"):
        lead.apply(2, "play 6♦")
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C2.json"), 1, 1))  # P2 led ♠A
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(0, "play 6♠")
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(3, "play A♣")
    with pytest.raises(IllegalAction, match="must follow suit"):
        game.apply(3, "play 7♦")


def test_views_hide_other_hands() -> None:
    """Each seat sees its own hand only; a spectator none; the records are in every view."""
    game = rebuild(truncated(load_record(RECORDS / "ukr_pairs_C3.json"), 2, 3))
    for viewer in (SPECTATOR, 0, 1, 2, 3):
        view = game.view(viewer)
        assert [h is not None for h in view["hands"]] == [viewer == s for s in range(4)]
        assert view["records"] == {"A": 9, "B": 12}
        assert view["trick"] == [[3, parse_card("7♦")], [0, parse_card("10♣")], [1, parse_card("Q♦")]]
    assert all(h is not None for h in game.view(ADMIN)["hands"])
    assert game.view(SPECTATOR)["status"][2] == "to play"
    assert game.view(SPECTATOR)["teams"] == {"A": [0, 2], "B": [1, 3]}
