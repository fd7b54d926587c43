"""Floods are refused cheaply, at the door (issue 12, item 6).

Over-limit connections are closed as they are accepted, before the key
exchange; the per-address memory is bounded and forgets the least recently
seen address first.  The storm test shows a stranger from another address
(127.0.0.2, a loopback alias) getting his first screen while one address
connects 200 times in 5 s; how fast is measured by tests/bench/isolation_bench.py.
"""

from __future__ import annotations

import asyncio
import socket

import asyncssh
import pytest
from sshclient import connect, make_config, new_key, running, until

from net.ssh import limits as limits_module
from net.config import Config
from net.ssh.limits import DOOR_SLACK, Limits, address_key


def _limits(**over) -> Limits:
    config = Config(**over)
    return Limits(config, set())


def test_rate_and_burst_per_address():
    limits = _limits(connections_per_minute=60, connection_burst=3)
    assert [limits.admit_connection("10.0.0.1") for _ in range(3)] == [None] * 3
    assert limits.admit_connection("10.0.0.1") == "10.0.0.1: too many connections"
    assert limits.admit_connection("10.0.0.2") is None  # another address has its own bucket
    assert limits.refused_at_door == 1


def test_ipv6_addresses_are_limited_by_their_64_and_mapped_ipv4_as_ipv4():
    limits = _limits(connections_per_minute=3, connection_burst=3)
    same_host = [f"2001:db8:1:2::{i:x}" for i in range(1, 5)]  # one host's /64: many addresses
    assert [limits.admit_connection(peer) for peer in same_host[:3]] == [None] * 3
    assert limits.admit_connection(same_host[3]) == "2001:db8:1:2::/64: too many connections"
    assert limits.admit_connection("2001:db8:1:3::1") is None  # the next /64 is another address
    assert address_key("::ffff:10.0.0.7") == "10.0.0.7" == address_key("10.0.0.7")
    assert address_key("fe80::1%eth0") == "fe80::/64"


def test_live_connections_per_address_are_capped_and_freed():
    """Past the cap and its slack (within it a person is let in to be told the club is full)."""
    limits = _limits(connections_per_minute=10_000, connection_burst=10_000, max_sessions_per_address=2)
    assert all(limits.admit_connection("a") is None for _ in range(2 + DOOR_SLACK))
    assert limits.admit_connection("a") == "2 from a"
    limits.connection_closed("a")
    assert limits.admit_connection("a") is None
    assert limits.admit_connection("b") is None  # another address is not counted with it


def test_address_memory_is_lru_and_bounded(monkeypatch):
    """Not wiped at 10,000: a busy attacker stays remembered while 10,000 others pass through."""
    monkeypatch.setattr(limits_module, "ADDRESSES_MAX", 100)
    limits = _limits(connections_per_minute=60, connection_burst=1)
    assert limits.admit_connection("attacker") is None
    for i in range(10_000):
        limits.admit_connection(f"10.1.{i // 256}.{i % 256}")
        if i % 50 == 0:
            assert limits.admit_connection("attacker") is not None  # still refused: still remembered
        limits.connection_closed(f"10.1.{i // 256}.{i % 256}")
    assert limits.remembered() == 100
    assert limits.admit_connection("attacker") is not None


async def test_refused_connection_gets_a_line_and_no_key_exchange(tmp_path):
    """Over the burst, a connection reads why (in both languages) and is closed before the SSH version."""
    config = make_config(tmp_path / "data", connection_burst=1, connections_per_minute=1)
    async with running(config) as server:
        first = await connect(server.port, key=new_key())
        await first.wait("book of names")
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        got = await asyncio.wait_for(reader.read(), 10)  # until the server closes
        writer.close()
        assert b"SSH-2.0" not in got
        text = got.decode("utf-8")
        assert "The club is full" in text and "Клуб сейчас полон" in text
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(server.port, key=new_key())
        assert server.limits.refused_at_door == 2
        assert len(server.connections) == 1  # the refused ones never became SSH connections
        await first.close()


def _has_loopback_alias() -> bool:
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.2", 0))
        return True
    except OSError:
        return False


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.skipif(not _has_loopback_alias(), reason="needs the 127.0.0.2 loopback alias (Linux has it)")
async def test_stranger_gets_his_screen_during_a_storm(tmp_path):
    """200 connections in 5 s from 127.0.0.1; a stranger from 127.0.0.2 is served meanwhile."""
    config = make_config(tmp_path / "data")
    config.connection_burst = 10  # the default door
    outcomes: dict[str, int] = {"in": 0, "refused": 0}
    held: list = []

    async def one() -> None:
        try:
            client = await connect(server.port, key=new_key())
        except (asyncssh.Error, OSError):
            outcomes["refused"] += 1
            return
        outcomes["in"] += 1
        held.append(client)

    async with running(config) as server:
        tasks = []
        for i in range(200):
            tasks.append(asyncio.ensure_future(one()))
            if i == 100:  # mid-storm
                stranger_task = asyncio.ensure_future(connect(server.port, key=new_key(), local_addr="127.0.0.2"))
            await asyncio.sleep(5 / 200)
        stranger = await asyncio.wait_for(stranger_task, 10)
        # A deadline that proves he is not starved (the bench measures the time itself).
        await stranger.wait("book of names", timeout=10)
        await asyncio.gather(*tasks)
        assert outcomes["in"] + outcomes["refused"] == 200
        assert outcomes["refused"] >= 150, outcomes  # burst 10, then one a second
        assert server.limits.refused_at_door >= 150
        await until(lambda: any(s.conn.peer == "127.0.0.2" for s in server.sessions), what="the stranger counted")
        for client in held + [stranger]:
            await client.close()


async def test_app_starts_go_one_at_a_time_addresses_in_turn():
    """A storm's queued starts wait behind each other; a stranger's start goes next (net.ssh.limits.StartQueue)."""
    from net.ssh.limits import StartQueue

    queue = StartQueue()
    order: list[str] = []

    async def start(peer: str, label: str) -> None:
        await queue.turn(peer)
        order.append(label)
        await asyncio.sleep(0.01)
        queue.release()

    first = asyncio.ensure_future(start("storm", "s0"))
    await asyncio.sleep(0)
    storm = [asyncio.ensure_future(start("storm", f"s{i}")) for i in range(1, 6)]
    await asyncio.sleep(0)
    stranger = asyncio.ensure_future(start("stranger", "x"))
    await asyncio.gather(first, *storm, stranger)
    assert order[:3] == ["s0", "s1", "x"]  # the stranger waits for one storm start, not five
    assert sorted(order) == sorted(["s0", "s1", "s2", "s3", "s4", "s5", "x"])
    assert queue.waiting() == 0 and not queue._busy
