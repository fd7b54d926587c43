"""The "You may: …" line as a person would say it.

``actions_hint`` groups the legal actions by verb and names their arguments the
way they are typed: every card (``play 9♣/4♣``, or ``play any card``), a price
(``bid N — at least 1 k.``), the cards a ``buy`` gives (``buy 0`` keeps the
hand).  ``why`` says why a rule narrows the choice, from the engine's own
reason for a card that is barred (``Game.why_not``), so the hint and the
refusal never disagree.  ``prompt`` puts them together with the game's own
words where a bare list would not be understood (Копилка's exchange).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

from engine.cards import Card
from engine.game import Action, IllegalAction
from engine.games import view_of
from engine.view import PartiyaSheet, View
from tui.commands import show_action, verb_word
from tui.i18n import has, money, tr
from tui.refusals import explain, params_for

class Judge(Protocol):
    """What a hint asks of a table: its game's verbs and why an action would be refused now.

    A ``Table`` is one; so is an ``engine.view.Snapshot``, which is what a widget holds."""

    @property
    def game_name(self) -> str: ...

    @property
    def verbs(self) -> Mapping[str, str]: ...

    def why_not(self, name: str, action: Action) -> IllegalAction | None: ...


MAX_LISTED = 12
"""At most this many choices of one verb are listed; more read as ``play …``."""


def _arg_text(value: Any, ascii: bool) -> str:
    return value.text(ascii) if isinstance(value, Card) else str(value)


def _cards_of(hand: Sequence[Card], cards: set[Card]) -> list[Card]:
    """``cards`` in the order of the hand (as the player sees them), then any others."""
    return [c for c in hand if c in cards] + sorted(c for c in cards if c not in hand)


def actions_hint(legal: list[Action], lang: str, ascii: bool, hand: Sequence[Card] = ()) -> str:
    """``knock · pass · play 9♣/4♣`` — the legal actions, grouped by verb, every choice named."""
    by_verb: dict[str, list[Action]] = {}
    for action in legal:
        by_verb.setdefault(action.verb, []).append(action)
    parts = []
    for verb, actions in by_verb.items():
        word = verb_word(verb, lang)
        with_args = [a for a in actions if a.args]
        plain = [a for a in actions if not a.args]
        cards_buy = verb == "buy" and any(all(isinstance(x, Card) for x in a.args) for a in with_args)
        priced = len(with_args) == 1 and all(type(x) is int for x in with_args[0].args) and verb in ("bid", "sell")
        if priced:  # a price: the one listed action stands for every price from it up (Спекулянт)
            key = f"hint.price_{verb}_opt" if plain and has(lang, f"hint.price_{verb}_opt") else f"hint.price_{verb}"
            parts.append(tr(lang, key, verb=word, least=money(with_args[0].args[0], lang)))
            continue
        if plain and cards_buy:
            parts.append(tr(lang, "hint.buy_keep", verb=word))
        elif plain:
            parts.append(show_action(plain[0], lang, ascii))
        if cards_buy:
            most = max(len(a.args) for a in with_args if all(isinstance(x, Card) for x in a.args))
            low = sorted(hand or {x for a in with_args for x in a.args}, key=lambda c: (c.rank, c.suit))[:min(2, most)]
            example = " ".join([word] + [c.text(ascii) for c in low])
            parts.append(tr(lang, "hint.buy_cards", verb=word, most=most, example=example))
            others = [a for a in with_args if not all(isinstance(x, Card) for x in a.args)]
            parts += [show_action(a, lang, ascii) for a in others]
            continue
        if not with_args:
            continue
        singles = [a.args[0] for a in with_args if len(a.args) == 1]
        if len(singles) == len(with_args) and all(isinstance(c, Card) for c in singles):
            cards = set(singles)
            if len(cards) > 1 and hand and cards == set(hand):
                parts.append(tr(lang, "hint.any_card", verb=word))
                continue
            shown = [c.text(ascii) for c in _cards_of(hand, cards)]
            if len(shown) > MAX_LISTED:
                parts.append(f"{word} …")
            else:
                parts.append(f"{word} " + "/".join(shown))
            continue
        if len(with_args) > MAX_LISTED:
            parts.append(f"{word} …")
        else:
            rest = [" ".join(_arg_text(x, ascii) for x in a.args) for a in with_args]
            parts.append(f"{word} " + "/".join(rest))
    return " · ".join(parts)


def why(table: Judge, name: str, legal: list[Action], hand: Sequence[Card], lang: str, ascii: bool) -> str:
    """Why a rule narrows the choice now: the cards (``you must follow ♣ (R41)``), else a verb the game
    usually allows (``the dealer must play…``, ``the best card is yours…``); '' when nothing is narrowed."""
    return _why_cards(table, name, legal, hand, lang, ascii) or _why_verbs(table, name, legal, lang, ascii)


def _short(err: IllegalAction, lang: str, ascii: bool) -> str:
    return tr(lang, f"why.{err.key}", **params_for(err, lang, ascii)) if err.key and has(lang, f"why.{err.key}") else ""


def _why_verbs(table: Judge, name: str, legal: list[Action], lang: str, ascii: bool) -> str:
    """A verb taking nothing (or an optional price) that is barred now by a rule with a short reason."""
    if not legal:
        return ""
    allowed = {a.verb for a in legal}
    for verb, kind in table.verbs.items():
        if verb in allowed or kind not in ("", "int?", "int"):
            continue
        err = table.why_not(name, Action(verb))
        if err is not None and err.key.startswith(table.game_name + "."):
            reason = _short(err, lang, ascii)
            if reason:
                return reason
    return ""


def _why_cards(table: Judge, name: str, legal: list[Action], hand: Sequence[Card], lang: str, ascii: bool) -> str:
    if "play" not in table.verbs or not hand:
        return ""
    playable = {a.args[0] for a in legal if a.verb == "play" and len(a.args) == 1}
    verbs = {a.verb for a in legal}
    if not playable and not (verbs and verbs <= {"draw", "pass"}):
        return ""  # not a moment of playing cards (bidding, buying, the exchange)
    barred = [c for c in hand if c not in playable]
    if not barred:
        return ""
    reasons: list[IllegalAction] = []
    for card in barred:
        err = table.why_not(name, Action("play", (card,)))
        if err is not None:
            reasons.append(err)
            if err.key != "ukr_pairs.jack_is_trump":  # the rule for the suit, not for one jack
                break
    if not reasons:
        return ""
    err = next((e for e in reasons if e.key != "ukr_pairs.jack_is_trump"), reasons[0])
    if err.key in ("refuse.not_held", "refuse.cannot", "refuse.not_allowed"):
        return ""  # no rule of the game: nothing to explain
    return _short(err, lang, ascii) or explain(err, lang, ascii)


def prompt(table: Judge, name: str, view: View | Mapping[str, Any], legal: list[Action], lang: str,
           ascii: bool) -> str:
    """The whole hint for a player whose turn it is (his typed view, or a view dict: ``engine.view.view_of``)."""
    view = view_of(view)
    hand = list(view.hand)
    special = _game_prompt(table, view, legal, hand, lang, ascii)
    if special:
        return special
    text = tr(lang, "table.hint_act", actions=actions_hint(legal, lang, ascii, hand))
    reason = why(table, name, legal, hand, lang, ascii)
    return f"{text} — {reason}" if reason else text


def _game_prompt(table: Judge, view: View, legal: list[Action], hand: list[Card],
                 lang: str, ascii: bool) -> str:
    """Копилка's exchange in words: whose face-down cards to take, how many discards are owed."""
    verbs = {a.verb for a in legal}
    names = view.names
    if verbs == {"take"}:
        sheet = view.sheet
        giver = sheet.taking_from if isinstance(sheet, PartiyaSheet) else None
        places = sorted(a.args[0] for a in legal)
        row = next((r for r in sheet.laid if r.giver == giver), None) if isinstance(sheet, PartiyaSheet) else None
        laid = len(row.places) if row else len(places)
        free = f"{places[0]}–{places[-1]}" if places == list(range(places[0], places[-1] + 1)) and len(places) > 1 \
            else "/".join(map(str, places))
        who = names[giver] if giver is not None and giver < len(names) else "?"
        return tr(lang, "hint.kopilka_take", giver=who, n=laid, left=len(places), places=free,
                  verb=verb_word("take", lang))
    if verbs == {"discard"}:
        seat = view.seat
        owed = view.extra.get("owed_discards") or []  # Копилка's own: no typed field
        n = owed[seat] if seat is not None and seat < len(owed) else 1
        cards = "/".join(c.text(ascii) for c in _cards_of(hand, {a.args[0] for a in legal}))
        return tr(lang, "hint.kopilka_discard", n=n, verb=verb_word("discard", lang), cards=cards)
    return ""
