"""Стуколка rule by rule: one scripted deal per resolution (its Rn in the docstring).

Deals are built from hands with ``deck_for`` (RULES.md §9.3: one card at a time
from the eldest, then the trump card, then the stock top first).
"""

from __future__ import annotations

import pytest

from engine.cards import deck, parse_card
from engine.game import ADMIN, SPECTATOR, DeckError, GivenDecks, IllegalAction, OptionError
from engine.games.stukolka import Stukolka


def deck_for(n: int, dealer: int, hands: dict[int, str], trump: str, stock: str = "") -> list:
    """A 52-card order dealing ``hands`` (seat → "A♥ 10♥ 4♣"), then ``trump``, then ``stock`` on top."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    parsed = {s: [parse_card(c) for c in h.split()] for s, h in hands.items()}
    fixed = [c for h in parsed.values() for c in h] + [parse_card(trump)] + [parse_card(c) for c in stock.split()]
    rest = [c for c in deck(52) if c not in fixed]
    for seat in order:  # seats without a given hand get filler cards
        while len(parsed.setdefault(seat, [])) < 3:
            parsed[seat].append(rest.pop(0))
    cards = [parsed[order[i % n]][i // n] for i in range(3 * n)]
    cards.append(parse_card(trump))
    cards += [parse_card(c) for c in stock.split()]
    cards += [c for c in rest if c not in cards]
    assert len(cards) == 52 and len(set(cards)) == 52
    return cards


def new(n: int = 4, pot: int = 0, **options) -> Stukolka:
    return Stukolka([f"P{i}" for i in range(n)], options, pot=pot)


def act(game: Stukolka, *lines: str) -> list:
    events = []
    for line in lines:
        name, _, text = line.partition(":")
        events += game.apply(int(name.strip()[1:]), text.strip())
    return events


def cards(text: str) -> list:
    return [parse_card(c) for c in text.split()]


def legal(game: Stukolka, seat: int) -> list[str]:
    return [a.text() for a in game.legal_actions(seat)]


# -- options ---------------------------------------------------------------------------


def test_ante_not_a_multiple_of_three_is_refused() -> None:
    """§5.2: 'Ставка должна делиться на три без остатка'."""
    with pytest.raises(OptionError, match="multiple of 3"):
        new(a=31)
    with pytest.raises(OptionError, match="multiple of 3"):
        new(variant="g", b=10)


def test_player_ranges_per_variant() -> None:
    """R45 (а: 4–7), R46 (б: 4–5), R49 (в: 4–6), R56 (г: 4–5)."""
    for variant, low, high in (("a", 4, 7), ("b", 4, 5), ("v", 4, 6), ("g", 4, 5)):
        new(low, variant=variant)
        new(high, variant=variant)
        for bad in (low - 1, high + 1):
            with pytest.raises(OptionError, match="players"):
                new(bad, variant=variant)


def test_unknown_option_and_bad_variant_are_refused() -> None:
    with pytest.raises(OptionError, match="unknown option"):
        new(stake=30)
    with pytest.raises(OptionError, match="one of"):
        new(variant="x")


# -- dealing ---------------------------------------------------------------------------


def test_dealer_antes_once_and_an_open_ace_redeals_from_the_next_deck() -> None:
    """R34 (the dealer antes at the start of his deal, not again on a redeal) and R35 (ace turned → redeal)."""
    game = new()
    first = deck_for(4, 0, {}, "A♣")
    second = deck_for(4, 0, {1: "K♥ 2♣ 3♦"}, "5♠")
    events = game.start_deal(GivenDecks([first, second]))
    assert [e.kind for e in events].count("redeal") == 1
    assert game.pot == 30 and game.balances == [-30, 0, 0, 0]
    assert game.hands[1] == cards("K♥ 2♣ 3♦") and str(game.trump_card) == "5♠"


def test_redeal_without_a_next_deck_order_says_so() -> None:
    """R35 with a record that gives no deck for the redeal."""
    game = new()
    with pytest.raises(DeckError, match="redeal"):
        game.start_deal(GivenDecks([deck_for(4, 0, {}, "A♣")]))


def test_a_deck_that_is_not_full_is_refused() -> None:
    game = new()
    bad = deck(52)[:-1] + [deck(52)[0]]
    with pytest.raises(DeckError, match="missing A♥; repeated 2♠"):
        game.start_deal(GivenDecks([bad]))


# -- declarations ----------------------------------------------------------------------


def test_all_pass_dealer_takes_the_pot() -> None:
    """R38: nobody in → the dealer takes the whole pot without play."""
    game = new(pot=60)
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "5♠")]))
    act(game, "P1: pass", "P2: pass", "P3: pass")
    assert game.deal_over() and game.pot == 0 and game.balances == [60, 0, 0, 0]
    assert game.legal_actions(0) == []


def test_lone_knocker_forces_the_dealer_who_cannot_pass() -> None:
    """R39: exactly one non-dealer in → the dealer must play (knock, or a free golets)."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "5♠")]))
    act(game, "P1: knock", "P2: pass", "P3: pass")
    assert sorted(legal(game, 0)) == ["golets", "knock"]
    with pytest.raises(IllegalAction, match="R39"):
        act(game, "P0: pass")
    act(game, "P0: knock")
    assert game.forced == 0


