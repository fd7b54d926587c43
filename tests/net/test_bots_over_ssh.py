"""Bots over real SSH (issue 9): a dropped player's stand-in, and his seat back on reconnect (pyte screens)."""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running, until

from net.config import ConfigError, from_mapping

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLES = [{"game": "french3", "think": 0, "takeover": 0.2, "grace": 600, "clock": 0}]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_disconnect_stand_in_then_reconnect_returns_the_seat(tmp_path):
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        key = new_key()
        anna = await connect(server.port, key=key, cols=100, rows=30)
        await anna.wait("book of names")
        anna.line("Anna")
        await anna.wait("Anna ·")
        anna.line("sit 1")
        await anna.wait("Table 1 ·")
        anna.line("sit bot")
        anna.line("sit bot")
        await anna.wait("bot-Vanya")
        table = server.club.tables[1]
        assert table.seats == ["Anna", "bot-Mitya", "bot-Vanya"]
        anna.line("start")
        await until(table.in_deal, what="the deal starts")
        game = table.game

        boris = await connect(server.port, key=new_key(), cols=100, rows=30)
        await boris.wait("book of names")
        boris.line("Boris")
        await boris.wait("Boris ·")
        boris.line("watch 1")
        await boris.wait("Table 1")

        anna.conn.abort()  # her line drops mid-deal
        await until(lambda: not server.club.is_online("Anna"), what="Anna offline")
        await until(lambda: "Anna" in table.bots() or not table.in_deal(), what="a stand-in plays for Anna")
        await boris.wait("away · a bot plays")  # marked on the felt
        assert table.seats[0] == "Anna"
        await until(lambda: not table.in_deal(), what="the stand-in and the bots finish the deal")
        assert table.seats[0] == "Anna" and "Anna" not in table.ready  # no new deal while she is away

        back = await connect(server.port, key=key, cols=100, rows=30)
        await back.wait("Table 1 ·")
        await back.wait("Anna is back at the table.")
        assert "Anna" not in table.bots() and table.seats[0] == "Anna"
        deals = len(game.deals)
        back.line("start")  # her seat, her start: the bots are ready already
        await until(lambda: table.in_deal() and len(game.deals) == deals + 1, what="the next deal")
        await back.close()
        await boris.close()


def test_bad_table_settings_in_the_config_are_refused():
    with pytest.raises(ConfigError, match=r"tables\[1\]: clock must be"):
        from_mapping({"tables": [{"game": "french3", "clock": "soon"}]})
    with pytest.raises(ConfigError, match="unknown table setting|fill is yes or no"):
        from_mapping({"tables": [{"game": "french3", "fill": "maybe"}]})
