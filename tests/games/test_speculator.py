"""Спекулянт: the worked examples E1/E2 as records and one test per rule (RULES.md §6, R60–R67)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import pytest

from engine.cards import Card, Suit, deck, parse_card
from engine.game import ADMIN, SPECTATOR, Action, DeckError, GivenDecks, IllegalAction, OptionError
from engine.games import get_game
from engine.games.speculator import SPECULATOR, Speculator, beats
from engine.record import load_record, rebuild, record_of, replay
from engine.table.owner import Table

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES4 = ["Anna", "Boris", "Vera", "Gleb"]


def order(piles: dict[int, str], n: int, dealer: int = 0) -> list[Card]:
    """A deck order dealing ``piles`` (seat → cards in reveal order, e.g. "9♠ 7♥ Q♣") per §9.3.

    Seats left out get the lowest unused cards; the K♠ is kept for nobody unless listed.
    """
    wanted = {seat: [parse_card(c) for c in text.split()] for seat, text in piles.items()}
    used = {c for cards in wanted.values() for c in cards}
    spare = [c for c in deck(36) if c not in used and c != SPECULATOR]
    full = {seat: wanted.get(seat) or [spare.pop(0) for _ in range(3)] for seat in range(n)}
    eldest = (dealer + 1) % n
    dealt = [full[(eldest + i) % n][i // n] for i in range(3 * n)]
    return dealt + [c for c in deck(36) if c not in dealt]


def new_game(piles: dict[int, str], *, n: int = 4, decks: Sequence[list[Card]] = (), live: bool = False,
             **options: int) -> Speculator:
    game = Speculator(NAMES4[:n] if n <= 4 else [f"P{i}" for i in range(n)], {"s": 5, **options})
    if live:
        game.start_clock(100.0)
    game.start_deal(GivenDecks([order(piles, n), *decks]))
    return game


def act(game: Speculator, *lines: str) -> None:
    """Apply ``"Name: verb args"`` lines, as a record does."""
    for line in lines:
        name, _, text = line.partition(":")
        game.apply(game.names.index(name.strip()), text.strip())


def refused(game: Speculator, line: str) -> str:
    name, _, text = line.partition(":")
    with pytest.raises(IllegalAction) as err:
        game.apply(game.names.index(name.strip()), text.strip())
    return str(err.value)


# --- the worked examples -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["speculator_E1", "speculator_E2"])
def test_worked_example_records(name: str) -> None:
    """RULES.md §6.8 E1 (one trade, then outbid) and E2 (the speculator, R65): exact money."""
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    status, out = replay(load_record(RECORDS / f"{name}.json"))
    assert status == expected["exit"]
    for key in ("ok", "over", "balances", "pot"):
        assert out[key] == expected[key], key


def test_e2_pot_after_the_speculator() -> None:
    """E2 / R65: after P1 turns the K♠ the pot is 50 and P1 has paid 12 for a card he no longer holds."""
    record = load_record(RECORDS / "speculator_E2.json")
    record.deals[0].actions = record.deals[0].actions[:6]  # up to and including the K♠
    game = rebuild(record)
    assert game.pot == 50 and game.redeals == 1
    assert game.balances == [-20, -22, -8]
    assert game.view(SPECTATOR)["trick"] == [] and game.to_act() == (1,)  # eldest again


# --- dealing, antes, ranking -------------------------------------------------------------------


def test_deal_order_ante_and_hidden_piles() -> None:
    """§9.3: one card at a time from the eldest; R67: everyone antes; §6.4: nobody sees the piles."""
    game = new_game({1: "9♠ 7♥ Q♣", 2: "10♠ J♣ 6♦", 3: "A♥ Q♦ 8♠", 0: "7♠ 9♦ K♦"})
    assert game.pot == 20 and game.balances == [-5] * 4
    assert game.view(ADMIN)["hands"][1] == [parse_card(c) for c in "9♠ 7♥ Q♣".split()]
    for viewer in (0, 1, 2, 3, SPECTATOR):
        view = game.view(viewer)
        assert view["hands"] == [None] * 4  # the owner neither
        assert view["hand_counts"] == [3] * 4
    assert game.to_act() == (1,)


@pytest.mark.parametrize(
    "card, best, wins",
    [("10♠", "9♠", True), ("A♥", "10♠", False), ("6♦", "A♠", True), ("Q♦", "9♦", True),
     ("9♦", "Q♦", False), ("A♣", "7♦", False), ("7♠", "9♠", False)],
)
def test_beats_single_trick_order(card: str, best: str, wins: bool) -> None:
    """R62: same suit higher wins, a diamond beats any non-diamond, any other card is dead."""
    assert beats(parse_card(card), parse_card(best)) is wins


def test_first_card_sets_the_led_suit() -> None:
    """R62/R66: the first card is best; a higher off-suit card is dead, a low diamond beats it."""
    game = new_game({1: "9♠ 7♥ Q♣", 2: "A♥ J♣ 6♣", 3: "6♦ Q♥ 8♠"})
    act(game, "Boris: reveal", "Vera: reveal")
    assert game.view(SPECTATOR)["best"] == parse_card("9♠")
    act(game, "Gleb: reveal")
    view = game.view(SPECTATOR)
    assert view["best"] == parse_card("6♦") and view["holder"] == 3


# --- reveal order and trading rules ----------------------------------------------------------


def test_reveal_out_of_turn_refused() -> None:
    """R61: eldest first, clockwise, no skipping."""
    game = new_game({})
    assert "Boris's turn" in refused(game, "Vera: reveal")
    act(game, "Boris: reveal", "Anna: ready", "Boris: ready", "Vera: ready", "Gleb: ready")
    assert "Vera's turn" in refused(game, "Gleb: reveal")


def test_bid_on_own_card_refused() -> None:
    """R63: the holder of the best card cannot bid for it."""
    game = new_game({1: "A♦ 7♥ Q♣"})
    act(game, "Boris: reveal")
    assert "your own card" in refused(game, "Boris: bid 5")


def test_dead_card_cannot_be_traded() -> None:
    """R63: only the current best card trades; the owner of a dead card cannot sell or accept it."""
    game = new_game({1: "A♦ 7♥ Q♣", 2: "9♠ J♣ 6♣"})
    act(game, "Boris: reveal", "Vera: reveal")  # 9♠ is dead under A♦
    assert "Only the current best card" in refused(game, "Vera: sell 3")
    act(game, "Gleb: bid 4")
    assert "Only the current best card" in refused(game, "Vera: accept Gleb")
    # A bid always goes for the best card: Boris's A♦, not Vera's 9♠.
    act(game, "Boris: accept Gleb")
    assert game.view(SPECTATOR)["holder"] == 3 and game.balances[3] == -9


def test_no_trading_outside_a_window() -> None:
    """R64: bids, asks and acceptance only during a trade window (none before the first reveal)."""
    game = new_game({})
    assert "No trade window" in refused(game, "Vera: bid 5")
    act(game, "Boris: reveal", *(f"{n}: ready" for n in NAMES4))
    assert game.view(SPECTATOR)["phase"] == "reveal"
    assert "No trade window" in refused(game, "Anna: bid 5")
    assert "No trade window" in refused(game, "Boris: sell")


def test_accept_without_a_standing_bid_refused() -> None:
    """R64/§9.2: the holder may accept only a standing bid, named by its bidder."""
    game = new_game({1: "A♦ 7♥ Q♣"})
    act(game, "Boris: reveal", "Boris: sell 10")
    assert "no bid to accept" in refused(game, "Boris: accept Vera")
    act(game, "Gleb: bid 3")
    assert "Vera has no standing bid" in refused(game, "Boris: accept Vera")
    assert "no player 'Zoya'" in refused(game, "Boris: accept Zoya")


def test_bid_below_min_price_refused() -> None:
    """§6.2/§9.2: prices are whole kopecks ≥ minPrice."""
    game = new_game({1: "A♦ 7♥ Q♣"}, minPrice=5)
    act(game, "Boris: reveal")
    assert "at least 5" in refused(game, "Vera: bid 4")
    assert "at least 5" in refused(game, "Boris: sell 2")
    assert "whole number" in refused(game, "Vera: bid 4.5")
    act(game, "Vera: bid 5")


def test_trade_pays_the_seller_at_once_and_card_moves() -> None:
    """R64/§9.2: newer bid replaces older; accept below the ask is allowed; the buyer pays the
    seller (not the pot) at once; a trade clears all bids and the buyer may resell in the window."""
    game = new_game({1: "A♦ 7♥ Q♣"})
    act(game, "Boris: reveal", "Boris: sell 20", "Vera: bid 6", "Gleb: bid 7", "Vera: bid 8")
    assert game.view(SPECTATOR)["bids"] == {3: 7, 2: 8}
    act(game, "Boris: accept Vera")
    view = game.view(SPECTATOR)
    assert game.balances == [-5, -5 + 8, -5 - 8, -5] and game.pot == 20
    assert view["holder"] == 2 and view["up"][2] == [parse_card("A♦")] and view["up"][1] == []
    assert view["bids"] == {} and view["phase"] == "trade"
    act(game, "Anna: bid 11", "Vera: accept Anna")  # resold in the same window
    assert game.balances == [-16, 3, -2, -5]
    assert "no bid to accept" in refused(game, "Anna: accept Gleb")


def test_to_act_lists_every_seat_during_a_window() -> None:
    """§6 (issue): many act at once: the revealer, the bidders and the holder."""
    game = new_game({})
    assert game.to_act() == (1,)
    act(game, "Boris: reveal")
    assert game.to_act() == (0, 1, 2, 3)
    verbs = {seat: {a.verb for a in game.legal_actions(seat)} for seat in range(4)}
    assert verbs[1] == {"sell", "ready"}
    assert verbs[2] == {"reveal", "bid", "ready"}  # record mode: Vera's reveal would close it
    assert verbs[0] == verbs[3] == {"bid", "ready"}
    assert Action("bid", (123,)) in game.legal_actions(0)


def test_all_ready_closes_the_window_and_a_bid_clears_ready() -> None:
    """§6.5/§9.2: a bid clears the bidder's and holder's ready; once everyone is ready the window
    closes (no bid unanswered) and only reveal is legal."""
    game = new_game({1: "A♦ 7♥ Q♣"})
    act(game, "Boris: reveal", "Anna: ready", "Boris: ready", "Vera: ready")
    act(game, "Gleb: bid 3")
    assert game.view(SPECTATOR)["ready"] == [0, 2]
    act(game, "Gleb: ready")
    assert game.view(SPECTATOR)["phase"] == "trade"  # the holder has not answered Gleb yet
    act(game, "Boris: ready")  # declines
    view = game.view(SPECTATOR)
    assert view["phase"] == "reveal" and view["bids"] == {}
    assert game.to_act() == (2,) and game.legal_actions(2) == [Action("reveal")]


def test_last_reveal_has_no_window_and_holder_takes_the_pot() -> None:
    """§6.5/R64: after the 3N-th reveal the holder of the best card takes the whole pot."""
    game = new_game({1: "6♠ 7♠ 8♠", 2: "9♠ 10♠ J♠", 0: "7♣ 6♣ A♦"}, n=3)
    for _ in range(8):
        game.apply(game.revealer, "reveal")
    assert game.in_deal and game.view(SPECTATOR)["holder"] == 2
    act(game, "Anna: reveal")
    assert not game.in_deal and game.balances == [10, -5, -5] and game.pot == 0
    assert game.natural_end() and game.view(SPECTATOR)["phase"] == "done"


# --- the speculator (R65) ---------------------------------------------------------------------


def test_speculator_redeal() -> None:
    """R65: trades stand, the same dealer redeals from the next deck, all but the revealer
    re-ante, the pot carries, revealing restarts from the eldest; any number of redeals."""
    second = order({1: "6♠ 7♠ 8♠", 2: "K♠ 6♥ 7♥"}, 4)
    third = order({1: "A♦ 7♣ 8♣"}, 4)
    game = new_game({1: "A♦ 7♥ Q♣", 2: "K♠ 6♣ 7♣"}, decks=[second, third])
    act(game, "Boris: reveal", "Anna: bid 9", "Boris: accept Anna", "Vera: reveal")
    assert game.pot == 35 and game.balances == [-19, -1, -5, -10]  # Vera does not re-ante
    assert game.dealer == 0 and game.to_act() == (1,) and game.redeals == 1
    view = game.view(ADMIN)
    assert view["best"] is None and view["trick"] == [] and view["up"] == [[]] * 4
    assert view["hands"][1] == [parse_card(c) for c in "6♠ 7♠ 8♠".split()]
    act(game, "Boris: reveal", "Vera: reveal")  # K♠ again: a second redeal
    assert game.pot == 50 and game.redeals == 2 and game.balances == [-24, -6, -5, -15]
    assert sum(game.balances) + game.pot == 0


def test_speculator_as_the_very_first_card() -> None:
    """R65: the K♠ counts at any reveal, including the first."""
    game = new_game({1: "K♠ 7♥ Q♣"}, decks=[order({}, 4)])
    act(game, "Boris: reveal")
    assert game.pot == 35 and game.balances == [-10, -5, -10, -10] and game.to_act() == (1,)


def test_missing_redeal_deck_is_a_clear_replay_error() -> None:
    """§9.3: a redeal takes the deal's next deck order; a record without one is refused."""
    record = load_record(RECORDS / "speculator_E2.json")
    record.deals[0].decks = record.deals[0].decks[:1]
    status, out = replay(record)
    assert status == 2 and not out["ok"] and "deck order 2" in out["error"]
    with pytest.raises(DeckError):
        rebuild(record)


