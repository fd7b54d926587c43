"""The admin console's tables panel draws each table's pot over the session as a sparkline (issue 21 item 3)."""

from __future__ import annotations

import random

from adminkit import admin_server

from engine.table.admin_ops import pot_history
from net.house.admin import socket_path
from net.house.console import AdminConsole, Link
from tui.widgets.spark import sparkline


def text_of(app, selector: str) -> str:
    return str(app.query_one(selector).render())


async def test_the_tables_panel_shows_the_pot_over_the_session(config):
    async with admin_server(config) as server:
        table = server.club.tables[1]
        names = ("anna", "boris", "vera", "gleb")
        for name in names:
            table.sit(name)
        rng = random.Random(5)
        for _ in range(4):
            for name in names:
                table.start(name, now=0.0)
            while table.in_deal():
                seat = table.game.to_act()[0]
                table.act(table.game.names[seat], rng.choice(table.game.legal_actions(seat)).text(), now=0.0)
        pots = pot_history(table)
        assert len(pots) == 5 and pots[0] == table.game.start_pot and pots[-1] == table.pot
        app = AdminConsole(Link(socket_path(config.data)), every=0.1)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if "pot over" in text_of(app, "#tables"):
                    break
            screen = [strip.text for strip in app.screen._compositor.render_strips()]
            line = next(row for row in screen if "pot over 4 deal(s)" in row)
            assert sparkline(pots) in line and f"now {table.pot}" in line
