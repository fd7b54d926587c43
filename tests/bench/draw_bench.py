"""A move's drawing in the spectator hubs, in this process, without SSH (issue 16 item 1).

Run:  python tests/bench/draw_bench.py [--moves 120] [--game stukolka] [--profile] [--by-widget]

One hub per default size bucket (80x24, 100x30, 120x40, 160x50) watches one table whose four
seats play their first legal action each; each watcher's wire is a byte counter.  Per move the
server's CPU (``time.process_time``) from the action until every hub has sent its frame is
measured; printed: CPU per move per hub (the table's own work divided in), bytes a frame, frames
a move, and with ``--by-widget`` the CPU spent rendering each widget's lines (Textual's
``render_line`` of each class) per move per hub.  ``uptime`` is printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.table.club import Club  # noqa: E402
from net.modes.spectate import Hubs, Member  # noqa: E402
from tui.spectator import SpectatorApp  # noqa: E402

NAMES = ("anna", "boris", "vera", "gleb", "dasha", "egor", "zhenya", "ilya", "kira", "lev")
BUCKETS = [(80, 24), (100, 30), (120, 40), (160, 50)]


class Wire:
    def __init__(self) -> None:
        self.count = 0
        self.bytes = 0

    def send(self, data: bytes) -> None:
        self.count += 1
        self.bytes += len(data)

    def buffered(self) -> int:
        return 0


def uptime() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


async def settled(wires: list[Wire]) -> None:
    """Until no frame came for a while (the hubs draw a beat after the table changes)."""
    seen, quiet = -1, 0
    while quiet < 4:
        await asyncio.sleep(0.01)
        total = sum(w.count for w in wires)
        quiet = quiet + 1 if total == seen else 0
        seen = total


def by_widget() -> dict[str, float]:
    """Wrap each widget class's ``render_line`` to add up its CPU by class."""
    from textual.widget import Widget

    spent: dict[str, float] = defaultdict(float)
    seen: set[type] = set()

    def wrap(cls: type) -> None:
        if cls in seen or "render_line" not in cls.__dict__:
            return
        seen.add(cls)
        inner = cls.__dict__["render_line"]

        def render_line(self: Any, y: int, _inner: Any = inner, _name: str = cls.__name__) -> Any:
            t0 = time.process_time()
            try:
                return _inner(self, y)
            finally:
                spent[type(self).__name__] += time.process_time() - t0

        cls.render_line = render_line  # type: ignore[attr-defined]

    def walk(cls: type) -> None:
        wrap(cls)
        for sub in cls.__subclasses__():
            walk(sub)

    walk(Widget)
    return spent


async def main(args: argparse.Namespace) -> None:
    spent = by_widget() if args.by_widget else None
    from engine.games import registry

    seats = args.seats or registry()[args.game].min_players
    club = Club([{"game": args.game, "seats": seats, "clock": 600}], seed=args.seed)
    table = club.tables[1]
    now = time.monotonic()
    names = NAMES[:seats]
    for name in names:
        table.sit(name)
        club.enter(name)
    for name in names:
        table.start(name, now=now)
    hubs = Hubs(lambda key, c, r: SpectatorApp(club, key.table_id, lang=key.lang, ascii=key.ascii),
                BUCKETS, reserve_rows=2)
    wires = []
    for cols, rows in BUCKETS:
        wire = Wire()
        await hubs.join(hubs.key_for(1, cols, rows, args.lang, False), Member(wire, cols, rows))
        wires.append(wire)
    await settled(wires)
    profiler = cProfile.Profile() if args.profile else None
    cpu: list[float] = []
    frames = bytes_ = 0
    if spent is not None:
        spent.clear()
    moves = 0
    while moves < args.moves:
        game = table.game
        if game is None or not game.in_deal:
            for name in names:
                table.start(name, now=time.monotonic())
            await settled(wires)
            continue
        seat = game.to_act()[0]
        before = sum(w.count for w in wires), sum(w.bytes for w in wires)
        if profiler:
            profiler.enable()
        t0 = time.process_time()
        table.act(game.names[seat], game.legal_actions(seat)[0].text(), now=time.monotonic())
        await settled(wires)
        cpu.append(time.process_time() - t0)
        if profiler:
            profiler.disable()
        frames += sum(w.count for w in wires) - before[0]
        bytes_ += sum(w.bytes for w in wires) - before[1]
        moves += 1
    await hubs.close()
    hubs_n = len(BUCKETS)
    print(f"draw_bench · {args.game} · {args.lang} · {moves} moves · {hubs_n} hubs ({', '.join(f'{c}x{r}' for c, r in BUCKETS)}) · {uptime()}")
    per = sorted(c / hubs_n * 1000 for c in cpu)
    print(f"  CPU a move a hub: p50 {statistics.median(per):.2f} ms · mean {statistics.fmean(per):.2f} · "
          f"p90 {per[int(len(per) * 0.9)]:.2f} · {frames / moves / hubs_n:.2f} frames a move a hub · "
          f"{bytes_ / max(1, frames):.0f} bytes a frame")
    if spent is not None:
        parts = sorted(spent.items(), key=lambda kv: -kv[1])
        print("  render_line by widget, ms a move a hub: " +
              " · ".join(f"{k} {v / moves / hubs_n * 1000:.2f}" for k, v in parts if v > 0))
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--game", default="stukolka")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seats", type=int, default=0, help="seats at the table (the game's fewest by default)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--by-widget", action="store_true")
    asyncio.run(main(parser.parse_args()))