# --- time (live clock) ------------------------------------------------------------------------


def test_reveal_during_open_window_refused_live() -> None:
    """§6.5: "Во время сделки никто не имеет права вскрыть очередную карту" (live clock)."""
    game = new_game({}, live=True)
    act(game, "Boris: reveal")
    assert game.legal_actions(2) == [Action("bid", (1,)), Action("ready")]
    assert "trade window is open" in refused(game, "Vera: reveal")


def test_reveal_closes_an_open_window_in_a_record() -> None:
    """§9.2: without a clock the next reveal closes the window (standing bids lapse)."""
    game = new_game({1: "A♦ 7♥ Q♣"})
    act(game, "Boris: reveal", "Anna: bid 4", "Vera: reveal")
    assert game.view(SPECTATOR)["bids"] == {} and game.balances == [-5] * 4
    assert game.deadline() is None


def test_window_closes_at_its_deadline() -> None:
    """§6.2/R64: the window lasts W seconds after the reveal; tick(now) closes it."""
    game = new_game({}, live=True, W=15, Wmax=60)
    act(game, "Boris: reveal")
    assert game.deadline() == 115.0
    assert game.tick(114.9) == [] and game.view(SPECTATOR)["phase"] == "trade"
    events = game.tick(115.0)
    assert [e.kind for e in events] == ["window_closed"] and events[0].data == {"why": "time"}
    assert game.deadline() is None and game.to_act() == (2,)
    act(game, "Vera: reveal")
    assert game.deadline() == 130.0  # opened at the last time told


