"""Print what ``net/ssh/loopprobe.py`` wrote: each process's loop lag and its worst stalls, with stacks.

Run a bench with the probe on, then this on its folder::

    mkdir -p /tmp/probe && SUKNO_LOOP_PROBE=/tmp/probe python tests/bench/nodes_bench.py --only b
    python tests/bench/loop_report.py /tmp/probe [--stacks 3]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--stacks", type=int, default=3, help="how many of the worst stalls to show with stacks")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f} now")
    for path in sorted(args.folder.glob("loop-*.json")):
        report = json.loads(path.read_text("utf-8"))
        lag = report["lag_ms"]
        stalls = report["stalls"]
        print(f"{path.stem}: {report['samples']} samples, lag p50 {lag['p50']} ms, p99 {lag['p99']} ms, "
              f"max {lag['max']} ms; worst stalls (ms): {[s['ms'] for s in stalls]}")
        for stall in stalls[:args.stacks]:
            print(f"  {stall['ms']} ms:")
            for frame in stall["stack"]:
                print(f"      {frame}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
