"""The first person in does not make the server import its screens on the event loop: the server
imported them before it listened, so a member's hall, a table and a watcher's row load nothing new."""

from __future__ import annotations

import sys

import pytest
from sshclient import connect, make_config, new_key, running, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

OURS = ("engine", "net", "tui", "textual")


def loaded() -> set[str]:
    return {name for name in sys.modules if name.split(".")[0] in OURS}


@pytest.mark.slow
async def test_the_first_sessions_import_nothing_on_the_loop(tmp_path):
    async with running(make_config(tmp_path / "data")) as server:
        before = loaded()
        people = []
        for name in ("Anna", "Boris", "Vera", "Gleb"):
            person = await connect(server.port, key=new_key())
            await person.wait("book of names")
            person.line(name)
            await person.wait(f"{name} ·")
            people.append(person)
        for person in people:
            person.line("sit 1")
        await until(lambda: server.club.tables[1].full(), what="four seated")
        for person in people:
            person.line("start")
        await until(lambda: server.club.tables[1].in_deal(), what="a deal")
        watcher = await connect(server.port, key=new_key())
        await watcher.wait("book of names")
        watcher.line("Dima")
        await watcher.wait("Dima ·")
        watcher.line("watch 1")
        await watcher.wait("Anna")
        text = await connect(server.port, key=new_key(), command="text")
        await text.wait("name")
        new = sorted(loaded() - before)
        for client in [*people, watcher, text]:
            await client.close()
    assert new == [], new
