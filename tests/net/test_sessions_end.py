"""Sessions that cannot read or write still end, and are counted and listed until they do (issue 12, item 5).

``ssh -tt host </dev/null`` sends EOF at once: it once hung forever, forgotten
by the limits (60 held from one address against a cap of 50) and missing
from ``admin sessions``.  A channel at EOF, a half-closed connection, a
channel that never asks for a shell, a connection that opens no channel: all end.
"""

from __future__ import annotations

import asyncio
import logging
import shutil

import asyncssh
import pytest
from sshclient import Screen, connect, make_config, new_key, running, until

from net.house.commands import AdminCommands


def _rows(server) -> list[dict]:
    return AdminCommands(server).session_rows()


async def _bare_channel(conn: asyncssh.SSHClientConnection) -> asyncssh.SSHClientChannel:
    """A session channel opened with no pty, shell or command request (asyncssh always sends one)."""
    chan = asyncssh.channel.SSHClientChannel(conn, asyncio.get_running_loop(), "strict", None, "strict",
                                             2 ** 21, 32768)
    await chan._open(b"session")
    return chan


@pytest.mark.parametrize("when", ["at once", "after the first screen"])
async def test_eof_ends_the_session_with_a_status(tmp_path, caplog, when):
    """The client's EOF (its stdin ended) ends the session: exit status 0, channel closed, forgotten.

    At once, the EOF comes while the App is still mounting its first screen: the App
    still ends cleanly (no "the App failed" in the log, no traceback).
    """
    caplog.set_level(logging.INFO)
    async with running(make_config(tmp_path / "data")) as server:
        client = await connect(server.port, key=new_key())
        if when != "at once":
            await client.wait("book of names")
        client.chan.write_eof()
        await asyncio.wait_for(client.session.closed.wait(), 10)
        assert client.chan.get_exit_status() == 0
        await until(lambda: not server.sessions, what="the session forgotten")
        assert not _rows(server)
        await client.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.skipif(not shutil.which("ssh"), reason="needs the OpenSSH client: apt-get install openssh-client")
async def test_openssh_with_stdin_at_eof_ends(tmp_path):
    """``ssh -tt host </dev/null`` from one address, three times its cap: each ends, none is held."""
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(new_key().export_private_key())
    key_file.chmod(0o600)
    config = make_config(tmp_path / "data", max_sessions_per_address=3)
    async with running(config) as server:
        ssh = ["ssh", "-F", "/dev/null", "-tt", "-i", str(key_file), "-o", "IdentitiesOnly=yes",
               "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
               "-p", str(server.port), "anna@127.0.0.1"]
        for wave in range(3):  # three waves of the address's cap: each wave finds the places free
            procs = [await asyncio.create_subprocess_exec(*ssh, stdin=asyncio.subprocess.DEVNULL,
                                                          stdout=asyncio.subprocess.DEVNULL,
                                                          stderr=asyncio.subprocess.DEVNULL) for _ in range(3)]
            # A deadline for a hang (they used to wait forever), not a measure of speed.
            codes = await asyncio.wait_for(asyncio.gather(*(p.wait() for p in procs)), 60)
            assert codes == [0, 0, 0], (wave, codes)  # ended at EOF with status 0, none refused
            await until(lambda: not server.sessions and not server.connections, what="none held")
        await until(lambda: not server.sessions, what="no session held")
        # and the door is open to the same address again
        late = await connect(server.port, key=new_key())
        await late.wait("book of names")
        await late.close()


async def test_half_closed_connection_ends_its_session(tmp_path):
    """The client shuts its TCP side (half-close): the session ends and the club forgets it."""
    async with running(make_config(tmp_path / "data")) as server:
        client = await connect(server.port, key=new_key())
        await client.wait("book of names")
        assert len(_rows(server)) == 1
        client.conn._transport.write_eof()  # FIN, the socket still open for reading
        await until(lambda: not server.sessions, what="the session ended")
        await until(lambda: not server.connections, what="the connection closed")
        await client.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_channel_without_a_shell_is_counted_listed_and_closed(tmp_path):
    """Channels that never ask for a shell count against the address's cap, show in ``sessions``, then close."""
    config = make_config(tmp_path / "data", max_sessions_per_address=2, login_timeout=3)
    async with running(config) as server:
        conn = await asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                                      agent_path=None, username="mute")
        held = [await _bare_channel(conn) for _ in range(2)]
        await until(lambda: len(server.sessions) == 2, what="both counted")
        rows = _rows(server)
        assert len(rows) == 2 and all(r["address"] == "127.0.0.1" for r in rows)
        late = await connect(server.port, key=new_key())
        await asyncio.wait_for(late.session.closed.wait(), 10)
        assert "The club is full" in late.text()
        # after the login timeout the mute channels are closed and forgotten
        await until(lambda: not server.sessions, timeout=15, what="mute channels closed")
        for chan in held:
            await asyncio.wait_for(chan.wait_closed(), 10)
        conn.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_connection_without_a_session_is_closed(tmp_path):
    """Logged in, no channel ever opened: closed after the login timeout, not held for good."""
    config = make_config(tmp_path / "data", login_timeout=2)
    async with running(config) as server:
        conn = await asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                                      agent_path=None, username="idle")
        await until(lambda: len(server.connections) == 1, what="connected")
        await asyncio.wait_for(conn.wait_closed(), 15)
        await until(lambda: not server.connections, what="forgotten")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_after_a_session_ends_its_bare_connection_is_closed(tmp_path):
    """A client that keeps its connection after the session ended (quit) is closed after the login timeout."""
    config = make_config(tmp_path / "data", login_timeout=2)
    async with running(config) as server:
        conn = await asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                                      agent_path=None, username="stay")
        chan, screen = await conn.create_session(lambda: Screen(80, 24), term_type="xterm", term_size=(80, 24),
                                                 encoding=None)
        await until(lambda: "book of names" in screen.text(), what="the welcome screen")
        chan.write(b"quit\r")
        await asyncio.wait_for(chan.wait_closed(), 10)
        await asyncio.wait_for(conn.wait_closed(), 15)
        await until(lambda: not server.connections, what="forgotten")
