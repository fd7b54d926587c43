"""Every public event of every game is a sentence, and what the felt shows is said (the trumps above all).

Random deals of every game and variant are played by text-mode people who choose at random among their
legal actions; a watcher hears the table.  Each event of the public log (what a watcher's log and felt
draw) must have a sentence that carries its facts (trumps, widow, price), and whenever the public felt
shows a trump suit during a deal, the watcher has heard that suit named since the deal began.
"""

from __future__ import annotations

import random

import pytest
from blindkit import GAMES, room

from engine.cards import Suit
from tui.narrate import FACTS, narrate
from tui.text.cards import SUIT_ALONE

SILENT = {"dealt"}
"""A deal's private cards: told to each player as his own hand, not to the table (unless it has facts)."""


def _trump_heard(lines: list[str], suit: Suit, lang: str) -> bool:
    marks = (suit.symbol, SUIT_ALONE[lang][suit])
    words = ("Trumps", "trumps", "Козыри", "козыри", "trump", "козыр")
    return any(any(w in line for w in words) and any(m in line for m in marks) for line in lines)


@pytest.mark.parametrize("game, options", GAMES, ids=[f"{g}-{o.get('variant', '')}" for g, o in GAMES])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_public_event_is_a_sentence_and_the_felts_trump_is_said(game: str, options: dict, lang: str) -> None:
    rng = random.Random(7)
    r = room(game, options, lang=lang, seed=3)
    heard_from = len(r.watcher.lines)
    for person in r.people:
        person.say("start")
    checked = 0
    for _step in range(3000):
        if r.deals_done() >= 2:
            break
        table = r.table
        if not table.in_deal():
            heard_from = len(r.watcher.lines)
            for person in r.people:
                person.say("start")
            continue
        view = table.view_for(None)
        trump = view.get("trump")
        if isinstance(trump, Suit) and view.get("phase") in ("play", "playing", "trading", "reveal"):
            assert _trump_heard(r.watcher.lines[heard_from:], trump, lang), (trump, r.watcher.lines[heard_from:])
            checked += 1
        movers = [p for p in r.people if p.text.legal()]
        if not movers:
            r.tick(30)
            continue
        person = rng.choice(movers)
        person.say(rng.choice(person.text.legal()).text())
    assert r.deals_done() >= 1
    for entry in r.table.log_since(0):
        event = entry.event
        told = narrate(event, entry.names, lang)
        if event.kind in SILENT and not set(FACTS) & set(event.data):
            assert told == "", told
            continue
        assert told and "=" not in told, (event, told)  # a sentence, not the plain fallback
        for key in FACTS:
            value = event.data.get(key)
            if isinstance(value, Suit):
                assert value.symbol in told, (event, told)
            elif isinstance(value, int) and not isinstance(value, bool):
                assert str(value) in told, (event, told)
    if game == "french3":
        assert checked, "the French three-hander's trumps were never on the felt"
