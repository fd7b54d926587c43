"""A bot waiting in the hall hears ``table_started`` when a table of its game gathers, once per gathering, and
a bot that left its own table hears when a deal begins there; every line valid against its schema."""

from __future__ import annotations

from botharness import Wire, club_with_store
from schemacheck import check

TABLES = [{"game": "kopilka", "seats": 4, "clock": 0, "think": 0},
          {"game": "stukolka", "seats": 4, "clock": 0, "think": 0}]


def welcomed(club, accounts, name: str) -> Wire:
    wire = Wire(club, accounts, f"SHA256:{name}", lambda: 0.0, on_send=check)
    wire.session.hello()
    wire.send({"type": "hello", "name": name})
    assert [m["type"] for m in wire.take()] == ["hello", "welcome"]
    return wire


def kinds(messages: list[dict]) -> list[str]:
    return [m["type"] for m in messages]


def test_a_waiting_bot_is_told_once_when_a_table_of_its_game_gathers(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, TABLES)
    waiter, other = welcomed(club, accounts, "Kolobok"), welcomed(club, accounts, "Pirozhok")
    waiter.send({"type": "wait", "game": "kopilka"})
    assert waiter.take() == [{"type": "waiting", "game": "kopilka"}]  # nobody gathers yet

    other.send({"type": "sit", "table": 2})  # the other game: not told
    other.send({"type": "start", "table": 2})
    other.send({"type": "stand", "table": 2})
    other.send({"type": "sit", "table": 1})
    assert waiter.take() == []  # seated, not yet ready: not gathering
    other.send({"type": "start", "table": 1})
    assert waiter.take() == [{"type": "table_started", "table": 1, "game": "kopilka",
                              "options": {"D": 20, "S": 5, "Z": 5, "V♠": 1, "V♣": 2, "V♦": 3, "V♥": 4, "M": 2},
                              "seats": ["Pirozhok", None, None, None], "free": [1, 2, 3]}]
    club.sit_bot(1)
    assert waiter.take() == []  # still the same gathering: told once
    other.take()
    other.send({"type": "stand", "table": 1})  # it stops gathering…
    other.send({"type": "sit", "table": 1, "seat": 2})
    other.send({"type": "start", "table": 1})  # …and gathers again: told again
    (again,) = waiter.take()
    assert again["type"] == "table_started" and again["seats"][2] == "Pirozhok"
    assert again["free"] == [i for i, name in enumerate(again["seats"]) if name is None] != []

    waiter.send({"type": "sit", "table": 1, "seat": 1})  # seated: it waits no more
    assert kinds(waiter.take())[:2] == ["seated", "state"]
    waiter.send({"type": "stand", "table": 1})
    assert kinds(waiter.take())[-1] == "stood"
    other.send({"type": "stand", "table": 1})
    other.send({"type": "sit", "table": 1})
    other.send({"type": "start", "table": 1})
    assert waiter.take() == []


def test_waiting_for_any_game_tells_at_once_what_gathers_now_and_an_unknown_game_is_refused(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, TABLES)
    waiter, other = welcomed(club, accounts, "Kolobok"), welcomed(club, accounts, "Pirozhok")
    other.send({"type": "sit", "table": 2, "seat": 3})
    other.send({"type": "start", "table": 2})
    waiter.send({"type": "wait", "game": "poker"})
    (refusal,) = waiter.take()
    assert refusal["key"] == "bot.no_game" and refusal["reply"] == "wait"
    assert refusal["text"] == ("There is no game 'poker' to wait for; the club's games: french3, kopilka, "
                               "speculator, stukolka, ukr_pairs.")
    waiter.send({"type": "wait"})  # no race: what gathered before the wait is told with its answer
    assert waiter.take() == [{"type": "waiting", "game": None},
                             {"type": "table_started", "table": 2, "game": "stukolka",
                              "options": {"variant": "a", "a": 30, "b": 30, "rounds": None, "dark": False,
                                          "razrez": False, "remiz_cap": 0},
                              "seats": [None, None, None, "Pirozhok"], "free": [0, 1, 2]}]


def test_a_bot_that_left_its_table_is_told_once_when_a_deal_begins_there(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, TABLES[:1])
    bot, other = welcomed(club, accounts, "Kolobok"), welcomed(club, accounts, "Pirozhok")
    bot.send({"type": "sit", "table": 1, "seat": 0})
    bot.send({"type": "start", "table": 1})
    bot.send({"type": "leave", "table": 1})
    assert kinds(bot.take())[-1] == "left"
    other.send({"type": "sit", "table": 1, "seat": 1})
    other.send({"type": "start", "table": 1})
    club.sit_bot(1)
    assert bot.take() == []
    club.sit_bot(1)  # the last seat: the deal begins
    table = club.tables[1]
    assert table.in_deal()
    (notice,) = bot.take()
    assert notice == {"type": "table_started", "table": 1, "game": "kopilka", "options": notice["options"],
                      "seats": ["Kolobok", "Pirozhok", "bot-Mitya", "bot-Vanya"], "free": [], "seat": 0,
                      "deal": 1}
    for name in ("bot-Mitya", "bot-Vanya"):  # more of the deal: not told again
        if table.legal_actions(name):
            table.act(name, table.legal_actions(name)[0].text())
    assert bot.take() == []
    bot.send({"type": "sit", "table": 1})  # back at its table: its view, and its turn if it has one
    back = bot.take()
    assert kinds(back)[:2] == ["seated", "state"]
    assert ("turn" in kinds(back)) == bool(table.legal_actions("Kolobok"))
