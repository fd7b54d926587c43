"""Game B, the French three-hander (RULES.md §3, R18–R24): worked examples B1, B2 and rule tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import Card, Suit, deck, parse_card
from engine.game import ADMIN, SPECTATOR, Action, GivenDecks, IllegalAction, ShuffledDecks
from engine.games.french3 import French3, deal_score, trump_of_deal
from engine.record import load_record, rebuild, record_of, replay
from playkit import truncated

RECORDS = Path(__file__).parent.parent / "records"
NAMES = ["C", "A", "B"]  # seat 0 = C deals first, so A is E and B is M (B1)


def cards(text: str) -> list[Card]:
    return [parse_card(w) for w in text.split()]


def suit_run(suit: str, ranks: str) -> list[Card]:
    """'♠', 'A K Q' → [A♠, K♠, Q♠]."""
    return [parse_card(r + suit) for r in ranks.split()]


def french3_deck(e: list[Card], m: list[Card], d: list[Card], widow: list[Card]) -> list[Card]:
    """The deck order that deals these hands: packets of 3 to E, M, D, widow, four times (R18)."""
    order: list[Card] = []
    for r in range(4):
        for pile in (e, m, d, widow):
            order.extend(pile[3 * r:3 * r + 3])
    assert sorted(order) == sorted(deck(48))
    return order


def by_name(game: French3, name: str) -> int:
    return game.names.index(name)


# --- worked examples ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["french3_B1", "french3_B2"])
def test_worked_example_replays_exactly(name: str) -> None:
    """B1 (one deal: A above 2 / below 4, B 3 / 0, C 3 / 0, R22) and B2 (A wins at deal 6, the
    partiya is played out, B pays 10 and C 35: R23, R24) give their expected score and money."""
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    record = load_record(RECORDS / f"{name}.json")
    status, out = replay(record)
    assert status == expected["exit"]
    assert out["ok"] is expected["ok"]
    assert out["over"] is expected["over"]
    assert out["balances"] == expected["balances"]
    assert out["pot"] == expected["pot"]
    assert out["score"] == expected["score"]
    assert sum(out["balances"].values()) + out["pot"] == record.pot


@pytest.mark.parametrize("name", ["french3_B1", "french3_B2"])
def test_record_of_a_rebuilt_game_replays_the_same(name: str) -> None:
    """record_of(rebuild(r)) keeps the decks and actions; a `buy` lists its cards ascending (§9.2)."""
    record = load_record(RECORDS / f"{name}.json")
    again = record_of(rebuild(record))
    assert [d.decks for d in again.deals] == [d.decks for d in record.deals]

    def canonical(line: str) -> str:
        name, _, action = line.partition(": ")
        verb, *args = action.split()
        return f"{name}: {verb} " + " ".join(str(c) for c in sorted(map(parse_card, args)))

    assert [[canonical(a) for a in d.actions] for d in again.deals] == [
        [canonical(a) for a in d.actions] for d in record.deals
    ]
    assert replay(again)[1]["balances"] == replay(record)[1]["balances"]
    assert replay(again)[1]["score"] == replay(record)[1]["score"]


def test_b1_exchange_gives_the_hands_of_the_example() -> None:
    """B1: E takes ♠7 ♣J, M takes ♥6 ♠6, D stands; 8 widow cards stay out of play (R19)."""
    game = rebuild(truncated(load_record(RECORDS / "french3_B1.json"), 1, 3))
    a, b, c = (by_name(game, x) for x in "ABC")
    assert game.hands[a] == sorted(suit_run("♠", "A K Q J 10 9 8 7") + suit_run("♥", "5 4 3") + cards("J♣"))
    assert game.hands[b] == sorted(suit_run("♥", "A K Q J 10 9 8 6") + suit_run("♦", "A K Q") + cards("6♠"))
    assert game.hands[c] == sorted(suit_run("♦", "J 10 9 8 7 6 5 4") + suit_run("♣", "A K Q") + cards("3♠"))
    assert game.widow == cards("10♣ 5♠ 9♣ 7♥ 4♠ 8♣ 7♣ 6♣")
    assert game.bought == [0, 2, 2]
    assert game.phase == "play" and game.to_act() == (a,)  # §3.5: E leads


def test_b1_tricks_and_sheet() -> None:
    """B1 ends E 8, M 3, D 1 tricks; the sheet is A 2|4, B 3|0 (2 bought + 1 short), C 3|0 (R22)."""
    game = rebuild(load_record(RECORDS / "french3_B1.json"))
    a, b, c = (by_name(game, x) for x in "ABC")
    assert (game.tricks[a], game.tricks[b], game.tricks[c]) == (8, 3, 1)
    assert game.history[0]["bought"][a] == 2 and game.history[0]["tricks"][a] == 8
    view = game.view(b)
    assert view["sheet"] == {"above": [3, 2, 3], "below": [0, 4, 0]}
    assert game.winner is None and not game.natural_end()
    assert game.balances == [0, 0, 0]


def test_b2_sheet_deal_by_deal() -> None:
    """B2's table: every deal's above|below, the winner A fixed at deal 6, B's 10 at deal 8 too late (R23)."""
    table = [  # A, B, C as above|below after each deal
        ((2, 4), (3, 0), (3, 0)), ((2, 5), (6, 2), (7, 0)), ((3, 5), (6, 2), (9, 0)),
        ((3, 8), (9, 2), (10, 0)), ((6, 8), (9, 3), (10, 0)), ((6, 10), (10, 3), (12, 0)),
        ((8, 10), (10, 6), (15, 0)), ((8, 10), (10, 10), (23, 0)), ((8, 11), (10, 10), (25, 0)),
        ((8, 11), (10, 10), (25, 0)),
    ]
    record = load_record(RECORDS / "french3_B2.json")
    for deal, row in enumerate(table, 1):
        game = rebuild(truncated(record, deal))
        got = tuple((game.above[by_name(game, x)], game.below[by_name(game, x)]) for x in "ABC")
        assert got == row, f"deal {deal}"
        assert game.winner == (by_name(game, "A") if deal >= 6 else None), f"deal {deal}"
        assert game.natural_end() is (deal == 10)
        if deal < 10:
            assert game.balances == [0, 0, 0]  # money moves only at the settlement (R24)
    assert game.balances == [-35, 45, -10]
    assert game.settlement == [-35, 45, -10]


