"""Issue 14 step 1: ``Club.sit`` (and sit_bot, stand, watch, unwatch) is the one door to a seat.

The club's rules hold whoever knocks — one seat per person, guests never sit, a table the
house is closing refuses — each refusal with a catalogue key both languages have; and no
module but the club and the table itself calls the table's own seat methods.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

from engine.table.club import Club
from engine.table.owner import TableError
from tui.i18n import CATALOGUES

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE_DOORS = {"sit", "sit_bot", "stand", "watch", "unwatch"}


def _club() -> Club:
    return Club([{"game": "french3"}, {"game": "french3"}], seed=3)


def _refusal(call) -> TableError:
    with pytest.raises(TableError) as caught:
        call()
    err = caught.value
    for lang in ("en", "ru"):
        assert err.key in CATALOGUES[lang], f"{err.key} missing in {lang}"
    return err


def test_one_seat_per_person_at_every_table() -> None:
    club = _club()
    club.enter("anna")
    assert club.sit("anna", 1) == 0
    err = _refusal(lambda: club.sit("anna", 2))
    assert err.key == "table.already_seated" and err.params["table"] == 1
    assert "anna" not in club.tables[2].seats and club.where("anna") is club.tables[1]
    club.stand("anna")
    assert club.sit("anna", 2, 1) == 1 and club.where("anna") is club.tables[2]


def test_guests_never_sit_but_watch() -> None:
    club = _club()
    club.enter("guest-7", guest=True)
    err = _refusal(lambda: club.sit("guest-7", 1))
    assert err.key == "club.guest_sit"
    assert club.tables[1].seated() == []
    club.watch("guest-7", 1)
    assert "guest-7" in club.tables[1].spectators
    club.unwatch("guest-7", 1)
    assert "guest-7" not in club.tables[1].spectators


def test_a_closing_or_closed_table_refuses_a_seat() -> None:
    club = _club()
    club.enter("anna")
    club.tables[1].closing = True
    assert _refusal(lambda: club.sit("anna", 1)).key == "club.table_closing"
    assert _refusal(lambda: club.sit_bot(1)).key == "club.table_closing"
    assert club.tables[1].seated() == []
    club.close_table(2)
    assert _refusal(lambda: club.sit("anna", 2)).key == "club.no_table"
    club.unwatch("anna", 2)  # a gone table is no error for leaving it


def test_a_bot_is_seated_by_a_seated_player_or_the_house() -> None:
    club = _club()
    club.enter("anna")
    assert _refusal(lambda: club.sit_bot(1, by="anna")).key == "cmd.bot_need_seat"
    club.sit("anna", 1)
    bot = club.sit_bot(1, by="anna")
    assert bot in club.tables[1].seats
    house = club.sit_bot(1)
    assert house in club.tables[1].seats and club.tables[1].full()


def test_stand_without_a_seat_is_refused() -> None:
    club = _club()
    assert _refusal(lambda: club.stand("anna")).key == "table.not_seated"
    assert _refusal(lambda: club.stand("anna", 1)).key == "table.not_seated"


def _table_door_calls(path: pathlib.Path) -> list[str]:
    """Calls ``<something>.sit(...)`` etc. whose receiver is not the club (``club``/``self.club``/``app.club``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TABLE_DOORS:
            receiver = ast.unparse(node.func.value)
            if receiver.split(".")[-1] not in ("club", "app") and receiver != "self":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node.func)}")
    return found


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_no_module_but_the_club_and_the_table_calls_the_tables_doors() -> None:
    """Every session kind (tui, text mode, watcher, admin, bot protocol, autoplay) goes through the club."""
    own = {ROOT / "engine" / "table" / "club.py", ROOT / "engine" / "table" / "owner.py"}
    calls = []
    for package in ("engine", "tui", "net"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path not in own:
                calls += _table_door_calls(path)
    assert calls == [], "a table's own seat method called past the club:\n" + "\n".join(calls)
