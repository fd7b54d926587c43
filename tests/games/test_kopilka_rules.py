"""Копилка: one scripted deal per rule of RULES.md §2 (R6–R17), with exact cards and money.

Decks are built from the hands each seat should be dealt (in dealt order) and
the stock (top first), dealing one card at a time from the eldest (§9.3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cards import Card, Suit, deck, parse_card
from engine.game import ADMIN, SPECTATOR, GivenDecks, IllegalAction, OptionError
from engine.games.kopilka import Kopilka
from engine.record import load_record, rebuild

NAMES = ["P0", "P1", "P2", "P3"]
RECORDS = Path(__file__).resolve().parent.parent / "records"


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def deck_order(hands: dict[int, str], stock: str, dealer: int = 0) -> list[Card]:
    """The deck order that deals ``hands`` (seat → 5 cards in dealt order) and leaves ``stock``."""
    dealt = {seat: cards(text) for seat, text in hands.items()}
    eldest = (dealer + 1) % 4
    order = [dealt[(eldest + k) % 4][i] for i in range(5) for k in range(4)]
    order += cards(stock)
    assert sorted(order) == sorted(deck(32)), "test deck is not a full 32-card deck"
    return order


def new_game(hands: dict[int, str], stock: str, *, dealer: int = 0, **options) -> Kopilka:
    game = Kopilka(NAMES, {"D": 0, **options}, dealer=dealer)
    game.start_deal(GivenDecks([deck_order(hands, stock, dealer)]))
    return game


def act(game: Kopilka, *lines: str) -> None:
    for line in lines:
        name, _, text = line.partition(":")
        game.apply(NAMES.index(name), text.strip())


def hand(game: Kopilka, seat: int) -> list[Card]:
    return sorted(game.hands[seat])


def legal(game: Kopilka, seat: int) -> list[str]:
    return [a.text() for a in game.legal_actions(seat)]


def refused(game: Kopilka, line: str) -> str:
    with pytest.raises(IllegalAction) as err:
        act(game, line)
    return str(err.value)


# --- the long-suit exchange (R7, R8) -------------------------------------------------

FOUR_HEARTS = {
    1: "7♥ 8♥ 9♥ 10♥ A♣",
    2: "A♠ 7♣ 8♦ 9♠ J♦",
    3: "K♠ 8♣ 9♦ J♣ Q♦",
    0: "Q♠ 9♣ 10♦ J♥ K♦",
}
EXCHANGE_STOCK = "7♠ 8♠ 10♠ J♠ 10♣ Q♣ K♣ 7♦ A♦ Q♥ K♥ A♥"


def test_exchange_of_four_cards() -> None:
    """R7, R8: 4 hearts laid out in dealt order; 3 taken blind, 1 back to the giver, who draws 3;
    takers discard one each; the 3 spades the giver draws do not trigger a second exchange."""
    game = new_game(FOUR_HEARTS, EXCHANGE_STOCK)
    assert game.phase == "take"
    assert game.view(1)["layouts"][1]["places"] == cards("7♥ 8♥ 9♥ 10♥")
    assert game.hands[1] == cards("A♣")
    assert game.to_act() == (2,)
    assert legal(game, 2) == ["take 1", "take 2", "take 3", "take 4"]
    act(game, "P2: take 4", "P3: take 1")
    assert legal(game, 0) == ["take 2", "take 3"]
    assert "already taken" in refused(game, "P0: take 1")
    assert "laid out 4 cards" in refused(game, "P0: take 5")
    assert "not your turn" in refused(game, "P1: take 2")
    act(game, "P0: take 3")
    assert game.phase == "discard"
    assert hand(game, 1) == sorted(cards("A♣ 8♥ 7♠ 8♠ 10♠"))
    assert game.stock == cards("J♠ 10♣ Q♣ K♣ 7♦ A♦ Q♥ K♥ A♥")
    assert game.owed == [1, 0, 1, 1]
    assert game.to_act() == (2,)  # clockwise from the eldest; P1 took nothing
    assert "do not hold" in refused(game, "P2: discard 7♥")
    act(game, "P2: discard 10♥", "P3: discard 8♣", "P0: discard J♥")
    assert game.phase == "play" and game.to_act() == (1,)
    assert all(len(game.hands[s]) == 5 for s in range(4))
    assert sorted(game.discards) == sorted(cards("10♥ 8♣ J♥"))
    assert game.hands[3] == cards("K♠ 9♦ J♣ Q♦ 7♥")


def test_exchange_of_five_cards() -> None:
    """R8: all five hearts are laid out; the two untaken come back, in their places' order, plus 3 from the stock."""
    hands = FOUR_HEARTS | {1: "7♥ 8♥ 9♥ 10♥ J♥", 0: "Q♠ 9♣ 10♦ A♣ K♦"}
    game = new_game(hands, EXCHANGE_STOCK)
    assert game.hands[1] == []
    act(game, "P2: take 2", "P3: take 5", "P0: take 3")
    assert game.hands[1] == cards("7♥ 10♥ 7♠ 8♠ 10♠")
    act(game, "P2: discard 8♥", "P3: discard J♥", "P0: discard 9♥")
    assert [len(h) for h in game.hands] == [5, 5, 5, 5]
    assert len(game.stock) == 9


