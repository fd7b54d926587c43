"""Every event of every game has a sentence in both languages (issue 17: the text mode tells them all).

A sweep plays every registered game at random (several seeds, options and table sizes, as the
refusal sweep does) and asks each event for the catalogue's own sentence in Russian and in
English: not the plain fallback, no blank left unfilled.  The table's own events (seats, ready,
chat, the clock, away and back, the deal's and the session's end) are made by a real ``Table``
with a stand-in and a run-out clock.  The one event told otherwise (``dealt``: the cards dealt
are private) is checked to be told to its player as his hand by the text mode.
"""

from __future__ import annotations

import random

import pytest
from test_refusals_games import random_options

from engine.table.club import Club
from engine.game import Event, ShuffledDecks
from engine.games import registry
from engine.games.speculator import Speculator
from tui.narrate import sentence
from tui.text.club import TextClub

SILENT = {"dealt"}
"""Kinds whose catalogue sentence is empty on purpose: the text mode says the player's own hand instead."""


def check(event: Event, names: list[str], seen: set[str]) -> None:
    for lang in ("en", "ru"):
        told = sentence(event, names, lang)
        assert told is not None, (lang, event)
        assert "{" not in told and "}" not in told, (lang, told)
        if told == "":
            assert event.kind in SILENT, (lang, event)
        for ascii in (True,):
            plain = sentence(event, names, lang, ascii)
            assert plain is not None and not set("♠♣♦♥") & set(plain), (lang, plain)
    seen.add(event.kind)


@pytest.mark.parametrize("game_name", sorted(registry()))
def test_every_event_of_random_play_has_a_sentence_in_both_languages(game_name: str) -> None:
    cls = registry()[game_name]
    seen: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        options = cls.make_options(random_options(cls, rng))
        low, high = cls.player_range(options)
        names = [f"P{i}" for i in range(rng.randint(low, high))]
        game = cls(names, options)
        if isinstance(game, Speculator) and seed % 2:
            game.start_clock(0.0)
        decks = ShuffledDecks(cls.deck_size, seed)
        for _ in range(4):
            if not game.can_start_deal():
                break
            for event in game.start_deal(decks):
                check(event, names, seen)
            for _ in range(600):
                if game.deal_over():
                    break
                seat = rng.choice(game.to_act())
                for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
                    check(event, names, seen)
                if isinstance(game, Speculator) and game.live_clock:
                    for event in game.tick(game.clock + rng.choice((0.0, 0.0, 20.0))):
                        check(event, names, seen)
    assert len(seen) >= 5, seen  # the game's own events were told, not only a few


def test_the_tables_own_events_have_sentences_and_a_dealt_hand_is_told_to_its_player() -> None:
    club = Club([{"game": "kopilka", "think": 0, "clock": 5, "grace": 10, "takeover": 0}], seed=5)
    table = club.tables[1]
    lines: list[str] = []
    anna = TextClub(club, "anna", write=lines.append)
    anna.wake = lambda: anna.news()  # told at once (the channel coalesces a burst into one call)
    anna.start()
    anna.line("sit 1")
    club.enter("boris")
    table.sit("boris")
    table.watch("vera")
    table.say("vera", "добрый вечер")
    table.unwatch("vera")
    table.sit_bot()
    table.sit_bot()
    table.start("anna", now=0.0)
    table.start("boris", now=0.0)
    club.leave("boris", now=1.0)  # away: a stand-in
    club.tick(2.0)
    club.enter("boris", now=2.0)  # back
    club.leave("boris", now=2.0)  # and away again
    now = 2.0
    while table.in_deal() and now < 2000:
        now += 6.0
        club.tick(now)  # anna's clock runs out, the stand-in and the bots play
    club.tick(now + 100)  # the grace ends between deals: he is gone
    anna.line("stand")
    seen: set[str] = set()
    for entry in table.log_since(0):
        check(entry.event, list(entry.names), seen)
    assert {"sit", "watch", "say", "unwatch", "table_ready", "deal_start", "timeout", "away", "deal_over"} <= seen
    assert {"back", "gone", "stand"} <= seen, seen
    assert "dealt" in seen
    dealt = lines.index(next(line for line in lines if line.startswith("Deal 1: ")))
    assert any(line.startswith("Your hand: ") for line in lines[dealt:]), lines
