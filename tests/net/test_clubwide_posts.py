"""The hall and admin relays across nodes never wait for PostgreSQL on the loop (issue 15).

``net.cluster.clubwide`` used to send each hall line, arrival and admin ask with ``Notices.notify``:
a blocking ``pg_notify`` on the loop, so a database slow to answer (here: a server that accepts the
connection and says nothing) stalled every session of the node while a line was said.  Now they are
posted (``Notices.post``), sent by a task on psycopg's asynchronous connection: the line said returns
at once, the loop keeps its beat, and the failure is logged once the database gives up.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time

import pytest

from engine.table.club import Club

pytest.importorskip("psycopg")

HOLD = 1.5
"""Seconds the silent server holds each connection before dropping it (a blocking send waits that long)."""


class SilentServer:
    """Accepts connections, says nothing, drops each after ``HOLD`` s: a database that does not answer."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self.sock.settimeout(0.05)
        held: list[tuple[float, socket.socket]] = []
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.accepted += 1
                held.append((time.monotonic() + HOLD, conn))
            except OSError:
                pass
            for due, conn in [h for h in held if h[0] <= time.monotonic()]:
                conn.close()
                held.remove((due, conn))
        for _, conn in held:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


@pytest.mark.slow  # the silent server's holds: about 6 s until both notices are given up
async def test_a_hall_line_said_while_the_database_does_not_answer_stalls_nobody(caplog) -> None:
    from net.cluster.clubwide import HallRelay
    from net.cluster.notices import Notices

    server = SilentServer()
    notices = Notices(f"postgresql://nobody@127.0.0.1:{server.port}/none")
    club = Club()
    relay = HallRelay(club, notices, "north")
    relay.start()
    lags: list[float] = []
    stop = asyncio.Event()

    async def beat() -> None:  # the loop's pulse: how late a 10 ms sleep wakes
        while not stop.is_set():
            began = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - began - 0.01)

    pulse = asyncio.get_running_loop().create_task(beat())
    try:
        await asyncio.sleep(0.05)
        caplog.set_level(logging.WARNING, logger="sukno.cluster")
        began = time.monotonic()
        club.enter("Anna")
        club.say("Anna", "hello, other nodes")
        said = time.monotonic() - began
        assert said < HOLD / 3, f"saying a line waited {said:.2f} s for the database"
        deadline = time.monotonic() + 30
        while "was not sent to the other nodes" not in caplog.text:
            assert time.monotonic() < deadline, "the failure was never logged"
            await asyncio.sleep(0.02)
        assert server.accepted >= 1  # the line was really on its way to the (silent) database
        assert lags and max(lags) < HOLD / 3, f"the loop stalled {max(lags):.2f} s"
        assert [e.event.kind for e in club.hall_since(0)][-1] == "say"  # this node's hall has the line
    finally:
        stop.set()
        await pulse
        relay.stop()
        await notices.stop()
        server.close()


async def test_a_hall_line_posted_reaches_the_other_node(pg_url: str) -> None:
    from net.cluster.clubwide import HallRelay
    from net.cluster.notices import Notices

    here, there = Notices(pg_url), Notices(pg_url)
    north, south = Club(), Club()
    relays = [HallRelay(north, here, "north"), HallRelay(south, there, "south")]
    try:
        for relay in relays:
            relay.start()  # before listening: the channel is LISTENed to from the start
        for notices in (here, there):
            await notices.start()
        north.enter("Anna")
        north.say("Anna", "привет, юг")
        deadline = time.monotonic() + 20
        while not any(e.event.kind == "say" for e in south.hall_since(0)):
            assert time.monotonic() < deadline, "the line never reached the other node"
            await asyncio.sleep(0.02)
        said = [e.event for e in south.hall_since(0) if e.event.kind == "say"][-1]
        assert said.data["name"] == "Anna" and said.data["text"] == "привет, юг" and said.data["node"] == "north"
    finally:
        for relay in relays:
            relay.stop()
        for notices in (here, there):
            await notices.stop()
