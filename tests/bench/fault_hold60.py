"""60-second PostgreSQL outages (paused, then crashed) on the fault kit's club: each node's log lines, the resume, the echo.

    python tests/bench/fault_hold60.py
"""
import asyncio, sys, tempfile, os
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from faultkit import FaultClub, summary

async def main() -> None:
    club = FaultClub(Path(tempfile.mkdtemp(prefix="hold60-")) / "club", tables=3, seed=5)
    await club.start()
    await asyncio.sleep(5)
    try:
        for kind in ("pg_pause", "pg_crash"):
            r = await club.fault(kind, hold=60)
            print(f"{kind:<10} 60 s: log lines per node {r.log_lines} resumed {r.resumed and round(r.resumed, 2)} s "
                  f"lost {len(r.lost)} problems {r.problems} echo {summary(r.stalls)} load {os.getloadavg()[0]:.2f}",
                  flush=True)
    finally:
        await club.stop()

asyncio.run(main())