def test_bid_and_ask_reset_the_timer_up_to_the_cap() -> None:
    """R64: each new bid or ask resets the window to now + W, never past Wmax since the reveal."""
    game = new_game({1: "A♦ 7♥ Q♣"}, live=True, W=15, Wmax=40)
    act(game, "Boris: reveal")  # opened at 100
    game.tick(110.0)
    act(game, "Anna: bid 3")
    assert game.deadline() == 125.0
    game.tick(124.0)
    act(game, "Boris: sell 9")
    assert game.deadline() == 139.0
    game.tick(138.0)
    act(game, "Vera: bid 4")
    assert game.deadline() == 140.0  # capped: 100 + Wmax
    game.tick(139.9)
    act(game, "Boris: accept Vera")
    assert game.deadline() == 140.0  # a trade does not extend the window
    game.tick(140.0)
    assert game.view(SPECTATOR)["phase"] == "reveal" and game.balances[2] == -9


def test_all_ready_closes_the_window_early_live() -> None:
    """§6.5: the window closes before its deadline when everyone is ready."""
    game = new_game({}, live=True)
    act(game, "Boris: reveal", *(f"{n}: ready" for n in NAMES4))
    assert game.deadline() is None and game.to_act() == (2,)
    act(game, "Vera: reveal")