def test_forced_dealer_is_never_in_remiz() -> None:
    """R39: the forced dealer takes no trick and pays nothing."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {1: "A♠ K♠ Q♠", 0: "2♥ 3♥ 4♥"}, "5♠")]))
    act(game, "P1: knock", "P2: pass", "P3: pass", "P0: knock")
    act(game, "P1: play A♠", "P0: play 2♥", "P1: play K♠", "P0: play 3♥", "P1: play Q♠", "P0: play 4♥")
    assert game.tricks == [0, 3, 0, 0]
    assert game.remiz == [] and game.pot == 0
    assert game.balances == [-30, 30, 0, 0]


def test_two_in_dealer_may_pass() -> None:
    """§5.5: with two or more non-dealers in, the dealer may pass (even with a free golets)."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "5♠")]))
    act(game, "P1: knock", "P2: knock", "P3: pass")
    assert sorted(legal(game, 0)) == ["golets", "knock", "pass"]
    act(game, "P0: pass")
    assert game.phase == "play" and game.active == [1, 2]


def test_golets_burns_two_and_is_taken_only_once() -> None:
    """R36 (once per deal, in place of a knock) and R37 (burn the trump card and the next, take 3)."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {1: "2♣ 3♣ 4♣"}, "9♥", "J♦ Q♠ 3♥ 5♦ 6♦")]))
    act(game, "P1: golets")
    assert game.hands[1] == cards("Q♠ 3♥ 5♦")
    assert game.burned == cards("J♦") and game.trump_where == "aside" and str(game.trump) == "♥"
    assert set(cards("2♣ 3♣ 4♣")) <= set(game.discards)
    assert "golets" not in legal(game, 2)
    with pytest.raises(IllegalAction):
        act(game, "P2: golets")


def test_golets_taker_leads() -> None:
    """R40: the golets taker leads trick 1 even if somebody knocked before him."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "9♥")]))
    act(game, "P1: knock", "P2: golets", "P3: pass", "P0: pass")
    assert game.to_act() == (2,)


