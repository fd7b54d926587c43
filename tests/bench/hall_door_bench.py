"""The hall door's own CPU per event, without SSH: N doors on fake sessions in this process (issue 16).

Run:  python tests/bench/hall_door_bench.py [--people 100 500] [--events 30] [--profile]

hall_bench.py measures the whole way (SSH clients, key exchanges, the other
processes on the machine); this one isolates what the hall door itself costs
the server's loop for one event drawn for everyone: a chat line, an arrival,
and a newcomer's own first frame (his description of the hall and his whole
screen).  Each figure is the process CPU time of one drawing for all N doors
(min and p50 over ``--events``), so the SSH share of the server's time is
hall_bench's "server CPU per chat line" minus this.  ``--profile`` prints
cProfile's top functions for the chat line.  ``uptime`` is printed with each N.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.table.club import Club  # noqa: E402
from net.config import DEFAULTS  # noqa: E402
from net.modes.hall import HallDoor, make_board  # noqa: E402
from tui.text.prefs import Prefs  # noqa: E402

SIZES = [(80, 24), (100, 30), (120, 40), (132, 43), (90, 26), (160, 50)]


class _Config:
    input_burst = 65536


class _Server:
    def __init__(self, club: Club) -> None:
        self.club = club
        self.config = _Config()


class _Session:
    """What a door asks of its session; the bytes it would send are only counted."""

    def __init__(self, server: _Server, name: str, lang: str, size: tuple[int, int]) -> None:
        self.server, self.name, self.lang, self.size = server, name, lang, size
        self.ascii = self.guest = self.paused = False
        self.prefs = Prefs()
        self.carried: list[Any] = []
        self.sent = 0

    def app_size(self) -> tuple[int, int]:
        return self.size

    def send(self, data: bytes) -> None:
        self.sent += len(data)

    def flush_now(self) -> None:
        pass

    def take_early(self) -> bytes:
        return b""

    def push_early(self, data: bytes) -> None:
        pass

    def _schedule_poll(self) -> None:
        pass

    def hold(self) -> None:
        pass

    def release_hold(self) -> None:
        pass


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


async def run_n(n: int, events: int, profile: bool) -> dict[str, Any]:
    club = Club(DEFAULTS["tables"], seed=1)
    board = make_board(club)
    server = _Server(club)
    doors: list[HallDoor] = []
    tasks: list[asyncio.Future[Any]] = []

    def door(name: str, i: int) -> None:
        session = _Session(server, name, "ru" if i % 3 == 2 else "en", SIZES[i % len(SIZES)])
        doors.append(HallDoor(session, board))  # type: ignore[arg-type]
        tasks.append(asyncio.ensure_future(doors[-1].run()))

    for i in range(n):
        door(f"H{i:04d}", i)
        await asyncio.sleep(0)
    await asyncio.sleep(0.3)
    prof = cProfile.Profile() if profile else None
    firsts: list[float] = []  # a newcomer's own door and first frame, without the others' drawing
    drawing = [0.0]  # CPU seconds in the board's drawings (arrivals wait hallview.ARRIVALS: not spent here)
    draw = board._draw_slice

    def timed_slice() -> None:  # a drawing goes hallview.SLICE doors a turn of the loop
        started = time.process_time()
        draw()
        drawing[0] += time.process_time() - started

    board._draw_slice = timed_slice  # type: ignore[method-assign]

    async def one(kind: str, i: int) -> float:
        await asyncio.sleep(0.3)  # past the board's tick: each event is drawn on its own
        drawn = board.drawn
        drawing[0] = 0.0
        started = time.process_time()
        if prof is not None and kind == "say":
            prof.enable()
        if kind == "say":
            club.say("H0000", f"a chat line number {i}")
        elif kind == "enter":
            club.enter(f"A{i:04d}", False, now=time.monotonic())
        else:
            door(f"N{i:04d}", i)
            while not doors[-1].session.sent:  # his door's task has run: his first frame is sent
                await asyncio.sleep(0)
        own = time.process_time() - started  # the event itself (a newcomer: his door and first frame)
        while board.drawn == drawn:
            await asyncio.sleep(0.005)
        if prof is not None:
            prof.disable()
        if kind == "newcomer":
            firsts.append(own)
        return own + drawing[0]

    out: dict[str, Any] = {}
    for kind in ("say", "enter", "newcomer"):
        await one(kind, 9000)  # warm
        times = sorted([await one(kind, i) for i in range(events)])
        out[kind] = (times[0], times[len(times) // 2])
    firsts.sort()
    out["first"] = (firsts[0], firsts[len(firsts) // 2])
    for d in doors:
        d.finish(None)
    await asyncio.gather(*tasks, return_exceptions=True)
    if prof is not None:
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print("sukno hall door bench · the door's own CPU per event for everyone (no SSH) · ms, min / p50")
    for n in args.people:
        r = asyncio.run(run_n(n, args.events, args.profile))
        print(f"\nN={n} doors · uptime: {uptime()}")
        labels = {"say": "a chat line", "enter": "an arrival", "newcomer": "a newcomer (his frame + his arrival)"}
        for kind, (low, mid) in r.items():
            if kind == "first":
                print(f"  {'of it his own door and first frame':<40} {low * 1000:6.1f} / {mid * 1000:6.1f} ms")
                continue
            print(f"  {labels[kind]:<40} {low * 1000:6.1f} / {mid * 1000:6.1f} ms"
                  f"  ({mid * 1e6 / n:5.1f} µs a door)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
