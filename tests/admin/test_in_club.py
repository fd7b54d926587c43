"""The ``admin`` verb inside the club: admin accounts (config) run the house's commands; anyone else is refused."""

from __future__ import annotations

import asyncio
import json

import pytest
from adminkit import admin_server
from sshclient import Client, connect, new_key

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def register(port: int, name: str, key=None, **kw) -> Client:
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait(lambda screen: "book of names" in screen or "книгу имён" in screen)
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def test_admin_verb_for_admins_only(config):
    """Boris is refused (in his language) and nothing runs; Anna, whose key the config lists, kicks him."""
    anna_key = new_key()
    config.admin_keys = [anna_key.get_fingerprint("sha256")]
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna", key=anna_key)
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


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_admin_is_a_key_not_a_name(config):
    """``[admin] accounts = ["Boss"]`` with no such account at start: nobody may register Boss or Воss
    (Cyrillic В, о), and a player who never had Boss's key is no admin; an account that existed with a key
    at start is admin with that key."""
    from engine.store.opening import open_store

    config.admins = ["Boss", "Vera"]
    vera_key = new_key()
    config.data.mkdir(parents=True)
    store = open_store(config.data)
    store.create_account("Vera", key=vera_key.get_fingerprint("sha256"), grant=10)
    store.close()
    async with admin_server(config) as server:
        for name in ("Boss", "Воss", "B0ss", "boss"):
            client = await connect(server.port, key=new_key())
            await client.wait("book of names")
            client.line(name)
            await client.wait("reserved")
            await client.close()
        assert server.store.account("Boss") is None and server.store.account("Воss") is None
        mallory = await register(server.port, "Bossa")
        mallory.line("admin grant Bossa 1000000")
        await mallory.wait("Only the club's hosts may use admin")
        assert server.store.balance("Bossa") == config.grant
        vera = await connect(server.port, key=vera_key)
        await vera.wait("Vera ·")
        vera.line("admin tables")
        await vera.wait("stukolka")


async def test_refused_admin_attempts_do_not_grow_the_audit_log(config):
    """Forty refused ``admin`` lines from one player write one audit line (the rest are counted)."""
    async with admin_server(config) as server:
        boris = await register(server.port, "Boris")
        for i in range(40):
            boris.line(f"admin kick x{i}")
        await boris.wait(lambda screen: "Only the club's hosts" in screen.partition("admin kick x39")[2], timeout=30)
        lines = (config.data / "audit.log").read_text("utf-8").splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["who"] == "ssh:Boris"
