"""Blind players play whole deals of every game and variant in both languages, by ear.

Each seat is a text-mode person with ``cards words`` who reads only the lines the club sends him: he asks
``turn`` (``ход?``) when no fresh prompt came, takes the choices from the prompt's words, asks ``hand`` when
the prompt says any card of his hand will do, and types his choice back in words ("play seven of hearts",
in Russian the card in the accusative: "ход тройку бубен"), sometimes by its number ("play 3").  Nothing he
types may be refused: every line he chose must be taken by the table.
"""

from __future__ import annotations

import random
import re

import pytest
from blindkit import GAMES, Person, room

from tui.text.spoken import cards_in

PROMPT = {"en": ("Your turn. You may ", "You are done trading; you may still "),
          "ru": ("Ваш ход. Можно: ", "Вы закончили торг; ещё можно: ")}
HAND = {"en": "Your hand: ", "ru": "У вас на руке: "}
AT_LEAST = {"en": "at least ", "ru": "не меньше "}
ANY_CARD = {"en": " any card of your hand", "ru": " любую карту с руки"}
KEEP = {"en": " and the cards you give up", "ru": " и сносимые карты"}
KEEP_WORDS = {"en": re.compile(r"; ([^;()]+) keeps yours\)"), "ru": re.compile(r"; ([^;()]+) — оставить свои\)")}
START = {"en": "start", "ru": "начать"}
TURN = {"en": "turn", "ru": "ход?"}
ACCUSATIVE = (("ка ", "ку "), ("дама ", "даму "), ("валет ", "валета "), ("король ", "короля "), ("туз ", "туза "))
"""A Russian player says the card he plays in the accusative: «ход тройку бубен»."""


def choices(prompt: str, lang: str) -> list[list[str]]:
    """The prompt's choices as the words to type: [["play", "seven of hearts"], ["pass"], ["bid", "3"]…]."""
    said = prompt[len(next(p for p in PROMPT[lang] if prompt.startswith(p))):]
    said = said.split(" — ")[0]
    said = re.sub(r"\([^)]*\)", "", said)
    said = re.split(r"\.(?: |$)", said)[0]
    options: list[list[str]] = []
    for part in re.split(r", | or | или ", said):
        part = part.strip()
        if not part:
            continue
        if part.startswith(AT_LEAST[lang]) and options:
            options[-1] = [options[-1][0], part[len(AT_LEAST[lang]):].split()[0]]
            continue
        if (cards_in(part.split()) or part.replace(" ", "").isdigit()) and options:  # one more for the verb before
            options.append([options[-1][0], part])
            continue
        verb, _, rest = part.partition(" ")
        if rest.startswith(ANY_CARD[lang].strip()):
            options.append([verb, "*"])
        elif (" " + rest).startswith(KEEP[lang]):
            keep = KEEP_WORDS[lang].search(prompt)
            if keep:
                options.append(keep.group(1).split())
            options.append([verb, "+"])  # and a card of the hand to give up
        else:
            options.append([verb] + ([rest] if rest else []))
    return options


def said_card(card: str, lang: str) -> str:
    if lang != "ru":
        return card
    for plain, accusative in ACCUSATIVE:
        if card.startswith(plain.split()[0] + " ") or (plain == "ка " and card.split()[0].endswith("ка")):
            first, _, suit = card.partition(" ")
            return (first[:-1] + "у" if plain == "ка " else accusative.strip()) + " " + suit
    return card


def act(person: Person, prompt: str, lang: str, rng: random.Random) -> str:
    """The line a blind player types for this prompt."""
    options = choices(prompt, lang)
    assert options, prompt
    option = rng.choice(options)
    if option[1:] in (["*"], ["+"]):
        told = [line for line in person.say("hand" if lang == "en" else "рука") if line.startswith(HAND[lang])]
        assert told, "hand did not answer"
        hand = told[-1][len(HAND[lang]):].rstrip(".").split(", ")
        n = rng.randrange(len(hand))
        if rng.random() < 0.3:
            return f"{option[0]} {n + 1}"  # "type its number"
        return f"{option[0]} {said_card(hand[n], lang)}"
    if len(option) > 1 and cards_in(option[1].split()):
        return f"{option[0]} {said_card(option[1], lang)}"
    return " ".join(option)


def _fresh_prompt(lines: list[str], lang: str) -> str | None:
    """The prompt if it is the last thing heard (anything after it may have changed it: ask ``turn``)."""
    return lines[-1] if lines and lines[-1].startswith(PROMPT[lang]) else None


@pytest.mark.parametrize("game, options", GAMES, ids=[f"{g}-{o.get('variant', '')}" for g, o in GAMES])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_blind_players_play_whole_deals_by_ear(game: str, options: dict, lang: str) -> None:
    rng = random.Random(f"{game}{options}{lang}")
    r = room(game, options, lang=lang, words=True, seed=5)
    for person in r.people:
        person.say(START[lang])
    typed = 0
    for _round in range(4000):
        if r.deals_done() >= 1:
            break
        moved = False
        for person in r.people:
            prompt = _fresh_prompt(person.unread(), lang)
            if prompt is None:
                answer = person.say(TURN[lang])
                prompt = _fresh_prompt(answer, lang)
                if prompt is None:
                    if any(START[lang] in line for line in answer):
                        person.say(START[lang])
                    continue
            line = act(person, prompt, lang, rng)
            before = r.table.last_seq
            reply = person.say(line)
            assert r.table.last_seq > before, (line, prompt, reply)  # taken, not refused
            person.lines[person.read:person.read] = []
            person.read -= len([x for x in reply if x.startswith(PROMPT[lang])])  # a new prompt stays unread
            typed += 1
            moved = True
        if not moved:
            r.tick(30)
    assert r.deals_done() >= 1, "\n".join(r.people[2].lines[-12:])
    assert typed >= len(r.people)
