"""Спекулянт's trade window is longer when a text-mode player starts the session (R64 leaves the waiting
time to the table): he hears the window open and still has time to answer.  Chosen: automatic, not a
setting to ask for (a newcomer by ear cannot know it exists); a table where nobody said ``start`` from
the text mode keeps its W, and a table's own longer W stays."""

from __future__ import annotations

import pytest
from blindkit import room

from engine.table.changes import Start, apply_change
from engine.table.club import Club
from engine.table.owner import Table


def open_a_window(r) -> None:
    for _ in range(20):
        for person in r.people:
            if any(a.verb == "reveal" for a in person.text.legal()):
                person.say("reveal")
                break
        if r.table.game.window_open:
            return
    raise AssertionError("no trade window opened")


@pytest.mark.parametrize("lang, start, time_word, left_45, left_25, closed", [
    ("en", "start", "time", "You have 45 seconds left.", "You have 25 seconds left.", "Trading is closed."),
    ("ru", "начать", "время", "У вас осталось 45 секунд.", "У вас осталось 25 секунд.", "Торг закрыт."),
])
def test_a_text_player_hears_a_45_second_window_and_it_closes_after_it(lang, start, time_word, left_45,
                                                                      left_25, closed) -> None:
    r = room("speculator", {}, lang=lang)
    for person in r.people:
        person.say(start)
    open_a_window(r)
    anna = r.people[0]
    anna.unread()
    assert anna.say(time_word) == [left_45]
    r.tick(20)  # the default window (15 s) would have closed by now
    assert closed not in anna.unread() and r.table.game.window_open
    assert anna.say(time_word) == [left_25]
    r.tick(26)
    assert closed in anna.unread() and not r.table.game.window_open


def three_at(table: Table) -> None:
    for name in ("anna", "boris", "vera"):
        table.sit(name)


def test_a_table_with_nobody_by_ear_keeps_its_own_window_and_a_longer_one_stays() -> None:
    club = Club([{"game": "speculator", "think": 0, "clock": 0},
                 {"game": "speculator", "options": {"W": 60, "Wmax": 200}, "think": 0, "clock": 0}], seed=1)
    for table in club.tables.values():
        three_at(table)
        for name in ("anna", "boris", "vera"):
            table.start(name, now=0.0)
    assert club.tables[1].game.options["W"] == 15 and club.tables[1].game.options["Wmax"] == 60
    assert club.tables[2].game.options["W"] == 60 and club.tables[2].game.options["Wmax"] == 200
    r = room("speculator", {"W": 60, "Wmax": 200})
    for person in r.people:
        person.say("start")
    assert r.table.game.options["W"] == 60 and r.table.game.options["Wmax"] == 200


def test_one_player_by_ear_among_screen_players_lengthens_the_whole_sessions_window() -> None:
    club = Club([{"game": "speculator", "think": 0, "clock": 0}], seed=1)
    table = club.tables[1]
    three_at(table)
    table.start("anna", now=0.0)
    apply_change(club, 1, Start("boris", by_ear=True), now=0.0)  # from another node: the flag travels
    table.start("vera", now=0.0)
    assert table.game.options["W"] == 45 and table.game.options["Wmax"] == 90


def test_by_ear_readiness_goes_with_his_seat_and_with_a_start_from_the_screen() -> None:
    club = Club([{"game": "speculator", "think": 0, "clock": 0}], seed=1)
    table = club.tables[1]
    three_at(table)
    table.start("anna", now=0.0, by_ear=True)
    table.start("anna", now=0.0)  # he said it again from a screen: the screen's pace
    table.start("boris", now=0.0, by_ear=True)
    assert table.by_ear == {"boris"}
    table.stand("boris")
    assert table.by_ear == set()
    table.sit("boris")
    for name in ("anna", "boris", "vera"):
        table.start(name, now=0.0)
    assert table.game.options["W"] == 15


def test_a_restarted_table_remembers_who_said_start_by_ear() -> None:
    club = Club([{"game": "speculator", "think": 0, "clock": 0}], seed=1)
    table = club.tables[1]
    three_at(table)
    table.start("anna", now=0.0, by_ear=True)
    again = Club([{"game": "speculator", "think": 0, "clock": 0}], seed=1).tables[1]
    again.load_state(table.state())
    assert again.by_ear == {"anna"} and again.ready == {"anna"}
    again.start("boris", now=0.0)
    again.start("vera", now=0.0)
    assert again.game.options["W"] == 45
