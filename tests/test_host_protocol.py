"""Every mode that runs the one dispatcher of typed lines is a ``tui.host.Host`` for real, checked by mypy.

The dispatcher (``tui.verbs.HallVerbs``, ``tui.social``) asks its mode for a ``Host`` (who he is, the club,
where his wishes go) and answers through ``Lines``.  No class copies another's shape to satisfy it: the
player's App, the text mode's club, the hall door and a watcher's row each implement it, and mypy says so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECKED = '''
from net.modes.hall import HallDoor
from net.modes.watch import Watch
from net.modes.welcome import WelcomeDoor
from tui.app import ClubApp
from tui.host import Host, Lines
from tui.screens.hall import HallScreen
from tui.text.club import TextClub


def hosts(app: ClubApp, text: TextClub, door: HallDoor, welcome: WelcomeDoor, watch: Watch) -> list[Host]:
    return [app, text, door, welcome, watch]


def lines(screen: HallScreen, text: TextClub, door: HallDoor, watch: Watch) -> list[Lines]:
    return [screen, text, door, watch]
'''

BROKEN = '''
from tui.host import Host


class Imitation:
    lang = "en"


def host(thing: Imitation) -> Host:
    return thing
'''


def mypy(tmp_path: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
                           "--cache-dir", str(tmp_path / "cache"), str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_every_mode_that_runs_the_dispatcher_is_a_host_and_its_lines(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra")
    out = mypy(tmp_path, "modes_are_hosts.py", CHECKED)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    broken = mypy(tmp_path, "imitation.py", BROKEN)  # the check can fail: a shape that is not a Host
    assert broken.returncode == 1, broken.stdout[-2000:]
    assert 'Incompatible return value type (got "Imitation", expected "Host")' in broken.stdout, broken.stdout
