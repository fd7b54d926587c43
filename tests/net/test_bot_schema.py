"""docs/bot-protocol.md, docs/schema/*.json and the code agree (issue 19).

Every message type the code sends or accepts has a schema and a section of
the document; every field of a schema is named in its section; every example
of the document validates; the code's field checks are the schemas'; and
every message of whole deals of every game, played through the protocol in
this process, validates against its schema.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from botharness import club_with_store, play_deals
from schemacheck import SCHEMAS, check, load, problems

from engine.bots import make_bot
from net.modes.botwire import CLIENT_TYPES, SERVER_TYPES

DOC = Path(__file__).parent.parent.parent / "docs" / "bot-protocol.md"


def sections() -> dict[str, dict[str, str]]:
    """{"client": {type: text}, "server": {…}} from the document's two parts."""
    text = DOC.read_text(encoding="utf-8")
    client = text.split("## Client messages", 1)[1].split("## Server messages", 1)[0]
    server = text.split("## Server messages", 1)[1].split("\n## ", 1)[0]
    out = {}
    for side, part in (("client", client), ("server", server)):
        pieces = re.split(r"^### `([a-z_]+)`$", part, flags=re.M)
        out[side] = {pieces[i]: pieces[i + 1] for i in range(1, len(pieces), 2)}
    return out


def test_every_type_has_a_schema_and_a_section_and_nothing_else_does():
    expected = {f"client.{t}" for t in CLIENT_TYPES} | {f"server.{t}" for t in SERVER_TYPES}
    assert {p.stem for p in SCHEMAS.glob("*.json")} == expected
    found = sections()
    assert set(found["client"]) == set(CLIENT_TYPES)
    assert set(found["server"]) == set(SERVER_TYPES)


@pytest.mark.parametrize("side,kind", [("client", t) for t in CLIENT_TYPES] + [("server", t) for t in SERVER_TYPES])
def test_each_section_names_every_field_and_its_examples_validate(side, kind):
    schema = load(f"{side}.{kind}")
    assert schema["properties"]["type"] == {"const": kind}
    text = sections()[side][kind]
    for field in schema["properties"]:
        if field != "type":
            assert f"`{field}`" in text, f"{side}.{kind}: the document does not name `{field}`"
    examples = re.findall(r"```json\n(.*?)\n```", text, flags=re.S)
    assert examples, f"{side}.{kind} has no example"
    for example in examples:
        message = json.loads(example)
        assert message["type"] == kind
        assert not problems(message, schema), problems(message, schema)


@pytest.mark.parametrize("kind", list(CLIENT_TYPES))
def test_the_code_checks_the_fields_the_client_schemas_list(kind):
    schema = load(f"client.{kind}")
    fields = CLIENT_TYPES[kind]
    assert set(fields) == set(schema["properties"]) - {"type"}
    assert {f for f, (_, required) in fields.items() if required} == set(schema["required"]) - {"type"}


def test_the_schemas_refuse_what_they_should():
    assert problems({"type": "act", "table": 1, "ask": 2}, load("client.act"))  # no action
    assert problems({"type": "act", "table": True, "ask": 2, "action": "pass"}, load("client.act"))
    assert problems({"type": "turn", "table": 1, "ask": 1, "seq": 0, "legal": [], "deadline_ms": None,
                     "view": {}}, load("server.turn"))


GAMES = [("stukolka", 4, {}), ("kopilka", 4, {}), ("french3", 3, {}), ("ukr_pairs", 4, {}),
         ("speculator", 4, {"W": 5, "Wmax": 10})]
SLOW_GAMES = {"speculator"}  # its deals are long (> 1 s): pytest -m "not slow" skips that one


@pytest.mark.parametrize("game,players,options", [
    pytest.param(*g, id=g[0], marks=[pytest.mark.slow] if g[0] in SLOW_GAMES else []) for g in GAMES])