TWO_GIVERS = {
    1: "A♠ 7♠ 8♠ 7♣ 7♦",
    2: "9♠ 9♣ 8♦ J♥ Q♥",
    3: "7♥ 8♥ 9♥ 10♥ 8♣",
    0: "10♠ 10♣ 9♦ K♥ J♣",
}
TWO_GIVERS_STOCK = "J♠ Q♠ K♠ Q♣ K♣ A♣ 10♦ J♦ Q♦ K♦ A♦ A♥"


def test_two_givers_and_the_ace_of_spades_passing_to_a_taker() -> None:
    """R7: both givers lay out at once; takes go giver by giver from the eldest, refills follow, discards last.
    §2.5: even the A♠ is laid out and passes to a taker, who then wins a club trick with it (R11)."""
    game = new_game(TWO_GIVERS, TWO_GIVERS_STOCK)
    assert game.hands[1] == cards("7♣ 7♦") and game.hands[3] == cards("8♣")
    view = game.view(0)
    assert [v is not None for v in view["layouts"]] == [False, True, False, True]
    assert view["layouts"][1]["places"] == [None, None, None]  # face down for P0
    assert game.view(1)["layouts"][1]["places"] == cards("A♠ 7♠ 8♠")
    assert game.view(1)["layouts"][3]["places"] == [None] * 4
    order = []
    for line in ("P2: take 1", "P3: take 3", "P0: take 2", "P0: take 4", "P1: take 1", "P2: take 2"):
        order.append(game.to_act()[0])
        act(game, line)
    assert order == [2, 3, 0, 0, 1, 2]
    assert "A♠" in map(str, game.hands[2])
    assert hand(game, 1) == sorted(cards("7♣ 7♦ 7♥ J♠ Q♠ K♠"))  # refilled first (eldest)
    assert hand(game, 3) == sorted(cards("8♣ 8♠ 9♥ Q♣ K♣ A♣"))  # 9♥ came back
    assert game.owed == [2, 1, 2, 1]
    discarders = []
    for line in ("P1: discard 7♦", "P2: discard 9♣", "P2: discard 8♦", "P3: discard 8♠",
                 "P0: discard 9♦", "P0: discard 10♣"):
        discarders.append(game.to_act()[0])
        act(game, line)
    assert discarders == [1, 2, 2, 3, 0, 0]
    assert [len(h) for h in game.hands] == [5, 5, 5, 5] and len(game.stock) == 6
    act(game, "P1: play 7♣")
    assert legal(game, 2) == ["play A♠", "draw", "pass"]
    act(game, "P2: play A♠", "P3: play A♣", "P0: play J♣")
    assert [(t.suit, t.doubled, t.value) for t in game.tricks[2]] == [(Suit.CLUBS, True, 4)]
    assert game.leader == 2


