"""The balance read off the loop on arrival (``net.ssh.arrival``) is shown only while no money changed since.

The hall door's header shows it; a table event heard between the read and the first frame (or a
board that heard nothing meanwhile) makes the door ask the club again, as it did before.
"""

from __future__ import annotations

from engine.table.club import Club
from engine.game import Event
from net.modes.hall import make_board


class Door:
    """A door that draws nothing (the board only needs to hand it news)."""

    def news(self, money_changed: bool) -> None:
        pass


async def test_a_mark_holds_until_a_money_event_or_a_deaf_board() -> None:
    club = Club([{"game": "stukolka", "options": {}}], now=0.0)
    board = make_board(club)
    assert board.money_mark() is None and not board.money_still(None)  # no door: the board hears nothing
    door = Door()
    board.add(door)
    mark = board.money_mark()
    club._emit([Event("say", None, {"name": "Anna", "text": "hi"})])  # a chat line moves no money
    assert board.money_still(mark)
    club._emit([Event("table_open", None, {"table": 9, "game": "stukolka", "node": None})])
    assert not board.money_still(mark)
    mark = board.money_mark()
    assert board.money_still(mark)
    board.remove(door)  # deaf now: what happens next is not heard
    assert not board.money_still(mark)
    board.add(door)
    assert not board.money_still(mark)  # heard again, but not what happened while deaf
    board.remove(door)
