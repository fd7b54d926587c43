"""The text mode's club without SSH (issue 17): questions, settings, prompts, the bell, chat, refusals.

A ``TextClub`` on an in-process club, its lines collected; the table is driven
through the same ``Table`` calls the bots and the clock use.  Every answer is
compared with what the table itself holds.
"""

from __future__ import annotations

from engine.table.club import Club
from engine.game import SPECTATOR
from tui.text.club import TextClub
from tui.text.prefs import Prefs


def seated(lang: str = "en", clock: int = 0, **kwargs) -> tuple[Club, TextClub, list[str]]:
    club = Club([{"game": "stukolka", "think": 0, "clock": clock}], seed=11)
    lines: list[str] = []
    person = TextClub(club, "anna", write=lines.append, lang=lang, clock=lambda: 100.0, **kwargs)
    person.wake = lambda: person.news()
    person.start()
    for line in ("sit 1", "sit bot", "sit bot", "sit bot"):
        person.line(line)
    return club, person, lines


def after(lines: list[str], mark: int) -> list[str]:
    return lines[mark:]


def play_until_play_phase(club: Club, person: TextClub) -> None:
    table = club.tables[1]
    person.line("start")
    for _ in range(40):
        if table.in_deal() and table.game.phase == "play" and person.legal():
            return
        legal = person.legal()
        if legal:
            person.line(legal[0].text())
        club.tick(1e6)
        if not table.in_deal():
            person.line("start")
    raise AssertionError("never reached play with Anna to move")


def test_the_prompt_says_whose_turn_and_what_may_be_done_and_the_bell_rings_once() -> None:
    rings: list[int] = []
    club, person, lines = seated(bell=lambda: rings.append(1))
    mark = len(lines)
    play_until_play_phase(club, person)
    prompts = [line for line in after(lines, mark) if line.startswith("Your turn. You may ")]
    assert prompts and len(rings) >= 1
    last = prompts[-1]
    legal = [a.args[0].text() for a in person.legal() if a.verb == "play"]
    assert all(card in last for card in legal)
    table = club.tables[1]
    view = table.view_for("anna")
    if view["trick"] and len(legal) < len(view["hands"][0]):
        assert " — you must " in last
    before = len(rings)
    person.line("hand")  # asking again does not ring
    person.news()
    assert len(rings) == before


def test_questions_are_answered_from_the_table_in_both_languages() -> None:
    club, person, lines = seated()
    play_until_play_phase(club, person)
    table = club.tables[1]
    view = table.view_for("anna")
    mark = len(lines)
    for question in ("hand", "trick", "table", "pot", "score", "time", "last", "log 3"):
        person.line(question)
    told = after(lines, mark)
    assert told[0] == "Your hand: " + ", ".join(c.text() for c in view["hands"][0]) + "."
    assert any(line.startswith("Table 1, ") and f"deal {view['deal_no']}" in line for line in told)
    assert sum(line.startswith("Seat ") for line in told) == 4
    assert any(line.startswith("The pot holds ") for line in told)
    assert any(line.startswith("Money at this table: ") for line in told)
    assert "No clock is running." in told
    assert 3 <= len(told) - told.index("No clock is running.") - 1 <= 4  # last, then three log lines
    person.line("lang ru")
    mark = len(lines)
    for question in ("рука", "стол", "банк", "время"):
        person.line(question)
    told = after(lines, mark)
    assert told[0].startswith("У вас на руке: ")
    assert any(line.startswith("Место 1: anna (вы)") for line in told)
    assert any(line.startswith("На кону ") for line in told)
    assert "Часы не идут." in told
    assert table.view_for(None)["viewer"] == SPECTATOR


def test_time_tells_the_clock_of_the_player_to_act() -> None:
    club, person, lines = seated(clock=30)
    play_until_play_phase(club, person)
    mark = len(lines)
    person.line("time")
    (line,) = after(lines, mark)
    assert line.startswith("You have ") and line.endswith(" seconds left.")


def test_cards_in_words_brief_and_chat_with_its_prefix() -> None:
    saved: dict[str, str] = {}
    prefs = Prefs(save=lambda k, v: saved.__setitem__(k, v))
    club, person, lines = seated(prefs=prefs)
    person.line("cards words")
    person.line("brief on")
    assert saved == {"cards": "words", "brief": "on"}
    play_until_play_phase(club, person)
    person.line("hand")
    assert lines[-1].startswith("Your hand: ") and "♠" not in lines[-1] and " of " in lines[-1]
    club.tables[1].say("bot-Mitya", "ну что же")
    assert lines[-1] == "[chat] bot-Mitya says: ну что же"
    told = "\n".join(lines[lines.index("From now on you hear only your turns, the results and the chat."):])
    assert " knocks." not in told and " passes." not in told  # brief: other players' declarations are not told
    person.line("brief off")
    person.line("карты значки")
    assert saved == {"cards": "symbols", "brief": "off"}


