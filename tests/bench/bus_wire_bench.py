"""What typing the bus between nodes costs: one call and its reply encoded and decoded, typed
(``net.cluster.wire``: dataclasses, every field checked) against plain JSON dicts as the bus sent
them before, in one run on the same machine.  A move across nodes costs a PostgreSQL NOTIFY each
way (milliseconds: ``tests/bench/nodes_bench.py``); this is the loop's own share.

Run:  python tests/bench/bus_wire_bench.py [--rounds 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.table.changes import Act  # noqa: E402
from net.cluster.wire import Call, Reply, decode, decode_result, encode, encode_result  # noqa: E402
from engine.game import Event  # noqa: E402

EVENTS = [Event("play", 0, {"card": "Q♠"}), Event("trick", None, {"winner": 2})]


def typed() -> None:
    change = Act("Anna", "play Q♠")
    call = decode(encode(Call("B:17", "B", 1, change, until=1700000000.25)))
    assert isinstance(call, Call)
    reply = decode(encode(Reply(call.id, call.sender, call.table, True, encode_result(call.change, EVENTS))))
    assert isinstance(reply, Reply)
    decode_result(call.change, reply.result)


def plain() -> None:
    def dumps(message: dict) -> str:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))

    call = json.loads(dumps({"t": "call", "id": "B:17", "from": "B", "table": 1, "op": "act",
                             "args": ["Anna", "play Q♠"], "until": 1700000000.25}))
    result = [[e.kind, e.seat] for e in EVENTS]
    reply = json.loads(dumps({"t": "reply", "id": call["id"], "to": call["from"], "table": call["table"], "ok": True,
                              "result": result}))
    [Event(str(k), s if isinstance(s, int) else None, {}) for k, s in reply["result"]]


def timed(work: Callable[[], None], rounds: int) -> float:
    """Microseconds per round of ``work``."""
    start = time.perf_counter()
    for _ in range(rounds):
        work()
    return (time.perf_counter() - start) / rounds * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{args.rounds} rounds × {args.runs} runs, the two kinds in turn")
    kinds = (("plain dicts (before)", plain), ("typed wire", typed))
    runs: dict[str, list[float]] = {name: [] for name, _work in kinds}
    for _ in range(args.runs):  # in turn, so a busy moment of the machine falls on both
        for name, work in kinds:
            runs[name].append(timed(work, args.rounds))
    for name, times in runs.items():
        print(f"{name:<22} call + reply encoded and decoded: best {min(times):6.1f} µs, "
              f"median {statistics.median(times):6.1f} µs")


if __name__ == "__main__":
    main()
