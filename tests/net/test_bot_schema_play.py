"""Every event and every game's view a bot receives has a closed JSON Schema (docs/schema/event/KIND.json,
docs/schema/view/GAME.json), and random play of every game and variant through the bot protocol sends nothing
they do not describe: an event kind, a view key or a value of another shape without its schema fails here.

The deals are random but repeatable (the tables' seeds are numbered here), so CI plays what was played here.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from botharness import club_with_store, play_deals
from jsonschema import Draft202012Validator
from schemacheck import SCHEMAS, check

import engine.table.owner
from engine.bots import make_bot
from engine.games import get_game
from engine.shuffle import repeatable_seed

ROOT = Path(__file__).resolve().parents[2]
EVENT_KINDS = {path.stem for path in (SCHEMAS / "event").glob("*.json")}

# (game, seats, options, bot kind, deals): every game, every Стуколка variant (R45, R46, R49, R56) at its
# smallest and largest table, random bots and the rule bots.
PLAYS = [
    ("stukolka", 4, {"variant": "a"}, "random", 4),
    ("stukolka", 7, {"variant": "a"}, "rule", 3),
    ("stukolka", 5, {"variant": "b"}, "random", 4),
    ("stukolka", 4, {"variant": "b"}, "rule", 3),
    ("stukolka", 6, {"variant": "v", "dark": True, "razrez": True}, "random", 4),
    ("stukolka", 4, {"variant": "v", "dark": True, "razrez": True}, "rule", 3),
    ("stukolka", 5, {"variant": "g"}, "random", 4),
    ("stukolka", 4, {"variant": "g"}, "rule", 3),
    ("kopilka", 4, {}, "random", 4),
    ("kopilka", 4, {}, "rule", 3),
    ("french3", 3, {}, "random", 4),
    ("french3", 3, {}, "rule", 3),
    ("ukr_pairs", 4, {}, "random", 4),
    ("ukr_pairs", 4, {}, "rule", 3),
    ("speculator", 4, {"W": 5, "Wmax": 10}, "rule", 2),
    ("speculator", 6, {"W": 5, "Wmax": 10}, "rule", 2),
]
# the quick run plays two of them (test_bot_schema.py plays the rule bots of four games there too)
QUICK = {("stukolka", 4, "random"), ("french3", 3, "random")}


def schema_files() -> list[Path]:
    return sorted(SCHEMAS.rglob("*.json"))


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: str(p.relative_to(SCHEMAS)))
def test_every_schema_is_a_valid_schema_named_by_its_path(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"https://sukno/schema/{path.relative_to(SCHEMAS).as_posix()}"


@pytest.mark.parametrize("kind", sorted(EVENT_KINDS))
def test_each_event_schema_closes_its_data(kind: str) -> None:
    schema = json.loads((SCHEMAS / "event" / f"{kind}.json").read_text(encoding="utf-8"))
    data = schema["properties"]["data"]
    assert data["type"] == "object" and data["additionalProperties"] is False
    assert set(data.get("required", [])) <= set(data.get("properties", {}))
    assert "seat" in schema["properties"]


def test_each_view_schema_closes_the_view_of_its_game() -> None:
    games = {path.stem for path in (SCHEMAS / "view").glob("*.json")}
    assert games == {"stukolka", "kopilka", "french3", "ukr_pairs", "speculator"}
    for game in games:
        get_game(game)  # a schema for a game the club has
        schema = json.loads((SCHEMAS / "view" / f"{game}.json").read_text(encoding="utf-8"))
        assert schema["additionalProperties"] is False and schema["properties"]["game"] == {"const": game}


def test_every_event_kind_the_code_names_has_a_schema() -> None:
    """Rare events (a stand-in, a suspended table, a kitty split) need not come up in random play; the kinds
    written in the code are read from it."""
    pattern = re.compile(r"""(?:make_event\(\(|Event\()\s*"([a-z_]+)\"""")
    named = set()
    for path in itertools.chain((ROOT / "engine").rglob("*.py")):
        named |= set(pattern.findall(path.read_text(encoding="utf-8")))
    # kinds chosen at run time: a step away, a kitty's end, Стуколка's declarations, a first cut
    named |= {"stepped_away", "kitty_closed", "kitty_split", "kitty_carry_split", "knock", "dark", "open", "fair_cut"}
    # club-wide events (the hall's) and a person's own notices never reach a table's log
    not_at_a_table = {"table", "table_open", "table_close", "enter", "leave", "tell", "rail"}
    assert named - not_at_a_table - EVENT_KINDS == set()
    assert EVENT_KINDS - named == set(), "a schema for an event the code never sends"


@pytest.mark.parametrize("game,players,options,bots,deals", [
    pytest.param(*play, id=f"{play[0]}-{play[1]}-{play[2].get('variant', '')}-{play[3]}",
                 marks=[] if (play[0], play[1], play[3]) in QUICK else [pytest.mark.slow]) for play in PLAYS])
def test_random_play_of_every_game_and_variant_sends_only_what_the_schemas_describe(
        tmp_path, monkeypatch, game, players, options, bots, deals):
    numbers = itertools.count()
    monkeypatch.setattr(engine.table.owner, "new_seed", lambda: repeatable_seed(players * 1000 + deals, next(numbers)))
    club, accounts = club_with_store(tmp_path, [{"game": game, "options": options, "seats": players, "clock": 0,
                                                 "think": 0, "at_zero": "debt"}])
    kinds: set[str] = set()
    views: set[str] = set()

    def validate(side: str, message: dict) -> None:
        check(side, message)
        if message["type"] == "event":
            kinds.add(message["kind"])
        elif message["type"] in ("turn", "state"):
            views.add(message["view"]["game"])

    play_deals(club, accounts, [make_bot(game, bots, seat) for seat in range(players)], deals=deals,
               on_send=validate)
    assert views == {game}
    assert {"sit", "fair_seal", "deal_start", "deal_over", "fair_open"} <= kinds
