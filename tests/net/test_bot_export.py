"""``export`` gives a bot its own finished games as the very ``sukno-record/1`` that ``sukno export`` writes, in
lines within the server's limit, newest first with the next older named, by table and deal range; a game it
did not play, or a range outside the record, is refused and nothing is sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from botharness import club_with_store, play_deals
from schemacheck import check

from engine.bots import make_bot
from net.modes.botexport import MAX_DEALS, Found, TooBig, deal_range, parts
from net.modes.botwire import MAX_SERVER_LINE, encode

ROOT = Path(__file__).resolve().parents[2]


def exported(lines: list[dict]) -> dict:
    """The record, put together as docs/bot-protocol.md says."""
    assert [m["type"] for m in lines] == ["export"] * len(lines)
    assert [m["part"] for m in lines] == list(range(len(lines)))
    assert [m["more"] for m in lines] == [True] * (len(lines) - 1) + [False]
    return {**lines[0]["head"], "deals": [deal for line in lines for deal in line["deals"]]}


def cli_export(data: Path, record: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "net.cli.main", "export", str(record), "--data", str(data)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_bot_exports_its_games_as_the_cli_writes_them_newest_first_by_table_and_range(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, [{"game": "stukolka", "seats": 4, "clock": 0, "think": 0}])
    wires = play_deals(club, accounts, [make_bot("stukolka", "rule", seed=i) for i in range(4)], 3,
                       on_send=check)
    store = accounts.store
    games = [info.id for info in store.history("Wire0", 50)]
    assert len(games) >= 2, games  # Стуколка keeps a game whenever its pot is taken
    wire = wires[0]
    wire.take()

    wire.send({"type": "export"})
    newest = wire.take()
    assert newest[0]["record"] == games[0] and newest[0]["older"] == games[1] and newest[0]["table"] == 1
    assert exported(newest) == store.get_record(games[0]).to_json() == cli_export(tmp_path, games[0])
    assert all(len(encode(line)) <= MAX_SERVER_LINE for line in newest)

    wire.send({"type": "export", "record": games[1], "table": 1})  # walking back by ``older``
    older = wire.take()
    assert older[0]["record"] == games[1] and older[0]["older"] == (games[2] if len(games) > 2 else None)
    assert exported(older) == cli_export(tmp_path, games[1])

    record = store.get_record(games[0]).to_json()
    wire.send({"type": "export", "from": 1, "to": 1})
    (one,) = wire.take()
    assert (one["first"], one["last"], one["of"]) == (1, 1, len(record["deals"]))
    assert one["deals"] == record["deals"][:1]


def test_what_is_not_the_bots_or_not_in_the_record_is_refused(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, [{"game": "stukolka", "seats": 4, "clock": 0, "think": 0},
                                                {"game": "stukolka", "seats": 4, "clock": 0, "think": 0}])
    wires = play_deals(club, accounts, [make_bot("stukolka", "rule", seed=i) for i in range(4)], 1,
                       on_send=check)
    wire = wires[0]
    wire.take()
    newest = accounts.store.history("Wire0", 1)[0]
    refusals = []
    for asked in ({"record": newest.id + 1000}, {"table": 2}, {"record": newest.id, "from": 50},
                  {"record": newest.id, "from": 2, "to": 1}):
        wire.send({"type": "export", **asked})
        (answer,) = wire.take()
        assert answer["type"] == "error" and answer["reply"] == "export", answer
        refusals.append((answer["key"], answer["text"]))
    of = len(accounts.store.get_record(newest.id).to_json()["deals"])
    assert refusals == [
        ("bot.no_record", f"Game {newest.id + 1000} is not among your 50 newest finished games."),
        ("bot.no_records", "You have no finished game of table 2 to export yet."),
        ("bot.export_range", f"Game {newest.id} has {of} deals, numbered from 1: ask for deals within them, "
                             "from ≤ to."),
        ("bot.export_range", f"Game {newest.id} has {of} deals, numbered from 1: ask for deals within them, "
                             "from ≤ to.")]


def test_a_long_record_comes_in_lines_within_the_limit_and_at_most_a_hundred_deals_at_once() -> None:
    deal = {"decks": [["A♠", "10♥", "7♣"] * 17], "actions": [f"Anna: play {c}" for c in ("A♠", "7♣")] * 20,
            "fair": {"protocol": "sukno-shuffle/1", "seal": "ab" * 32, "seed": "cd" * 32, "cut": ""}}
    body = {"format": "sukno-record/1", "game": "stukolka", "options": {}, "players": ["Anna", "Boris"],
            "dealer": 0, "pot": 0, "deals": [dict(deal, actions=deal["actions"] + [f"Anna: bid {i}"])
                                              for i in range(250)]}
    found = Found(3, 1, 0, None, body)
    lines = parts(found, 101, 200)
    assert len(lines) > 1 and all(len(encode(line)) <= MAX_SERVER_LINE for line in lines)
    assert exported(lines)["deals"] == body["deals"][100:200]
    assert MAX_DEALS == 100
    assert deal_range(250, None, None) == (1, 100) and deal_range(250, 101, None) == (101, 200)
    assert deal_range(250, 201, 900) == (201, 250) and deal_range(250, 251, None) is None
    huge = dict(body, deals=[dict(deal, actions=["Anna: pass"] * 3000)])
    try:
        parts(Found(4, 1, 0, None, huge), 1, 1)
    except TooBig as big:
        assert big.deal == 1
    else:
        raise AssertionError("a deal longer than a line was sent")
