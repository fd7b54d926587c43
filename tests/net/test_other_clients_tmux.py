"""End to end with the other clients people use: Dropbear's ``dbclient`` and PuTTY's ``plink``, inside tmux.

Next to ``test_openssh_tmux.py``: each client logs in with its own key format,
chooses a name, sees the hall, types a command and quits with status 0.
Dropbear has no AES-GCM and guesses its first key exchange packet; both
once kept it out (issue 12, item 12; ``net.ssh.server.KEX_ALGS``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import asyncssh
import pytest
from sshclient import make_config, new_key, running
from test_openssh_tmux import Tmux

from net.ssh.server import HOST_KEY_NAME

needs_tmux = pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux: apt-get install tmux")


def _home_env(tmux: Tmux, home: Path) -> None:
    """Clients write host-key caches under $HOME: keep them in the test's folder."""
    home.mkdir(exist_ok=True)
    tmux.env = dict(tmux.env, HOME=str(home))


async def _choose_name_and_quit(tmux: Tmux, name: str) -> None:
    await tmux.wait("book of names")
    await tmux.type(name)
    await tmux.wait(f"{name} ·")
    await tmux.type("tables")
    screen = await tmux.wait("#  game")
    assert "Stukolka" in screen
    await tmux.type("quit")
    await tmux.wait("CLIENT-EXIT=0")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@needs_tmux
@pytest.mark.skipif(not (shutil.which("dbclient") and shutil.which("dropbearconvert")),
                    reason="needs Dropbear's client: apt-get install dropbear-bin")
async def test_dropbear_client_in_tmux(tmp_path):
    """dbclient (no AES-GCM, a guessed first kex packet) logs in, registers, sees the hall, quits."""
    openssh_key = tmp_path / "id_openssh"
    openssh_key.write_bytes(new_key().export_private_key())
    openssh_key.chmod(0o600)
    key = tmp_path / "id_dropbear"
    subprocess.run(["dropbearconvert", "openssh", "dropbear", str(openssh_key), str(key)],
                   check=True, capture_output=True)
    async with running(make_config(tmp_path / "data")) as server:
        # -y -y: no host key check (a fresh test server); -t: a pty.
        client = f"dbclient -y -y -t -i {key} -p {server.port} vera@127.0.0.1"
        tmux = Tmux(tmp_path / "tmux.sock")
        _home_env(tmux, tmp_path / "home")
        await tmux.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24",
                       f"sh -c '{client}; echo CLIENT-EXIT=$?; sleep 60'")
        try:
            await _choose_name_and_quit(tmux, "Vera")
        finally:
            await tmux.run("kill-server")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@needs_tmux
@pytest.mark.skipif(not (shutil.which("plink") and shutil.which("puttygen")),
                    reason="needs PuTTY's tools: apt-get install putty-tools")
async def test_putty_plink_in_tmux(tmp_path):
    """plink with a .ppk key and the server's pinned host key logs in, registers, sees the hall, quits."""
    key = tmp_path / "id.ppk"
    subprocess.run(["puttygen", "-t", "ed25519", "-o", str(key), "--new-passphrase", os.devnull],
                   check=True, capture_output=True)
    data = tmp_path / "data"
    async with running(make_config(data)) as server:
        fingerprint = asyncssh.read_private_key(str(data / HOST_KEY_NAME)).get_fingerprint("sha256")
        # -batch: never ask (an unknown host key would be a failure, not a question).
        client = (f"plink -ssh -batch -t -P {server.port} -i {key} -hostkey {fingerprint}"
                  f" gleb@127.0.0.1")
        tmux = Tmux(tmp_path / "tmux.sock")
        _home_env(tmux, tmp_path / "home")
        await tmux.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24",
                       f"sh -c '{client}; echo CLIENT-EXIT=$?; sleep 60'")
        try:
            await _choose_name_and_quit(tmux, "Gleb")
        finally:
            await tmux.run("kill-server")