def test_refusals_say_why_and_what_may_be_done_and_unknown_words_are_answered() -> None:
    club, person, lines = seated()
    play_until_play_phase(club, person)
    table = club.tables[1]
    hand = table.view_for("anna")["hands"][0]
    playable = {a.args[0] for a in person.legal() if a.verb == "play"}
    wrong = [c for c in hand if c not in playable]
    assert wrong  # seed 11: a club was led and Anna holds spades too
    person.line(f"play {wrong[0].text()}")
    assert "(R41)" in lines[-1] and "You may play " in lines[-1]
    person.line("frobnicate")
    assert lines[-1] == "I do not know 'frobnicate'. Type help for the commands."
    person.line("bell")
    assert lines[-1] == "The bell is on. Type bell on or bell off."
    person.line("mode fancy")
    assert lines[-1] == "The mode is text now. Type mode text or mode screen."


def test_mode_screen_asks_the_session_and_says_so_when_it_cannot() -> None:
    asked: list[str] = []
    club, person, lines = seated(on_mode=lambda mode: asked.append(mode) or False)
    person.line("mode screen")
    assert asked == ["screen"]
    assert lines[-2].startswith("Screen mode from now on")
    assert lines[-1].startswith("This connection has no terminal for the screen")


def test_a_watcher_hears_the_table_and_no_hand() -> None:
    club, person, lines = seated()
    watcher_lines: list[str] = []
    watcher = TextClub(club, "vera", write=watcher_lines.append)
    watcher.wake = lambda: watcher.news()
    watcher.start()
    watcher.line("watch 1")
    play_until_play_phase(club, person)
    watcher.line("hand")
    assert watcher_lines[-1] == "You are watching: you hold no cards here."
    assert not any(line.startswith("Your hand") or line.startswith("Your turn") for line in watcher_lines)
    assert any(" knocks." in line or " passes." in line for line in watcher_lines)
    watcher.line("leave")
    assert "vera" not in club.tables[1].spectators
    watcher.stop()
    assert not club.is_online("vera")


def test_whose_turn_a_person_is_waited_for_is_said_but_not_in_brief() -> None:
    club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=11)
    people: dict[str, tuple[TextClub, list[str]]] = {}
    for name in ("anna", "boris"):
        lines: list[str] = []
        person = TextClub(club, name, write=lines.append, clock=lambda: 100.0)
        person.wake = person.news
        person.start()
        person.line("sit 1")
        people[name] = (person, lines)
    anna, anna_lines = people["anna"]
    boris, boris_lines = people["boris"]
    anna.line("sit bot")
    anna.line("sit bot")
    table = club.tables[1]
    anna.line("start")
    boris.line("start")
    waited = False
    for _ in range(60):
        if not table.in_deal():
            break
        for person in (anna, boris):
            if person.legal():
                other_lines = boris_lines if person is anna else anna_lines
                waited = waited or f"Waiting for {person.player}." in other_lines
                person.line(person.legal()[0].text())
                break
        club.tick(1e6)
    assert waited
    boris.line("brief on")
    mark = len(boris_lines)
    anna.line("start")
    boris.line("start")
    for _ in range(60):
        if not table.in_deal():
            break
        for person in (anna, boris):
            if person.legal():
                person.line(person.legal()[0].text())
                break
        club.tick(1e6)
    assert not [line for line in boris_lines[mark:] if line.startswith("Waiting for")]


def test_a_choice_of_several_cards_is_said_in_words_not_listed() -> None:
    """Стуколка 58.б's buy: give up 0–3 cards (R47) — said as such, not as eight lists of cards."""
    from tui.text.answers import action_phrase
    from engine.game import Action
    from engine.cards import parse_card

    a, b, c = (parse_card(x) for x in ("9♣", "4♦", "K♥"))
    legal = [Action("buy"), Action("buy", (a,)), Action("buy", (b,)), Action("buy", (a, b)), Action("buy", (a, b, c))]
    assert action_phrase(legal, "en", False) == "buy and the cards you give up (at most 3 cards; buy 0 keeps yours)"
    assert action_phrase(legal, "ru", False) == (
        "купить и сносимые карты (не больше 3 карт; купить 0 — оставить свои)")
    assert action_phrase([Action("knock"), Action("pass")], "ru", False) == "стук или пас"
    assert action_phrase([Action("play", (a,)), Action("play", (b,)), Action("play", (c,))], "en", False) == (
        "play 9♣, 4♦ or K♥")


