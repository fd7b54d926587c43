"""The rules of thumb of issue 9, each shown on a dealt position, and the turn clock's defaults."""

from __future__ import annotations

from math import comb
from typing import Any, Sequence

import pytest

from engine.bots import default_action, make_bot
from engine.bots.arena import Arena
from engine.bots.speculator import hold_chance
from engine.cards import Card, deck, parse_card, parse_cards
from engine.game import Action, Game, GivenDecks, ShuffledDecks
from engine.games import get_game


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def order(size: int, dealer: int, n: int, hands: dict[int, str], then: str = "", each: int = 0) -> list[Card]:
    """A deck order dealing ``hands`` one card at a time from the eldest, then ``then``, then the rest."""
    each = each or len(cards(next(iter(hands.values()))))
    eldest_order = [(dealer + 1 + i) % n for i in range(n)]
    dealt: list[Card] = []
    for i in range(each * n):
        dealt.append(cards(hands[eldest_order[i % n]])[i // n])
    head = dealt + cards(then)
    return head + [c for c in deck(size) if c not in head]


def game_at(name: str, n: int, deck_order: list[Card], options: dict[str, Any] | None = None,
            actions: Sequence[str] = ()) -> Game:
    game = get_game(name)([f"P{i}" for i in range(n)], options)
    game.start_deal(GivenDecks([deck_order]))
    for text in actions:
        game.apply(game.to_act()[0], text)
    return game


def rule_choice(game: Game, seat: int | None = None) -> Action | None:
    seat = game.to_act()[0] if seat is None else seat
    return make_bot(game.name).choose(game.view(seat), game.legal_actions(seat))


# -- Стуколка -------------------------------------------------------------------------

STUK_HANDS = {1: "A♥ A♠ 4♦", 2: "2♣ 3♦ 4♠", 3: "5♣ 6♦ 7♠", 0: "8♣ 9♦ 10♠"}


def stukolka(variant: str, actions: Sequence[str] = (), hands: dict[int, str] = STUK_HANDS) -> Game:
    return game_at("stukolka", 4, order(52, 0, 4, hands, then="9♥"), {"variant": variant}, actions)


def test_stukolka_knocks_on_trumps_and_aces() -> None:
    assert rule_choice(stukolka("a")) == Action("knock")  # A♥ is the trump ace


def test_stukolka_does_not_play_a_bad_hand_at_its_own_risk() -> None:
    game = stukolka("b", ["knock"])  # no golets in 58.б: 2♣ 3♦ 4♠ with ♥ trumps passes
    assert rule_choice(game) == Action("pass")


def test_stukolka_forced_dealer_takes_the_golets_on_a_bad_hand() -> None:
    hands = {1: "A♥ A♠ 4♦", 2: "5♣ 6♦ 7♠", 3: "8♣ 9♦ 10♠", 0: "2♣ 3♦ 4♠"}
    game = stukolka("a", ["knock", "pass", "pass"], hands)
    assert game.legal_actions(0) == [Action("knock"), Action("golets")]  # forced (R39)
    assert rule_choice(game) == Action("golets")


def test_stukolka_buys_away_the_weak_cards_and_keeps_the_trump_ace() -> None:
    game = stukolka("b", ["knock", "knock", "pass", "pass"])
    assert game.view(1)["phase"] == "buy"
    assert rule_choice(game) == Action("buy", tuple(sorted(cards("4♦"))))


def test_stukolka_defaults_pass_or_stand_pat() -> None:
    declare = stukolka("b")
    assert default_action("stukolka", declare.view(1), declare.legal_actions(1)) == Action("pass")
    buying = stukolka("b", ["knock", "knock", "pass", "pass"])
    assert default_action("stukolka", buying.view(1), buying.legal_actions(1)) == Action("buy")
    shlejf = game_at("stukolka", 4, order(52, 0, 4, STUK_HANDS, then="9♥"), {"variant": "v"})
    assert default_action("stukolka", shlejf.view(0), shlejf.legal_actions(0)) == Action("shlejf")


# -- Копилка --------------------------------------------------------------------------

KOP_HANDS = {1: "K♥ Q♣ 9♦ 8♠ 7♥", 2: "A♠ J♣ 10♦ 8♣ 9♠", 3: "Q♠ K♣ 7♦ 8♦ 10♠", 0: "A♥ 10♥ J♦ Q♦ 7♠"}


def kopilka(actions: Sequence[str]) -> Game:
    return game_at("kopilka", 4, order(32, 0, 4, KOP_HANDS, then="9♣ A♦"), actions=actions)


def test_kopilka_void_plays_the_ace_of_spades_on_a_dear_suit() -> None:
    game = kopilka(["play K♥"])
    assert game.to_act() == (2,)
    assert rule_choice(game) == Action("play", (parse_card("A♠"),))


def test_kopilka_void_draws_for_a_first_trick() -> None:
    game = kopilka(["play K♥", "play A♠"])
    assert rule_choice(game) == Action("draw")  # no trick yet: a heart would save Z
    game.apply(3, "draw")  # 9♣: not a heart
    assert rule_choice(game) == Action("draw")
    assert default_action("kopilka", game.view(3), game.legal_actions(3)) == Action("pass")


def test_kopilka_fourth_deal_is_a_race_to_shed() -> None:
    game = get_game("kopilka")([f"P{i}" for i in range(4)])
    arena = Arena(game, [make_bot("kopilka", "rule", s) for s in range(4)])
    for deal in range(3):
        arena.play_deal(ShuffledDecks(32, deal))
    rotated = {(seat + 3) % 4: hand for seat, hand in KOP_HANDS.items()}  # dealer P3, eldest P0
    game.start_deal(GivenDecks([order(32, 3, 4, rotated, then="9♣ A♦")]))
    assert game.view(0)["partiya_deal"] == 4
    game.apply(0, "play K♥")
    assert rule_choice(game) == Action("play", (parse_card("A♠"),))
    game.apply(1, "play A♠")
    assert Action("draw") in game.legal_actions(2)
    assert rule_choice(game) == Action("pass")  # a draw would only add a card to shed


def test_kopilka_last_hand_wins_with_its_lowest_winner() -> None:
    game = kopilka(["play K♥", "pass", "pass"])
    assert rule_choice(game) == Action("play", (parse_card("A♥"),))
    game = kopilka(["play 7♥", "pass", "pass"])
    assert rule_choice(game) == Action("play", (parse_card("10♥"),))


def test_kopilka_blind_take_is_the_first_free_place() -> None:
    hands = {1: "K♥ Q♥ 9♥ 8♠ 7♣", 2: "A♠ J♣ 10♦ 8♣ 9♠", 3: "Q♠ K♣ 7♦ 8♦ 10♠", 0: "A♥ 10♥ J♦ Q♦ 7♠"}
    game = game_at("kopilka", 4, order(32, 0, 4, hands))
    assert game.view(2)["phase"] == "take"
    assert rule_choice(game) == Action("take", (1,))
    assert default_action("kopilka", game.view(2), game.legal_actions(2)) == Action("take", (1,))


# -- french3 --------------------------------------------------------------------------


def french3(actions: Sequence[str] = ()) -> Game:
    # R18: packets of 3 to E (seat 1), M (seat 2), D (seat 0) and the widow, four times.
    e = cards("A♠ K♠ Q♠ J♠ 10♠ 9♠ 3♣ 4♦ 5♦ 6♦ 7♦ 8♦")
    m = cards("A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ A♥")
    d = cards("K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ A♦")
    widow = [c for c in deck(48) if c not in e + m + d]
    piles = [e, m, d, widow]
    deck_order = [c for r in range(4) for pile in piles for c in pile[3 * r:3 * r + 3]]
    return game_at("french3", 3, deck_order, actions=actions)


def test_french3_exchanges_only_a_low_singleton_when_long_in_trumps() -> None:
    game = french3()
    assert rule_choice(game) == Action("buy", (parse_card("3♣"),))  # six trumps, 3♣ alone
    assert default_action("french3", game.view(1), game.legal_actions(1)) == Action("buy")


def test_french3_last_hand_wins_with_its_lowest_winner() -> None:
    game = french3(["buy", "buy", "buy", "play 4♦", "play A♥"])
    assert game.to_act() == (0,)
    assert rule_choice(game) == Action("play", (parse_card("A♦"),))  # the only ♦: it must
    game = french3(["buy", "buy", "buy", "play 9♠"])
    assert rule_choice(game) == Action("play", (parse_card("4♣"),))  # no ♠, no trump: the cheapest


# -- ukr_pairs ------------------------------------------------------------------------


def test_ukr_pairs_leaves_a_safe_trick_to_the_partner() -> None:
    hands = {1: "6♣ J♣ J♠ A♠ K♠ Q♠ A♥ K♥ Q♥", 2: "J♥ J♦ A♣ 10♠ 9♠ 8♠ 7♠ 6♠ 6♥",
             3: "K♣ Q♣ 10♣ 9♣ 8♣ 7♣ 10♥ 9♥ 8♥", 0: "A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ 7♥"}
    game = game_at("ukr_pairs", 4, order(36, 0, 4, hands), actions=["play A♥", "play 6♥"])
    # P3 is P1's partner: A♥ is the boss of ♥ and only P0 (no hearts left but 7♥) plays after.
    assert rule_choice(game) == Action("play", (parse_card("8♥"),))


def test_ukr_pairs_last_hand_wins_with_its_lowest_winner() -> None:
    hands = {1: "6♣ J♣ J♠ A♠ K♠ Q♠ A♥ K♥ 7♥", 2: "J♥ J♦ A♣ 10♠ 9♠ 8♠ 7♠ 6♠ 6♥",
             3: "K♣ Q♣ 10♣ 9♣ 8♣ 7♣ 10♥ 9♥ 8♥", 0: "A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ Q♥"}
    game = game_at("ukr_pairs", 4, order(36, 0, 4, hands), actions=["play 7♥", "play 6♥", "play 8♥"])
    assert rule_choice(game) == Action("play", (parse_card("Q♥"),))


# -- Спекулянт ------------------------------------------------------------------------


def speculator() -> Game:
    """P1 turns up A♦ first: the top trump, beaten by nothing; only the K♠ can still take it away."""
    hands = {1: "A♦ 6♠ 7♠", 2: "6♣ 7♣ 8♣", 0: "6♥ 7♥ 8♥"}
    game = game_at("speculator", 3, order(36, 0, 3, hands))
    game.start_clock(0.0)  # type: ignore[attr-defined]
    game.apply(1, "reveal")
    return game


def test_speculator_prices_the_best_card_by_its_chance_to_hold() -> None:
    game = speculator()
    view = game.view(2)
    # 35 unseen cards, 8 reveals to come, none beats A♦, one is the K♠.
    assert hold_chance(view) == pytest.approx(comb(34, 8) / comb(35, 8))


def test_speculator_bids_below_the_worth_and_sells_at_it() -> None:
    game = speculator()
    worth = hold_chance(game.view(2)) * game.pot  # 27/35 of 15 ≈ 11.6
    assert rule_choice(game, 2) == Action("bid", (1,))
    game.apply(0, "bid 9")
    assert rule_choice(game, 2) == Action("ready")  # 10 would be over 80% of the worth
    assert rule_choice(game, 1) == Action("ready")  # the holder: 9 is under the worth
    game.apply(1, "ready")
    game.apply(0, f"bid {int(worth) + 1}")
    assert rule_choice(game, 1) == Action("accept", ("P0",))


def test_speculator_waits_when_it_has_nothing_to_add() -> None:
    game = speculator()
    game.apply(2, "bid 9")  # the top bid, as far as it would go
    assert rule_choice(game, 2) == Action("ready")
    game.apply(2, "ready")
    assert rule_choice(game, 2) is None
    assert default_action("speculator", game.view(2), game.legal_actions(2)) is None
    assert default_action("speculator", game.view(0), game.legal_actions(0)) == Action("ready")
