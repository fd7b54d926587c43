"""Issue 19: a bot_bench run split over sessions (``--results``, ``--chunks``, ``--resume``) is the one run.

The 5,000 deals a game needs take more than one session, so each finished chunk is written to a results
file and a later run goes on at the next chunk of the same seed schedule; one with other options or
other code is refused, and the file is left as it was."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import bench_results  # noqa: E402

RUN = ["--search", "--only", "stukolka a", "--iterations", "2", "--margin", "0", "--min-worlds", "2",
       "--deals", "12", "--chunk", "4", "--seed", "5"]
TIMING = {"at", "seconds", "load", "wall_p50_ms", "wall_p99_ms", "wall_max_ms", "cpu_p99_ms", "wall_over_1s",
          "cpu_over_1s"}


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tests" / "bench" / "bot_bench.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def played(path: Path) -> list[dict]:
    """The lines without what depends on the clock."""
    return [{k: v for k, v in line.items() if k not in TIMING} for line in bench_results.read(path)]


def test_a_run_resumed_chunk_by_chunk_is_the_run_played_at_once(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    assert bench(*RUN, "--results", str(whole)).returncode == 0
    assert bench(*RUN, "--results", str(split), "--chunks", "1").returncode == 0
    assert len(played(split)) == 1
    assert bench(*RUN, "--resume", str(split), "--chunks", "1").returncode == 0
    last = bench(*RUN, "--resume", str(split))
    assert last.returncode == 0, last.stderr
    assert played(split) == played(whole) and len(played(whole)) == 3
    assert [line["chunk_seed"] for line in played(whole)] == [5000, 5001, 5002]
    assert any(line["sx"] for line in played(whole)), "no difference at all: the sums prove nothing"
    deals, mean, half = bench_results.combined(bench_results.read(split))
    assert (deals, mean, half) == bench_results.combined(bench_results.read(whole))
    assert f"{mean:+.2f} ± {half:.2f}" in last.stdout.splitlines()[-2]  # the line printed: the whole run's
    done = bench(*RUN, "--resume", str(split))
    assert done.returncode == 0 and "is complete" in done.stdout and len(played(split)) == 3


def test_the_totals_are_the_paired_figure_of_the_sessions() -> None:
    """The sums kept per chunk give ``bot_bench.paired``'s ratio estimator over all the sessions."""
    import bot_bench

    a = bot_bench.Result(money=[5, -3, 8, 0, 2], deals=[3, 4, 2, 5, 1])
    b = bot_bench.Result(money=[1, -1, 2, 4, 2], deals=[3, 5, 2, 5, 2])
    lines = [bench_results.chunk_sums(a.money[:2], a.deals[:2], b.money[:2], b.deals[:2]),
             bench_results.chunk_sums(a.money[2:], a.deals[2:], b.money[2:], b.deals[2:])]
    _, mean, half = bench_results.combined(lines)
    want_mean, want_half = bot_bench.paired(a, b)
    assert abs(mean - want_mean) < 1e-12 and abs(half - want_half) < 1e-12


def test_a_resume_with_other_options_or_code_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    assert bench(*RUN, "--results", str(path), "--chunks", "1").returncode == 0
    before = path.read_text()
    other = [*RUN[:RUN.index("--iterations") + 1], "3", *RUN[RUN.index("--iterations") + 2:]]
    refused = bench(*other, "--resume", str(path))
    assert refused.returncode != 0 and "refused" in refused.stderr and '"iterations": 2' in refused.stderr
    assert bench(*RUN, "--results", str(path)).returncode != 0  # a new run onto a started file
    assert path.read_text() == before
    line = json.loads(before)
    path.write_text(json.dumps({**line, "code": "0" * 16}) + "\n")
    stale = bench(*RUN, "--resume", str(path))
    assert stale.returncode != 0 and "played by code 0000000000000000" in stale.stderr
    assert json.loads(path.read_text())["code"] == "0" * 16
