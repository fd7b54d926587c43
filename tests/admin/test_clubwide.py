"""The club across nodes (issue 15): two servers on one PostgreSQL store, each with its own admin socket.

``sukno admin sessions`` on either node lists every node's sessions with the node's name (presence
rows in the store); a ban typed on one node shuts the person out of the other, ending his session
there; a node that stops takes its sessions out of the list at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, AsyncIterator

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import connect, make_config, new_key, until
from standins import StandInClubApp


def _player(session):
    return StandInClubApp(session.server.club, session.name, lang=session.lang, ascii=session.ascii,
                          guest=session.guest, register=session.register, on_watch=session.on_watch)


@contextlib.asynccontextmanager
async def node(pg_url: str, tmp_path, name: str, exclusive: bool) -> AsyncIterator[Any]:
    """One node: its own data folder (admin socket, audit log), the shared database, no tables."""
    from engine.store.postgres import PgStore

    store = PgStore(pg_url, exclusive=exclusive)
    config = make_config(tmp_path / name, tables=[], store_url=pg_url)
    config.node = name
    try:
        async with admin_server(config, store=store, player_app=_player) as server:
            yield server
    finally:
        store.close()


async def arrive(port: int, name: str, key=None):
    client = await connect(port, key=key or new_key())
    await client.wait("newcomer")
    client.line(name)
    await client.wait(f"HALL {name}")
    return client


async def sessions(server: Any) -> list[dict[str, Any]]:
    status, out, _ = await sukno_admin(server.config.data, "--json", "sessions")
    assert status == 0, out
    return json.loads(out)["data"]["sessions"]


async def wait_sessions(server: Any, wanted: set[tuple[str, str]], timeout: float = 20.0) -> list[dict]:
    """Ask ``sessions`` again until it lists exactly ``wanted`` (node, name) pairs (the beat is every 2 s)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        rows = await sessions(server)
        if {(r["node"], r["name"]) for r in rows} == wanted:
            return rows
        assert loop.time() < deadline, f"sessions never became {wanted}: {rows}"
        await asyncio.sleep(0.2)


async def until_row(server: Any, name: str, check: Any, timeout: float = 20.0) -> dict:
    """Ask ``sessions`` again until ``name``'s row passes ``check``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        rows = [r for r in await sessions(server) if r["name"] == name]
        if rows and check(rows[0]):
            return rows[0]
        assert loop.time() < deadline, f"{name}'s session never as wanted: {rows}"
        await asyncio.sleep(0.2)


async def until_mutes(server: Any, names: list[str], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status, out, _ = await sukno_admin(server.config.data, "--json", "mutes")
        found = [m["name"] for m in json.loads(out)["data"]["mutes"]]
        if status == 0 and found == names:
            return
        assert loop.time() < deadline, f"mutes never became {names}: {found}"
        await asyncio.sleep(0.2)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_sessions_list_every_node_and_a_ban_on_one_node_ends_a_session_on_the_other(pg_url, tmp_path):
    async with node(pg_url, tmp_path, "north", exclusive=True) as north, \
            node(pg_url, tmp_path, "south", exclusive=False) as south:
        anna_key = new_key()
        anna = await arrive(north.port, "Anna", key=anna_key)
        boris = await arrive(south.port, "Boris")
        both = {("north", "Anna"), ("south", "Boris")}
        rows = await wait_sessions(south, both)
        far = next(r for r in rows if r["name"] == "Anna")
        assert far["where"] == "hall" and 0 <= far["idle"] <= far["seconds"] + 1 and far["key"] == anna_key.get_fingerprint("sha256")
        await wait_sessions(north, both)
        await until_row(south, "Anna", lambda r: r["idle"] >= 3)  # another node's idle time, as on her own
        anna.line("x")  # a keystroke on north: south sees her idle time start again
        await until_row(south, "Anna", lambda r: r["idle"] < 3)
        status, out, _ = await sukno_admin(south.config.data, "sessions")
        assert status == 0 and "node" in out.splitlines()[0]
        assert any(line.startswith("north") and "Anna" in line for line in out.splitlines())

        status, out, _ = await sukno_admin(south.config.data, "ban", "Anna", "card", "counting")
        assert status == 0, out
        await asyncio.wait_for(anna.session.closed.wait(), 20)  # on the other node: its sweep reads the ban
        assert "card counting" in anna.session.raw.decode("utf-8", "replace")
        assert not boris.session.closed.is_set()
        again = await connect(north.port, key=anna_key)
        await asyncio.wait_for(again.session.closed.wait(), 10)
        assert "card counting" in again.session.raw.decode("utf-8", "replace")
        status, out, _ = await sukno_admin(north.config.data, "bans")
        assert status == 0 and "Anna" in out
        await wait_sessions(north, {("south", "Boris")})
        assert (await sukno_admin(north.config.data, "unban", "anna"))[0] == 0
        back = await connect(north.port, key=anna_key)
        await back.wait("HALL Anna")
        await wait_sessions(south, {("north", "Anna"), ("south", "Boris")})
        await back.close()

        status, out, _ = await sukno_admin(south.config.data, "mute", "Boris", "--for", "1h", "shouting")
        assert status == 0, out
        await until_mutes(north, ["Boris"])  # muted on south: north refuses his words too
        assert north.club.social.muted("Boris") is not None
        assert (await sukno_admin(north.config.data, "unmute", "Boris"))[0] == 0
        await until_mutes(south, [])
        await boris.close()
    async with node(pg_url, tmp_path, "north", exclusive=True) as north:
        assert await sessions(north) == []  # south stopped cleanly: its rows went with it


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_one_node_alone_lists_its_sessions_as_before(tmp_path, backend):
    """One sukno serve on SQLite: ``sessions`` has no node column, the JSON names the node main."""
    config = make_config(tmp_path / "data")
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna")
        rows = await sessions(server)
        assert [(r["node"], r["name"]) for r in rows] == [("main", "Anna")]
        status, out, _ = await sukno_admin(config.data, "sessions")
        assert status == 0 and out.splitlines()[0].startswith("name")
        await until(lambda: server.store.presence(60) != [], what="the beat wrote Anna")
        assert [p.name for p in server.store.presence(60)] == ["Anna"]
        await anna.close()


async def test_an_old_bans_file_is_imported_once_and_stays_readable(tmp_path):
    """A bans.json from before the store kept bans: imported at start, marked, never imported again
    (an unban survives a restart), and rewritten as a readable copy of the store's bans."""
    config = make_config(tmp_path / "data")
    config.data.mkdir(mode=0o700)
    old = {"bans": [{"kind": "name", "target": "Anna", "until": None, "reason": "rude", "by": "unix:root",
                     "at": 1.0}]}
    (config.data / "bans.json").write_text(json.dumps(old), "utf-8")
    async with admin_server(config, player_app=_player) as server:
        assert [(b.kind, b.key, b.target, b.reason) for b in server.store.bans()] == [("name", "anna", "Anna", "rude")]
        copy = json.loads((config.data / "bans.json").read_text("utf-8"))
        assert copy["in_store"] is True and [b["target"] for b in copy["bans"]] == ["Anna"]
        status, out, _ = await sukno_admin(config.data, "bans")
        assert status == 0 and "Anna" in out and "rude" in out
        assert (await sukno_admin(config.data, "unban", "anna"))[0] == 0
        assert json.loads((config.data / "bans.json").read_text("utf-8"))["bans"] == []
    async with admin_server(config, player_app=_player) as server:
        assert server.store.bans() == []
        status, out, _ = await sukno_admin(config.data, "bans")
        assert "nobody is banned" in out
