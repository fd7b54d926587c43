"""The text mode heard and typed by ear: spoken card names in, ``turn``, ``again``, ``fair``, ``cards short``,
speech-friendly lines out (no `` · ``, "1 second", no endless line, a short seal)."""

from __future__ import annotations

import pytest
from blindkit import room

from engine.cards import parse_card
from engine.game import Action
from tui.text.club import LINE_MOST, spoken_pieces
from tui.text.spoken import understand

HAND = [parse_card(x) for x in ("7h", "10c", "qs", "3d", "ac")]
LEGAL = [Action("play", (c,)) for c in HAND] + [Action("pass")]


@pytest.mark.parametrize("typed, meant", [
    ("play seven of hearts", "play 7♥"),
    ("Play Seven Of Hearts", "play 7♥"),
    ("ход тройку бубен", "ход 3♦"),
    ("ход тройка бубен", "ход 3♦"),
    ("ход даму пик", "ход Q♠"),
    ("ход туза крестей", "ход A♣"),
    ("ход десятку треф", "ход 10♣"),
    ("seven of hearts", "7♥"),
    ("play 10 of clubs", "play 10♣"),
    ("play 3", "play Q♠"),
    ("2", "10♣"),
    ("play qs", "play qs"),
    ("ход ДП", "ход ДП"),
    ("tell boris hi, there", "tell boris hi, there"),
    ("play 9", "play 9"),  # no ninth card: typed as it was, and refused in its own words
])
def test_spoken_cards_and_numbers_become_the_engines_notation(typed: str, meant: str) -> None:
    assert understand(typed, HAND, LEGAL) == meant


def test_a_letter_is_the_one_legal_verb_it_starts() -> None:
    legal = [Action("knock"), Action("pass")]
    assert understand("k", HAND, legal) == "knock"
    assert understand("п", HAND, legal) == "pass"  # пас
    assert understand("p", HAND, [Action("pass"), Action("play", (HAND[0],))]) == "p"  # two verbs: not guessed


def test_turn_again_fair_and_the_words_a_blind_player_types_in_both_languages() -> None:
    r = room("french3", {}, lang="ru", words=True)
    anna = r.people[0]
    for person in r.people:
        person.say("начать")
    heard = "\n".join(r.watcher.lines)
    assert "Запечатано: " in heard and "Козыри пики." in heard  # the French three-hander's trumps
    seal = next(line for line in r.watcher.lines if line.startswith("Запечатано: "))
    assert len(seal) == len("Запечатано: ") + 8 + 1
    r.watcher.unread()
    anna.unread()
    full = r.watcher.say("честно")
    assert full and "печать " in full[0] and seal[len("Запечатано: "):-1] in full[0]
    answer = anna.say("ход?")
    assert answer and (answer[-1].startswith("Ваш ход. Можно: ") or answer[-1].startswith("Ходит ")), answer
    assert "Козыри: пики." in answer[-1]
    assert anna.say("ещё") == [answer[-1]]
    anna.say("lang en")
    assert anna.say("again")[0] == anna.lines[-2]


def test_time_is_said_in_the_right_plural_and_lines_are_spoken_pieces() -> None:
    from tui.i18n import tr

    assert tr("en", "text.time_you", seconds=1) == "You have 1 second left."
    assert tr("ru", "text.time_you", seconds=1) == "У вас осталась 1 секунда."
    assert tr("ru", "text.time_you", seconds=3) == "У вас осталось 3 секунды."
    long = ". ".join(f"Sentence number {i} says a little" for i in range(40)) + "."
    pieces = spoken_pieces(long)
    assert len(pieces) > 1 and all(len(p) <= LINE_MOST for p in pieces)
    assert " ".join(pieces) == long


def test_help_has_no_endless_line_no_middle_dots_and_cards_short_is_typed_back() -> None:
    r = room("stukolka", {"variant": "a"})
    anna = r.people[0]
    for word in ("help", "help table", "help hall", "look"):
        for line in anna.say(word):
            assert len(line) <= LINE_MOST and " · " not in line, line
    assert "two letters" in anna.say("cards short")[0]
    for person in r.people:
        person.say("start")
    for _ in range(50):
        hand = anna.say("hand")[-1]
        if "♠" not in hand and "♥" not in hand and "Your hand: " in hand:
            break
    cards = hand[len("Your hand: "):-1].split(", ")
    assert all(len(c) in (2, 3) and c[-1] in "SCDH" for c in cards), hand
    r2 = room("stukolka", {"variant": "a"}, lang="ru")
    vera = r2.people[0]
    vera.say("карты коротко")
    for person in r2.people:
        person.say("начать")
    hand = vera.say("рука")[-1]
    cards = hand[len("У вас на руке: "):-1].split(", ")
    assert all(c[-1] in "ПТБЧ" and not set("JQKA") & set(c) for c in cards), hand
    assert all(parse_card(c) for c in cards)  # what is written is what may be typed


