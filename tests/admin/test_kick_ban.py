"""kick shows the reason and ends the session; ban refuses the key, address or name on the next connect, and expires."""

from __future__ import annotations

import asyncio
import time

from adminkit import admin_server, sukno_admin
from sshclient import connect, new_key, until
from standins import StandInClubApp


def _player(session):
    return StandInClubApp(session.server.club, session.name, lang=session.lang, ascii=session.ascii,
                          guest=session.guest, register=session.register, on_watch=session.on_watch)


async def arrive(port: int, name: str, key=None, **kw):
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait("newcomer")
    client.line(name)
    await client.wait(f"HALL {name}")
    return client


def said(client) -> str:
    return client.session.raw.decode("utf-8", "replace")


async def refused(port: int, key, text: str) -> None:
    """A connection that is shown the door with ``text`` and closed."""
    client = await connect(port, key=key)
    await asyncio.wait_for(client.session.closed.wait(), 10)
    assert text in said(client), said(client)[-300:]
    assert "HALL" not in client.text()


async def test_kick_ends_the_session_with_the_reason(config):
    """kick NAME reason: every session of NAME ends and shows the reason (in his language); others stay."""
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna")
        boris = await arrive(server.port, "Boris", lang="ru_RU.UTF-8")
        status, out, _ = await sukno_admin(config.data, "kick", "anna", "please", "be", "polite")
        assert status == 0 and "Anna" in out
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "The house has shown you out: please be polite" in said(anna)
        assert not boris.session.closed.is_set() and server.club.is_online("Boris")
        await until(lambda: not server.club.is_online("Anna"), what="Anna gone")
        status, _, _ = await sukno_admin(config.data, "kick", "Борис")
        assert status == 1  # no such name online: refused
        status, _, _ = await sukno_admin(config.data, "kick", "Boris")
        await asyncio.wait_for(boris.session.closed.wait(), 10)
        assert "Хозяин клуба попросил вас выйти." in said(boris)


async def test_ban_by_key_refuses_it_until_it_expires(config):
    """A banned key is shown out now and refused on every connect with the reason; other keys come in; it expires."""
    key = new_key()
    fingerprint = key.get_fingerprint("sha256")
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        status, out, _ = await sukno_admin(config.data, "ban", fingerprint, "--for", "2h", "card", "counting")
        assert status == 0 and "1 session(s) ended" in out
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "card counting" in said(anna)
        await refused(server.port, key, "The house has closed its door to you until")
        other = await arrive(server.port, "Boris")
        await other.close()
        later = time.time() + 2 * 3600 + 1
        server.admin.bans.clock = lambda: later
        again = await connect(server.port, key=key)
        await again.wait("HALL Anna")
        _, out, _ = await sukno_admin(config.data, "bans")
        assert "nobody is banned" in out
        await again.close()


async def test_ban_by_address_and_by_name_persist_and_unban(config):
    """An address ban shuts everyone from it out; a name ban survives a restart; unban lifts it."""
    key = new_key()
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        await anna.close()
        assert (await sukno_admin(config.data, "ban", "127.0.0.0/8", "--for", "10m", "flood"))[0] == 0
        await refused(server.port, new_key(), "flood")
        assert (await sukno_admin(config.data, "unban", "127.0.0.0/8"))[0] == 0
        assert (await sukno_admin(config.data, "ban", "anna", "rude"))[0] == 0
    async with admin_server(config, player_app=_player) as server:  # a restart: the ban is in bans.json
        _, out, _ = await sukno_admin(config.data, "bans")
        assert "name    Anna" in out and "for ever" in out
        await refused(server.port, key, "The house has closed its door to you: rude")
        assert (await sukno_admin(config.data, "unban", "Anna"))[0] == 0
        back = await connect(server.port, key=key)
        await back.wait("HALL Anna")
        await back.close()
