"""What a Russian-speaking blind player hears in the default ``cards symbols`` form: court ranks in Russian
letters (В Д К Т), so a Russian voice does not read ``Q♠`` as an English "queen"; and what is written is what
may be typed back."""

from __future__ import annotations

from blindkit import room

from engine.cards import deck, parse_card
from tui.text.cards import in_colour, in_symbols


def test_every_court_card_has_its_russian_letter_and_parses_back() -> None:
    for card in deck(52):
        ru = in_symbols(f"Вера кладёт {card.text()}.", "ru")
        shown = ru[len("Вера кладёт "):-1]
        assert not set("JQKA") & set(shown), ru
        assert parse_card(shown) == card
        assert in_symbols(f"Vera plays {card.text()}.", "en") == f"Vera plays {card.text()}."
    assert in_symbols("Козыри ♦; ход 10♣, Т♥.", "ru") == "Козыри ♦; ход 10♣, Т♥."
    assert in_colour(in_symbols("Д♥ К♠", "ru")) == "\x1b[31mД♥\x1b[39m К♠"


def test_the_russian_hand_and_turn_use_russian_court_letters() -> None:
    r = room("stukolka", {"variant": "a"}, lang="ru")
    for person in r.people:
        person.say("начать")
    hands = [person.say("рука")[-1] for person in r.people]
    for hand in hands:
        assert hand.startswith("У вас на руке: "), hand
        cards = hand[len("У вас на руке: "):-1].split(", ")
        assert all(c[-1] in "♠♣♦♥" and not set("JQKA") & set(c) for c in cards), hand
        assert all(parse_card(c) for c in cards)  # what is written is what may be typed
    assert any(c in "ВДКТ" for hand in hands for c in hand[len("У вас на руке: "):]), hands
    r_en = room("stukolka", {"variant": "a"}, lang="en")
    anna = r_en.people[0]
    for person in r_en.people:
        person.say("start")
    hand = anna.say("hand")[-1]
    assert hand.startswith("Your hand: ") and not set("ВДКТ") & set(hand), hand
