"""End to end: the real OpenSSH client inside tmux, the screen read with ``tmux capture-pane``."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

import pytest
from sshclient import make_config, new_key, running

pytestmark = pytest.mark.skipif(
    not (shutil.which("ssh") and shutil.which("tmux")),
    reason="needs the OpenSSH client (ssh) and tmux: apt-get install openssh-client tmux",
)


class Tmux:
    """A private tmux server (own socket) with one 80x24 pane."""

    def __init__(self, socket: Path) -> None:
        self.socket = str(socket)
        self.env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")

    async def run(self, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            "tmux", "-u", "-S", self.socket, *args, env=self.env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await proc.communicate()
        if proc.returncode:
            raise RuntimeError(f"tmux {' '.join(args)}: {err.decode(errors='replace')}")
        return out.decode("utf-8", errors="replace")

    async def screen(self) -> str:
        return await self.run("capture-pane", "-p", "-t", "e2e")

    async def wait(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = await self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on the tmux screen in {timeout}s:\n{screen}")
            await asyncio.sleep(0.1)

    async def type(self, line: str) -> None:
        await self.run("send-keys", "-t", "e2e", "-l", line)
        await self.run("send-keys", "-t", "e2e", "Enter")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_openssh_client_in_tmux(tmp_path):
    """Connect with ssh, choose a name, see the hall, type tables and help, quit with status 0."""
    key = new_key()
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    async with running(make_config(tmp_path / "data")) as server:
        ssh = (
            f"ssh -F /dev/null -tt -i {key_file} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no"
            f" -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o SendEnv=LANG -p {server.port} anna@127.0.0.1"
        )
        tmux = Tmux(tmp_path / "tmux.sock")
        await tmux.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24",
                       f"sh -c '{ssh}; echo SSH-EXIT=$?; sleep 60'")
        try:
            await tmux.wait("book of names")
            await tmux.type("Anna")
            await tmux.wait("Anna ·")
            await tmux.type("tables")
            screen = await tmux.wait("#  game")
            assert "Stukolka" in screen
            await tmux.type("help")
            await tmux.wait("In the hall:")
            await tmux.type("quit")
            await tmux.wait("SSH-EXIT=0")
        finally:
            await tmux.run("kill-server")