FOUR_GIVERS = {
    1: "7♠ 8♠ 9♠ 7♣ 7♦",
    2: "8♣ 9♣ 10♣ 8♦ 7♥",
    3: "9♦ 10♦ J♦ 8♥ 10♠",
    0: "9♥ 10♥ J♥ J♠ J♣",
}


def test_four_givers_empty_the_stock() -> None:
    """R7 (short stock): four givers draw all 12 stock cards; afterwards nobody can draw (R9)."""
    game = new_game(FOUR_GIVERS, "Q♠ K♠ A♠ Q♣ K♣ A♣ Q♦ K♦ A♦ Q♥ K♥ A♥")
    assert [len(h) for h in game.hands] == [2, 2, 2, 2]
    while game.phase == "take":
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.stock == [] and game.owed == [3, 3, 3, 3]
    while game.phase == "discard":
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert [len(h) for h in game.hands] == [5, 5, 5, 5] and len(game.discards) == 12
    for _ in range(40):
        if not game.in_deal:
            break
        seat = game.to_act()[0]
        assert "draw" not in legal(game, seat)
        game.apply(seat, game.legal_actions(seat)[-1])
    assert not game.in_deal


# --- trick play (R9–R14) -----------------------------------------------------------------


def a1_game() -> Kopilka:
    record = load_record(RECORDS / "kopilka_A1.json")
    record.deals[0].actions = []
    return rebuild(record)


def test_drawn_card_of_the_led_suit_must_be_played() -> None:
    """R9: a void player draws one card at a time; a drawn card of the led suit must be played at once (R10)."""
    game = a1_game()
    act(game, "P1: play K♥", "P2: play 7♥", "P3: play A♥")
    assert legal(game, 0) == ["draw", "pass"]
    assert "no hearts" in refused(game, "P0: play J♣")
    act(game, "P0: draw")  # 8♣: kept, he chooses again
    assert legal(game, 0) == ["draw", "pass"]
    act(game, "P0: draw")  # J♥
    assert legal(game, 0) == ["play J♥"]
    assert "must play" in refused(game, "P0: pass")
    assert "must play" in refused(game, "P0: draw")
    act(game, "P0: play J♥")
    assert game.leader == 3 and game.tricks[3][0].value == 4


def test_must_follow_suit() -> None:
    """R10: a player holding the led suit must follow it and may not pass, draw or play the A♠ instead (R11)."""
    game = a1_game()
    act(game, "P1: play K♥")
    assert legal(game, 2) == ["play 7♥"]
    assert "R10" in refused(game, "P2: pass")
    assert "R10" in refused(game, "P2: play A♣")
    act(game, "P2: play 7♥", "P3: play A♥", "P0: draw", "P0: draw", "P0: play J♥")
    act(game, "P3: play 7♦", "P0: play Q♦", "P1: play 8♦", "P2: play 9♦")
    act(game, "P0: play 8♣", "P1: play 9♣", "P2: play A♣", "P3: pass", "P2: play K♠")
    act(game, "P3: play J♠", "P0: play 9♠")
    assert legal(game, 1) == ["play A♠"]  # spades led: the A♠ is his spade


DRAW_OUT = {
    1: "7♠ 8♠ 9♠ 7♥ 7♦",
    2: "7♣ 8♣ 9♣ 8♥ 8♦",
    3: "9♦ 10♦ J♦ 9♥ 10♠",
    0: "10♣ J♣ 10♥ J♠ Q♦",
}
DRAW_OUT_STOCK = "J♥ Q♥ K♥ A♥ Q♣ K♣ Q♠ K♠ A♠ A♣ K♦ A♦"


