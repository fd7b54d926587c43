"""A spectator hub sends each frame to its watchers a slice at a time (net/modes/spectate.py, issue 16).

A thousand sends in one go held the seated players' frames and keys behind them; in slices of
``SLICE``, other work runs in between.  What must hold all the same: every watcher gets every
frame once and in order (a new frame first ends the last), two watchers of one size get the very
same bytes, one who joins meanwhile gets the whole screen and no diff of a frame he already sees,
one who left gets nothing more, and a slow one is skipped and repainted when he reads again.
"""

from __future__ import annotations

import asyncio

from engine.table.club import Club
from net.modes.spectate import SLICE, Hubs, Member
from tui.spectator import SpectatorApp


class Wire:
    """A watcher's way out, in memory: what he was sent, and how much is 'still queued'."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.queued = 0

    def send(self, data: bytes) -> None:
        self.sent.append(data)

    def buffered(self) -> int:
        return self.queued


async def _hub_with(n: int):
    club = Club([{"game": "stukolka"}], seed=5)
    hubs = Hubs(lambda key, c, r: SpectatorApp(club, key.table_id, lang=key.lang, ascii=key.ascii),
                [(80, 24)], reserve_rows=0)
    key = hubs.key_for(1, 80, 24, "en", False)
    members = []
    for _ in range(n):
        member = Member(Wire(), 80, 24)
        hub = await hubs.join(key, member)
        members.append(member)
    await asyncio.sleep(0.2)
    hub._finish()
    for m in members:
        m.wire.sent.clear()
    return hubs, hub, members


def _frames(member: Member) -> list[bytes]:
    return [data[: data.index("¤".encode())] + "¤".encode() for data in member.wire.sent if "¤".encode() in data]


async def test_frames_go_out_in_slices_in_order_and_alike():
    hubs, hub, members = await _hub_with(3 * SLICE + 5)
    try:
        hub.broadcast("\x1b[1;1Hframe A¤")
        assert sum(1 for m in members if m.wire.sent) == SLICE  # the first slice at once
        hub.broadcast("\x1b[1;1Hframe B¤")  # the rest of A first, then B begins
        assert all(_frames(m)[:1] == ["\x1b[1;1Hframe A¤".encode()] for m in members)
        for _ in range(10):
            await asyncio.sleep(0)
        assert all(_frames(m) == ["\x1b[1;1Hframe A¤".encode(), "\x1b[1;1Hframe B¤".encode()] for m in members)
        assert len({tuple(m.wire.sent) for m in members}) == 1  # one size: the very same bytes
    finally:
        await hubs.close()


async def test_a_late_joiner_gets_the_screen_not_a_diff_and_a_leaver_nothing():
    hubs, hub, members = await _hub_with(2 * SLICE)
    try:
        hub.broadcast("\x1b[1;1Hframe A¤")
        late = Member(Wire(), 80, 24)
        gone = members[-1]
        hub.leave(gone)
        assert await hub.join(late)
        for _ in range(10):
            await asyncio.sleep(0)
        assert _frames(late) == [] and late.wire.sent  # the whole screen (ENTER and the view), no diff
        assert b"\x1b[2J" in b"".join(late.wire.sent)
        assert gone.wire.sent == []
        assert all(_frames(m) == ["\x1b[1;1Hframe A¤".encode()] for m in members[:-1])
    finally:
        await hubs.close()


async def test_a_slow_watcher_is_skipped_then_repainted_whole():
    hubs, hub, members = await _hub_with(SLICE + 3)
    try:
        slow = members[SLICE + 1]  # in the second slice
        slow.wire.queued = hub.buffer_limit + 1
        hub.broadcast("\x1b[1;1Hframe A¤")
        hub.broadcast("\x1b[1;1Hframe B¤")
        assert slow.stale and slow.wire.sent == []
        assert all(len(_frames(m)) >= 1 for m in members if m is not slow)
        slow.wire.queued = 0
        hub.check_stale()
        assert not slow.stale and b"\x1b[2J" in b"".join(slow.wire.sent) and _frames(slow) == []
    finally:
        await hubs.close()
