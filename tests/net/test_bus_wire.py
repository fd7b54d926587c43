"""The bus between nodes speaks typed messages (``net.cluster.wire``): each one encodes and decodes
to itself, and a notice that is not a message of this schema is refused before anyone acts on it."""

from __future__ import annotations

import json

import pytest

from engine.game import Event
from engine.table.changes import CHANGES, Act, Away, Back, Cut, Invite, Say, SetRule, Sit, SitBot, Stand, Start
from net.cluster.wire import (SCHEMA, AwayAsked, AwayState, BusError, Call, NewOwner, Opened, Rail, Reply,
                              Renamed, ReportFiled, TableNews, decode, decode_change, decode_result, encode, encode_result)

EVERY_CHANGE = [Sit("anna", 0), Sit("anna"), SitBot(None), SitBot(2), Stand("anna"), SetRule("anna", "private", "yes"),
                Invite("anna", "boris"), Say("anna", "привет"), Start("anna"), Start("anna", True), Cut("anna", "верба 42"),
                Act("anna", "play Q♠"), Away("anna", "stepped_away"), Back("anna")]

MESSAGES = [Call("B:1", "B", 1, change, until=1700000000.5) for change in EVERY_CHANGE] + [
    Reply("B:1", "B", 1, True, [["play", 0]]),
    Reply("B:2", "B", 1, False, key="table.seat_taken", message="Seat 1 is taken.", params={"seat": 1}),
    TableNews(1, "A", "away", 2, {"name": "anna"}), Rail(1, "A", "vera", "ну и ход"), AwayAsked(1, "B"),
    AwayState(1, "B", ("anna",), ("anna",)), Opened(7, "A"), NewOwner(1, "C"),
    ReportFiled("A", 3, "Anna", "Борис", "[b]грубит[/b] в зале"), Renamed("A", "Anna", "Аня"),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: f"{m.t}")
def test_every_message_decodes_to_itself(message) -> None:
    text = encode(message)
    assert json.loads(text)["v"] == SCHEMA and json.loads(text)["t"] == message.t
    assert decode(text) == message


def test_every_change_has_a_message() -> None:
    assert {c.op for c in EVERY_CHANGE} == set(CHANGES)


@pytest.mark.parametrize("body, why", [
    ({"t": "opened", "table": 7, "node": "A"}, "schema"),
    ({"t": "opened", "v": SCHEMA + 1, "table": 7, "node": "A"}, "schema"),
    ({"t": "shout", "v": SCHEMA, "table": 7}, "unknown type"),
    ({"t": ["opened"], "v": SCHEMA, "table": 7, "node": "A"}, "unknown type"),  # unhashable: no TypeError
    ({"t": {"opened": 1}, "v": SCHEMA, "table": 7, "node": "A"}, "unknown type"),
    ({"t": "opened", "v": SCHEMA, "node": "A"}, "bad opened"),
    ({"t": "opened", "v": SCHEMA, "table": True, "node": "A"}, "bad opened"),
    ({"t": "opened", "v": SCHEMA, "table": "7", "node": "A"}, "table's number"),
    ({"t": "call", "v": SCHEMA, "id": "B:1", "from": "B", "table": 1, "op": "explode", "args": []}, "no change"),
    ({"t": "call", "v": SCHEMA, "id": "B:1", "from": "B", "table": 1, "op": "act", "args": ["anna"]}, "arguments"),
    ({"t": "call", "v": SCHEMA, "id": "B:1", "from": "B", "table": 1, "op": "act", "args": ["anna", 5]}, "a text"),
    ({"t": "call", "v": SCHEMA, "id": "B:1", "from": "B", "table": 1, "op": "sit", "args": ["anna", "1"]},
     "not a number"),
    ({"t": "call", "v": SCHEMA, "id": "B:1", "from": "B", "table": 1, "op": "say", "args": ["anna", "hi"],
      "until": "soon"}, "until"),
    ({"t": "reply", "v": SCHEMA, "id": "B:1", "to": "B", "table": 1, "ok": "yes"}, "ok"),
    ({"t": "rail", "v": SCHEMA, "table": 1, "node": "A", "name": "ve\x1bra", "text": "hi"}, "printable"),
    ({"t": "rail", "v": SCHEMA, "table": 1, "node": "A", "name": "vera", "text": "x" * 1001}, "at most"),
    ({"t": "report", "v": SCHEMA, "node": "A", "id": "3", "reporter": "a", "target": "b", "words": "w"}, "number"),
    ({"t": "report", "v": SCHEMA, "node": "A", "id": -1, "reporter": "a", "target": "b", "words": "w"}, "number"),
    ({"t": "report", "v": SCHEMA, "node": "A", "id": 3, "reporter": "a\x1b", "target": "b", "words": "w"},
     "printable"),
    ({"t": "report", "v": SCHEMA, "node": "A", "id": 3, "reporter": "a", "target": "", "words": "w"}, "printable"),
    ({"t": "renamed", "v": SCHEMA, "node": "A", "old": "Anna", "new": "x" * 65}, "at most"),
    ({"t": "renamed", "v": SCHEMA, "node": "A", "old": "Anna"}, "bad renamed"),
])
def test_a_notice_that_is_not_a_message_of_this_schema_is_refused(body, why) -> None:
    with pytest.raises(BusError) as caught:
        decode(json.dumps(body))
    assert why in str(caught.value)


def test_what_is_not_json_or_not_an_object_is_refused() -> None:
    for text in ("{", "[1, 2]", "null"):
        with pytest.raises(BusError):
            decode(text)


def test_results_travel_as_the_tables_methods_return_them() -> None:
    events = [Event("play", 0, {"card": "Q♠"}), Event("trick", None, {})]
    wire = json.loads(json.dumps(encode_result(Act("anna", "play Q♠"), events)))
    assert decode_result(Act("anna", "play Q♠"), wire) == [Event("play", 0, {}), Event("trick", None, {})]
    assert decode_result(Sit("anna"), encode_result(Sit("anna"), 2)) == 2
    assert decode_result(SitBot(), encode_result(SitBot(), "bot-3")) == "bot-3"
    assert decode_result(Say("anna", "hi"), encode_result(Say("anna", "hi"), True)) is True
    assert decode_result(Stand("anna"), encode_result(Stand("anna"), object())) is None
    with pytest.raises((TypeError, ValueError)):
        decode_result(Sit("anna"), None)


def test_a_change_is_read_with_its_optional_arguments() -> None:
    assert decode_change("sit", ["anna"]) == Sit("anna")
    assert decode_change("away", ["anna"]) == Away("anna", "away")
    assert decode_change("set_rule", ["anna", "seats", 4]) == SetRule("anna", "seats", 4)
    assert decode_change("start", ["anna"]) == Start("anna", by_ear=False)
    assert decode_change("start", ["anna", True]) == Start("anna", by_ear=True)
    with pytest.raises(ValueError, match="true or false"):
        decode_change("start", ["anna", 1])