def test_first_knocker_leads() -> None:
    """R40: without a golets, the first knocker clockwise from the eldest leads."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "9♥")]))
    act(game, "P1: pass", "P2: knock", "P3: knock", "P0: knock")
    assert game.to_act() == (2,)


def test_no_golets_outside_the_base_game() -> None:
    """R46: 58.б (and 58.г) have no golets."""
    for variant in ("b", "g"):
        game = new(variant=variant, pot=30)
        game.start_deal(GivenDecks([deck_for(4, 0, {}, "9♥")]))
        assert "golets" not in legal(game, 1)


# -- play ------------------------------------------------------------------------------


def play_deal(hands: dict[int, str], trump: str) -> Stukolka:
    """All four knock; the eldest (P1) leads."""
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, hands, trump)]))
    act(game, "P1: knock", "P2: knock", "P3: knock", "P0: knock")
    return game


def test_must_head_the_trick_when_possible() -> None:
    """R41.1: holding the led suit, play one that beats the current winner if you can."""
    game = play_deal({1: "9♦ 2♣ 3♣", 2: "10♦ 4♦ 2♠"}, "5♥")
    act(game, "P1: play 9♦")
    assert sorted(legal(game, 2)) == ["play 10♦"]
    with pytest.raises(IllegalAction, match="head the trick"):
        act(game, "P2: play 4♦")


def test_any_card_of_the_led_suit_when_unable_to_head() -> None:
    """R41.1: none of the led suit beats the winner → any card of the led suit."""
    game = play_deal({1: "K♦ 2♣ 3♣", 2: "10♦ 4♦ 2♠"}, "5♥")
    act(game, "P1: play K♦")
    assert sorted(legal(game, 2)) == ["play 10♦", "play 4♦"]


def test_after_a_trump_any_card_of_the_led_suit() -> None:
    """R41.1: once a plain lead is trumped no plain card can head it."""
    game = play_deal({1: "9♦ 2♣ 3♣", 2: "6♥ 4♠ 2♠", 3: "A♦ 4♦ 3♠"}, "5♥")
    act(game, "P1: play 9♦", "P2: play 6♥")
    assert sorted(legal(game, 3)) == ["play 4♦", "play A♦"]


def test_void_must_trump_and_overtrump() -> None:
    """R41.2: void in the led suit → trump, and overtrump the current winner if possible."""
    game = play_deal({1: "9♦ 2♣ 3♣", 2: "7♥ 4♠ 2♠", 3: "8♥ 2♥ 3♠"}, "5♥")
    act(game, "P1: play 9♦", "P2: play 7♥")
    assert legal(game, 3) == ["play 8♥"]
    with pytest.raises(IllegalAction, match="overtrump"):
        act(game, "P3: play 2♥")
    with pytest.raises(IllegalAction, match="must trump"):
        act(game, "P3: play 3♠")


def test_undertrump_only_when_unable_to_overtrump() -> None:
    """R41.2: void, holding only lower trumps → any trump (an under-trump), still not a plain card."""
    game = play_deal({1: "9♦ 2♣ 3♣", 2: "K♥ 4♠ 2♠", 3: "8♥ 2♥ 3♠"}, "5♥")
    act(game, "P1: play 9♦", "P2: play K♥")
    assert sorted(legal(game, 3)) == ["play 2♥", "play 8♥"]


def test_void_without_trumps_plays_anything() -> None:
    """R41.3: holding neither the led suit nor trumps → any card."""
    game = play_deal({1: "9♦ 2♣ 3♣", 2: "4♠ 2♠ 6♣"}, "5♥")
    act(game, "P1: play 9♦")
    assert sorted(legal(game, 2)) == ["play 2♠", "play 4♠", "play 6♣"]


def test_trump_ace_must_be_led() -> None:
    """R42: a player on lead who holds the ace of trumps must lead it (trick 1 or later)."""
    game = play_deal({1: "A♥ 2♣ 3♣"}, "5♥")
    assert legal(game, 1) == ["play A♥"]
    with pytest.raises(IllegalAction, match="R42"):
        act(game, "P1: play 2♣")


def test_several_remiz_each_pay_the_whole_pot() -> None:
    """R43: P/3 per trick; every player in with no trick pays P (several remiz pay P each)."""
    game = play_deal({1: "A♥ K♥ Q♥", 2: "2♣ 3♣ 4♣", 3: "2♦ 3♦ 4♦", 0: "2♠ 3♠ 4♠"}, "5♥")
    assert game.stake == 30
    for trick in range(3):
        card = ["A♥", "K♥", "Q♥"][trick]
        act(game, f"P1: play {card}", f"P2: play {game.hands[2][0]}",
            f"P3: play {game.hands[3][0]}", f"P0: play {game.hands[0][0]}")
    assert game.tricks == [0, 3, 0, 0]
    assert game.remiz == [2, 3, 0]
    assert game.pot == 90 and game.balances == [-60, 30, -30, -30]


def test_remiz_cap_limits_one_payment() -> None:
    """DESIGN.md house limit: a remiz pays at most `remiz_cap` (off by default)."""
    game = Stukolka(["P0", "P1", "P2", "P3"], {"remiz_cap": 15}, pot=300)
    game.start_deal(GivenDecks([deck_for(4, 0, {1: "A♥ K♥ Q♥"}, "5♥")]))
    act(game, "P1: knock", "P2: knock", "P3: pass", "P0: pass")
    for card in ("A♥", "K♥", "Q♥"):
        act(game, f"P1: play {card}")
        game.apply(2, game.legal_actions(2)[0])
    assert game.remiz == [2] and game.pot == 15


# -- 58.б buying -------------------------------------------------------------------------


def test_buying_limits() -> None:
    """R47: in-players buy 0–3 of their own cards, dealer last; passers may not buy; the trump card goes aside."""
    game = new(variant="b")
    game.start_deal(GivenDecks([deck_for(4, 0, {1: "K♣ Q♣ 3♦"}, "10♣", "9♣ A♣ 4♦ K♥")]))
    act(game, "P1: knock", "P2: knock", "P3: pass", "P0: knock")
    assert game.trump_where == "aside"
    assert game.to_act() == (1,)
    assert len(legal(game, 1)) == 8
    with pytest.raises(IllegalAction, match="do not hold"):
        act(game, "P1: buy A♠")
    act(game, "P1: buy 3♦")
    assert game.hands[1] == cards("K♣ Q♣ 9♣")
    assert game.to_act() == (2,)
    act(game, "P2: buy")
    assert game.to_act() == (0,)
    act(game, "P0: buy")
    assert game.phase == "play" and game.to_act() == (1,)


# -- 58.в --------------------------------------------------------------------------------


def v_deal(**options) -> Stukolka:
    game = new(5, variant="v", **options)
    game.start_deal(GivenDecks([deck_for(5, 0, {1: "2♠ 5♦ 9♣", 0: "J♥ 3♥ 5♣"}, "A♦",
                                         "9♦ 10♦ 4♠ Q♥ J♦ 7♦ K♣ 8♦ 3♦ 6♦ A♠ K♥")]))
    return game


def test_open_plays_as_b_without_dark_and_the_dealer_may_pass() -> None:
    """R50: after `open` the deal is 58.б: no dark, the dealer declares; an open ace redeals."""
    game = new(variant="v", dark=True, razrez=True)
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "A♦"), deck_for(4, 0, {}, "7♦")]))
    act(game, "P0: open")
    assert str(game.trump_card) == "7♦" and game.trump_where == "up"
    assert sorted(legal(game, 1)) == ["knock", "pass"]
    act(game, "P1: knock", "P2: knock", "P3: pass")
    assert "pass" in legal(game, 0)


def test_shlejf_ace_causes_no_redeal_and_only_the_dealer_sees_it() -> None:
    """R51: the shlejf ace stays; the shlejf card is seen by the dealer only."""
    game = v_deal()
    act(game, "P0: shlejf")
    assert str(game.trump) == "♦" and game.deal_no == 1 and len(game.deals[-1].decks) == 1
    assert str(game.view(0)["trump_card"]) == "A♦"
    assert game.view(1)["trump_card"] is None and game.view(SPECTATOR)["trump_card"] is None


def test_dark_player_cannot_pass_and_buys_four_discards_one() -> None:
    """R52: dark commits; the dark player's buy takes 4 for his 3 unseen cards, then he discards 1."""
    game = v_deal(dark=True)
    act(game, "P0: shlejf", "P1: dark")
    assert game.view(1)["hands"][1] is None  # never seen
    act(game, "P2: look", "P2: knock", "P3: pass", "P4: pass")
    assert game.phase == "buy" and legal(game, 1) == ["buy"]
    with pytest.raises(IllegalAction, match="R52"):
        act(game, "P1: buy 2♠")
    act(game, "P1: buy")
    assert game.hands[1] == cards("9♦ 10♦ 4♠ Q♥") and game.to_act() == (1,)
    assert legal(game, 2) == []
    act(game, "P1: discard 4♠")
    assert game.hands[1] == cards("9♦ 10♦ Q♥")


