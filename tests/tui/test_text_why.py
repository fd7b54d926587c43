"""Issue 14: the text mode's "your turn" line says why the cards are narrowed with the game's own reason.

``tui.text.answers.why_text`` once worked "must follow / must trump" out for itself;
now it asks ``Game.why_not`` (through ``tui.hints.why``), as the screen's hint and a
refusal do, so the three never disagree.  A ``TextClub`` for anna, its lines collected;
the others play a seeded random legal action.
"""

from __future__ import annotations

import random

import pytest

from engine.table.club import Club
from engine.game import Action
from tui.hints import why
from tui.text.answers import view_at, why_text
from tui.text.club import TextClub

REASONS = {
    ("en", "french3.follow"): "— you must follow {suit} (R20).",
    ("ru", "french3.follow"): "— нужно ходить в масть {suit} (R20).",
    ("en", "stukolka.follow"): "— you must follow {suit} (R41).",
    ("ru", "stukolka.follow"): "— нужно ходить в масть {suit} (R41).",
    ("en", "stukolka.trump"): "— you have no {suit}, so you must trump (R41).",
    ("ru", "stukolka.trump"): "— у вас нет {suit}, нужно бить козырем (R41).",
}
GAMES = {"french3": ["boris", "vera"], "stukolka": ["boris", "vera", "gleb"]}


def barred_reason(game, seat: int) -> str | None:
    legal = game.legal_actions(seat)
    barred = [c for c in game.hands[seat] if Action("play", (c,)) not in legal]
    if not barred or not game.trick or not any(a.verb == "play" for a in legal):
        return None
    err = game.why_not(seat, Action("play", (barred[0],)))
    return err.key if err is not None else None


def narrowed(game_name: str, want: str, lang: str) -> tuple[Club, list[str]]:
    """Seeded random play until anna's cards are narrowed on her turn for the reason ``want``."""
    for seed in range(1, 60):
        rng = random.Random(seed)
        club = Club([{"game": game_name, "clock": 0, "think": 0}], seed=seed)
        lines: list[str] = []
        person = TextClub(club, "anna", write=lines.append, lang=lang, clock=lambda: 100.0)
        person.wake = lambda: None
        person.start()
        person.line("sit 1")
        table = club.tables[1]
        for name in GAMES[game_name]:
            table.sit(name)
        for deal in range(6):
            for name in table.seated():
                if name != "anna":
                    table.start(name)
            person.line("start")
            game = table.game
            while table.in_deal() and game.to_act():
                seat = game.to_act()[0]
                if seat == 0 and barred_reason(game, 0) == want:
                    del lines[:]
                    person.news()
                    return club, lines
                legal = game.legal_actions(seat)
                table.act(game.names[seat], rng.choice(legal).text())
    raise AssertionError(f"{game_name}: anna was never barred by {want}")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_name,want", [("french3", "french3.follow"), ("stukolka", "stukolka.follow"),
                                            ("stukolka", "stukolka.trump")])
def test_the_turn_line_gives_the_games_own_reason(game_name: str, want: str, lang: str) -> None:
    club, lines = narrowed(game_name, want, lang)
    table = club.tables[1]
    game = table.game
    turn = [line for line in lines if line.startswith(("Your turn", "Ваш ход"))]
    assert turn, lines
    led = game.trick[0][1].suit
    assert REASONS[(lang, want)].format(suit=led.text()) in turn[-1], turn[-1]
    legal = game.legal_actions(0)
    assert why(table, "anna", legal, game.hands[0], lang, False) in turn[-1]  # the screen's hint, word for word


def test_no_reason_when_nothing_is_narrowed() -> None:
    club, _lines = narrowed("french3", "french3.follow", "en")
    table = club.tables[1]
    legal = table.game.legal_actions(0)
    assert why_text(table, view_at(table, "anna"), legal, "en", False).startswith("you must follow")
    assert why_text(table, view_at(table, "anna"), [], "en", False) == ""  # nothing to choose: nothing to explain
    assert why_text(table, view_at(table, None), legal, "en", False) == ""  # a watcher has no hand