def test_draw_until_the_stock_is_empty() -> None:
    """R9: a void player draws as often as he likes while the stock lasts, then may only pass;
    R10/R11: a player holding the led suit may not play the A♠ instead."""
    game = new_game(DRAW_OUT, DRAW_OUT_STOCK)  # three givers leave 3 stock cards
    while game.phase == "take":
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.stock == cards("A♣ K♦ A♦")
    act(game, "P1: discard 9♣", "P1: discard 10♦", "P2: discard 8♥", "P2: discard A♥",
        "P3: discard 7♣", "P3: discard 8♠", "P0: discard 10♣", "P0: discard J♣", "P0: discard 8♣")
    assert hand(game, 2) == sorted(cards("8♦ 7♠ J♦ Q♣ K♣"))
    act(game, "P1: play 7♥")
    for _ in range(3):
        assert legal(game, 2) == ["draw", "pass"]
        act(game, "P2: draw")
    assert game.stock == [] and len(game.hands[2]) == 8
    assert legal(game, 2) == ["pass"]
    assert "stock is empty" in refused(game, "P2: draw")
    act(game, "P2: pass")
    assert "A♠" in map(str, game.hands[3])
    assert legal(game, 3) == ["play 9♥"]
    assert "R10" in refused(game, "P3: play A♠")
    act(game, "P3: play 9♥", "P0: play 10♥")
    assert game.leader == 0 and game.view(SPECTATOR)["last_trick"] == [[1, cards("7♥")[0]], [3, cards("9♥")[0]],
                                                                        [0, cards("10♥")[0]]]


def test_winner_must_lead_another_suit() -> None:
    """R13: the trick's winner may not lead the suit of the trick just won while he holds another."""
    game = a1_game()
    act(game, "P1: play K♥", "P2: play 7♥", "P3: play A♥", "P0: draw", "P0: draw", "P0: play J♥")
    act(game, "P3: play 7♦", "P0: play Q♦", "P1: play 8♦", "P2: play 9♦")
    assert game.must_avoid == Suit.DIAMONDS
    assert "R13" in refused(game, "P0: play A♦")
    assert "play A♦" not in legal(game, 0)
    assert legal(game, 0) == ["play 9♠", "play 10♠", "play 8♣", "play J♣"]


# Four one-trick winners, then single-suited hands: every lead fails (R12, R13 lapse, R14 guard).
DEADLOCK = {
    1: "7♣ 9♦ 8♥ K♠ Q♠",
    2: "A♣ K♣ 7♦ 9♥ 8♠",
    3: "8♣ A♦ K♦ 7♥ 9♠",
    0: "9♣ 8♦ A♥ K♥ 7♠",
}
DEADLOCK_STOCK = "10♣ J♣ Q♣ 10♦ J♦ Q♦ 10♥ J♥ Q♥ A♠ 10♠ J♠"
DEADLOCK_TRICKS = (
    "P1: play 7♣", "P2: play A♣", "P3: play 8♣", "P0: play 9♣",
    "P2: play 7♦", "P3: play A♦", "P0: play 8♦", "P1: play 9♦",
    "P3: play 7♥", "P0: play A♥", "P1: play 8♥", "P2: play 9♥",
    "P0: play 7♠", "P1: play K♠", "P2: play 8♠", "P3: play 9♠",
)


def rotate(plan: dict[int, str], shift: int) -> dict[int, str]:
    return {(seat + shift) % 4: text for seat, text in plan.items()}


def rotate_lines(lines: tuple[str, ...], shift: int) -> tuple[str, ...]:
    return tuple(f"P{(int(line[1]) + shift) % 4}{line[2:]}" for line in lines)


