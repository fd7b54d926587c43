"""The table screen with bots: ``sit bot``, their moves told, the turn clock's bar and its end (fake clock)."""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from tui.app import ClubApp


def tick(club: Club, now: float) -> None:
    """What net's runtime does at each deadline, up to ``now``."""
    for _ in range(500):
        deadline = club.next_deadline()
        if deadline is None or deadline > now:
            return
        club.tick(now)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_sit_bot_then_bots_play_and_the_clock_runs_out():
    now = [100.0]
    club = Club([{"game": "french3", "think": 0, "clock": 30}], seed=8)
    app = ClubApp(club, "anna", clock=lambda: now[0])
    table = club.tables[1]
    async with app.run_test(size=(100, 30)) as pilot:
        await type_line(pilot, "sit bot")
        assert "sit down first" in text(app)  # not seated: refused, nothing changed
        assert table.seated() == []
        await type_line(pilot, "sit 1")
        await type_line(pilot, "sit bot")
        await type_line(pilot, "сесть бот")
        assert sum("bot-Mitya sits down" in row for row in rows(app)) == 1  # told once (issue 13 item 17)
        assert "bot-Mitya sits down in seat 2." in text(app)
        assert table.seats == ["anna", "bot-Mitya", "bot-Vanya"]
        assert "(2 of 3 ready)" in text(app)  # bots are always ready
        await type_line(pilot, "start")
        assert table.in_deal()
        game = table.game
        tick(club, now[0])  # the bots play up to anna's turn
        await pilot.pause()
        assert game.to_act() == (0,)
        assert "⏱" in text(app)  # anna's turn clock, drawn as a bar
        acted = len(game.deals[-1].actions)
        now[0] += 29.0
        tick(club, now[0])
        assert len(game.deals[-1].actions) == acted
        now[0] += 1.0
        tick(club, now[0])
        await pilot.pause()
        assert len(game.deals[-1].actions) > acted
        assert "anna's time ran out; the club makes the move" in text(app)
        shown = rows(app)
        at = next(i for i, row in enumerate(shown) if "bot-Vanya" in row and "▮" in row)
        bot_row = shown[at] + shown[at + 1]  # the name's line and the state's under it
        assert "away" not in bot_row and "ready" not in bot_row  # a bot is never away; ready only between deals


def test_a_run_out_clock_is_told_in_the_players_language():
    from engine.cards import parse_card
    from engine.game import Event
    from tui.narrate import narrate

    event = Event("timeout", 0, {"name": "Boris", "action": ["play", parse_card("qs")]})
    # a Latin name is not declined: the sentence keeps it in the nominative
    assert narrate(event, ["Boris"], "ru") == "Boris: время вышло; ход делает клуб: ход Q♠."
    assert narrate(Event("timeout", 0, {"name": "Boris", "action": ["pass"]}), ["Boris"], "en") == (
        "Boris's time ran out; the club makes the move: pass.")
