"""The ``admin`` verb inside the club: admin accounts (config) run the house's commands; anyone else is refused."""

from __future__ import annotations

import asyncio
import json

import pytest
from adminkit import admin_server
from sshclient import Client, connect, new_key

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def register(port: int, name: str, **kw) -> Client:
    client = await connect(port, key=new_key(), **kw)
    await client.wait(lambda screen: "book of names" in screen or "книгу имён" in screen)
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def test_admin_verb_for_admins_only(config):
    """Boris is refused (in his language) and nothing runs; Anna, listed in the config, kicks him."""
    config.admins = ["anna"]
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris", lang="ru_RU.UTF-8")
        boris.line("admin kick Anna")
        await boris.wait("только для хозяев клуба")
        assert not anna.session.closed.is_set()
        anna.line("admin tables")
        await anna.wait("stukolka")
        anna.line("admin open nosuchgame")
        await anna.wait("there is no game 'nosuchgame'")
        anna.line('admin kick Boris "mind your language"')
        await asyncio.wait_for(boris.session.closed.wait(), 10)
        assert "Хозяин клуба попросил вас выйти: mind your language" in boris.session.raw.decode("utf-8", "replace")
        await anna.wait("showed out Boris")
        await anna.close()
    entries = [json.loads(line) for line in (config.data / "audit.log").read_text("utf-8").splitlines()]
    assert [(e["who"], e["command"][:2], e["ok"]) for e in entries] == [
        ("ssh:Boris", ["admin", "kick Anna"], False),
        ("ssh:Anna", ["open", "nosuchgame"], False),
        ("ssh:Anna", ["kick", "Boris"], True),
    ]