def test_must_lead_another_suit_lapses_and_failed_leads() -> None:
    """R13: the rule lapses when the winner holds only that suit; R12: a lead fails although someone drew,
    the card goes back and the next player leads freely; R14: 4 failed leads end the deal with no first
    shedder, so all four pay S (R15)."""
    game = new_game(DEADLOCK, DEADLOCK_STOCK, S=5, Z=5)
    act(game, *DEADLOCK_TRICKS[:4])
    assert "R13" in refused(game, "P2: play K♣")
    act(game, *DEADLOCK_TRICKS[4:])
    assert game.leader == 1 and game.hands[1] == cards("Q♠")
    assert legal(game, 1) == ["play Q♠"]  # R13 lapses
    act(game, "P1: play Q♠", "P2: draw", "P2: pass", "P3: pass", "P0: pass")
    assert game.hands[1] == cards("Q♠") and game.failed == 1
    assert game.leader == 2 and game.must_avoid is None
    assert game.view(SPECTATOR)["trick"] == []
    act(game, "P2: play K♣", "P3: pass", "P0: pass", "P1: pass")
    act(game, "P3: play K♦", "P0: pass", "P1: pass", "P2: pass")
    assert game.in_deal and game.failed == 3
    act(game, "P0: play K♥", "P1: pass", "P2: pass")
    assert game.in_deal
    act(game, "P3: pass")
    assert not game.in_deal and game.first_shedder is None
    assert game.balances == [-5, -5, -5, -5] and game.pot == 20  # nobody without a trick: no Z
    assert hand(game, 2) == sorted(cards("K♣ 10♣"))


FIRST_SHEDDER = {
    1: "A♥ A♣ A♦ 7♠ 10♦",
    2: "7♣ 7♦ A♠ K♦ K♠",
    3: "7♥ 8♣ 8♦ 8♠ Q♦",
    0: "8♥ 9♣ 9♦ 9♠ J♦",
}
FIRST_SHEDDER_STOCK = "9♥ 10♥ J♥ Q♥ K♥ 10♣ J♣ Q♣ K♣ 10♠ J♠ Q♠"


def test_first_shedder_is_earliest_in_the_trick() -> None:
    """R14: three hands empty in the last trick; the first shedder is the earliest in that trick's order
    (P3, right after the leader P2), not the lowest seat. R15: he pays no S but Z, having no trick."""
    game = new_game(FIRST_SHEDDER, FIRST_SHEDDER_STOCK, S=5, Z=5)
    act(game, "P1: play A♥", "P2: pass", "P3: play 7♥", "P0: play 8♥")
    act(game, "P1: play A♣", "P2: play 7♣", "P3: play 8♣", "P0: play 9♣")
    act(game, "P1: play A♦", "P2: play 7♦", "P3: play 8♦", "P0: play 9♦")
    act(game, "P1: play 7♠", "P2: play A♠", "P3: play 8♠", "P0: play 9♠")
    assert game.tricks[2][0] == (1, Suit.SPADES, True, 2)
    assert legal(game, 2) == ["play K♦"]  # R13: not the K♠
    act(game, "P2: play K♦", "P3: play Q♦", "P0: play J♦", "P1: play 10♦")
    assert not game.in_deal
    assert game.first_shedder == 3
    assert [len(h) for h in game.hands] == [0, 0, 1, 0]
    assert game.balances == [-10, -5, -5, -5] and game.pot == 25


def test_leader_emptying_his_hand_is_first() -> None:
    """R14: in A1 the leader P1 sheds his last card and, playing first in the trick, is first shedder."""
    game = rebuild(load_record(RECORDS / "kopilka_A1.json"))
    assert game.first_shedder == 1 and game.hands[1] == []


# --- money (R6, R15, R16) ---------------------------------------------------------------


def a3_with_deadlock_fourth_deal(options: dict) -> Kopilka:
    """A3's deals 1–3, then a 4th deal (dealer P3) that ends by the deadlock guard."""
    record = load_record(RECORDS / "kopilka_A3a.json")
    record.options = options
    record.deals = record.deals[:3]
    game = rebuild(record)
    plan, lines = rotate(DEADLOCK, -1), rotate_lines(DEADLOCK_TRICKS, -1)
    stock = DEADLOCK_STOCK
    game.start_deal(GivenDecks([deck_order(plan, stock, dealer=3)]))
    act(game, *lines)
    act(game, *rotate_lines(("P1: play Q♠", "P2: pass", "P3: pass", "P0: pass",
                             "P2: play K♣", "P3: pass", "P0: pass", "P1: pass",
                             "P3: play K♦", "P0: pass", "P1: pass", "P2: pass",
                             "P0: play K♥", "P1: pass", "P2: pass", "P3: pass"), -1))
    assert not game.in_deal and game.first_shedder is None
    return game


