"""Over real SSH: an ssh command the club does not know gets a word, and a watcher back in the hall
is not announced as leaving the club and coming in again."""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def named(server, name: str):
    key = new_key()
    client = await connect(server.port, key=key)
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    await client.close()
    return key


@pytest.mark.slow  # a server and several ssh sessions
async def test_ssh_watch_99_and_an_unknown_command_are_answered_in_the_hall(tmp_path):
    async with running(make_config(tmp_path / "data")) as server:
        key = await named(server, "Wanda")
        missing = await connect(server.port, key=key, command="watch 99")
        await missing.wait("There is no table 99.")
        await missing.close()
        odd = await connect(server.port, key=key, command="frobnicate")
        await odd.wait("I do not know 'frobnicate'")
        await odd.close()
        russian = await connect(server.port, key=key, command="watch 99", lang="ru_RU.UTF-8")
        await russian.wait("99")
        assert "Wanda ·" in russian.text() or "Wanda" in russian.text()
        await russian.close()


@pytest.mark.slow  # a server and two ssh sessions
async def test_a_watcher_going_back_to_the_hall_is_not_announced_as_leaving(tmp_path):
    async with running(make_config(tmp_path / "data")) as server:
        key = await named(server, "Wanda")
        other = await connect(server.port, key=await named(server, "Oleg"))
        await other.wait("Oleg ·")
        watcher = await connect(server.port, key=key, command="watch 1")
        await watcher.wait("watching · ")
        told = []
        server.club.feed.subscribe(lambda events: told.extend(e.kind for e in events))
        watcher.line("leave")
        await watcher.wait("Wanda ·")
        await until(lambda: not server.club.tables[1].spectators, what="the watcher gone")
        watcher.line("look")
        await watcher.wait("Wanda ·")
        assert "leave" not in told and "enter" not in told, told
        assert "Wanda" in server.club.online()
        await watcher.close()
        await other.close()
