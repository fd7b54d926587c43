"""``sukno admin metrics``, ``health`` and ``ratings``: what an operator and a supervisor ask of a running club."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from adminkit import admin_server, sukno_admin

sys.path.insert(0, str(Path(__file__).parents[1]))
from ratingkit import accounts, save_games  # noqa: E402

from engine.store.base import StoreError  # noqa: E402


async def test_metrics_are_printed_in_prometheus_format(config):
    async with admin_server(config):
        status, out, _ = await sukno_admin(config.data, "metrics")
        assert status == 0 and "sukno_sessions" in out and "sukno_tables_owned" in out
        status, out, _ = await sukno_admin(config.data, "--json", "metrics")
        assert status == 0 and "# HELP sukno_loop_lag_seconds" in json.loads(out)["data"]["metrics"]


async def test_health_is_0_when_the_store_takes_a_write_and_1_when_it_cannot(config):
    async with admin_server(config) as server:
        status, out, _ = await sukno_admin(config.data, "health")
        assert status == 0 and "the store: writable" in out

        def refuse() -> None:
            raise StoreError("the disk is full", 74)

        server.store.writable = refuse  # the store refuses every write from now on
        status, out, _ = await sukno_admin(config.data, "--json", "health")
        reply = json.loads(out)
        assert status == 1 and reply["ok"] is False and "the disk is full" in reply["data"]["store"]


async def test_ratings_and_their_recompute_through_the_console(config):
    async with admin_server(config) as server:
        accounts(server.store)
        save_games(server.store, 3, seed=2)
        while server.store.rate_new_records():
            pass
        status, out, _ = await sukno_admin(config.data, "ratings", "french3")
        assert status == 0 and "french3: 4 rated" in out and "Anna" in out
        status, out, _ = await sukno_admin(config.data, "--json", "ratings", "--recompute")
        reply = json.loads(out)
        assert status == 0 and reply["data"]["same"] is True and reply["data"]["records"] == 3
        assert reply["data"]["ratings"]["french3"]["Anna"]["deals"] > 0