def test_dealer_cannot_go_dark_and_always_plays() -> None:
    """R52 (the dealer cannot go dark) and R54 (he does not declare in shlejf mode)."""
    game = v_deal(dark=True)
    act(game, "P0: shlejf")
    assert game.to_act() == (1,)
    act(game, "P1: pass", "P2: pass", "P3: pass", "P4: knock")
    assert game.phase == "buy" and game.to_act() == (4,)
    act(game, "P4: buy")
    assert sorted(legal(game, 0)) == ["buy", "buy shlejf"]


def test_dealer_shlejf_buy_is_all_or_nothing() -> None:
    """R51: the dealer stands pat or takes 3 + the shlejf and discards 1; no partial buy."""
    game = v_deal()
    act(game, "P0: shlejf", "P1: knock", "P2: pass", "P3: pass", "P4: pass", "P1: buy")
    with pytest.raises(IllegalAction, match="R51"):
        act(game, "P0: buy J♥")
    act(game, "P0: buy shlejf")
    assert game.hands[0] == cards("9♦ 10♦ 4♠ A♦")
    act(game, "P0: discard 4♠")
    assert game.phase == "play"


def test_razrez_buyer_leads_and_can_be_in_remiz() -> None:
    """R53 (razrez takes 4, discards 1; the last razrez buyer leads) — D3 covers remiz."""
    game = v_deal(razrez=True)
    act(game, "P0: shlejf", "P1: knock", "P2: pass", "P3: pass", "P4: pass", "P1: buy", "P0: buy")
    assert game.phase == "razrez" and game.to_act() == (2,)
    act(game, "P2: razrez", "P2: discard 9♦", "P3: pass", "P4: razrez", "P4: discard J♦")
    assert game.phase == "play" and game.to_act() == (4,)
    assert game.active == [4, 0, 1, 2]