def test_b2_settlement_is_times_u() -> None:
    """R24: the settlement is in points × u."""
    record = load_record(RECORDS / "french3_B2.json")
    record.options = {"u": 5}
    _, out = replay(record)
    assert out["balances"] == {"C": -175, "A": 225, "B": -50}


def test_a_new_game_starts_with_clean_sheets_and_spades() -> None:
    """§3.7: after the settlement the next deal is deal 1 of a new game, trump ♠, sheets at 0."""
    game = rebuild(load_record(RECORDS / "french3_B2.json"))
    assert game.view(0)["sheet"]["below"] == [0, 11, 10]  # the settled game's sheet until then
    game.start_deal(ShuffledDecks(48, seed=3))
    view = game.view(SPECTATOR)
    assert view["game_no"] == 2 and view["deal_in_game"] == 1 and view["trump"] == Suit.SPADES
    assert view["sheet"] == {"above": [0, 0, 0], "below": [0, 0, 0]}
    assert view["winner"] is None and not game.natural_end()
    assert game.dealer == 1  # deal 11 of the session: the deal keeps rotating (R2)


# --- trump cycle and scoring rules ---------------------------------------------------


def test_trump_cycle_by_deal_number() -> None:
    """R21: ♠ ♣ ♦ ♥ no-trump, then ♠ again, by the deal's number in the game."""
    assert [trump_of_deal(n) for n in range(1, 12)] == [
        Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None,
        Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None, Suit.SPADES,
    ]


@pytest.mark.parametrize(
    "tricks, bought, expected",
    [(8, 2, (2, 4)), (3, 2, (3, 0)), (1, 0, (3, 0)), (4, 1, (1, 0)), (6, 3, (3, 2)), (0, 12, (16, 0))],
)
def test_deal_score(tricks: int, bought: int, expected: tuple[int, int]) -> None:
    """R22: k and any shortfall below 4 go above the line, tricks over 4 below; k even for a winner."""
    assert deal_score(tricks, bought, 4) == expected


