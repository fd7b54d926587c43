"""Players first over real SSH (issue 16): a move's frames go to the seated players before any hub's.

Three watchers in three window sizes (three hubs, which the table tells of a move before the
players' Apps) and four players whose Apps come to each move 50 ms late, as on a busy machine;
every write the server makes to a session is recorded in order.  After each move, the first write to every other seated player
comes before the first write to any watcher, and no watcher's screen shows a hidden card.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from sshclient import make_config, running, until

from net.ssh.session import Session
from tui.app import ClubApp, TableChanged
from test_club_over_ssh import assert_no_hidden, register
from tui.framegate import gate

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
WATCHERS = {"Wa": (80, 24), "Wb": (100, 30), "Wc": (160, 50)}
LATE = 0.05
QUIET = 0.4  # seconds without a write to anyone


async def test_a_moves_frames_reach_the_players_before_any_watcher(tmp_path, monkeypatch):
    writes: list[str] = []
    last = [time.monotonic()]
    send = Session.send

    def recorded(self: Session, data: bytes) -> None:
        writes.append(self.name or "?")
        last[0] = time.monotonic()
        send(self, data)

    monkeypatch.setattr(Session, "send", recorded)
    changed = ClubApp.on_table_changed

    async def late(self: ClubApp, message: TableChanged) -> None:
        await asyncio.sleep(LATE)  # as on a busy machine: each player's App comes to the move late
        changed(self, message)

    monkeypatch.setattr(ClubApp, "on_table_changed", late)
    config = make_config(tmp_path / "data", tables=[{"game": "stukolka", "options": {}, "clock": 0}])
    async with running(config) as server:
        gate().wait_max = 10.0  # the order is what is tested here; the bounded wait in tests/tui/test_framegate.py
        table = server.club.tables[1]
        watchers = {}  # the hubs first: the table tells them before the players' Apps
        for name, (cols, rows) in WATCHERS.items():
            watchers[name] = await register(server.port, name, cols=cols, rows=rows)
            watchers[name].line("watch 1")
            await watchers[name].wait("watching · ")
        players = {}
        for name in PLAYERS:  # one at a time: four lines at once may be seated in any order
            players[name] = await register(server.port, name)
            players[name].line("sit 1")
            await until(lambda name=name: name in table.seats, what=f"{name} seated")
        for p in players.values():
            p.line("start")
        await until(table.in_deal, what="the deal starts")
        assert len(server.hubs.hubs) == 3
        for w in watchers.values():
            await w.wait("deal 1")
        for _move in range(6):
            game = table.game
            if game is None or not game.in_deal:
                break
            seat = game.to_act()[0]
            actor = game.names[seat]
            action = game.legal_actions(seat)[0].text(ascii=True)
            players[actor].type(action)
            await until(lambda: players[actor].text().count(action) > 0, what="the action typed")
            # the last move's later frames (a log's scrollbar a tick after its line) are out first
            await until(lambda: time.monotonic() - last[0] > QUIET, what="a quiet moment")
            seq = table.last_seq
            start = len(writes)
            players[actor].type("\r")
            await until(lambda: table.last_seq > seq, what="the move applied")
            others = [n for n in PLAYERS if n != actor]
            await until(lambda: all(n in writes[start:] for n in others + list(watchers)), what="every screen")
            after = writes[start:]
            last_player = max(after.index(n) for n in others)
            first_watcher = min(after.index(n) for n in watchers)
            assert last_player < first_watcher, (actor, after[: first_watcher + 1])
            for w in watchers.values():
                assert_no_hidden(w, table)
        for client in list(players.values()) + list(watchers.values()):
            await client.close()