def test_clock_only_runs_when_live() -> None:
    """Module docstring: without start_clock no window ever closes by time."""
    game = new_game({})
    act(game, "Boris: reveal")
    assert game.tick(10**9) == [] and game.view(SPECTATOR)["phase"] == "trade"


def test_rebuilt_game_restarts_an_open_window() -> None:
    """Crash recovery: rebuild replays without a clock; start_clock(now) gives the open window W."""
    game = new_game({1: "A♦ 7♥ Q♣"}, live=True)
    act(game, "Boris: reveal", "Anna: bid 2")
    again = rebuild(record_of(game))
    assert again.view(ADMIN)["bids"] == {0: 2} and again.deadline() is None
    again.start_clock(5000.0)
    assert again.deadline() == 5015.0
    assert "trade window is open" in refused(again, "Vera: reveal")


# --- options and sessions ---------------------------------------------------------------------


def test_options_defaults_and_validation() -> None:
    """§6.2 defaults s=5, W=15, Wmax=60, minPrice=1; bad values refused with the reason."""
    assert Speculator.make_options({}) == {"s": 5, "W": 15, "Wmax": 60, "minPrice": 1}
    for bad, words in [({"s": 0}, "at least 1"), ({"minPrice": 0}, "at least 1"),
                       ({"W": 30, "Wmax": 20}, "at least W"), ({"W": "x"}, "whole number"),
                       ({"stake": 5}, "unknown option")]:
        with pytest.raises(OptionError, match=words):
            Speculator.make_options(bad)
    assert get_game("speculator") is Speculator


