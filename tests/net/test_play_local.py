"""``sukno play``: the club's TUI in a local terminal (a real pty read with pyte) against bots."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from net.cli.play import PlayError, setup

ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """A child process on a pty of ``cols``×``rows``, its screen kept by pyte."""

    def __init__(self, argv: list[str], cols: int = 100, rows: int = 30):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", LANG="en_US.UTF-8", COLUMNS=str(cols), LINES=str(rows))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     start_new_session=True)
        os.close(slave)
        self.fd = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, wait: float = 0.05) -> None:
        while select.select([self.fd], [], [], wait)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.stream.feed(data)
            wait = 0

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait(self, what: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while what not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what!r} not shown in {timeout}s; the screen:\n{self.text()}")
            self.pump()

    def line(self, keys: str) -> None:
        os.write(self.fd, (keys + "\r").encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        os.close(self.fd)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_sukno_play_deals_against_bots_in_the_local_terminal():
    term = Terminal([sys.executable, "-m", "net.cli.main", "play", "french3", "--think", "0", "--name", "anna"])
    try:
        term.wait("Table 1 ·")
        assert "bot-Mitya" in term.text() and "bot-Vanya" in term.text()
        term.line("start")
        term.wait("You may:")  # the bots played up to anna's turn: the deal runs
        term.line("quit")
        deadline = time.monotonic() + 10
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.pump()
        assert term.proc.returncode == 0
    finally:
        term.close()


def test_setup_refuses_what_cannot_be_played_and_changes_nothing():
    for kwargs, words in (({"game": "whist"}, "no game 'whist'"), ({"game": "french3", "bots": 3}, "--bots 2–2"),
                          ({"game": "french3", "variant": "b"}, "has no variants"),
                          ({"game": "stukolka", "variant": "z"}, "must be one of"),
                          ({"game": "french3", "name": "a b"}, "a name is")):
        with pytest.raises(PlayError, match=words):
            setup(**kwargs)
    played = setup("stukolka", variant="b", bots=4, name="anna")
    assert played.table.seats[0] == "anna" and len(played.table.seats) == 5
    assert played.table.options["variant"] == "b" and played.club.store is None