def test_start_before_the_bots_sit_starts_the_deal_when_they_have() -> None:
    r = room("stukolka", {"variant": "a"}, seats=4)
    anna, boris = r.people[0], r.people[1]
    assert "You are ready; the deal waits for boris, vera, gleb to type start." in anna.say("start")
    for person in r.people[2:]:
        person.say("stand")
    assert "Waiting for 2 more players to sit down (or: sit bot)." in boris.say("start")
    told = anna.say("sit bot") + anna.say("sit bot")
    assert r.table.in_deal() and any(line.startswith("Your hand: ") for line in told), told


def test_spekulyant_hand_says_the_face_down_cards_and_ready_changes_the_prompt() -> None:
    r = room("speculator", {}, lang="en")
    for person in r.people:
        person.say("start")
    assert r.people[0].say("hand")[-1].startswith("You hold 3 face-down cards")
    for _ in range(30):
        for person in r.people:
            if any(a.verb == "ready" for a in person.text.legal()):
                person.unread()
                told = person.say("ready")
                assert told[-1].startswith("You are done trading; you may still "), told
                assert not any(line.startswith("Your turn.") for line in told[1:]), told
                return
            if person.text.legal():
                person.say(person.text.legal()[0].text())
        r.tick(30)
    raise AssertionError("no trading window opened")


def test_the_clock_of_his_turn_is_said_at_half_time_ten_and_five_seconds_with_a_bell() -> None:
    from engine.table.club import Club
    from tui.text.club import TextClub

    club = Club([{"game": "stukolka", "think": 0, "clock": 30}], seed=11)
    now = [0.0]
    lines: list[str] = []
    rings: list[int] = []
    anna = TextClub(club, "anna", write=lines.append, clock=lambda: now[0], bell=lambda: rings.append(1))
    anna.wake = anna.news
    anna.start()
    for line in ("sit 1", "sit bot", "sit bot", "sit bot", "start"):
        anna.line(line)
    for _ in range(40):
        if anna.legal():
            break
        club.tick(now[0])
    assert anna.legal() and club.tables[1].timer_deadline() is not None
    deadline = club.tables[1].timer_deadline()
    rung = len(rings)
    heard = []
    while now[0] < deadline - 1:
        now[0] += 1.0
        mark = len(lines)
        anna.clock_check()
        heard += lines[mark:]
    left = int(round(deadline - 0.0))
    assert heard == [f"Clock: {left // 2} seconds left for your move.", "Clock: 10 seconds left for your move.",
                     "Clock: 5 seconds left for your move."], heard
    assert len(rings) == rung + 3
    anna.line("time")
    assert lines[-1] == "You have 1 second left."


def test_russian_rules_take_russian_game_names_and_bells_are_told_apart() -> None:
    r = room("stukolka", {"variant": "a"}, lang="ru")
    vera = r.people[0]
    vera.unread()
    for said in ("правила французская", "правила спекулянта", "правила стуколку"):
        answer = vera.say(said)
        assert answer and not answer[0].startswith("Нет правил"), (said, answer)
    from engine.table.club import Club
    from tui.text.club import TextClub

    club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=11)
    rings: list[str] = []
    kind = ["start"]
    anna = TextClub(club, "anna", write=lambda line: None, clock=lambda: 0.0, bell=lambda: rings.append(kind[0]))
    anna.wake = anna.news
    anna.start()
    club.enter("boris")
    for line in ("sit 1", "sit bot", "sit bot", "sit bot"):
        anna.line(line)
    anna.line("start")
    started = len(rings)  # three for the start, one for his turn if it is his
    assert started >= 3
    rings.clear()
    club.social.deliver("boris", "anna", "удачи")
    anna.news()
    assert len(rings) == 2
