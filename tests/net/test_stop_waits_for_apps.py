"""A shutdown waits for the Apps of sessions whose clients already left (found by ssh_load's runs).

A client that drops marks its session closed and asks its App to exit; the App's unmount then takes the
player out of the club (``Table.away``: a journal write).  ``SuknoServer.stop`` used to skip a closed
session at once, close the store, and the unmount's write failed: "table 1: not saved … the store is
closed", a traceback at every shutdown that followed a drop, and the away mark never written.
"""

from __future__ import annotations

import logging

import pytest
from sshclient import make_config, named, until

from net.ssh.server import SuknoServer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_stop_right_after_seated_players_dropped_writes_their_leaving(tmp_path, caplog) -> None:
    caplog.set_level(logging.ERROR)
    server = SuknoServer(make_config(tmp_path / "club"))
    await server.start()
    try:
        players = [await named(server.port, name) for name in ("Anna", "Boris", "Vera", "Gleb")]
        for client in players:
            client.line("sit 1")
            await client.wait("Table 1 · ", timeout=20)
        sessions = [s for s in server.sessions if s.name]
        for client in players:
            client.conn.abort()  # the clients are gone; their Apps still have their unmounts to run
        await until(lambda: all(s.closed for s in sessions), timeout=20, what="the sessions closed")
    finally:
        await server.stop(message=None)  # at once: the store closes at its end
    failed = [r.getMessage() for r in caplog.records if "not saved" in r.getMessage() or r.exc_info]
    assert failed == [], failed
    assert all(s._task is not None and s._task.done() for s in sessions)
