"""Another process holding the database's lock stalls nobody (issue 12, item 8).

A subprocess holds ``BEGIN EXCLUSIVE`` on ``sukno.db`` for 15 s: Anna's action
at her table is refused with the club's "could not write that down" while the
lock is still held (not after it), and Boris's ``look`` in the hall is answered
meanwhile; once the lock is gone, Anna's action goes through.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "net"))

from sshclient import connect, make_config, new_key, running, until  # noqa: E402
from test_safety import hold_lock  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def register(port: int, name: str):
    client = await connect(port, key=new_key(), cols=100, rows=30)
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_held_lock_refuses_actions_and_stalls_nobody(tmp_path: Path) -> None:
    config = make_config(tmp_path / "d")
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        holder = hold_lock(config.data / "sukno.db", 15)
        try:
            anna.line("stand")
            await anna.wait("could not write that down")
            assert holder.poll() is None  # refused while the lock is held, not once it is over
            assert server.club.where("Anna") is not None  # nothing happened
            boris.line("look")
            await boris.wait(lambda s: "Anna" in s.partition("> look")[2])
            assert holder.poll() is None
        finally:
            holder.kill()
            holder.wait()
        anna.line("stand")
        await until(lambda: server.club.where("Anna") is None, what="Anna stood up once the lock was gone")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_deleted_data_folder_stops_actions_loudly(tmp_path: Path, caplog) -> None:
    """The data folder is deleted under a running club: the next action is refused (the book is gone, not
    "try again"), a registration too, the server's log says so, and nothing is acknowledged."""
    import logging
    import shutil

    caplog.set_level(logging.INFO, logger="sukno")
    config = make_config(tmp_path / "d")
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        shutil.rmtree(config.data)
        anna.line("stand")
        await anna.wait("book is gone from the disk")
        assert server.club.where("Anna") is not None
        newcomer = await connect(server.port, key=new_key(), cols=100, rows=30)
        await newcomer.wait("book of names")
        newcomer.line("Boris")
        await newcomer.wait("could not write your name down")
        assert any("THE STORE IS GONE" in r.getMessage() for r in caplog.records)
