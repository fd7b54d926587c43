"""The house's socket and commands refuse what makes no sense, with a reply and never a traceback; every
file of the data folder is private after a played deal, whatever the umask (issue 12, items 3 and 11)."""

from __future__ import annotations

import asyncio
import json
import os
import stat

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import connect, new_key, until

from net.house.admin import SOCKET_NAME

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("grace", ["nan", "inf", "-inf", "-1", "1e9"])
async def test_shutdown_refuses_a_grace_that_is_no_time(config, grace):
    async with admin_server(config) as server:
        status, out, err = await sukno_admin(config.data, "shutdown", "--grace", grace)
        assert status == 2 and "--grace takes seconds from 0 to 86400" in out + err
        assert not server.admin.shutting_down
        status, out, _ = await sukno_admin(config.data, "tables")
        assert status == 0 and "stukolka" in out


async def test_deeply_nested_json_gets_an_error_reply(config):
    async with admin_server(config):
        reader, writer = await asyncio.open_unix_connection(str(config.data / SOCKET_NAME), limit=1 << 20)
        writer.write(b'{"argv": ' + b"[" * 30000 + b"]" * 30000 + b"}\n")
        await writer.drain()
        reply = json.loads(await asyncio.wait_for(reader.readline(), 10))
        assert reply["ok"] is False and reply["status"] == 2 and "bad request" in reply["text"]
        writer.write(b'{"argv": ["tables"]}\n')  # the same connection still answers
        await writer.drain()
        reply = json.loads(await asyncio.wait_for(reader.readline(), 10))
        assert reply["ok"] is True
        writer.close()


@pytest.fixture
def open_umask():
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_every_file_is_private_after_a_played_deal(config, open_umask):
    """With umask 000: a new club, a deal played to its end (journal, ledger, record), a ban and an audit line:
    the folder is 0700 and every file in it 0600 (the socket too)."""
    config.tables = [{"game": "stukolka", "options": {}, "clock": 0.3, "think": 0, "bots": "fill"}]
    async with admin_server(config) as server:
        anna = await connect(server.port, key=new_key())
        await anna.wait("book of names")
        anna.line("Anna")
        await anna.wait("Anna ·")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        anna.line("start")
        table = server.club.tables[1]
        await until(lambda: any(e.event.kind == "deal_over" for e in table.log_since(0)), timeout=60,
                    what="a deal played to its end")
        status, _, _ = await sukno_admin(config.data, "ban", "203.0.113.7", "--for", "1h", "flood")
        assert status == 0
        files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in config.data.iterdir()}
        assert {"sukno.db", "sukno.db-wal", "sukno.db-shm", "ssh_host_ed25519_key", "bans.json", "audit.log",
                SOCKET_NAME} <= set(files)
        assert files == {name: 0o600 for name in files}
        assert stat.S_IMODE(config.data.stat().st_mode) == 0o700
        assert server.store.history("Anna")  # the deal was recorded: the store was written


async def test_a_vanished_store_is_noticed_while_nobody_acts(config, caplog, monkeypatch):
    """The data folder is deleted while everyone sits still: the house's probe logs it and tells everyone."""
    import logging
    import shutil

    from net.house.commands import AdminCommands

    monkeypatch.setattr(AdminCommands, "STORE_PROBE", 0.1)
    caplog.set_level(logging.INFO, logger="sukno")
    async with admin_server(config) as server:
        anna = await connect(server.port, key=new_key())
        await anna.wait("book of names")
        anna.line("Anna")
        await anna.wait("Anna ·")
        shutil.rmtree(config.data)
        await anna.wait("book is gone from the disk")
        assert any("store is gone" in r.getMessage() for r in caplog.records)


def test_the_store_knows_every_file_the_server_keeps():
    """``engine.store.base.CLUB_FILES`` (tightened at start) names every file net keeps in the data folder."""
    from engine.store.base import CLUB_FILES
    from net.house.bans import AUDIT_NAME, BANS_NAME
    from net.ssh.server import HOST_KEY_NAME

    assert {HOST_KEY_NAME, BANS_NAME, AUDIT_NAME, SOCKET_NAME} <= set(CLUB_FILES)