def test_settlement_without_a_fourth_deal_shedder() -> None:
    """R16: nobody shed in deal 4, so the rest (150 − 55 = 95) is split equally, 23 each; 3 stay in the kitty,
    and the next partiya starts from them with new deposits (R6)."""
    game = a3_with_deadlock_fourth_deal({"D": 20, "S": 5, "Z": 5})
    assert game.won() == [10, 16, 13, 16]
    assert game.last_settlement == [33, 39, 36, 39]
    assert game.pot == 3 and game.natural_end()
    assert game.balances == [33 - 40, 39 - 35, 36 - 35, 39 - 40]
    game.start_deal(GivenDecks([deck_order(FOUR_HEARTS, EXCHANGE_STOCK, dealer=0)]))
    assert game.pot == 3 + 80 and not game.natural_end()
    assert game.partiya_deal == 1 and game.won() == [0, 0, 0, 0]


def test_pro_rata_without_a_fourth_deal_shedder() -> None:
    """R16: kitty 28 < ΣW 55: floor(W·28/55) = 5, 8, 6, 8; the 1 unit left cannot be split and stays."""
    game = a3_with_deadlock_fourth_deal({"D": 0, "S": 2, "Z": 2})
    assert game.last_settlement == [5, 8, 6, 8]
    assert game.pot == 1


def test_deposits_each_partiya() -> None:
    """R6: every player deposits D at the start of a partiya, not of every deal."""
    game = Kopilka(NAMES, {"D": 20})
    game.start_deal(GivenDecks([deck_order(FOUR_HEARTS, EXCHANGE_STOCK)]))
    assert game.pot == 80 and game.balances == [-20] * 4 and game.deals[0].money == [-20] * 4


# --- options and views ------------------------------------------------------------------


def test_options_are_validated() -> None:
    """§2.2: D, S, Z, suit values and the A♠ multiplier; ASCII spellings accepted, bad values refused."""
    game = Kopilka(NAMES, {"VH": 10, "vs": 0, "M": 3})
    assert game.options["V♥"] == 10 and game.options["V♠"] == 0 and game.options["M"] == 3
    assert game.options["D"] == 20 and game.options["V♣"] == 2
    for bad in ({"D": -1}, {"S": "five"}, {"M": 0}, {"X": 1}, {"VH": 1, "V♥": 2}):
        with pytest.raises(OptionError):
            Kopilka(NAMES, bad)
    with pytest.raises(OptionError):
        Kopilka(NAMES[:3])


def test_suit_values_and_multiplier_options() -> None:
    """§2.8: W uses the table's suit values; a trick won by the A♠ counts M times (R11)."""
    record = load_record(RECORDS / "kopilka_A1.json")
    record.options = {"D": 0, "V♠": 10, "V♥": 100, "M": 3}
    game = rebuild(record)
    assert game.won() == [3, 30 + 100, 2, 100]


def test_views_hide_hands_layouts_and_stock() -> None:
    """§1: a hand is seen only by its holder; the stock and discards by nobody (ADMIN excepted)."""
    game = new_game(FOUR_HEARTS, EXCHANGE_STOCK)
    spectator = game.view(SPECTATOR)
    assert spectator["hands"] == [None] * 4 and spectator["hand_counts"] == [5, 1, 5, 5]
    assert spectator["layouts"][1] == {"suit": None, "places": [None] * 4, "taken_by": [None] * 4}
    assert "stock" not in spectator and spectator["stock_count"] == 12
    mine = game.view(2)
    assert mine["hands"][2] == hand(game, 2) and mine["hands"][1] is None
    admin = game.view(ADMIN)
    assert admin["stock"] == cards(EXCHANGE_STOCK) and admin["layouts"][1]["suit"] == Suit.HEARTS
    assert spectator["trump"] is None and spectator["phase"] == "take"
    assert spectator["status"][1] == "laid out" and spectator["status"][2] == "taking"
