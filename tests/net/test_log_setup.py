"""The server's log as an operator asks for it: its level, plain or JSON lines, the node on each."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.logsetup import JsonFormatter, NodeFilter, setup_logging

ROOT = Path(__file__).resolve().parents[2]


def _written(level: str, fmt: str, node: str, say: list[tuple[int, str]]) -> list[str]:
    handler = setup_logging(level, fmt, node)
    out = io.StringIO()
    handler.setStream(out)  # type: ignore[attr-defined]
    try:
        for lvl, text in say:
            logging.getLogger("sukno.test").log(lvl, "%s", text)
    finally:
        logging.getLogger().removeHandler(handler)
    return out.getvalue().splitlines()


def test_json_lines_name_the_node_and_escape_what_a_client_sent() -> None:
    lines = _written("info", "json", "w-2", [(logging.INFO, "hello from \x1b[2Jbad\nline"),
                                            (logging.DEBUG, "not at info")])
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["node"] == "w-2" and line["level"] == "info" and line["logger"] == "sukno.test"
    assert "\x1b" not in line["message"] and "\n" not in line["message"] and line["time"].endswith("Z")


def test_text_lines_carry_the_node_and_the_level_holds_back_the_rest() -> None:
    lines = _written("warning", "text", "a", [(logging.INFO, "quiet"), (logging.WARNING, "loud")])
    assert len(lines) == 1 and " a sukno.test WARNING loud" in lines[0]
    assert " - sukno.test INFO x" in _written("info", "text", "", [(logging.INFO, "x")])[0]


def test_a_traceback_stays_inside_its_json_line() -> None:
    formatter = JsonFormatter()
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("sukno", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    NodeFilter("n").filter(record)
    line = formatter.format(record)
    assert "\n" not in line and "ValueError: boom" in json.loads(line)["traceback"]


@pytest.mark.slow  # a real server process
def test_sukno_serve_writes_json_lines(tmp_path: Path) -> None:
    data = tmp_path / "d"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--port", "0", "--data", str(data),
                               "--log-format", "json", "--log-level", "debug"], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        seen: list[str] = []
        deadline = time.monotonic() + 30
        while not any("the club is open" in line for line in seen):
            assert time.monotonic() < deadline and server.poll() is None, seen
            seen.append(server.stderr.readline())
        server.send_signal(signal.SIGTERM)
        _, rest = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    logged = [json.loads(line) for line in seen + rest.splitlines() if line.startswith("{")]
    assert logged and all(line["node"] == "-" for line in logged)
    assert any("host key" in line["message"] for line in logged)
