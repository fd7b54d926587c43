"""What a script sends the moment its channel opens is read by the mode it asked for, with OpenSSH's own client:
a bot's ``hello`` (``ssh -T host bot``, the doc's recipe) is answered every time, and a script's lines piped
to ``ssh -T host text`` are each answered before the session ends."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from sshclient import make_config, running

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")]


def _ssh(port: int, key: Path | None, user: str, command: str, tty: str = "-T") -> list[str]:
    auth = ["-i", str(key), "-o", "IdentitiesOnly=yes"] if key else \
        ["-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive,none"]
    return ["ssh", tty, "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "BatchMode=no", *auth, "-p", str(port), f"{user}@127.0.0.1", command]


async def test_a_bots_hello_sent_at_once_is_answered_100_times_of_100(tmp_path: Path) -> None:
    key = tmp_path / "bot_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    config = make_config(tmp_path / "data", connections_per_minute=10_000, connection_burst=1_000)
    async with running(config) as server:  # a hundred connections in a minute: above the door's default rate
        answered = 0
        for attempt in range(100):
            proc = await asyncio.create_subprocess_exec(*_ssh(server.port, key, "bot", "bot"),
                                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                        stderr=subprocess.DEVNULL)
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(b'{"type":"hello","name":"Kolobok","lang":"en"}\n')  # before any answer
            await proc.stdin.drain()
            kinds = []
            try:
                while "welcome" not in kinds and "error" not in kinds:
                    line = await asyncio.wait_for(proc.stdout.readline(), 15)
                    if not line:
                        break
                    kinds.append(json.loads(line)["type"])
            finally:
                proc.stdin.close()
                await asyncio.wait_for(proc.wait(), 15)
            assert kinds[:2] == ["hello", "welcome"], (attempt, kinds)
            answered += 1
        assert answered == 100


async def test_a_bot_asked_for_with_a_pty_is_still_a_bot(tmp_path: Path) -> None:
    """``ssh -tt host bot``: the command says bot, so it speaks the bot protocol, never the people's hall."""
    key = tmp_path / "bot_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    async with running(make_config(tmp_path / "data")) as server:
        proc = await asyncio.create_subprocess_exec(*_ssh(server.port, key, "bot", "bot", tty="-tt"),
                                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                    stderr=subprocess.DEVNULL)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b'{"type":"hello","name":"Kolobok","lang":"en"}\n')
        await proc.stdin.drain()
        kinds = []
        try:
            while "welcome" not in kinds and "error" not in kinds:
                line = await asyncio.wait_for(proc.stdout.readline(), 15)
                assert line, kinds
                assert line.lstrip().startswith(b"{"), line[:80]  # JSON, not a screen's escapes
                kinds.append(json.loads(line)["type"])
        finally:
            proc.stdin.close()
            proc.kill()
            await asyncio.wait_for(proc.wait(), 15)
        assert kinds[:2] == ["hello", "welcome"]


async def test_every_line_piped_to_the_text_mode_is_answered_before_it_ends(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        for _ in range(5):
            proc = await asyncio.create_subprocess_exec(*_ssh(server.port, None, "guest", "text"),
                                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                        stderr=subprocess.DEVNULL)
            out, _ = await asyncio.wait_for(proc.communicate(b"who\ntables\n"), 30)
            said = out.decode()
            assert proc.returncode == 0
            assert "Online (1): guest-" in said  # who
            assert "Table 1: Stukolka" in said  # tables
