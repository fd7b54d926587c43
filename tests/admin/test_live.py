"""The house at work on a live club: say reaches everyone, sessions says where they are, close sends people
back to the hall, grant pays into the ledger."""

from __future__ import annotations

import asyncio
import json

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import Client, connect, new_key, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HALL = "sit N · watch N"


async def register(port: int, name: str) -> Client:
    client = await connect(port, key=new_key())
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_say_sessions_close(config):
    """A player at a table and a watcher hear say; sessions places them; close sends both to the hall."""
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        boris = await register(server.port, "Boris")
        boris.line("watch 1")
        await until(lambda: any(s.watching == 1 for s in server.sessions), what="Boris in the watchers' view")

        expected = {"Anna": "table 1 seat 1", "Boris": "watching 1"}
        for _ in range(50):  # the move into the watchers' view settles within a few loop turns
            status, out, _ = await sukno_admin(config.data, "--json", "sessions")
            where = {row["name"]: row["where"] for row in json.loads(out)["data"]["sessions"]}
            if where == expected:
                break
            await asyncio.sleep(0.05)
        assert status == 0 and where == expected

        status, out, _ = await sukno_admin(config.data, "say", "Table", "1", "closes", "now")
        assert status == 0 and "told 2 session(s)" in out
        await anna.wait("The house: Table 1 closes now")
        await boris.wait("The house: Table 1 closes now")
        for client in (anna, boris):  # one log line (issue 13, item 14): said once, no "The house: The house"
            screen = client.text()
            assert screen.count("The house: Table 1 closes now") == 1 and "The house: The house" not in screen
        await asyncio.sleep(1.0)
        assert "The house: Table 1 closes now" in anna.text()  # it stays in the log, it does not fade
        rows = anna.text().split("\n")
        said = next(i for i, row in enumerate(rows) if "The house: Table 1 closes now" in row)
        assert rows[said].startswith("The house") and said < len(rows) - 2  # a log line above the hint and prompt
        assert boris.text().split("\n")[-1].startswith("watching")  # the watcher's prompt is still there

        status, _, _ = await sukno_admin(config.data, "close", "1")
        assert status == 0 and server.club.tables == {}
        await anna.wait(HALL)
        await boris.wait(HALL)
        assert server.club.where("Anna") is None


async def test_grant_posts_to_the_ledger(config):
    """grant NAME AMOUNT credits the account from the grants pool; the ledger still sums to zero."""
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        before = server.store.balance("Anna")
        status, out, _ = await sukno_admin(config.data, "grant", "anna", "500")
        assert status == 0 and f"balance {before + 500}" in out
        assert server.store.balance("Anna") == before + 500
        assert server.store.ledger_sum() == 0
        status, _, err = await sukno_admin(config.data, "grant", "Nobody", "500")
        assert status == 1 and "no account named 'Nobody'" in err
        await anna.close()
