"""Who may speak to the admin socket: its owner only (mode 0600, then the peer's uid)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import tempfile
from pathlib import Path

import pytest
from adminkit import admin_server

from net.house.admin import SOCKET_NAME

NOBODY = 65534

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() with threads alive


def _connect_as(uid: int, path: Path) -> str:
    """In a forked child running as ``uid``: connect and send ``tables``; what happened, as text."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no Python-level cleanup, just the answer through the pipe
        outcome = "?"
        try:
            os.setgid(uid)
            os.setuid(uid)
            sock = socket.socket(socket.AF_UNIX)
            sock.settimeout(5)
            sock.connect(str(path))
            try:
                sock.sendall(b'{"argv": ["tables"]}\n')
            except BrokenPipeError:
                pass  # refused before the request was read: the answer is still there to read
            outcome = "reply " + sock.makefile().readline()
        except PermissionError:
            outcome = "EACCES"
        except BaseException as err:  # noqa: BLE001 — report anything to the parent
            outcome = f"error {err!r}"
        os.write(write, outcome.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        outcome = f.read()
    os.waitpid(pid, 0)
    return outcome


async def test_socket_mode_is_owner_only(config):
    """The socket is created 0600 (never a moment wider: the umask is set around bind)."""
    async with admin_server(config):
        mode = os.stat(config.data / SOCKET_NAME).st_mode
        assert stat.S_ISSOCK(mode)
        assert stat.S_IMODE(mode) == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming another Unix user needs root")
async def test_another_unix_user_is_refused(config):
    """Another user gets EACCES from the kernel (0600); with the mode loosened, the uid check refuses him."""
    open_dir = Path(tempfile.mkdtemp(prefix="sk", dir="/tmp"))
    os.chmod(open_dir, 0o755)  # so that nobody reaches the socket and only its own mode stands in the way
    config.data = open_dir / "d"
    try:
        async with admin_server(config) as server:
            path = config.data / SOCKET_NAME
            os.chmod(config.data, 0o755)
            assert await asyncio.to_thread(_connect_as, NOBODY, path) == "EACCES"
            os.chmod(path, 0o666)  # an operator's mistake
            outcome = await asyncio.to_thread(_connect_as, NOBODY, path)
            assert outcome.startswith("reply "), outcome
            reply = json.loads(outcome[len("reply "):])
            assert reply["ok"] is False and "only the server's own user" in reply["text"]
            assert len(server.club.tables) == 1
    finally:
        import shutil

        shutil.rmtree(open_dir, ignore_errors=True)