def test_no_colour_unless_asked_then_red_suits_only() -> None:
    saved: dict[str, str] = {}
    club, person, lines = seated(prefs=Prefs(save=lambda k, v: saved.__setitem__(k, v)))
    play_until_play_phase(club, person)
    assert not any("\x1b" in line for line in lines)
    person.line("colour on")
    assert saved == {"colour": "on"}
    club.tables[1].say("bot-Mitya", "10♥ K♠ A♦")
    assert lines[-1] == "[chat] bot-Mitya says: \x1b[31m10♥\x1b[39m K♠ \x1b[31mA♦\x1b[39m"
    person.line("цвет выкл")
    club.tables[1].say("bot-Mitya", "10♥")
    assert lines[-1] == "[chat] bot-Mitya says: 10♥" and saved == {"colour": "off"}


def test_tables_are_told_as_sentences() -> None:
    club, person, lines = seated()
    person.line("tables")
    assert lines[-1] == "Table 1: Stukolka (а), stakes 30 k., 4 of 4 seats taken, 0 watching, no deal now."
    person.line("lang ru")
    person.line("столы")
    assert lines[-1].startswith("Стол 1: Стуколка (а), ставка 30 к., занято мест 4 из 4, зрителей 0")


def test_history_and_replay_tell_a_finished_game(tmp_path) -> None:
    """``replay N`` in text mode: the record's events as the log told them, then every hand as dealt."""
    from engine.store.opening import open_store

    store = open_store(tmp_path)
    try:
        store.create_account("anna", grant=100_000)
        club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=3, store=store, now=0.0)
        lines: list[str] = []
        person = TextClub(club, "anna", write=lines.append)
        person.wake = person.news
        person.start()
        for line in ("sit 1", "sit bot", "sit bot", "sit bot", "start"):
            person.line(line)
        table = club.tables[1]
        while table.in_deal():
            if person.legal():
                person.line(person.legal()[0].text())
            club.tick(1e6)
        told = [line for line in lines if line.startswith("Deal 1: ") or " takes trick " in line]
        person.line("stand")
        record = store.history("anna")[0].id
        mark = len(lines)
        person.line(f"replay {record}")
        replay = lines[mark:]
        assert replay[0] == f"Record {record}, deal 1 of 1:"
        assert [line for line in replay if line in told] == told  # the same sentences, in the same order
        assert sum(" was dealt " in line for line in replay) == 4
        assert any(line.startswith("After deal 1 of 1: ") for line in replay)  # the money, as a sentence
        person.line("replay 999")
        assert lines[-1] == "There is no record 999."
    finally:
        store.close()


def test_the_answers_read_the_typed_view_each_seat_as_the_game_holds_it() -> None:
    """Issue 14: the text mode reads the typed view (``engine.view.View``), the felt's, not the view's dict."""
    from engine.view import View
    from tui.i18n import money, tr
    from tui.text import answers

    club, person, _lines = seated()
    play_until_play_phase(club, person)
    table = club.tables[1]
    game = table.game
    bot = table.seats[1]
    view = answers.view_at(table, "anna", away=[bot])
    assert isinstance(view, View) and answers.my_hand(view) == list(game.hands[0])
    assert answers.view_at(table, None).hand == ()  # a watcher holds no card
    for seat in range(4):
        said = answers.seat_text(view, seat, "en", True)
        assert said.startswith(f"Seat {seat + 1}: {table.seats[seat]}{' (you)' if seat == 0 else ''} — ")
        held = len(game.hands[seat])
        assert (f"{held} card{'s' if held != 1 else ''} in hand" in said) == bool(held)
        assert f"money {money(game.balances[seat], 'en')}" in said
        assert ("away" in said.split(" — ")[1].split(", ")) == (seat == 1)  # the club's presence, given
        assert ("to act" in said) == (seat in game.to_act())
    assert answers.hand_text(view, "en", True) == "Your hand: " + ", ".join(c.text(True) for c in game.hands[0]) + "."
    watcher = answers.view_at(table, None)
    assert answers.hand_text(watcher, "en", True) == tr("en", "text.hand_watching")
    assert answers.prompt_text(table, watcher, [], "en", True) == ""  # a watcher is asked nothing
