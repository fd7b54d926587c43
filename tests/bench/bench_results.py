"""A paired run's results file, one JSON line per finished chunk, so a run can span sessions (issue 19).

The stopping point (``deals``) and every option that changes what is played are fixed in the first
line; a resumed run must have the same options and the same code (``code_hash``) or it is refused, and
it goes on at the next chunk of the same pre-set seed schedule (chunk k: seed × 1000 + k).  No line
is ever rewritten, so a run cannot stop early on a figure it liked: it ends at ``deals``.

A chunk's paired sessions are kept as sums, enough for ``paired``'s ratio estimator over any run of
chunks: x = search − rule money of a session, e = the two arms' deals added (twice the pair's deals).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import math
import pkgutil
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

ROOT = Path(__file__).resolve().parents[2]
SUMS = ("sessions", "sx", "se", "sxx", "see", "sxe")


class ResumeRefused(Exception):
    """The results file does not belong to this run (other options, other code, broken lines)."""


def code_hash(*functions: Callable[..., Any]) -> str:
    """SHA-256 of the code a bot run plays: every module of engine/bots/, every engine module they and the
    games import (the rules), and the bench's own playing functions.

    Why not all of engine/: the club, the tables and the stores change for other reasons (three engineers
    at once) and play no part in a bench run; a change to one must not void a run that spans sessions."""
    for info in pkgutil.iter_modules([str(ROOT / "engine" / "bots")]):
        importlib.import_module(f"engine.bots.{info.name}")
    importlib.import_module("engine.games").registry()
    engine = (ROOT / "engine").resolve()
    paths = {Path(module.__file__).resolve() for module in list(sys.modules.values())
             if getattr(module, "__file__", None) and module.__name__.startswith("engine")}
    digest = hashlib.sha256()
    for path in sorted(p for p in paths if p.is_relative_to(engine)):
        digest.update(str(path.relative_to(engine)).encode() + b"\0" + path.read_bytes() + b"\0")
    for function in functions:
        digest.update(inspect.getsource(function).encode() + b"\0")
    return digest.hexdigest()[:16]


def chunk_sums(search_money: list[int], search_deals: list[int], rule_money: list[int],
               rule_deals: list[int]) -> dict[str, int]:
    """One chunk's paired sessions as integer sums (exact in JSON, summed across chunks)."""
    k = min(len(search_money), len(rule_money))
    xs = [search_money[i] - rule_money[i] for i in range(k)]
    es = [search_deals[i] + rule_deals[i] for i in range(k)]
    return {"sessions": k, "sx": sum(xs), "se": sum(es), "sxx": sum(x * x for x in xs),
            "see": sum(e * e for e in es), "sxe": sum(x * e for x, e in zip(xs, es))}


def combined(lines: Iterable[dict[str, Any]]) -> tuple[float, float, float]:
    """(deals, mean difference a deal, its 95 % half-width) over the chunks: ``bot_bench.paired``'s figure."""
    total = {key: 0 for key in SUMS}
    for line in lines:
        for key in SUMS:
            total[key] += line[key]
    k, sd = total["sessions"], total["se"] / 2
    if not k or not sd:
        return 0.0, 0.0, math.inf
    ratio = total["sx"] / sd
    if k < 2:
        return sd, ratio, math.inf
    var = (total["sxx"] - ratio * total["sxe"] + ratio * ratio * total["see"] / 4) / (k - 1)
    return sd, ratio, 1.96 * math.sqrt(max(0.0, var) / k) / (sd / k)


def read(path: Path) -> list[dict[str, Any]]:
    """The file's chunk lines, checked to be chunks 0, 1, 2 … of one run."""
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as error:
            raise ResumeRefused(f"{path}: line {number} is not JSON ({error.msg})") from None
        if not isinstance(line, dict) or line.get("chunk") != len(lines):
            raise ResumeRefused(f"{path}: line {number} is not chunk {len(lines)}")
        if lines and (line.get("code") != lines[0].get("code") or line.get("options") != lines[0].get("options")):
            raise ResumeRefused(f"{path}: line {number} belongs to another run (code or options differ)")
        lines.append(line)
    return lines


def resume_from(path: Path, code: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The chunks already done, or ResumeRefused if they were played by other code or other options."""
    if not path.exists():
        raise ResumeRefused(f"{path}: no such results file")
    lines = read(path)
    if not lines:
        raise ResumeRefused(f"{path}: no chunk in it (start it with --results)")
    if lines[0]["options"] != options:
        ours = json.dumps(options, sort_keys=True, ensure_ascii=False)
        theirs = json.dumps(lines[0]["options"], sort_keys=True, ensure_ascii=False)
        raise ResumeRefused(f"{path}: its options are {theirs}, this run's {ours}")
    if lines[0]["code"] != code:
        raise ResumeRefused(f"{path}: played by code {lines[0]['code']}, this checkout is {code}")
    return lines


def append(path: Path, line: dict[str, Any]) -> None:
    """One finished chunk, written and flushed at once (a stopped run keeps every whole chunk)."""
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        out.flush()
