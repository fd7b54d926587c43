"""A bot waiting in the hall over real SSH: its pings are input (so the idle timeout starts again), and a
table of its game gathering reaches it as ``table_started``; every line valid against its schema."""

from __future__ import annotations

import pytest
from schemacheck import check
from sshclient import make_config, new_key, running

from net.cli.botclient import BotClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def welcomed(port: int, name: str) -> BotClient:
    client = await BotClient.connect("127.0.0.1", port, new_key())
    assert (await client.hello(name))["type"] == "welcome"
    return client


async def test_a_waiting_bot_is_kept_by_its_pings_and_hears_a_table_gather(tmp_path):
    config = make_config(tmp_path / "data", tables=[{"game": "kopilka", "think": 0, "clock": 0}])
    async with running(config) as server:
        waiter = await welcomed(server.port, "Kolobok")
        waiter.send({"type": "wait", "game": "kopilka"})
        assert (await waiter.expect("waiting"))["game"] == "kopilka"
        session = next(s for s in server.limits.sessions if s.name == "Kolobok")
        before = session.last_input
        waiter.send({"type": "ping", "data": "still here"})
        assert (await waiter.expect("pong"))["data"] == "still here"
        assert session.last_input > before  # what the idle timeout measures from

        other = await welcomed(server.port, "Pirozhok")
        other.send({"type": "sit", "table": 1})
        other.send({"type": "start", "table": 1})
        notice = await waiter.expect("table_started")
        assert (notice["table"], notice["game"], notice["seats"], notice["free"]) == \
            (1, "kopilka", ["Pirozhok", None, None, None], [1, 2, 3])
        waiter.send({"type": "sit", "table": 1, "seat": notice["free"][0]})
        assert (await waiter.expect("seated"))["seat"] == 1
        for message in waiter.received + other.received:
            check("server", message)
        await waiter.close()
        await other.close()
