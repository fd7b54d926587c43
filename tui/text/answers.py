"""What the felt shows, said in sentences: the hand, the trick, the seats, the pot, the clock, the turn.

Each answer reads the table only through ``view_at`` — the typed view (``engine.view.View``) of
``Table.view_for``: a seated player's own view, everyone else the public one — and
``Table.log_since`` (public events), so a watcher's answers can never hold a hidden card.  They
read its named fields as the felt does; ``View.extra`` only for what one game keeps beside them
(the leader to play next, a kept last trick).  Used by the text mode (``tui.text.club``) and by
the screen's log (the same questions typed there).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from engine.botnames import is_bot
from engine.cards import Card, Suit
from engine.feed import LogEntry
from engine.game import Action
from engine.table.face import TableLike
from engine.view import View, build_view
from tui.commands import verb_word
from tui.hints import why
from tui.i18n import money, tr
from tui.narrate import narrate
from tui.titles import game_title, stakes

TRICK_ENDS = frozenset({"trick", "trick_won", "lead_failed"})
"""Events that close a trick (engine.trick's ``trick``, Стуколка's ``trick_won``, Копилка's failed lead)."""
TRICK_CARDS = frozenset({"play", "lead"})
LOG_MAX = 100


def cards_text(cards: Iterable[Card], ascii: bool) -> str:
    return ", ".join(c.text(ascii) for c in cards)


def one_of(words: Sequence[str], lang: str) -> str:
    """``a``, ``a or b``, ``a, b or c`` (``или`` in Russian)."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + tr(lang, "text.or") + words[-1]


def view_at(table: TableLike, viewer: str | None, away: Sequence[str] | None = None) -> View:
    """What ``viewer`` may see of ``table`` (his seat's view, else the public one), typed with the game's
    sheet; ``away``: who the club knows is gone (presence is the club's, not the table's)."""
    changes = {"away": list(away)} if away is not None else {}
    return build_view(table.view_for(viewer), table.game_cls.score_view, **changes)


def my_hand(view: View) -> list[Card]:
    return [c for c in view.hand if isinstance(c, Card)]


def names_of(view: View, lang: str) -> list[str]:
    return [n or tr(lang, "table.empty_seat") for n in view.names]


# -- the answers ------------------------------------------------------------------------------


def hand_text(view: View, lang: str, ascii: bool) -> str:
    if view.seat is None:
        return tr(lang, "text.hand_watching")
    hand = my_hand(view)
    seat = view.seat
    hidden = view.seats[seat].count - len(hand) if 0 <= seat < len(view.seats) else 0
    up = view.extra.get("up")
    face_up = [c for c in up[seat] if isinstance(c, Card)] if isinstance(up, list) and seat < len(up) else []
    if hidden > 0:  # cards nobody sees, not even their owner (Спекулянт): held all the same
        line = tr(lang, "text.hand_hidden", count=hidden)
        if face_up:
            line += " " + tr(lang, "text.hand_face_up", listed=cards_text(face_up, ascii))
        return line
    if not hand:
        return tr(lang, "text.hand_empty")
    return tr(lang, "text.hand", listed=cards_text(hand, ascii))


def trick_text(view: View, lang: str, ascii: bool) -> str:
    from tui.widgets.felt import winning_card

    names = names_of(view, lang)
    trick = [(s, c) for s, c in view.trick.cards if isinstance(c, Card)]
    if not trick:
        leader = view.extra.get("leader")  # who leads next: not every game keeps one
        if view.in_deal and isinstance(leader, int) and 0 <= leader < len(names):
            return tr(lang, "text.trick_empty_lead", name=names[leader])
        return tr(lang, "text.trick_empty")
    played = ", ".join(f"{names[s] if 0 <= s < len(names) else '?'} {c.text(ascii)}" for s, c in trick)
    best = winning_card(view)
    line = tr(lang, "table.look_felt", cards=played)
    if isinstance(best, Card) and len(trick) > 1:
        line += " " + tr(lang, "text.trick_best", card=best.text(ascii))
    return line


def last_trick(table: TableLike, view: View) -> list[tuple[int, Card]]:
    """The last finished trick: the game's own ``last_trick`` if it keeps one, else read from the log."""
    kept = view.extra.get("last_trick")
    if kept:
        return [(s, c) for s, c in kept if isinstance(c, Card)]
    current: list[tuple[int, Card]] = []
    last: list[tuple[int, Card]] = []
    for entry in table.log_since(0):
        event = entry.event
        if event.kind == "deal_start":
            current, last = [], []
        elif event.kind in TRICK_CARDS and isinstance(event.data.get("card"), Card) and event.seat is not None:
            current.append((event.seat, event.data["card"]))
        elif event.kind in TRICK_ENDS and current:
            last, current = current, []
    return last


def last_text(table: TableLike, view: View, lang: str, ascii: bool) -> str:
    trick = last_trick(table, view)
    if not trick:
        return tr(lang, "text.last_none")
    names = names_of(view, lang)
    played = ", ".join(f"{names[s] if 0 <= s < len(names) else '?'} {c.text(ascii)}" for s, c in trick)
    return tr(lang, "text.last", listed=played)


def seat_text(view: View, seat: int, lang: str, ascii: bool) -> str:
    """``Seat 2: Boris — dealer, knocked, 1 trick, 3 cards, to act.``"""
    place = view.seats[seat]
    who = place.name or ""
    name = who or tr(lang, "table.empty_seat")
    if seat == view.seat:
        name = tr(lang, "text.you_are", name=name)
    words: list[str] = []
    if seat == view.dealer and (view.deal_no or view.in_deal):
        words.append(tr(lang, "table.dealer"))
    if place.status:
        from tui.widgets.felt import status_words  # "to reveal, holder", "2 tricks", "bid 30": translated

        words.extend(status_words(place.status, lang))
    counted = any(ch.isdigit() for ch in place.status)
    if view.in_deal and not counted:
        words.append(tr(lang, "text.tricks", n=place.tricks))
    if view.in_deal and place.count:
        words.append(tr(lang, "text.cards_held", n=place.count))
    if who and who in view.ready and not view.in_deal:
        words.append(tr(lang, "status.ready_deal"))
    if who and who in view.away:
        words.append(tr(lang, "status.away"))
    if who and who in view.bots and not is_bot(who):
        words.append(tr(lang, "status.bot_plays"))
    if seat in view.to_act:
        words.append(tr(lang, "text.to_act"))
    if who:
        words.append(tr(lang, "text.money", money=money(place.balance, lang)))
    details = (" — " + ", ".join(words)) if words else ""
    return tr(lang, "text.seat", no=seat + 1, name=name, details=details)


def table_texts(table: TableLike, view: View, lang: str, ascii: bool) -> list[str]:
    head = tr(lang, "text.table_head", id=table.id, game=game_title(table, lang),
              deal=view.deal_no)
    lines = [head] + [seat_text(view, seat, lang, ascii) for seat in range(len(view.seats))]
    if table.spectators:
        lines.append(tr(lang, "table.look_watchers", names=", ".join(sorted(table.spectators))))
    return lines


def tables_texts(club: Any, lang: str) -> list[str]:
    """``tables`` as sentences (the screen's columns of dots read badly aloud)."""
    if not club.tables:
        return [tr(lang, "tables.none")]
    lines = []
    for table in club.tables.values():
        taken = len(table.seated())
        lines.append(tr(lang, "text.table_row", id=table.id, game=game_title(table, lang),
                        stakes=stakes(table, lang) or "—", taken=taken, seats=len(table.seats),
                        watching=len(table.spectators),
                        state=tr(lang, "text.playing" if table.in_deal() else "text.waiting")))
    return lines


def pot_text(table: TableLike, view: View, lang: str, ascii: bool) -> str:
    label = f"text.{table.game_cls.pot_name}"
    line = tr(lang, label, pot=money(view.pot, lang))
    trump = view.trump
    if isinstance(trump, Suit):
        line += " " + tr(lang, "table.look_trump", suit=trump.text(ascii))
    return line


def score_text(view: View, lang: str) -> list[str]:
    from tui.widgets.felt import score_text as sheet

    parts = [f"{s.name} {money(s.balance, lang)}" for s in view.seats if s.name]
    lines = [tr(lang, "text.score", money=", ".join(parts))] if parts else [tr(lang, "text.score_none")]
    from tui.widgets.sheet import sheet_sentences

    told = sheet_sentences(view, lang, False)  # the paper sheet in sentences
    points = sheet(view, lang).plain
    if told:
        lines += told
    elif points:
        lines.append(points + ".")
    return lines


def time_text(table: TableLike, view: View, lang: str, now: float) -> str:
    deadline = table.timer_deadline()
    if deadline is None:
        return tr(lang, "text.time_none")
    left = max(0, int(round(deadline - now)))
    names = names_of(view, lang)
    to_act = [names[s] for s in view.to_act if s < len(names)]
    if view.seat in view.to_act:
        return tr(lang, "text.time_you", seconds=left)
    return tr(lang, "text.time_them", seconds=left, names=", ".join(to_act) or "—")


def log_texts(entries: Sequence[LogEntry], count: int, lang: str, ascii: bool) -> list[str]:
    """The last ``count`` told events again (those with a sentence)."""
    lines = [narrate(e.event, e.names, lang, ascii) for e in entries]
    lines = [line for line in lines if line]
    count = max(1, min(count, LOG_MAX))
    return lines[-count:] or [tr(lang, "text.log_none")]


# -- whose turn, and what may be done ------------------------------------------------------------


def action_phrase(legal: Sequence[Action], lang: str, ascii: bool, hand: Sequence[Card] | None = None) -> str:
    """``knock or pass``, ``play 9♣ or 9♦``, ``bid a price of at least 3``; with the hand known, a choice of
    every card in it is ``play any card of your hand``, and any other is listed whole (nothing to guess)."""
    by_verb: dict[str, list[Action]] = {}
    for action in legal:
        by_verb.setdefault(action.verb, []).append(action)
    parts: list[str] = []
    for verb, actions in by_verb.items():
        word = verb_word(verb, lang)
        plain = [a for a in actions if not a.args]
        with_args = [a for a in actions if a.args]
        several = bool(with_args) and any(len(a.args) > 1 for a in with_args)  # a set of cards (buy, discard)
        if plain and not several:
            parts.append(word)
        if len(with_args) == 1 and all(type(x) is int for x in with_args[0].args):
            parts.append(tr(lang, "text.at_least", verb=word, n=with_args[0].args[0]))
        elif several:
            most = max(len(a.args) for a in with_args)
            keep = f"{word} 0" if verb == "buy" else word  # a bare ``buy`` asks which cards (buy_command)
            parts.append(tr(lang, "text.some_cards" if plain else "text.some_cards_must", verb=word, n=most,
                            keep=keep))
        elif with_args:
            shown = [" ".join(x.text(ascii) if isinstance(x, Card) else str(x) for x in a.args) for a in with_args]
            if len(shown) > 12 and hand is not None and {a.args[0] for a in with_args} == set(hand):
                parts.append(tr(lang, "text.any_card", verb=word))
            elif len(shown) > 12 and hand is None:
                parts.append(tr(lang, "text.many", verb=word, count=len(shown)))
            elif all(isinstance(x, Card) for a in with_args for x in a.args):
                parts.append(f"{word} {one_of(shown, lang)}")
            else:  # names or numbers: each with its verb ("accept anna or accept vera"), never a bare word
                parts.extend(f"{word} {x}" for x in shown)
    return one_of(parts, lang)


def why_text(table: TableLike, view: View, legal: Sequence[Action], lang: str, ascii: bool) -> str:
    """Why the choice is narrower than the hand, in the game's own words: ``Game.why_not`` through
    ``tui.hints.why``, the same reason the screen's hint and a refusal give (the rule is written once)."""
    seat, names = view.seat, view.names
    if seat is None or not legal or not (0 <= seat < len(names)) or not names[seat]:
        return ""
    return why(table, names[seat], list(legal), my_hand(view), lang, ascii)


def prompt_text(table: TableLike, view: View, legal: Sequence[Action], lang: str, ascii: bool) -> str:
    """What a seated player is told now: his turn and his choices, whose turn it is (a person's), or to say start."""
    if view.seat is None:
        return ""
    if legal:
        why = why_text(table, view, legal, lang, ascii)
        done = "ready" in table.game_cls.verbs and table.in_deal() and not any(a.verb == "ready" for a in legal)
        said = tr(lang, "text.done_may" if done else "text.your_turn",  # done trading: no longer "your turn"
                  actions=action_phrase(legal, lang, ascii, my_hand(view)), why=f" — {why}" if why else "")
        return " ".join([said] + turn_facts(view, lang, ascii))
    if table.in_deal():
        names = view.names
        people = [names[s] for s in view.to_act if s < len(names) and names[s]
                  and not is_bot(names[s]) and names[s] not in view.bots]
        return tr(lang, "table.hint_wait", names=", ".join(people)) if people else ""  # a bot is quick: not said
    if not table.full():
        return tr(lang, "table.hint_need", count=table.seats.count(None))
    me = view.names[view.seat] if 0 <= view.seat < len(view.names) else ""
    if me in view.ready:  # told exactly what the deal waits for
        others = [n for n in view.names if n and n not in view.ready and not is_bot(n) and n not in view.bots]
        return tr(lang, "text.ready_waiting", names=", ".join(others)) if others else ""
    return tr(lang, "table.hint_ready", ready=len(view.ready), total=len(table.seats))


def turn_facts(view: View, lang: str, ascii: bool) -> list[str]:
    """What a turn depends on, said with it (brief mode too): the trumps and the card led."""
    facts = []
    if isinstance(view.trump, Suit):
        facts.append(tr(lang, "text.turn_trump", suit=view.trump.text(ascii)))
    led = next((c for _s, c in view.trick.cards if isinstance(c, Card)), None)
    if led is not None:
        facts.append(tr(lang, "text.turn_led", card=led.text(ascii)))
    return facts


def whose_turn(table: TableLike, view: View, lang: str, ascii: bool) -> str:
    """``turn`` when nothing is asked of this person: who is to act (bots too), with the trumps and the led card."""
    if not table.in_deal():
        return ""
    names = names_of(view, lang)
    acting = [names[s] for s in view.to_act if 0 <= s < len(names)]
    if not acting:
        return ""
    return " ".join([tr(lang, "text.turn_of", names=one_of(acting, lang))] + turn_facts(view, lang, ascii))


def ask(verb: str, args: Sequence[str], table: TableLike | None, viewer: str | None, lang: str, ascii: bool,
        now: float, is_online: Callable[[str], bool] | None = None) -> list[str]:
    """The answer to ``hand``, ``trick``, ``table``, ``pot``, ``score``, ``time``, ``last`` or ``log N``."""
    if table is None:
        return [tr(lang, "cmd.not_at_table")]
    away = [n for n in table.seated() if not is_bot(n) and not is_online(n)] if is_online is not None else None
    view = view_at(table, viewer, away)
    if verb == "hand":
        return [hand_text(view, lang, ascii)]
    if verb == "trick":
        return [trick_text(view, lang, ascii)]
    if verb == "table":
        return table_texts(table, view, lang, ascii)
    if verb == "pot":
        return [pot_text(table, view, lang, ascii)]
    if verb == "score":
        return score_text(view, lang)
    if verb == "time":
        return [time_text(table, view, lang, now)]
    if verb == "last":
        return [last_text(table, view, lang, ascii)]
    if verb == "log":
        count = int(args[0]) if args and args[0].isdigit() else 10
        return log_texts(table.log_since(0), count, lang, ascii)
    return [tr(lang, "cmd.not_at_table")]
