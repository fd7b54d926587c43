"""What clients send cannot forge the server log (issue 12, item 10): TERM, user name, version, typed words."""

from __future__ import annotations

import asyncio
import logging

import asyncssh
import pytest
from sshclient import Screen, make_config, new_key, running, until

from net.ssh.logsafe import LINE_MAX, SafeFormatter, clean


def test_clean_escapes_controls_and_cuts():
    assert clean("xterm\nFAKE") == "xterm\\x0aFAKE"
    assert clean("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert clean("a\u2028b\u202ec") == "a\\u2028b\\u202ec"  # line separator, right-to-left override
    assert clean("back\\slash") == "back\\\\slash"
    long = clean("x" * 30_000, 80)
    assert long == "x" * 80 + "…(+29920)"
    escaped = clean("\n" * 100, 20)  # escapes are never cut in half
    assert escaped.startswith("\\x0a" * 5 + "…")
    assert clean("Вера_2") == "Вера_2"  # Cyrillic letters stay as they are


def test_formatter_keeps_one_line_per_record():
    formatter = SafeFormatter("%(levelname)s %(message)s")
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "term=%s", ("x\n2026 FAKE ERROR\x1b[2J",), None)
    line = formatter.format(record)
    assert "\n" not in line and "\x1b" not in line
    assert line == "INFO term=x\\x0a2026 FAKE ERROR\\x1b[2J"
    huge = logging.LogRecord("t", logging.INFO, __file__, 1, "%s", ("y" * 100_000,), None)
    assert len(formatter.format(huge)) < LINE_MAX + 100


@pytest.mark.parametrize("term", ["xterm\n2026-12-01 09:00:00 sukno.server INFO forged", "xterm\x1b]0;pwned\x07\x1b[2J",
                                  "x" * 30_000])
async def test_client_fields_reach_the_log_escaped_and_cut(tmp_path, caplog, monkeypatch, term):
    """A session whose TERM and version hold newlines, ESC/BEL or 30 KB (a 30 KB user name) logs one clean line."""
    caplog.set_level(logging.INFO, logger="sukno.server")
    # Let the test client send a version no real asyncssh client would (the server must cope anyway).
    monkeypatch.setattr(asyncssh.connection, "_validate_version", lambda v: v.encode() if isinstance(v, str) else v)
    async with running(make_config(tmp_path / "data")) as server:
        conn = await asyncssh.connect(
            "127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()], agent_path=None,
            username="eve" * 300, client_version="Evil\x1b]2;title\x07\x1b[2J")
        chan, screen = await conn.create_session(lambda: Screen(80, 24), term_type=term, term_size=(80, 24),
                                                 encoding=None)
        await until(lambda: "book of names" in screen.text(), what="the welcome screen")
        conn.close()
        await until(lambda: not server.sessions, what="the session's end")
        await asyncio.sleep(0)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("session peer=")]
    assert len(lines) == 1, lines
    line = lines[0]
    assert not any(c in line for c in "\n\r\x1b\x07"), line
    assert len(line) < 400, len(line)
    assert "user=" + "eve" * 10 + "ev…(+224)" in line  # (kept to 256; asyncssh refuses controls in one)
    assert "client=SSH-2.0-Evil\\x1b]2;title\\x07" in line
