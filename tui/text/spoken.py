"""What a person types, read as he would say it: cards in words, a card's number, a verb's first letter.

The text mode says "seven of hearts" / "семёрка червей" (``cards words``) and promises that a card's
number picks it; so a typed line may be ``play seven of hearts``, ``ход тройку бубен`` (any case of the
rank, any usual form of the suit), ``play 3`` (the third card of ``hand``), or ``k`` for the one legal
verb that starts with that letter.  ``understand`` rewrites such a line into the notation the engine
parses (``play 7♥``); any other line comes back unchanged, so a refusal still names what was typed.
"""

from __future__ import annotations

import re
from typing import Sequence

from engine.cards import Card, Suit
from engine.game import Action
from tui.commands import ALIASES, RU_VERB

EN_RANKS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "jack": 11, "queen": 12, "king": 13, "ace": 14, "j": 11, "q": 12, "k": 13, "a": 14, "t": 10,
            **{str(n): n for n in range(2, 11)}}
EN_SUITS = {"spade": Suit.SPADES, "spades": Suit.SPADES, "club": Suit.CLUBS, "clubs": Suit.CLUBS,
            "diamond": Suit.DIAMONDS, "diamonds": Suit.DIAMONDS, "heart": Suit.HEARTS, "hearts": Suit.HEARTS}
RU_RANK_STEMS = (("двойк", 2), ("тройк", 3), ("четвёрк", 4), ("четверк", 4), ("пятёрк", 5), ("пятерк", 5),
                 ("шестёрк", 6), ("шестерк", 6), ("семёрк", 7), ("семерк", 7), ("восьмёрк", 8), ("восьмерк", 8),
                 ("девятк", 9), ("десятк", 10), ("валет", 11), ("вальт", 11), ("дам", 12), ("корол", 13),
                 ("туз", 14))
"""Stems, so that every case is heard: тройка, тройку, тройки, тройкой; туз, туза, тузом."""
RU_SUIT_STEMS = (("пик", Suit.SPADES), ("треф", Suit.CLUBS), ("крест", Suit.CLUBS), ("бубн", Suit.DIAMONDS),
                 ("бубен", Suit.DIAMONDS), ("бубей", Suit.DIAMONDS), ("черв", Suit.HEARTS))
FILLER = {"of", "the", "and", "и", ","}
_WORD = re.compile(r"[^\s,;]+")


def _ru_rank(word: str) -> int | None:
    if word.isdigit() and 2 <= int(word) <= 10:
        return int(word)
    return next((rank for stem, rank in RU_RANK_STEMS if word.startswith(stem)), None)


def _ru_suit(word: str) -> Suit | None:
    return next((suit for stem, suit in RU_SUIT_STEMS if word.startswith(stem)), None)


def cards_in(words: Sequence[str]) -> list[Card] | None:
    """The cards a run of words names ("seven of hearts and ten of clubs", "тройку бубен"); None if
    any word is neither part of a card nor a filler."""
    cards: list[Card] = []
    i = 0
    lowered = [w.lower() for w in words]
    while i < len(lowered):
        word = lowered[i]
        if word in FILLER:
            i += 1
            continue
        rank = EN_RANKS.get(word)
        if rank is not None:
            j = i + 1
            if j < len(lowered) and lowered[j] == "of":
                j += 1
            suit = EN_SUITS.get(lowered[j]) if j < len(lowered) else None
            if suit is not None:
                cards.append(Card.of(rank, suit))
                i = j + 1
                continue
        rank = _ru_rank(word)
        if rank is not None and i + 1 < len(lowered):
            suit = _ru_suit(lowered[i + 1])
            if suit is not None:
                cards.append(Card.of(rank, suit))
                i += 2
                continue
        return None
    return cards


def _card_verbs(legal: Sequence[Action]) -> set[str]:
    return {a.verb for a in legal if a.args and all(isinstance(x, Card) for x in a.args)}


def _letter(word: str, legal: Sequence[Action]) -> str | None:
    """The one legal verb (English or Russian spelling) that starts with this letter."""
    verbs = {a.verb for a in legal}
    matches = {v for v in verbs if v.startswith(word) or RU_VERB.get(v, v).startswith(word)}
    return matches.pop() if len(matches) == 1 else None


def understand(line: str, hand: Sequence[Card], legal: Sequence[Action]) -> str:
    """The line in the engine's notation when it names cards in words or by number (else as typed)."""
    words = _WORD.findall(line.strip())
    if not words or line.lstrip()[:1] in "'\"":
        return line
    first = words[0].lower()
    if len(words) == 1 and first.isdigit() and len(first) <= 2 and _card_verbs(legal):  # "3": the third card
        n = int(first)
        return hand[n - 1].text() if 1 <= n <= len(hand) else line
    verb = ALIASES.get(first)
    if verb is None and len(first) == 1 and not first.isdigit():
        verb = _letter(first, legal)
        if verb is None:
            return line
        line = verb + line.lstrip()[1:]
        words[0] = first = verb
    if verb is None:
        cards = cards_in(words)  # a card said alone: "seven of hearts"
        return " ".join(c.text() for c in cards) if cards and len(cards) == 1 else line
    rest = words[1:]
    if not rest:
        return line
    if verb in _card_verbs(legal) and all(w.isdigit() and len(w) <= 2 for w in rest):
        picked = [hand[int(w) - 1] for w in rest if 1 <= int(w) <= len(hand)]
        if len(picked) == len(rest):
            return " ".join([first] + [c.text() for c in picked])
        return line
    cards = cards_in(rest)
    if cards and len(rest) > len(cards):  # said in words (a card typed short stays as typed)
        return " ".join([first] + [c.text() for c in cards])
    return line