def test_all_passed_shlejf_dealer_alone_takes_the_pot() -> None:
    """R54: nobody in (razrez off) → the shlejf dealer takes the pot without play."""
    game = v_deal()
    act(game, "P0: shlejf", "P1: pass", "P2: pass", "P3: pass", "P4: pass")
    assert game.deal_over() and game.balances[0] == 0 and game.pot == 0


def test_all_passed_with_razrez_the_dealer_still_buys_then_razrez() -> None:
    """§9.2 and R54: with razrez on and everyone passed, the dealer buys, then the razrez round."""
    game = v_deal(razrez=True)
    act(game, "P0: shlejf", "P1: pass", "P2: pass", "P3: pass", "P4: pass")
    assert game.phase == "buy" and game.to_act() == (0,)
    act(game, "P0: buy", "P1: pass", "P2: pass", "P3: pass", "P4: pass")
    assert game.deal_over() and game.balances[0] == 0


def test_shlejf_dealer_bears_normal_risk() -> None:
    """R54: the shlejf dealer is not a forced dealer: no trick → remiz."""
    game = new(4, variant="v")
    game.start_deal(GivenDecks([deck_for(4, 0, {1: "A♦ K♦ Q♦", 0: "2♠ 3♠ 4♠"}, "7♦")]))
    act(game, "P0: shlejf", "P1: knock", "P2: pass", "P3: pass", "P1: buy", "P0: buy")
    act(game, "P1: play A♦", "P0: play 2♠", "P1: play K♦", "P0: play 3♠", "P1: play Q♦", "P0: play 4♠")
    assert game.remiz == [0] and game.pot == 30


# -- 58.г --------------------------------------------------------------------------------


def test_compulsory_deal_everyone_antes_and_plays() -> None:
    """R57: an empty pot → every player antes b, nobody may pass, the eldest leads."""
    game = new(variant="g")
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "6♠")]))
    assert game.pot == 120 and game.balances == [-30] * 4
    assert game.phase == "play" and game.to_act() == (1,)
    assert all(a.verb == "play" for a in game.legal_actions(1))


