"""Стуколка's play narration states the trick's worth as P/3 (R43), in both languages."""

from __future__ import annotations

from engine.game import GivenDecks
from engine.games.stukolka import Stukolka
from engine.cards import deck
from tui.narrate import narrate


def test_play_starts_tells_the_pot_and_a_third_of_it_per_trick() -> None:
    game = Stukolka(["anna", "boris", "vera", "gleb"], {"a": 30}, pot=90)
    order = deck(52)[::-1]  # the 13th card, the turn-up, is not an ace
    game.start_deal(GivenDecks([order]))
    events = []
    for seat, verb in ((1, "knock"), (2, "knock"), (3, "pass"), (0, "pass")):
        events += game.apply(seat, verb)
    start = next(e for e in events if e.kind == "play_starts")
    assert start.data["share"] == 40
    en = narrate(start, game.names, "en")
    ru = narrate(start, game.names, "ru")
    assert en == "Play begins; boris leads. The pot holds 1 r. 20 k.: each trick is worth 40 k."
    assert "40 к." in ru and "1 р. 20 к." in ru