def test_winner_tie_breaks() -> None:
    """R23: of several at ≥ 10, the higher below wins, then the lower above, then E before M before D."""
    game = French3(NAMES, dealer=1)
    game.order = [2, 0, 1]  # dealer 1: E = seat 2, M = seat 0, D = seat 1
    game.below, game.above = [11, 10, 12], [0, 0, 9]
    game._fix_winner()
    assert game.winner == 2  # the highest below, despite the most above
    game.winner, game.below, game.above = None, [12, 12, 3], [5, 4, 9]
    game._fix_winner()
    assert game.winner == 1  # tied below: the lower above
    game.winner, game.below, game.above = None, [10, 9, 10], [4, 0, 4]
    game._fix_winner()
    assert game.winner == 2  # all tied: E comes before M
    game.below = [20, 20, 20]
    game._fix_winner()
    assert game.winner == 2  # fixed for good: later higher scores change nothing


# --- exchange (R19) --------------------------------------------------------------------

# One suit per pile makes the play easy to reason about: E hearts, M spades, D diamonds, widow clubs.
HEARTS = suit_run("♥", "A K Q J 10 9 8 7 6 5 4 3")
SPADES = suit_run("♠", "A K Q J 10 9 8 7 6 5 4 3")
DIAMONDS = suit_run("♦", "A K Q J 10 9 8 7 6 5 4 3")
CLUBS = suit_run("♣", "A K Q J 10 9 8 7 6 5 4 3")


def fresh(e: list[Card], m: list[Card], d: list[Card], widow: list[Card]) -> French3:
    """Deal 1 (trump ♠) with seat 0 dealing: E = seat 1, M = seat 2, D = seat 0."""
    game = French3(NAMES)
    game.start_deal(GivenDecks([french3_deck(e, m, d, widow)]))
    return game


def test_exchange_is_limited_by_what_the_widow_has_left() -> None:
    """R19: E takes 8, so M may take at most 4 and D none; 'buy' alone is always there."""
    game = fresh(HEARTS, SPADES, DIAMONDS, CLUBS)
    game.apply(1, "buy " + " ".join(str(c) for c in HEARTS[4:]))
    assert game.hands[1] == sorted(HEARTS[:4] + CLUBS[:8])  # the top 8 of the widow
    assert game.widow == CLUBS[8:]
    legal = game.legal_actions(2)
    assert max(len(a.args) for a in legal) == 4
    assert len(legal) == 1 + 12 + 66 + 220 + 495
    with pytest.raises(IllegalAction, match="only 4 cards left"):
        game.apply(2, "buy 3♠ 4♠ 5♠ 6♠ 7♠")
    game.apply(2, "buy 3♠ 4♠ 5♠ 6♠")
    assert game.widow == []
    assert game.legal_actions(0) == [Action("buy")]
    with pytest.raises(IllegalAction, match="widow is empty"):
        game.apply(0, "buy 3♦")
    game.apply(0, "buy")
    assert game.bought == [0, 8, 4]
    assert game.phase == "play"


def test_buy_refusals_say_why() -> None:
    """A card not held, a card named twice, and not one's turn are refused with a reason."""
    game = fresh(HEARTS, SPADES, DIAMONDS, CLUBS)
    with pytest.raises(IllegalAction, match="do not hold A♠"):
        game.apply(1, "buy A♠")
    with pytest.raises(IllegalAction, match="twice"):
        game.apply(1, "buy A♥ A♥")
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(2, "buy")
    with pytest.raises(IllegalAction, match="exchange comes first"):
        game.apply(1, "play A♥")


def test_buy_cards_in_any_order() -> None:
    """§9.2: 'buy 3♦ 3♣' and 'buy 3♣ 3♦' are one action, written ascending."""
    game = fresh(HEARTS, SPADES, DIAMONDS, CLUBS)
    game.apply(1, "buy 3♥ A♥ 7h")
    assert game.deals[-1].actions[-1] == (1, Action("buy", tuple(sorted(cards("3♥ A♥ 7♥")))))
    assert game.hands[1] == sorted(HEARTS[1:7] + HEARTS[8:11] + CLUBS[:3])


