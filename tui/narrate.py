"""Events told as sentences in the player's language ("Boris knocks.").

Every event kind has a catalogue entry ``ev.<kind>``; its parameters are the
event's data made readable (cards in the chosen notation, money the Russian
way, seats as names) plus ``who`` (the event's seat).  An event without an
entry is still told, plainly, so a game that lands later never breaks a
screen.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from engine.cards import Card, Suit
from engine.game import Event
from tui.commands import verb_word
from tui.i18n import CATALOGUES, money, render, tr
from tui.i18n.names import decline

FACTS = ("trump", "widow", "price")
"""What the felt shows beside an event's own words (the trumps, the widow, a trade's price): said even when
an event's sentence leaves it out, so a fact drawn on the felt is never missing from speech."""
NO_TRUMP = "NT"
MONEY_KEYS = {"amount", "pot", "stake", "share", "each", "won", "price", "kitty", "deposit", "ante", "funds", "fine"}
PER_SEAT = {"tricks", "above", "below", "points"}
SEAT_KEYS = {"seller", "buyer", "giver"}


def show(value: Any, names: Sequence[str], lang: str, ascii: bool, key: str = "") -> str:
    """One data value as text."""
    if isinstance(value, Card):
        return value.text(ascii)
    if isinstance(value, Suit):
        return value.text(ascii)
    if key == "trump" and isinstance(value, str):  # a game that names its trump as a word ("♠", "NT")
        if value == NO_TRUMP:
            return tr(lang, "ev.no_trump_word")
        suit = next((s for s in Suit if s.symbol == value or s.letter == value), None)
        return suit.text(ascii) if suit is not None else value
    if isinstance(value, bool):
        return tr(lang, "word.yes") if value else tr(lang, "word.no")
    if isinstance(value, int) and key in SEAT_KEYS and 0 <= value < len(names):
        return names[value]
    if isinstance(value, int) and key in MONEY_KEYS:
        return money(value, lang)
    if key in ("money", "balances") and isinstance(value, (list, tuple)) and len(value) == len(names):
        return ", ".join(f"{n}: {money(v, lang)}" for n, v in zip(names, value) if isinstance(v, int))
    if key == "cut" and isinstance(value, str):  # a sealed deal's cut string, exactly (\n shown as \n)
        return json.dumps(value, ensure_ascii=False) if value else tr(lang, "fair.no_cut")
    if key == "draws" and isinstance(value, (list, tuple)):  # [[seat, card], …] of a draw for the deal
        return ", ".join(f"{names[s]} {c.text(ascii)}" for s, c in value if 0 <= s < len(names))
    if key in PER_SEAT and isinstance(value, (list, tuple)) and len(value) == len(names):
        return ", ".join(f"{n} {v}" for n, v in zip(names, value))
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {money(v, lang) if isinstance(v, int) else v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(show(v, names, lang, ascii) for v in value)
    return str(value)


def narrate(event: Event, names: Sequence[str], lang: str, ascii: bool = False) -> str:
    """The sentence for one event (English when the player's catalogue has none, plainly when neither has)."""
    told = sentence(event, names, lang, ascii)
    if told is None and lang != "en":
        told = sentence(event, names, "en", ascii)
    if told is not None:
        return told
    who = names[event.seat] if event.seat is not None and 0 <= event.seat < len(names) else ""
    params = _params(event, names, lang, ascii)
    data = " ".join(f"{k}={v}" for k, v in params.items() if k not in ("who", "seatno"))
    return tr(lang, "ev.generic", who=f"{who}: " if who else "", kind=event.kind.replace("_", " "),
              data=f" ({data})" if data else "")


def sentence(event: Event, names: Sequence[str], lang: str, ascii: bool = False) -> str | None:
    """The catalogue's own sentence in ``lang`` ("" for an event told otherwise); None if no entry fits."""
    params = _params(event, names, lang, ascii)
    catalogue = CATALOGUES.get(lang, {})
    for key in (f"ev.{event.kind}", f"ev.{event.kind}.alt", f"ev.{event.kind}.alt2"):  # the same kind, other data
        template = catalogue.get(key)
        if template is None:
            continue
        declined = decline(template, params)  # «Время Ани вышло»
        if declined is None:
            continue  # no entry, or a name whose case its ending does not tell: the .alt says it plainly
        try:
            told = _tidy(render(lang, template, declined))
        except (KeyError, IndexError, ValueError):
            continue
        return with_facts(told, template, event, declined, lang)
    return None


def with_facts(told: str, template: str, event: Event, params: Mapping[str, Any], lang: str) -> str:
    """The sentence and every fact of ``FACTS`` the event carries that its template does not name
    ("Trumps: ♥.", "2 cards are left in the widow.")."""
    added = []
    for key in FACTS:
        value = event.data.get(key)
        if value is None or isinstance(value, bool) or "{" + key in template:
            continue
        if key == "trump" and value == NO_TRUMP:
            added.append(tr(lang, "ev.fact_no_trump"))
        elif key == "widow" and isinstance(value, int):
            added.append(tr(lang, "ev.fact_widow", count=value))
        else:
            added.append(tr(lang, f"ev.fact_{key}", value=params.get(key, value)))
    return " ".join(([told] if told else []) + added)


def _params(event: Event, names: Sequence[str], lang: str, ascii: bool) -> dict[str, Any]:
    """The event's data made readable, plus ``who`` and ``seatno``."""
    who = names[event.seat] if event.seat is not None and 0 <= event.seat < len(names) else ""
    params: dict[str, Any] = {k: show(v, names, lang, ascii, k) for k, v in event.data.items()}
    action = event.data.get("action")
    if isinstance(action, (list, tuple)) and action and isinstance(action[0], str):  # a verb and its args
        params["action"] = " ".join([verb_word(action[0], lang)] + [show(a, names, lang, ascii) for a in action[1:]])
    params["who"] = who
    if event.seat is not None:
        params["seatno"] = event.seat + 1
    card = event.data.get("card")
    if isinstance(card, Card):
        params.setdefault("suit", card.suit.text(ascii))
    if event.kind == "discard" and event.data.get("left") == 0:
        params.pop("left", None)  # the last discard owed: told without "0 more to go" (the .alt entry)
    if "k" in params:
        params.setdefault("count", params["k"])  # french3 names the bought count k
    return params


def _tidy(text: str) -> str:
    """``… 30 к..`` → ``… 30 к.``: money ends in a dot already."""
    text = text.replace(".. ", ". ")
    return text[:-1] if text.endswith("..") else text
