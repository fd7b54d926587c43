"""A change sent to another node answers later (issue 15): the screen shows it when it comes, in order.

The table here stands for a replica: a ``RemoteTable`` whose ``forward`` is the test's, returning a
``Pending`` the test answers by hand (``net.cluster.node`` answers it from the bus in the club).
Screen text at 80x24 through Textual's Pilot.
"""

from __future__ import annotations

from contextvars import Context

from screen import text, type_line

from engine.table.club import Club
from engine.table.changes import Change, arguments
from engine.table.pending import Pending
from engine.table.remote import make_owner, make_remote
from engine.table.owner import TableError
from tui.app import ClubApp


class Remote:
    """What a ``RemoteTable``'s ``forward`` does: nothing here; each change's answer comes later."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple, Pending]] = []

    def __call__(self, change: Change) -> Pending:
        pending = Pending(change.op)
        self.calls.append((change.op, arguments(change), pending))
        return pending


def flat(app: ClubApp) -> str:
    return " ".join(text(app).split())


async def test_a_move_answered_later_and_the_look_typed_after_it_waits_for_it(fake_game) -> None:
    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        table = club.tables[1]
        table.sit("boris")
        table.start("boris")
        await type_line(pilot, "ready")
        assert table.in_deal()
        if table.game.to_act() == (1,):
            table.act("boris", "knock")
        await type_line(pilot, "lang ru")
        remote = Remote()
        make_remote(table, remote)  # from here on another node owns table 1
        await type_line(pilot, "стук")
        await type_line(pilot, "look")
        assert [(op, args) for op, args, _p in remote.calls] == [("act", ("anna", "knock"))]  # sent; look waits
        assert "Места:" not in flat(app)
        # the answer comes from the bus: a loop callback outside the app's context
        Context().run(remote.calls[0][2].refuse,
                      TableError("cluster.no_answer", "The node that runs this table did not answer"))
        await pilot.pause()
        words = flat(app)
        assert "не ответил" in words and "did not answer" not in words  # the refusal, in his language
        assert words.index("не ответил") < words.index("Места:")  # then his look, typed after the move
        await type_line(pilot, "say привет")  # chat at the table goes to the owner too; answered: nothing more
        assert remote.calls[-1][0] == "say"
        Context().run(remote.calls[-1][2].resolve, False)
        await pilot.pause()
        await type_line(pilot, "look")
        words = flat(app)  # nothing held any more: a look now is answered now
        assert words.rindex("> say привет") < words.rindex("> look") < words.rindex("Места:")


async def test_sit_from_the_hall_shows_the_table_only_once_the_owner_gave_the_seat(fake_game) -> None:
    club = Club([{"game": "highcard"}], seed=4)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        table = club.tables[1]
        remote = Remote()
        make_remote(table, remote)
        await type_line(pilot, "sit 1")
        await type_line(pilot, "tables")
        assert [op for op, _a, _p in remote.calls] == ["sit"]
        assert "You sit at table 1" not in flat(app) and "Table 1 ·" not in text(app)
        make_owner(table)
        seat = table.sit("anna")  # what the owner did; its journal brought the replica here
        make_remote(table, remote)
        Context().run(remote.calls[0][2].resolve, seat)
        await pilot.pause()
        await pilot.pause()
        assert "Table 1 ·" in text(app)