def test_the_widow_and_discards_stay_hidden() -> None:
    """R19: discards and the widow's leftovers are out of play and unseen; a hand is its owner's only."""
    game = fresh(HEARTS, SPADES, DIAMONDS, CLUBS)
    game.apply(1, "buy 3♥ 4♥")
    game.apply(2, "buy")
    game.apply(0, "buy")
    for viewer in (SPECTATOR, 0, 1, 2):
        view = game.view(viewer)
        assert view["widow"] is None and view["widow_count"] == 10
        assert [h is not None for h in view["hands"]] == [viewer == s for s in range(3)]
        assert [d is not None for d in view["discards"]] == [viewer == s for s in range(3)]
    assert game.view(1)["discards"][1] == cards("3♥ 4♥")
    assert game.view(ADMIN)["widow"] == CLUBS[2:]
    assert game.view(SPECTATOR)["bought"] == [0, 2, 0]  # k is written on the sheet: public


# --- play (R20, R21) ---------------------------------------------------------------------


def test_must_trump_when_void_but_need_not_overtrump() -> None:
    """R20: void in the suit led, a player must trump if he can; any trump will do, also a lower one."""
    m = suit_run("♠", "K Q J 10 9 3") + suit_run("♦", "A K Q J 10 9")
    d = suit_run("♠", "A 8 7 6 5 4") + suit_run("♦", "8 7 6 5 4 3")
    game = fresh(HEARTS, m, d, CLUBS)
    for seat in (1, 2, 0):
        game.apply(seat, "buy")
    game.apply(1, "play A♥")
    assert game.legal_actions(2) == [Action("play", (c,)) for c in sorted(m) if c.suit == Suit.SPADES]
    with pytest.raises(IllegalAction, match=r"must play a trump ♠ \(R20\)"):
        game.apply(2, "play A♦")
    game.apply(2, "play 9♠")
    assert Action("play", (parse_card("4♠"),)) in game.legal_actions(0)  # no duty to overtrump
    game.apply(0, "play 4♠")
    assert game.tricks == [0, 0, 1] and game.to_act() == (2,)


def test_must_follow_suit_before_trumping() -> None:
    """§3.5: holding the suit led, a player must follow it even with trumps in hand."""
    m = suit_run("♠", "K Q J 10 9 3") + suit_run("♦", "A K Q J 10 9")
    d = suit_run("♠", "A 8 7 6 5 4") + suit_run("♦", "8 7 6 5 4 3")
    game = fresh(HEARTS, m, d, CLUBS)
    for seat in (1, 2, 0):
        game.apply(seat, "buy")
    game.apply(1, "play A♥")
    game.apply(2, "play K♠")
    game.apply(0, "play A♠")  # D over-trumps and leads
    game.apply(0, "play 8♦")
    assert len(game.legal_actions(1)) == 11  # E: no ♦ and no trump, so any card
    game.apply(1, "play K♥")
    with pytest.raises(IllegalAction, match="must follow suit"):
        game.apply(2, "play Q♠")
    assert {a.args[0].suit for a in game.legal_actions(2)} == {Suit.DIAMONDS}


def play_through(game: French3) -> None:
    """Finish the current deal: stand pat, then always the first legal card."""
    while game.in_deal:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])


def test_no_trump_deal() -> None:
    """R21: deal 5 has no trump: a void player plays any card and the suit led wins."""
    game = French3(NAMES)
    source = ShuffledDecks(48, seed=11)
    for _ in range(4):
        game.start_deal(source)
        play_through(game)
    assert game.deal_no == 4 and game.n_in_game == 4
    assert game.dealer == 0  # deals 1–4 by seats 0, 1, 2, 0; deal 5 by seat 1 (R2)
    e, m, d = 2, 0, 1  # dealer seat 1
    order = french3_deck(HEARTS, SPADES, DIAMONDS, CLUBS)
    game.start_deal(GivenDecks([order]))
    assert game.view(SPECTATOR)["trump"] is None and game.trump is None
    assert game.to_act() == (e,)
    for seat in (e, m, d):
        game.apply(seat, "buy")
    game.apply(e, "play 3♥")
    assert len(game.legal_actions(m)) == 12  # void in ♥ and no trump to force: anything
    game.apply(m, "play A♠")
    game.apply(d, "play A♦")
    assert game.tricks[e] == 1  # the lone heart takes it


