"""Who gives up his seat mid-partiya hears, as everyone does, where Копилка's kitty goes (R16): the
sentence whole with its sum on one line, and his own payout under his own name, though his seat is empty."""

from __future__ import annotations

import random

import pytest
from blindkit import room

from tui.text.club import spoken_pieces


@pytest.mark.parametrize("lang, start, stand, kitty, receives", [
    ("en", "start", "stand", "the kitty of 1 r. 25 k. is paid out now (R16)", "anna receives 10 k."),
    ("ru", "начать", "встать", "копилка (1 р. 25 к.) выплачивается сейчас (R16)", "anna получает 10 к."),
])
def test_the_leaver_hears_the_kitty_paid_and_his_own_share_by_name(lang, start, stand, kitty, receives) -> None:
    r = room("kopilka", {}, lang=lang)
    rng = random.Random(2)
    for _ in range(2):  # two deals of the partiya's four
        for person in r.people:
            person.say(start)
        game = r.table.game
        while game.in_deal:
            seat = game.to_act()[0]
            r.table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=0.0)
    assert r.table.pot == 125
    anna, boris = r.people[0], r.people[1]
    anna.unread(), boris.unread()
    heard = anna.say(stand)
    assert any(kitty in line for line in heard), heard  # the sum is not cut at its own dots
    assert receives in heard, heard
    assert receives in boris.unread()
    assert not any(line.startswith(" ") for line in heard), heard  # no payout line without a name


def test_a_long_line_is_cut_at_sentences_not_at_moneys_dots() -> None:
    line = ("Копилка (1 р. 25 к.) выплачивается сейчас. " * 6).strip()
    pieces = spoken_pieces(line, most=90)
    assert len(pieces) > 1 and " ".join(pieces) == line
    assert all(piece.endswith("сейчас.") for piece in pieces), pieces
