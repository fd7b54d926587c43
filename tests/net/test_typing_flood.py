"""One session typing 16,000 letters cannot stall the others (issue 12, item 1).

Within the input rate (the burst lets 64 KB through at once) the letters are
parsed and handed to the App a slice at a time, beyond the event rate they are
dropped, and the line holds ``COMMAND_MAX`` characters: the typist is told the
line is full, everyone else is answered meanwhile.  How fast is printed by
tests/bench/isolation_bench.py (no timed assert here).
"""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running, until
from test_club_over_ssh import register

from net.config import Config
from tui.limits import COMMAND_MAX

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FLOOD = 16_000


def _config(data):
    """The test defaults, with the real event rate of a session (tests type faster than people)."""
    config = make_config(data)
    config.input_events_per_second = Config.input_events_per_second
    config.input_event_burst = Config.input_event_burst
    return config


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_player_typing_16000_letters_does_not_stall_another(tmp_path):
    """In the hall (a door, no App: issue 16) the line stops at its bound and Boris is answered meanwhile."""
    async with running(_config(tmp_path / "data")) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.type("say " + "a" * FLOOD)
        boris.line("look")
        await boris.wait("The hall of the club")  # answered during the flood
        await anna.wait("The line is full")
        session = next(s for s in server.sessions if s.name == "Anna")
        assert session.door is not None and session.app is None  # the hall needs no App
        await until(lambda: len(session.door.editor.text) == COMMAND_MAX, what="the line at its bound")
        assert session.door.editor.text.startswith("say aaa")
        anna.line("")  # Enter: her line is said, cut at the bound, and she is still served
        await anna.wait("Anna says:")
        boris.line("who")
        await boris.wait("Anna")
        for c in (anna, boris):
            await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_seated_player_typing_16000_letters_does_not_stall_another(tmp_path):
    """At a table (his own App) the letters are paced and dropped over the event rate; Boris is answered."""
    async with running(_config(tmp_path / "data")) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.line("sit 1")
        await anna.wait("Table 1 · ")
        session = next(s for s in server.sessions if s.name == "Anna")
        await until(lambda: session.driver is not None, what="Anna's App at the table")
        anna.type("say " + "a" * FLOOD)
        boris.line("look")
        await boris.wait("The hall of the club")  # answered during the flood
        await anna.wait("The line is full")
        await until(lambda: not session.driver._queue and not session.driver._pending, what="the flood drained")
        assert session.driver.dropped > 0  # over the event rate: dropped, not queued
        line = session.app.screen.cmdline
        assert len(line.value) == COMMAND_MAX and line.value.startswith("say aaa")
        anna.line("")
        await anna.wait("Anna says:")
        boris.line("who")
        await boris.wait("Anna")
        for c in (anna, boris):
            await c.close()


async def test_a_watcher_typing_16000_letters_does_not_stall_another(tmp_path):
    async with running(_config(tmp_path / "data")) as server:
        flood = await connect(server.port, key=None, command="watch 1")
        calm = await connect(server.port, key=None, command="watch 1")
        for w in (flood, calm):
            await w.wait("watching · ")
        flood.type("a" * FLOOD)
        calm.line("look")
        await calm.wait("Table 1 · ")
        rows = lambda: sorted(len(s.member.text) for s in server.sessions if s.member is not None)  # noqa: E731
        await until(lambda: rows() == [0, COMMAND_MAX], what="the watcher's row at its bound")
        for w in (flood, calm):
            await w.close()


async def test_typed_ahead_lines_keep_their_order_under_pacing(tmp_path):
    """Lines typed in one burst (``sit 1⏎look⏎``) still run one after the other, whole."""
    async with running(_config(tmp_path / "data")) as server:
        anna = await register(server.port, "Anna", key=new_key())
        anna.type("say one\rsay two\rsay three\r")
        await anna.wait("Anna says: three")
        screen = anna.text()
        assert screen.index("Anna says: one") < screen.index("Anna says: two") < screen.index("Anna says: three")
        await anna.close()
