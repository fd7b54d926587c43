"""The analysis of a finished game: each decision judged from that seat's information only, the same
figures for the same seed and budget, and the command line that prints them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.analysis import BLUNDER, MISTAKE, analyse
from engine.record import load_record
from net.cli.main import main

RECORDS = Path(__file__).resolve().parents[1] / "records"


def _record(name: str):
    return load_record(json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8")))


def test_the_same_seed_and_budget_give_the_same_analysis() -> None:
    record = _record("stukolka_D1")
    first = analyse(record, budget=8, seed=3).to_json()
    assert first == analyse(record, budget=8, seed=3).to_json()
    assert first["decisions"] and {d["mark"] for d in first["decisions"]} <= {"", "mistake", "blunder"}
    assert first["mistake_at"] == MISTAKE * first["stake"] and first["blunder_at"] == BLUNDER * first["stake"]


def test_a_seat_is_judged_from_its_own_view_only(monkeypatch) -> None:
    """The judge gets the seat's own view (the others' hands hidden), never the record's decks."""
    from engine.analysis import Analyst

    seen: list[dict] = []
    real = Analyst.judge

    def spy(self, view, legal, made):
        seen.append(view)
        return real(self, view, legal, made)

    monkeypatch.setattr(Analyst, "judge", spy)
    record = _record("kopilka_A1")
    result = analyse(record, seats=[2], budget=4, seed=1)
    assert result.seats[0].seat == 2 and seen and len(seen) == result.seats[0].decisions
    for view in seen:
        assert view["viewer"] == 2
        assert all(hand is None or seat == 2 for seat, hand in enumerate(view["hands"]))


def test_every_judged_decision_has_a_loss_at_least_0_and_the_best_is_legal() -> None:
    result = analyse(_record("french3_B1"), budget=6, seed=2)
    assert result.decisions
    for d in result.decisions:
        assert d.loss >= 0 and d.worlds >= 1
        assert d.best != d.made or d.loss == 0
    assert sum(s.judged for s in result.seats) == len(result.decisions)


@pytest.mark.parametrize("lang_word", ["A mistake.", "A blunder.", "the search bot's choice too", "within the noise"])
def test_the_command_prints_marks_and_totals(capsys, lang_word) -> None:
    assert main(["analyse", str(RECORDS / "stukolka_D1.json"), "--budget", "16"]) == 0
    out = capsys.readouterr().out
    assert "gave away" in out and "decisions judged" in out
    if lang_word in ("A mistake.",):
        assert lang_word in out


def test_the_command_refuses_a_bad_seat_and_gives_json(capsys) -> None:
    path = str(RECORDS / "kopilka_A1.json")
    assert main(["analyse", path, "--seat", "9"]) == 2
    assert main(["analyse", path, "--seat", "1", "--budget", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["seat"] for s in out["seats"]] == [1] and out["cpu_seconds"] >= 0


def test_the_best_is_what_the_search_bot_would_play_the_rules_unless_clearly_beaten() -> None:
    """A decision the rule bot would make is judged best unless another beat it clearly on the picking half
    (engine.bots.margin): the judge is the search bot, which leaves the rules only for a clear gain."""
    from engine.bots import make_bot
    from engine.bots.arena import Arena
    from engine.game import ShuffledDecks
    from engine.games import get_game
    from engine.record import record_of

    cls = get_game("stukolka")
    game = cls(["r0", "r1", "x2", "x3"], {"variant": "a", "rounds": 1, "remiz_cap": 90}, dealer=0)
    Arena(game, [make_bot("stukolka", "rule", 1), make_bot("stukolka", "rule", 2),
                 make_bot("stukolka", "random", 3), make_bot("stukolka", "random", 4)]).play_deal(ShuffledDecks(cls.deck_size, 5))
    Arena(game, [make_bot("stukolka", "rule", 6), make_bot("stukolka", "rule", 7),
                 make_bot("stukolka", "random", 8), make_bot("stukolka", "random", 9)]).play_deal(ShuffledDecks(cls.deck_size, 10))
    result = analyse(record_of(game), budget=12, seed=4)
    ruled = [d for d in result.decisions if d.seat < 2]
    chance = [d for d in result.decisions if d.seat >= 2]
    assert ruled and chance
    agreed = sum(d.best == d.made for d in ruled) / len(ruled)
    assert agreed >= 0.8, [(d.made, d.best, d.loss) for d in ruled]  # the rules stand unless clearly beaten
    assert sum(d.best == d.made for d in chance) / len(chance) < agreed
