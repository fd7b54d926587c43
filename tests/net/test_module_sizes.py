"""No module under net/ is over ``MAX_LINES`` lines: each has one job, small enough to read whole."""

from __future__ import annotations

from pathlib import Path

MAX_LINES = 450
NET = Path(__file__).resolve().parents[2] / "net"


def modules_over(root: Path, limit: int) -> dict[str, int]:
    """Every ``*.py`` under ``root`` longer than ``limit`` lines, by its path from the repository."""
    over = {}
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            over[path.relative_to(root.parent).as_posix()] = lines
    return over


def test_no_module_in_net_is_over_the_limit() -> None:
    over = modules_over(NET, MAX_LINES)
    assert not over, "modules in net/ over %d lines: %s" % (
        MAX_LINES, ", ".join(f"{name} ({lines})" for name, lines in over.items()))


def test_the_count_sees_a_long_module(tmp_path: Path) -> None:
    root = tmp_path / "net"
    (root / "modes").mkdir(parents=True)
    (root / "modes" / "long.py").write_text("x = 1\n" * 451, encoding="utf-8")
    (root / "short.py").write_text("x = 1\n" * 450, encoding="utf-8")
    assert modules_over(root, MAX_LINES) == {"net/modes/long.py": 451}
