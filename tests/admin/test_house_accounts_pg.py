"""The house's accounts on PostgreSQL: the migration from the schema before them, a disable made on one
node that shuts the account out of another (every node reads the shut accounts off its loop), and a
rename refused while the person is connected on another node."""

from __future__ import annotations

import asyncio
import json

import pytest
from test_clubwide import arrive, node

from adminkit import sukno_admin
from sshclient import connect, new_key, until

psycopg = pytest.importorskip("psycopg")


def test_an_older_schema_is_migrated_with_everyone_active(pg_url: str) -> None:
    from engine.store import postgres

    latest = postgres.MIGRATIONS
    postgres.MIGRATIONS, postgres.SCHEMA_VERSION = latest[:-1], len(latest) - 1
    try:
        with postgres.PgStore(pg_url) as before, before.batch():  # the columns of before
            before._x("INSERT INTO account (name, name_key, language, role, created, last_seen) "
                      "VALUES ('Anna', 'anna', 'ru', 'player', 1, 1)")
    finally:
        postgres.MIGRATIONS, postgres.SCHEMA_VERSION = latest, len(latest)
    with postgres.PgStore(pg_url) as after:
        assert after.schema_version() == len(latest)
        assert after.account("Anna").state == "active" and after.shut_accounts() == {}
        after.set_account_state("Anna", "disabled")
        assert after.shut_accounts() == {"Anna": "disabled"}


@pytest.mark.slow  # starts two nodes on PostgreSQL
async def test_a_disable_on_one_node_shuts_him_out_of_another(pg_url, tmp_path) -> None:
    key = new_key()
    async with node(pg_url, tmp_path, "north", exclusive=True) as north, \
            node(pg_url, tmp_path, "south", exclusive=False) as south:
        anna = await arrive(south.port, "Anna", key=key)
        await until(lambda: any(p.name == "Anna" for p in north.presence.elsewhere()), timeout=20,
                    what="north sees Anna on south")
        status, _, err = await sukno_admin(north.config.data, "account", "Anna", "rename", "Anya")
        assert status == 1 and "connected on node south; kick him" in err  # her purse would move under her
        status, out, _ = await sukno_admin(north.config.data, "--json", "account", "Anna", "disable")
        reply = json.loads(out)
        assert status == 0 and reply["data"]["state"] == "disabled" and reply["data"]["ended"] == 0
        await asyncio.wait_for(anna.session.closed.wait(), 20)  # south read it and showed her out
        assert "The house has disabled your account" in anna.session.raw.decode("utf-8", "replace")
        client = await connect(south.port, key=key)
        await asyncio.wait_for(client.session.closed.wait(), 20)
        assert "The house has disabled your account" in client.session.raw.decode("utf-8", "replace")
        status, out, _ = await sukno_admin(south.config.data, "--json", "accounts", "ann")
        assert json.loads(out)["data"]["accounts"][0]["state"] == "disabled"
        status, _, _ = await sukno_admin(south.config.data, "account", "Anna", "enable")
        assert status == 0
        await until(lambda: north.admin.shut.state_of("Anna") is None, timeout=20, what="north reads it")
        back = await connect(north.port, key=key)
        await back.wait("HALL Anna")
        await back.close()
