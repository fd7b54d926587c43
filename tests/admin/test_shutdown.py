"""shutdown --grace: no new connections or deals, everyone told, the deal in play finishes, then exit 0."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from adminkit import sukno_admin
from sshclient import connect, new_key, until

import net.ssh.server
from net.house.admin import SOCKET_NAME
from net.cli.serve import run

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def serving(monkeypatch, config):
    """``sukno serve``'s own ``run(config)`` as a task, and a way to reach the server it made."""
    made: list[net.ssh.server.SuknoServer] = []

    class Captured(net.ssh.server.SuknoServer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(net.ssh.server, "SuknoServer", Captured)

    async def start():
        task = asyncio.get_running_loop().create_task(run(config))
        await until(lambda: made and (config.data / SOCKET_NAME).exists() or task.done(), what="server up")
        assert not task.done(), task.result()
        return task, made[0]

    return start


def deal_in_play(server) -> object:
    table = server.club.tables[1]
    now = asyncio.get_running_loop().time()
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        table.sit(name)
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        table.start(name, now)
    assert table.in_deal()
    return table


async def test_shutdown_lets_the_deal_finish_then_exits_0(config, serving):
    """Mid-deal, shutdown --grace waits for the deal's end (refusing new connections), then run() returns 0."""
    task, server = await serving()
    table = deal_in_play(server)
    guest = await connect(server.port, key=new_key())
    await guest.wait("book of names")
    status, out, _ = await sukno_admin(config.data, "shutdown", "--grace", "30")
    assert status == 0 and "1 deal(s) in play" in out
    await guest.wait("The club closes in 30 s")
    with pytest.raises(OSError):
        await asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                               agent_path=None)
    assert table.closing
    while table.in_deal():
        for _ in range(5):
            await asyncio.sleep(0)  # let the shutdown task look: it must keep waiting
        assert not task.done()
        seat = table.game.to_act()[0]
        action = table.game.legal_actions(seat)[0]
        table.act(table.game.names[seat], action.text(ascii=True), asyncio.get_running_loop().time())
    assert await asyncio.wait_for(task, 15) == 0
    await asyncio.wait_for(guest.session.closed.wait(), 10)
    assert "The club is closing for now" in guest.session.raw.decode("utf-8", "replace")
    assert not (config.data / SOCKET_NAME).exists()


async def test_grace_running_out_stops_anyway(config, serving):
    """A deal still in play when the grace runs out does not hold the house open."""
    task, server = await serving()
    deal_in_play(server)
    started = time.monotonic()
    status, _, _ = await sukno_admin(config.data, "shutdown", "--grace", "0.3")
    assert status == 0
    assert await asyncio.wait_for(task, 15) == 0
    assert time.monotonic() - started >= 0.3
    status, _, err = await sukno_admin(config.data, "tables")
    assert status == 2 and "no sukno server is running" in err


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_the_sukno_serve_process_exits_0(tmp_path):
    """The real command: sukno serve, then sukno admin shutdown; the server process ends with status 0."""
    data = tmp_path / "d"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--port", "0", "--data", str(data)],
                              cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while not (data / SOCKET_NAME).exists():
            assert server.poll() is None, server.stderr.read().decode()
            assert time.monotonic() < deadline, "no admin socket"
            time.sleep(0.05)
        done = subprocess.run([sys.executable, "-m", "net.cli.main", "admin", "--data", str(data), "shutdown",
                               "--grace", "5"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=20)
        assert done.returncode == 0, done.stderr
        assert "shutting down" in done.stdout
        assert server.wait(timeout=20) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