def test_voluntary_deal_when_the_pot_holds_money() -> None:
    """R58/R59: a non-empty starting pot → a voluntary deal, no ante, dealer rules of R38/R39."""
    game = new(variant="g", pot=240)
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "6♠")]))
    assert game.pot == 240 and game.balances == [0] * 4
    assert sorted(legal(game, 1)) == ["knock", "pass"]
    act(game, "P1: pass", "P2: pass", "P3: pass")
    assert game.balances[0] == 240


# -- session -----------------------------------------------------------------------------


def test_session_ends_after_rounds_once_the_pot_is_empty() -> None:
    """R44: after `rounds` full rotations, deal on until a deal ends with an empty pot."""
    game = new(rounds=1)
    remiz_deal = deck_for(4, 0, {1: "A♥ K♥ Q♥"}, "5♥")
    for _ in range(4):  # everyone passes: each dealer takes his own ante back (R38)
        game.start_deal(GivenDecks([deck_for(4, game.dealer, {}, "5♥")]))
        while game.in_deal:
            game.apply(game.to_act()[0], "pass")
    assert game.completed == 4 and game.pot == 0 and game.is_over()
    with pytest.raises(IllegalAction, match="over"):
        game.start_deal(GivenDecks([remiz_deal]))


def test_session_continues_while_the_pot_holds_remiz() -> None:
    """R44: a remiz in the last deal of the rounds → the session goes on."""
    game = new(rounds=1)
    for number in range(4):
        dealer = game.dealer if number == 0 else (game.dealer + 1) % 4
        eldest = (dealer + 1) % 4
        game.start_deal(GivenDecks([deck_for(4, dealer, {eldest: "A♥ K♥ Q♥"}, "5♥")]))
        if number < 3:
            act(game, *(f"P{(dealer + 1 + i) % 4}: pass" for i in range(3)))
        else:  # the last deal of the round: eldest and one more knock, the other is in remiz
            second = (dealer + 2) % 4
            game.apply(eldest, "knock")
            game.apply(second, "knock")
            game.apply((dealer + 3) % 4, "pass")
            game.apply(dealer, "pass")
            while game.in_deal:
                seat = game.to_act()[0]
                game.apply(seat, game.legal_actions(seat)[0])
    assert game.completed == 4 and game.pot > 0 and not game.is_over()
    assert game.can_start_deal()


# -- bad input ---------------------------------------------------------------------------


def test_out_of_turn_and_unknown_actions_change_nothing() -> None:
    game = new()
    game.start_deal(GivenDecks([deck_for(4, 0, {}, "5♠")]))
    before = game.view(ADMIN)
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(2, "knock")
    with pytest.raises(IllegalAction, match="Unknown action"):
        game.apply(1, "fold")
    with pytest.raises(IllegalAction, match="not a card"):
        game.apply(1, "play XX")
    with pytest.raises(IllegalAction, match="cannot play now"):
        game.apply(1, "play 2♠")
    with pytest.raises(IllegalAction, match="no seat"):
        game.apply(9, "knock")
    assert game.view(ADMIN) == before


# -- first dealer ----------------------------------------------------------------------------


def test_lowest_card_deals_first_and_a_tie_redraws() -> None:
    """R33: each draws a card, the lowest deals (2 low, ace high); a tie for lowest redraws among the tied."""
    import random

    for seed in range(200):
        dealer, events = Stukolka.draw_first_dealer(5, random.Random(seed))
        draws = [dict((s, c) for s, c in e.data["draws"]) for e in events if e.kind == "draw_for_deal"]
        for i, round_ in enumerate(draws):
            low = min(c.rank for c in round_.values())
            lowest = [s for s, c in round_.items() if c.rank == low]
            if i + 1 < len(draws):
                assert len(lowest) > 1 and sorted(draws[i + 1]) == sorted(lowest)
            else:
                assert lowest == [dealer]
        assert events[-1].kind == "first_dealer" and events[-1].seat == dealer
    assert any(len([e for e in Stukolka.draw_first_dealer(7, random.Random(s))[1]]) > 2 for s in range(200))