def test_must_trump_in_a_suit_deal_but_not_in_no_trump() -> None:
    """The same cards in deal 1 (trump ♠) force M to trump a heart lead; in deal 5 they do not (R20, R21)."""
    game = fresh(HEARTS, SPADES, DIAMONDS, CLUBS)
    for seat in (1, 2, 0):
        game.apply(seat, "buy")
    game.apply(1, "play 3♥")
    assert len(game.legal_actions(2)) == 12  # M holds only spades = trumps
    game.apply(2, "play 3♠")
    assert {a.args[0].suit for a in game.legal_actions(0)} == {Suit.DIAMONDS}  # D: no trump, any card
    game.apply(0, "play A♦")
    assert game.tricks[2] == 1  # the lowest trump beats the heart and the ace of diamonds


def test_illegal_play_reasons() -> None:
    """An unheld card and a revoke are refused with a reason (§3.5)."""
    game = rebuild(truncated(load_record(RECORDS / "french3_B1.json"), 1, 4))  # A led A♠
    with pytest.raises(IllegalAction, match="do not hold 5♠"):
        game.apply(2, "play 5♠")
    with pytest.raises(IllegalAction, match="must follow suit"):
        game.apply(2, "play A♥")
    game = rebuild(truncated(load_record(RECORDS / "french3_B1.json"), 1, 13))  # C led K♣, A is void
    with pytest.raises(IllegalAction, match="must play a trump"):
        game.apply(1, "play 3♥")
    assert {a.args[0].suit for a in game.legal_actions(1)} == {Suit.SPADES}


def test_views_follow_the_convention() -> None:
    """The view has the generic keys and the sheet; a seat sees its own hand only."""
    game = rebuild(truncated(load_record(RECORDS / "french3_B1.json"), 1, 5))
    view = game.view(2)
    for key in ("phase", "hands", "hand_counts", "trick", "trump", "tricks", "status", "sheet", "widow_count"):
        assert key in view
    assert view["trick"] == [[1, parse_card("A♠")], [2, parse_card("6♠")]]
    assert view["trump"] == Suit.SPADES
    assert view["hands"][2] is not None and view["hands"][0] is None and view["hands"][1] is None
    assert view["hand_counts"] == [12, 11, 11]
    assert view["status"][0] == "to play"
    assert view["roles"] == ["D", "E", "M"]


def test_the_buys_looked_up_are_the_buys_listed() -> None:
    """``legal_sequence`` at the exchange (``Buys``: never listed) agrees with ``legal_actions`` in order,
    length, indexing and membership, also for buys that are not legal; out of the exchange it is the list."""
    game = French3(NAMES, {}, dealer=0)
    decks = ShuffledDecks(French3.deck_size, 21)
    exchanges = 0
    for _deal in range(3):
        game.start_deal(decks)
        while game.in_deal:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            looked = game.legal_sequence(seat)
            if game.phase != "exchange":
                assert list(looked) == legal
            else:
                exchanges += 1
                assert list(looked) == legal and len(looked) == len(legal)
                assert [looked[i] for i in (0, 1, len(legal) // 2, -1)] == [legal[i] for i in (0, 1, len(legal) // 2, -1)]
                assert all(a in looked for a in legal)
                hand = game.hands[seat]
                foreign = next(c for c in deck(48) if c not in hand)
                odd = [Action("buy", (foreign,)), Action("buy", (hand[1], hand[0])), Action("buy", (hand[0], hand[0])),
                       Action("play", (hand[0],)), "buy"]
                if len(game.widow) < len(hand):  # more than the widow still has
                    odd.append(Action("buy", tuple(hand[:len(game.widow) + 1])))
                assert [a in looked for a in odd] == [a in legal for a in odd] == [False] * len(odd)
                with pytest.raises(IndexError):
                    looked[len(legal)]
            game.apply(seat, legal[-1] if game.phase == "play" else legal[0])
    assert exchanges >= 6
