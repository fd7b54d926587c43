"""The operator's figures: off by default; on a configured address, Prometheus's format with the families
an operator needs, read by prometheus-client's own parser."""

from __future__ import annotations

import asyncio
import socket
import urllib.request

import pytest

from prometheus_client.parser import text_string_to_metric_families
from sshclient import make_config, named, running, until

FAMILIES = {"sukno_sessions", "sukno_connections_refused", "sukno_loop_lag_seconds", "sukno_store_write_seconds",
            "sukno_move_to_screen_seconds", "sukno_notify_round_trip_seconds",
            "sukno_store_writes_refused", "sukno_tables_owned", "sukno_tables_known", "sukno_deals_played"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _scrape(port: int) -> dict[str, list]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


async def test_metrics_are_served_on_the_configured_address_with_every_family(tmp_path) -> None:
    port = _free_port()
    config = make_config(tmp_path, metrics_listen=f"127.0.0.1:{port}")
    async with running(config) as server:
        anna = await named(server.port, "Anna")
        try:
            await until(lambda: len(server.sessions) >= 1)
            await asyncio.sleep(0.6)  # a few wakes of the loop-lag timer
            families = await asyncio.get_running_loop().run_in_executor(None, _scrape, port)
            assert FAMILIES <= set(families)
            modes = {s.labels["mode"]: s.value for s in families["sukno_sessions"]}
            assert sum(modes.values()) >= 1
            assert [s.value for s in families["sukno_tables_owned"]] == [len(server.club.tables)]
            lag_count = next(s.value for s in families["sukno_loop_lag_seconds"] if s.name.endswith("_count"))
            assert lag_count >= 1
            writes = next(s.value for s in families["sukno_store_write_seconds"] if s.name.endswith("_count"))
            assert writes >= 1  # Anna's account was written
            assert server.metrics.text().startswith("# HELP")
        finally:
            await anna.close()


async def test_metrics_are_off_unless_configured(tmp_path) -> None:
    config = make_config(tmp_path)
    assert config.metrics_listen == ""
    async with running(config) as server:
        assert server.metrics is not None and server.metrics._http is None  # figures kept for admin, no port


def test_refusals_are_counted_by_reason() -> None:
    from net.config import Config
    from net.ssh.limits import Limits

    limits = Limits(Config(connections_per_minute=60, connection_burst=1), set())
    assert limits.admit_connection("10.0.0.1") is None
    assert limits.admit_connection("10.0.0.1") is not None
    assert limits.refusals == {"rate": 1}


def _count(metrics, name: str) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    family = next(f for f in text_string_to_metric_families(metrics.text()) if f.name == name)
    return next(s.value for s in family.samples if s.name.endswith("_count"))


async def test_a_change_drawn_on_a_persons_screen_is_timed_from_the_move() -> None:
    from types import SimpleNamespace

    from net.metrics import Metrics
    from tui.framegate import gate

    metrics = Metrics(SimpleNamespace())
    metrics.start("")
    try:
        app = type("App", (), {})()
        gate().owe(7, app)  # the table told this App of a move
        gate().drawn(7, app)  # and it is on the screen
        assert _count(metrics, "sukno_move_to_screen_seconds") == 1
    finally:
        metrics.stop()
    gate().owe(7, app)
    gate().drawn(7, app)  # stopped: no longer counted
    assert _count(metrics, "sukno_move_to_screen_seconds") == 1


@pytest.mark.slow  # a real PostgreSQL
async def test_the_notify_round_trip_is_timed_by_a_probe_heard_back(pg_url) -> None:
    from types import SimpleNamespace

    from net.cluster.notices import Notices
    from net.metrics import Metrics

    notices = Notices(pg_url)
    await notices.start()
    metrics = Metrics(SimpleNamespace(node=SimpleNamespace(notices=notices)))
    try:
        metrics._probe_heard("another-node:1")  # another node's probe is not ours
        metrics.probe()  # the first one LISTENs; each later one is sent and heard back
        deadline = asyncio.get_running_loop().time() + 30
        while _count(metrics, "sukno_notify_round_trip_seconds") < 2:
            assert asyncio.get_running_loop().time() < deadline, "no probe was heard back in 30 s"
            metrics.probe()
            await asyncio.sleep(0.2)
    finally:
        metrics.stop()
        await notices.stop()
    waiting = dict(metrics._probes)
    metrics.probe()  # the notices stopped: no probe is sent
    assert metrics._probes == waiting


async def test_a_text_mode_players_sentences_are_timed_from_the_move(tmp_path) -> None:
    """The text mode's screen is the sentences it sends: each change of his table, once said, is counted."""
    from test_text_mode import TABLES, play_one_deal
    from textclient import connect_text

    from sshclient import new_key

    config = make_config(tmp_path, tables=TABLES)
    async with running(config) as server:
        before = _count(server.metrics, "sukno_move_to_screen_seconds")
        anna = await connect_text(server.port, key=new_key(), term=None, command="text")
        try:
            await asyncio.wait_for(play_one_deal(server, anna, "en", "Anna"), 60)
            hers = [a for seat, a in server.club.tables[1].game.deals[-1].actions if seat == 0]
            assert hers  # each of her moves is a change told and then said (bots' bursts count once)
            assert _count(server.metrics, "sukno_move_to_screen_seconds") - before >= len(hers)
        finally:
            await anna.close()
