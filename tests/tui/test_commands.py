"""The command language alone: aliases, bare cards, suggestions, completion; the catalogue."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.game import Action
from tui import commands
from tui.commands import UnknownCommand, action_text, complete, parse
from tui.i18n import en, money, pick_lang, ru, tr


@pytest.mark.parametrize("line,verb,args", [
    ("стук", "knock", ()), ("пас", "pass", ()), ("голец", "golets", ()), ("ход Д♠", "play", ("Д♠",)),
    ("play qs", "play", ("qs",)), ("купить шлейф", "buy", ("shlejf",)), ("сесть 1 2", "sit", ("1", "2")),
    ("next", "start", ()), ("LOOK", "look", ()),
])
def test_aliases_map_to_engine_verbs(line, verb, args):
    command = parse(line)
    assert (command.verb, command.args) == (verb, args)


def test_say_keeps_the_raw_text_and_quote_is_say():
    assert parse("say  hello   there").rest == "hello   there"
    assert parse("'привет всем").verb == "say"


def test_bare_card_is_play_and_unknown_word_suggests():
    command = parse("дп")
    assert command.card == parse_card("Q♠") and action_text(command) == "play дп"
    with pytest.raises(UnknownCommand) as err:
        parse("lokk")
    assert "look" in err.value.suggest
    assert parse("   ") is None


def test_completion_of_verbs_and_legal_cards():
    assert complete("tab") == ("tables ", [])
    line, options = complete("s")
    assert line == "s" and {"sit", "say", "stand", "start", "sell"} & set(options) == {"sit", "say", "stand", "start"}
    legal = [Action("play", (parse_card("Q♠"),)), Action("play", (parse_card("Q♥"),)),
             Action("play", (parse_card("9♣"),)), Action("pass")]
    assert complete("play 9", legal=legal) == ("play 9♣", [])
    line, options = complete("ход q", legal=legal)
    assert line == "ход Q" and options == ["Q♠", "Q♥"]
    assert complete("play qh", legal=legal, ascii=True) == ("play QH", [])
    assert complete("sit ", tables=[1, 2])[1] == ["1", "2"]


def test_catalogues_have_the_same_keys_and_format():
    assert set(en.MESSAGES) == set(ru.MESSAGES)
    for key in en.MESSAGES:
        tr("en", key), tr("ru", key)  # formatting with no params never raises


def test_money_and_lang():
    assert money(120, "ru") == "1 р. 20 к."
    assert money(30, "ru") == "30 к."
    assert money(-200, "ru") == "-2 р."
    assert pick_lang("ru_RU.UTF-8") == "ru" and pick_lang(None) == "en" and pick_lang("C") == "en"
    assert all(v in commands.ALIASES for v in commands.GAME_VERBS)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_event_of_every_game_is_told_in_a_sentence(lang):
    """Random play of each registered game; every event narrates with all its blanks filled."""
    import random

    from engine.table.club import Club
    from engine.games import registry
    from tui.narrate import narrate

    for game_name in registry():
        club = Club([{"game": game_name}], seed=2)
        table = club.tables[1]
        for i in range(len(table.seats)):
            table.sit(f"p{i}")
            table.start(f"p{i}", now=0.0)
        rng = random.Random(4)
        for step in range(150):
            table.tick(float(step))
            if not table.in_deal():
                for name in table.seated():
                    table.start(name, now=float(step))
                if not table.in_deal():
                    break
            seat = rng.choice(table.game.to_act())
            table.act(table.game.names[seat], rng.choice(table.game.legal_actions(seat)).text(), now=float(step))
        for entry in table.log_since(0):
            line = narrate(entry.event, entry.names, lang)
            assert "{" not in line and "=" not in line, (game_name, entry.event, line)


def test_the_felt_marks_the_card_the_view_says_wins():
    """Issue 14: who wins a trick is ``engine.trick``'s (the games put it in the view as ``best``);
    the felt draws what the view says, never judges — so Game C's own order shows too."""
    from engine.cards import Suit
    from engine.trick import winning
    from tui.widgets.felt import render_felt, winning_card

    c = parse_card
    trick = [[0, c("K♣")], [1, c("A♣")], [2, c("2♥")]]
    assert winning(trick, None) == (1, c("A♣")) and winning(trick, Suit.HEARTS) == (2, c("2♥"))
    assert winning_card({"trick": trick}) is None  # no ``best`` in the view: nothing marked
    view = {"trick": trick, "best": c("K♣"), "names": ["a", "b", "c"], "hand_counts": [1, 1, 1], "to_act": [0]}
    assert winning_card(view) == c("K♣")
    felt = render_felt(view, 0, "en", False, 80).plain
    assert "║K♣ ║" in felt and "║A♣ ║" not in felt and "▶ you" in felt


@pytest.mark.parametrize("word", ["10h", "8s", "9ч", "тк", "10♥", "Tc"])
def test_a_card_with_a_digit_or_a_russian_letter_is_a_card(word):
    """Issue 13 item 1: what ``help cards`` teaches parses as a card, never as a hand position."""
    command = parse(word)
    assert command.card == parse_card(word) and command.verb == "play"


def test_help_completes_this_games_words_too():
    assert complete("help gol", game_verbs=["knock", "golets"]) == ("help golets", [])
    assert complete("help ta", game_verbs=["take"])[1] == ["table", "take"]


@pytest.mark.parametrize("word,verb", [("lead", "play"), ("кладу", "play"), ("открываю", "open"), ("offer", "sell"),
                                       ("done", "ready"), ("дать", "bid")])
def test_the_logs_own_verbs_are_commands(word, verb):
    """Issue 13 item 5: «anna leads Q♠», «offers the card for sale», «is ready: done trading» can be typed back."""
    assert parse(word).verb == verb
