"""Presence under a burst of arrivals (issue 16): one snapshot of the sessions for the burst, not one an arrival.

A snapshot walks every session on the loop (500 in the hall: milliseconds each);
twenty people connecting at once took twenty of them, between the newcomers' key
exchanges and first frames.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from engine.table.club import Club
from engine.game import Event
from net.cluster import presence
from net.config import DEFAULTS
from net.cluster.presence import PresenceKeeper, _cut
from sshclient import until


def keeper() -> tuple[PresenceKeeper, Club, list[int]]:
    club = Club(DEFAULTS["tables"], seed=1)
    server = SimpleNamespace(club=club, sessions=set(), node=None, config=SimpleNamespace(node=""))
    keep = PresenceKeeper(server, store=None, node="main")
    taken: list[int] = []
    keep.snapshot = lambda: taken.append(1)  # type: ignore[method-assign]
    keep._off.append(club.subscribe(keep._club_events))
    return keep, club, taken


async def test_a_burst_of_arrivals_is_one_snapshot(monkeypatch):
    monkeypatch.setattr(presence, "SETTLE", 0.5)
    keep, club, taken = keeper()
    for i in range(20):
        club.enter(f"P{i:02d}", False, now=0.0)
        await asyncio.sleep(0)
    assert taken == []  # the burst settles first
    await until(lambda: taken, what="the burst's snapshot")
    await asyncio.sleep(0.05)
    assert taken == [1]
    club.leave("P00", now=0.0)  # a later arrival or leaving: a snapshot of its own
    await until(lambda: len(taken) == 2, what="the leaving's snapshot")
    keep.stop()


async def test_another_nodes_arrival_takes_no_snapshot_and_stop_cancels_a_waiting_one():
    keep, club, taken = keeper()
    keep._club_events([Event("enter", None, {"name": "Far", "node": "b"})])
    club.enter("Near", False, now=0.0)
    keep.stop()  # stopped while the arrival's snapshot waits: none is taken
    await asyncio.sleep(presence.SETTLE + 0.1)
    assert taken == []


def test_a_presence_field_is_bounded_and_shows_no_control_character():
    assert _cut("Anna", "name") == "Anna"
    assert _cut("a\x1b[2Jb\u202e", "name") == "a?[2Jb?"
    assert _cut("x" * 500, "address") == "x" * 64
    assert _cut("\x00" * 500, "lang") == "?" * 8