def test_every_message_of_whole_deals_validates(tmp_path, game, players, options):
    club, accounts = club_with_store(tmp_path, [{"game": game, "options": options, "seats": players,
                                                 "clock": 0, "think": 0}])
    seen: dict[str, set[str]] = {"client": set(), "server": set()}

    def validate(side: str, message: dict) -> None:
        check(side, message)
        seen[side].add(message["type"])

    play_deals(club, accounts, [make_bot(game, "rule", i) for i in range(players)], deals=2, on_send=validate)
    assert {"hello", "welcome", "seated", "state", "turn", "event", "deal_end"} <= seen["server"]
    assert {"hello", "sit", "start", "act"} <= seen["client"]


def test_every_server_line_of_whole_deals_fits_the_stated_maximum(tmp_path):
    from net.modes.botwire import MAX_SERVER_LINE, encode

    longest: dict[str, int] = {}

    def measure(side: str, message: dict) -> None:
        if side == "server":
            size = len(encode(message))
            longest[message["type"]] = max(size, longest.get(message["type"], 0))

    for game, players, options in GAMES[:4]:
        (tmp_path / game).mkdir()
        club, accounts = club_with_store(tmp_path / game, [{"game": game, "options": options, "seats": players,
                                                            "clock": 0, "think": 0}])
        play_deals(club, accounts, [make_bot(game, "rule", i) for i in range(players)], deals=1, on_send=measure)
    assert max(longest.values()) <= MAX_SERVER_LINE, longest


def test_the_french_buy_is_a_pattern_with_its_limits_and_any_choice_in_it_is_accepted(tmp_path):
    from botharness import Wire

    club, accounts = club_with_store(tmp_path, [{"game": "french3", "seats": 3, "clock": 0, "think": 0}])
    wires = [Wire(club, accounts, f"SHA256:buy{i}", lambda: 0.0, on_send=check) for i in range(3)]
    for i, wire in enumerate(wires):
        wire.session.hello()
        wire.send({"type": "hello", "name": f"Buyer{i}"})
        wire.send({"type": "sit", "table": 1, "seat": i})
    for wire in wires:
        wire.send({"type": "start", "table": 1})
    game = club.tables[1].game
    buyer = game.queue[0]
    turn = [m for m in wires[buyer].take() if m["type"] == "turn"][-1]
    assert turn["legal"] == ["buy", "buy CARDS"]
    choice = turn["patterns"]["buy CARDS"]["CARDS"]
    assert choice["min"] == 1 and choice["max"] == len(game.widow) and choice["distinct"] is True
    assert sorted(choice["cards"]) == sorted(c.text() for c in game.hands[buyer])
    from net.modes.botwire import encode
    assert len(encode(turn)) < 4096
    two = choice["cards"][-1:-3:-1]  # two cards, the higher first: any order is accepted
    wires[buyer].send({"type": "act", "table": 1, "ask": turn["ask"], "action": "buy " + " ".join(two)})
    assert [m["type"] for m in wires[buyer].take() if m["type"] in ("ack", "error")] == ["ack"]
    assert game.bought[buyer] == 2


def test_a_long_list_of_tables_comes_in_parts_that_each_fit_a_line():
    from net.modes.botwire import MAX_SERVER_LINE, encode, tables_parts

    rows = [{"id": i, "game": "stukolka", "title": {"ru": "Стуколка", "en": "Stukolka"},
             "options": {"variant": "a", "a": 30, "b": 30}, "seats": [f"Player{i}x{s}" for s in range(4)],
             "in_deal": False, "pot": 0, "spectators": 0, "bots": []} for i in range(1, 301)]
    parts = tables_parts(rows)
    assert len(parts) > 1 and [more for _, more in parts] == [True] * (len(parts) - 1) + [False]
    assert [row for part, _ in parts for row in part] == rows
    for part, more in parts:
        message = {"type": "tables", "tables": part, "more": more}
        check("server", message)
        assert len(encode(message)) <= MAX_SERVER_LINE