@pytest.mark.parametrize("n, ok", [(2, False), (3, True), (10, True), (11, False)])
def test_player_range(n: int, ok: bool) -> None:
    """R60: 3 to 10 players."""
    names = [f"P{i}" for i in range(n)]
    if ok:
        assert Speculator(names).n == n
    else:
        with pytest.raises(OptionError, match="3–10"):
            Speculator(names)


def test_deal_passes_clockwise() -> None:
    """R2: the next deal is dealt by the left neighbour, and his left neighbour reveals first."""
    game = new_game({1: "6♠ 7♠ 8♠"})
    while game.in_deal:
        game.apply(game.revealer, "reveal")
    game.start_deal(GivenDecks([order({}, 4, dealer=1)]))
    assert game.dealer == 1 and game.to_act() == (2,) and game.pot == 20


def test_view_follows_the_table_convention() -> None:
    """DESIGN view convention: phase, hands (None: nobody sees a pile, §6.4), hand_counts,
    trick as [seat, Card], trump ♦ (§6.3), tricks, status, plus the trade state."""
    game = new_game({1: "A♦ 7♥ Q♣", 2: "9♠ J♣ 6♣"}, live=True)
    act(game, "Boris: reveal", "Vera: bid 3", "Anna: ready")
    view = game.view(0)
    assert view["phase"] == "trade" and view["hands"] == [None] * 4 and view["hand_counts"] == [3, 2, 3, 3]
    assert view["trick"] == [[1, parse_card("A♦")]] and view["trump"] == Suit.DIAMONDS
    assert view["tricks"] == [0] * 4 and view["status"] == ["ready", "holder", "bid 3", ""]
    assert view["best"] == parse_card("A♦") and view["holder"] == 1 and view["bids"] == {2: 3}
    assert view["deadline"] == 115.0 and view["to_act"] == [0, 1, 2, 3]


def test_a_table_drives_the_window_clock() -> None:
    """Module docstring: the table puts the game on its clock and ticks it; the window closes by time."""
    table = Table(1, "speculator", {"s": 5, "W": 10}, seed=7)
    for name in ("a", "b", "c"):
        table.sit(name)
    for name in ("a", "b", "c"):
        table.start(name, now=50.0)
    game = table.game
    assert isinstance(game, Speculator) and game.live_clock
    table.act(game.names[game.revealer], "reveal", now=51.0)
    assert table.deadline() == 61.0
    with pytest.raises(IllegalAction, match="trade window is open"):
        table.act(game.names[game.revealer], "reveal", now=55.0)
    assert [e.kind for e in table.tick(61.0)] == ["window_closed"]
    table.act(game.names[game.revealer], "reveal", now=62.0)
