"""``sukno admin COMMAND`` against a running server's socket: answers, refusals, exit statuses, audit."""

from __future__ import annotations

import json
import os
import socket
import stat

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import running

from net.house.admin import SOCKET_NAME


async def test_listing_and_opening_tables(config):
    """tables lists the club; open GAME with RULES.md options opens a table; --json gives the data."""
    async with admin_server(config) as server:
        status, out, _ = await sukno_admin(config.data, "tables")
        assert status == 0 and "stukolka" in out and "waiting" in out
        status, out, _ = await sukno_admin(config.data, "open", "stukolka", "a=60", "variant=b", "seats=5")
        assert status == 0, out
        table = server.club.tables[2]
        assert (table.options["a"], table.options["variant"], len(table.seats)) == (60, "b", 5)
        status, out, _ = await sukno_admin(config.data, "--json", "tables")
        reply = json.loads(out)
        assert status == 0 and reply["ok"] is True
        assert [row["game"] for row in reply["data"]["tables"]] == ["stukolka", "stukolka"]
        status, out, _ = await sukno_admin(config.data, "sessions", "--json")
        assert status == 0 and json.loads(out)["data"]["sessions"] == []


@pytest.mark.parametrize("words, status, said", [
    (("close", "9"), 1, "there is no table 9"),
    (("watch", "x"), 1, "'x' is not a table number"),
    (("open", "stukolka", "a=31"), 1, "multiple of 3"),
    (("open", "stukolka", "colour=red"), 1, "unknown option 'colour'"),
    (("open", "stukolka", "a"), 1, "name=value"),
    (("open", "whist"), 1, "there is no game 'whist'"),
    (("seat", "1", "1", "Nobody"), 1, "no account named 'Nobody'"),
    (("seat", "1", "9", "bot"), 1, "has seats 1–4, not '9'"),
    (("open", "stukolka", "clock=soon"), 1, "clock must be a number of seconds"),
    (("kick", "Nobody"), 1, "nobody named 'Nobody'"),
    (("ban", "Anna", "--for", "soon"), 1, "not a duration"),
    (("unban", "Anna"), 1, "not banned"),
    (("grant", "Anna", "lots"), 1, "not an amount"),
    (("frobnicate",), 2, "unknown command 'frobnicate'"),
    (("close",), 2, "usage: close TABLE"),
    (("shutdown", "--grace", "later"), 2, "--grace takes seconds"),
])
async def test_refusals_change_nothing(config, words, status, said):
    """A refused command exits 1 (a usage error 2), says why on stderr, and leaves the club as it was."""
    async with admin_server(config) as server:
        before = [(t.id, list(t.seats), dict(t.options)) for t in server.club.tables.values()]
        got, out, err = await sukno_admin(config.data, *words)
        assert (got, out) == (status, "")
        assert said in err
        assert [(t.id, list(t.seats), dict(t.options)) for t in server.club.tables.values()] == before
        assert not server.admin.shutting_down


async def test_not_running(tmp_path):
    """No socket, or a socket left by a server that died: exit 2 with a sentence saying so."""
    data = tmp_path / "d"
    status, out, err = await sukno_admin(data, "tables")
    assert status == 2 and out == ""
    assert f"no sukno server is running with data folder {data} (no socket at {data / SOCKET_NAME})" in err
    data.mkdir()
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(data / SOCKET_NAME))
    dead.close()  # the file stays, nobody listens
    status, out, err = await sukno_admin(data, "tables")
    assert status == 2 and "left over from one that stopped" in err
    status, out, _ = await sukno_admin(data, "--json", "tables")
    assert status == 2 and json.loads(out)["ok"] is False


async def test_stale_socket_is_replaced_and_removed_on_close(config):
    """A server starting over a dead socket takes its place; closing removes the file."""
    config.data.mkdir(parents=True)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(config.data / SOCKET_NAME))
    dead.close()
    async with admin_server(config):
        status, _, _ = await sukno_admin(config.data, "tables")
        assert status == 0
    assert not (config.data / SOCKET_NAME).exists()


async def test_audit_log(config):
    """Every action (refused ones too) is one JSON line: when, who, what, the outcome; listings are not."""
    async with admin_server(config):
        await sukno_admin(config.data, "tables")
        await sukno_admin(config.data, "open", "stukolka")
        await sukno_admin(config.data, "close", "7")
        await sukno_admin(config.data, "watch", "1")
    lines = (config.data / "audit.log").read_text("utf-8").splitlines()
    entries = [json.loads(line) for line in lines]
    assert [e["command"] for e in entries] == [["open", "stukolka"], ["close", "7"], ["watch", "1"]]
    assert [e["ok"] for e in entries] == [True, False, True]
    assert all(e["who"].startswith("unix:") and e["at"].endswith("Z") for e in entries)
    assert stat.S_IMODE(os.stat(config.data / "audit.log").st_mode) == 0o600


async def test_second_server_and_bad_bans_file_refused(config):
    """A second server on the same data folder, or a bans.json that is not one, is a sentence, not a traceback."""
    from net.house.admin import start_admin

    async with admin_server(config) as server:
        with pytest.raises(OSError, match="another sukno server is running"):
            await start_admin(server)
    (config.data / "bans.json").write_text("{not json", "utf-8")
    async with running(config) as server:
        with pytest.raises(OSError, match="bans.json: not a bans file"):
            await start_admin(server)
