"""Limits and cleanup: sessions per account, idle time, tiny and resized watcher windows, no leaked Apps."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from sshclient import connect, make_config, new_key, running, until
from test_club_over_ssh import register

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_sessions_per_account_are_capped(tmp_path):
    """A fourth session with the same key is told the club is full for him, and gets exit status 1."""
    config = make_config(tmp_path / "data", max_sessions_per_account=2)
    async with running(config) as server:
        key = new_key()
        first = await register(server.port, "Anna", key=key)
        second = await connect(server.port, key=key)
        await second.wait("Anna ·")
        third = await connect(server.port, key=key)
        await asyncio.wait_for(third.session.closed.wait(), 10)
        assert "full" in third.text()
        assert third.chan.get_exit_status() == 1
        for c in (first, second):
            await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_idle_session_is_shown_out_and_keeps_the_seat(tmp_path):
    """After idle_timeout without a key the session ends with a line saying why; the seat stays."""
    config = make_config(tmp_path / "data", idle_timeout=1.0)
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        anna.line("sit 1")
        await until(lambda: "Anna" in server.club.tables[1].seats, what="seated")
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "idle" in anna.session.raw.decode(errors="replace")
        assert server.club.tables[1].seats[0] == "Anna"
        assert not server.club.is_online("Anna")


async def test_tiny_watcher_window_is_told_and_recovers_on_resize(tmp_path):
    """A watcher's window smaller than every bucket gets a clear line; enlarging it shows the table."""
    async with running(make_config(tmp_path / "data")) as server:
        w = await connect(server.port, key=None, cols=40, rows=10, command="watch 1")
        await w.wait(lambda s: "watching needs at least 80x24" in " ".join(s.split()))
        w.chan.change_terminal_size(100, 30)
        w.session.screen.resize(30, 100)
        await w.wait("watching · ")
        await w.wait("Table 1")
        await w.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_watcher_resize_moves_him_to_another_bucket(tmp_path):
    """Resizing from 80x24 to 120x40 moves the watcher to that bucket's hub; the old hub closes."""
    async with running(make_config(tmp_path / "data")) as server:
        w = await connect(server.port, key=None, command="watch 1")
        await w.wait("watching · ")
        assert [(k.cols, k.rows) for k in server.hubs.hubs] == [(80, 24)]
        w.chan.change_terminal_size(120, 40)
        w.session.screen.resize(40, 120)
        await until(lambda: [(k.cols, k.rows) for k in server.hubs.hubs] == [(120, 40)], what="moved hub")
        await until(lambda: w.screen.display[39].startswith("watching · "), what="command row at the bottom")
        assert "watching · " not in w.screen.display[23]
        await w.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_no_app_outlives_its_session(tmp_path):
    """Players, watchers and hubs: after everyone leaves no App is alive and no hub remains."""
    apps: list[weakref.ref] = []
    from net.ssh.server import _club_app

    def tracked(session):
        app = _club_app(session)
        apps.append(weakref.ref(app))
        return app

    async with running(make_config(tmp_path / "data"), player_app=tracked) as server:
        clients = [await register(server.port, f"P{i}") for i in range(3)]
        clients[0].line("watch 1")
        await clients[0].wait("watching · ")
        hub_app = weakref.ref(next(iter(server.hubs.hubs.values())).app)
        clients[1].conn.abort()  # one drops, the others leave properly
        for c in clients[::2]:
            await c.close()
        await until(lambda: not server.sessions, what="sessions gone")
        await until(lambda: not server.hubs.hubs, what="hubs gone")
        await asyncio.sleep(0)
    for _ in range(3):
        gc.collect()
        await asyncio.sleep(0.05)
    alive = [r() for r in apps + [hub_app] if r() is not None]
    assert not alive, f"Apps still alive: {alive}"
    assert not [t for t in asyncio.all_tasks() if "session" in t.get_name() or "hub" in t.get_name()]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_player_who_stops_reading_is_repainted_when_he_reads_again(tmp_path):
    """A seated player's own App stops sending while he does not read, and sends the whole screen after."""
    config = make_config(tmp_path / "data", buffer_limit=4096, chat_burst=100)  # a talker past the chat limit
    async with running(config) as server:
        talker = await register(server.port, "Talker")
        slow = await register(server.port, "Slow", window=1024)
        for who in (talker, slow):
            who.line("sit 1")
            await who.wait("Table 1 · ")
        session = next(s for s in server.sessions if s.name == "Slow")
        await until(lambda: session.driver is not None, what="the slow player's App")
        slow.chan.pause_reading()
        for i in range(30):
            talker.line(f"say table line {i:02d} " + "y" * 30)
            await talker.wait(f"table line {i:02d}")
        await until(lambda: session.driver is not None and session.driver._stale, what="the slow player's frames dropped")
        assert session.buffered() < 4096 + 64 * 1024, "frames were queued for a client that does not read"
        slow.chan.resume_reading()
        await slow.wait("table line 29")
        await until(lambda: not session.driver._stale, what="repainted")
        for c in (talker, slow):
            await c.close()


@pytest.mark.parametrize("limit", ["max_sessions", "max_sessions_per_address"])
async def test_club_full_is_said_not_dropped(tmp_path, limit):
    """Over the total (or per-address) cap a newcomer reads why and gets exit status 1."""
    config = make_config(tmp_path / "data", **{limit: 2})
    async with running(config) as server:
        first = [await connect(server.port, key=None) for _ in range(2)]
        for c in first:
            await c.wait("guest-")
        late = await connect(server.port, key=None)
        await asyncio.wait_for(late.session.closed.wait(), 10)
        assert "The club is full" in late.text()
        assert late.chan.get_exit_status() == 1
        for c in first:
            await c.close()
