"""DESIGN.md layering: importing the engine (every game included) loads neither textual nor asyncssh."""

from __future__ import annotations

import subprocess
import sys


def test_engine_imports_no_ui_or_network() -> None:
    code = (
        "import sys, engine, engine.record, engine.games as g; g.registry();"
        "import pkgutil, importlib;"
        "[importlib.import_module('engine.' + m.name) for m in pkgutil.iter_modules(engine.__path__)];"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'asyncssh', 'tui', 'net', 'asyncio'));"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine pulled in: {out.stdout.strip()}"


WIDGETS_MAY_NOT = ("engine.table", "engine.autoplay", "engine.club", "engine.keeper")
"""Widgets draw snapshots (``engine.view``); the table, its autopilot and the club stay with the screens."""


def _imports(path) -> list[str]:
    import ast

    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def test_widgets_import_no_table_nor_autoplay() -> None:
    """Issue 14 step 5: no module under tui/widgets imports engine.table or engine.autoplay (any import, at any
    depth of the module: a function's, a TYPE_CHECKING block's)."""
    from pathlib import Path

    widgets = sorted((Path(__file__).resolve().parents[2] / "tui" / "widgets").glob("*.py"))
    assert len(widgets) >= 8 and any(p.name == "tableview.py" for p in widgets)
    bad = [f"{p.name}: {name}" for p in widgets for name in _imports(p)
           if any(name == m or name.startswith(m + ".") for m in WIDGETS_MAY_NOT)]
    assert not bad, "widgets draw an engine.view.Snapshot, never a table: " + ", ".join(bad)


def test_the_import_scan_sees_imports(tmp_path) -> None:
    sample = tmp_path / "w.py"
    sample.write_text("from engine.table import Table\nif 1:\n    import engine.autoplay as a\n"
                      "def f():\n    from engine import club\n", encoding="utf-8")
    found = _imports(sample)
    assert "engine.table" in found and "engine.autoplay" in found and "engine.club" in found
