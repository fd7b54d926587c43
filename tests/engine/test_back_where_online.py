"""Who is online is the one truth of who is away at a table (a lost ``back`` heals by itself)."""

from __future__ import annotations

from engine.table.club import Club


def test_a_player_online_on_another_node_is_given_his_seat_back_and_one_who_typed_away_is_not() -> None:
    club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=3)
    table = club.tables[1]
    for name in ("Anna", "Boris"):
        club.enter(name)
        club.sit(name, 1)
        club.leave(name)  # his session went (a paused node): away at the table, his grace runs
    assert sorted(table.away_now()) == ["Anna", "Boris"]
    club.social.away["Boris"] = "back soon"  # Boris typed away himself (on the node he is on now)
    assert club.back_where_online() == []  # online nowhere yet: both stay away
    club.elsewhere = {"Anna", "Boris"}  # both are online on another node, as its presence rows say
    assert club.back_where_online() == ["Anna"]
    assert table.away_now() == ["Boris"]
    assert club.back_where_online() == []  # said once
