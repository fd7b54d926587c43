"""Skill ratings: a deal ranks its players by money; the same deals give the same figures again."""

from __future__ import annotations

import pytest
from ratingkit import CASES, play_rated

from engine.ratings import MU, PROVISIONAL_DEALS, TAU, Rating, RatedDeal, rate_deal, rating_key, replay_all, table_of


def test_the_winner_of_a_deal_goes_up_the_losers_down_and_equal_money_is_equal_place() -> None:
    after = rate_deal({}, {"Anna": 120, "Boris": -60, "Vera": -60})
    assert after["Anna"].mu > Rating().mu > after["Boris"].mu == after["Vera"].mu
    assert all(r.sigma < Rating().sigma and r.deals == 1 for r in after.values())


def test_a_deal_everyone_won_the_same_moves_nobody() -> None:
    assert rate_deal({"Anna": Rating(30.0, 2.0, 40)}, {"Anna": 0, "Boris": 0, "Vera": 0}) == {}


def test_a_rating_is_provisional_until_enough_deals_and_shown_from_1500() -> None:
    assert Rating().shown == 1500 and Rating().label() == "1500?"
    assert not Rating(25.0, 8.0, PROVISIONAL_DEALS).provisional


def test_variants_that_change_the_game_are_rated_apart() -> None:
    assert rating_key("stukolka", {"variant": "v"}) == "stukolka/v" != rating_key("stukolka", {})
    assert rating_key("kopilka", {"D": 3}) == "kopilka"


def _rule_over_random(case, deals: int) -> None:
    arena = play_rated(case, ("rule", "random"), deals=deals, seed=7)
    rules = [r.shown for w, r in arena.ratings.items() if w.startswith("rule")]
    randoms = [r.shown for w, r in arena.ratings.items() if w.startswith("random")]
    print(f"{case.label}: rule bots {sorted(rules)}, random bots {sorted(randoms)}, gap {min(rules) - max(randoms)}")
    assert min(rules) > max(randoms)
    again = replay_all(arena.deals)[rating_key(case.game, case.options)]
    assert again == arena.ratings  # the same floats, to the last bit
    assert table_of(again) == table_of(arena.ratings)


def test_rule_bots_end_above_random_bots_and_the_recompute_is_exact() -> None:
    _rule_over_random(next(c for c in CASES if c.game == "kopilka"), 300)


@pytest.mark.slow  # every game: a few seconds of play
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_in_every_game_rule_bots_end_above_random_bots(case) -> None:
    _rule_over_random(case, 400)


def test_replay_all_keeps_games_apart() -> None:
    deals = [RatedDeal("kopilka", {"a": 5, "b": -5}), RatedDeal("french3", {"a": -5, "b": 5})]
    book = replay_all(deals)
    assert book["kopilka"]["a"].mu > book["kopilka"]["b"].mu and book["french3"]["b"].mu > book["french3"]["a"].mu


def test_a_smaller_drift_remembers_more_deals_and_grows_surer() -> None:
    # the same 400 deals (one player wins two in three): the club's drift leaves a smaller σ than
    # OpenSkill's default, and the order the deals show
    deals = [RatedDeal("kopilka", {"a": 5, "b": -5} if n % 3 else {"a": -5, "b": 5}) for n in range(400)]
    default, club = replay_all(deals, tau=MU / 300)["kopilka"], replay_all(deals)["kopilka"]
    assert TAU < MU / 300 and replay_all(deals, tau=TAU) == replay_all(deals)
    assert club["a"].sigma < default["a"].sigma and club["a"].mu > club["b"].mu
    assert club["a"].deals == default["a"].deals == 400
    assert rate_deal({}, {"a": 1, "b": 0}, tau=MU / 300) != rate_deal({}, {"a": 1, "b": 0})
