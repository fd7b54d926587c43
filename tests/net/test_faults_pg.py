"""Two nodes on a PostgreSQL that fails: lose nothing, stall nobody, come back by itself.

Each test starts a club of two real nodes on a PostgreSQL of its own (``tests/faultkit.py``: tables
played by the house's bots and a bot-protocol player each, an echo probe per node), lets it play,
injects one fault (or two at once) and then checks, as the store has it: every table's journal
replays, every action the club acknowledged to a player is in the journal, the ledger sums to zero
and balances, both nodes show the same tables, and play resumed by itself.  How fast it resumed and
how long another session waited are the soak bench's figures (``tests/bench/fault_soak.py``), not
asserted here beyond "it did".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def _club(tmp_path: Path):
    from faultkit import FaultClub
    from pgkit import Unavailable

    club = FaultClub(tmp_path / "club", tables=3)
    try:
        await club.start()
    except Unavailable as err:
        await club.stop()
        pytest.skip(str(err))
    return club


def _verdict(club, result) -> None:
    assert result.resumed is not None, f"play did not resume after {result.fault}: {result.each}"
    assert not result.lost, f"acknowledged actions lost after {result.fault}: {result.lost[:5]}"
    assert not result.problems, f"after {result.fault}: {result.problems}"
    assert club.acknowledged() > 0


async def _run(tmp_path: Path, *faults: str, hold: float = 6.0) -> None:
    club = await _club(tmp_path)
    try:
        await asyncio.sleep(2)
        for fault in faults:
            result = await club.fault(fault, hold=hold)
            _verdict(club, result)
            await asyncio.sleep(1)
    finally:
        await club.stop()


async def test_a_postgresql_paused_then_resumed_loses_nothing_and_play_resumes(tmp_path: Path) -> None:
    await _run(tmp_path, "pg_pause")


async def test_a_postgresql_crash_stopped_and_restarted_loses_nothing_and_play_resumes(tmp_path: Path) -> None:
    await _run(tmp_path, "pg_crash")


async def test_the_owner_killed_its_tables_go_on_elsewhere_and_replay(tmp_path: Path) -> None:
    await _run(tmp_path, "owner_kill")


async def test_a_node_paused_past_its_lease_loses_nothing(tmp_path: Path) -> None:
    await _run(tmp_path, "node_pause")


async def test_the_owner_killed_while_postgresql_is_paused(tmp_path: Path) -> None:
    await _run(tmp_path, "owner_kill_pg_pause")


async def test_the_whole_sequence_in_one_club(tmp_path: Path) -> None:
    await _run(tmp_path, "pg_crash", "pg_pause", "owner_kill", "node_pause", "owner_kill_pg_pause")
