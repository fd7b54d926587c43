"""A watcher's screen built from the hub's frames is the whole view, cell for cell, after every move.

Textual sends only what changed; the table view redraws only its parts that changed (issue 16:
no repaint of the whole view on each move).  A part that changed and was not sent would leave
the watcher's screen stale, so after each move of a deal and into the next one the screen the
frames built (pyte) is compared with the hub's whole current screen drawn afresh.
"""

from __future__ import annotations

import asyncio
import time

import pyte

from engine.table.club import Club
from net.modes.spectate import Hubs, Member
from tui.spectator import SpectatorApp

NAMES = ("anna", "boris", "vera", "gleb")


class Wire:
    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.count = 0

    def send(self, data: bytes) -> None:
        self.count += 1
        self.stream.feed(data)

    def buffered(self) -> int:
        return 0


def whole(hub, cols: int, rows: int) -> list[str]:
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(hub.full_screen())
    return screen.display


async def settled(wire: Wire) -> None:
    """Until no frame came for a while (the hub draws a beat after the table changes)."""
    seen, quiet = -1, 0
    for _ in range(500):
        await asyncio.sleep(0.02)
        quiet = quiet + 1 if wire.count == seen else 0
        seen = wire.count
        if quiet >= 5:
            return


async def test_the_frames_build_the_whole_view_after_every_move():
    club = Club([{"game": "stukolka", "clock": 60}], seed=5)
    table = club.tables[1]
    now = time.monotonic()
    for name in NAMES:
        table.sit(name)
        club.enter(name)
        table.start(name, now=now)
    cols, rows = 100, 30
    hubs = Hubs(lambda key, c, r: SpectatorApp(club, key.table_id, lang=key.lang, ascii=key.ascii),
                [(cols, rows)], reserve_rows=2)
    wire = Wire(cols, rows)
    hub = await hubs.join(hubs.key_for(1, cols, rows, "en", False), Member(wire, cols, rows))
    try:
        await settled(wire)
        moves = deals = 0
        while moves < 40:
            game = table.game
            if game is None or not game.in_deal:
                deals += 1
                if deals > 2:
                    break
                for name in NAMES:
                    table.start(name, now=time.monotonic())
            else:
                seat = game.to_act()[0]
                table.act(game.names[seat], game.legal_actions(seat)[0].text(), now=time.monotonic())
                moves += 1
            await settled(wire)
            view = whole(hub, cols, rows)
            assert wire.screen.display[: rows - 2] == view[: rows - 2], (moves, "\n".join(wire.screen.display))
        assert moves >= 10
    finally:
        await hubs.close()
