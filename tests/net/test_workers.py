"""``sukno serve --workers N`` (issue 15): N nodes on one port (SO_REUSEPORT), supervised by the parent."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncssh
import pytest
from sshclient import new_key

ROOT = Path(__file__).resolve().parents[2]


async def _host_keys(port: int, count: int) -> set[str]:
    """The host keys ``count`` connections to ``port`` are shown."""
    seen = set()
    for _ in range(count):
        async with asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[new_key()],
                                    agent_path=None) as conn:
            seen.add(conn.get_server_host_key().get_fingerprint())
    return seen


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_workers_refuse_sqlite_with_the_reason(tmp_path):
    out = subprocess.run([sys.executable, "-m", "net.cli.main", "serve", "--workers", "2", "--port", "0",
                          "--data", str(tmp_path / "data")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 78
    assert "--workers N needs a PostgreSQL store" in out.stderr
    assert not (tmp_path / "data").exists()  # nothing made


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_workers_count_is_bounded(tmp_path, pg_url):
    out = subprocess.run([sys.executable, "-m", "net.cli.main", "serve", "--workers", "0", "--store", pg_url,
                          "--port", "0", "--data", str(tmp_path / "data")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 78 and "--workers is 1–64" in out.stderr


class Lines:
    """The parent's stderr (its children's too), read by a thread; ``wait`` for a pattern, bounded."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self.thread.start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()

    def wait(self, pattern: str, count: int = 1, timeout: float = 60.0) -> list[re.Match[str]]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                found = [m for m in (re.search(pattern, line) for line in self.lines) if m]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"{count}× {pattern!r} not seen; the log ends:\n" + "".join(self.lines[-30:])
                self.cond.wait(left)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie of the parent's is gone too
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_two_workers_share_one_port_a_killed_one_comes_back_and_sigterm_stops_all(tmp_path, pg_url):
    proc = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--workers", "2", "--node", "w",
                             "--store", pg_url, "--port", "0", "--data", str(tmp_path / "data")],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        lines = Lines(proc)
        port = int(lines.wait(r"share port (\d+)")[0].group(1))
        started = {m.group(1): int(m.group(2)) for m in lines.wait(r"worker (w-\d) started \(pid (\d+)\)", 2)}
        assert set(started) == {"w-1", "w-2"}
        pids += started.values()
        opened = lines.wait(r"the club is open — ssh -p (\d+)", 2)
        assert {int(m.group(1)) for m in opened} == {port}  # both listen on the one port
        assert len(asyncio.run(_host_keys(port, 6))) == 1  # whichever worker answers: the club's one key
        admin = [sys.executable, "-m", "net.cli.main", "admin", "--data", str(tmp_path / "data")]
        asked = subprocess.run([*admin, "tables"], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert asked.returncode == 2 and "2 workers (w-1, w-2)" in asked.stderr, asked.stderr  # which one?
        asked = subprocess.run([*admin, "--node", "w-2", "--json", "tables"], cwd=ROOT, capture_output=True,
                               text=True, timeout=60)
        assert asked.returncode == 0 and json.loads(asked.stdout)["ok"], asked.stderr
        assert not _gone(started["w-1"]), "worker w-1 ended by itself:\n" + "".join(lines.lines[-30:])
        os.kill(started["w-1"], signal.SIGKILL)
        again = lines.wait(r"worker w-1 started \(pid (\d+)\)", 2)
        pids.append(int(again[1].group(1)))
        assert "worker w-1 ended (signal 9)" in "".join(lines.lines)
        lines.wait(r"the club is open — ssh -p (\d+)", 3)
        assert all(m.group(1) == str(port) for m in lines.wait(r"the club is open — ssh -p (\d+)", 3))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        assert all(_gone(pid) for pid in pids)
        lines.wait("every worker stopped")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in pids:
            if not _gone(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # ended between the look and the kill
                    pass
