"""Layering: importing the engine (every game included) loads neither textual nor asyncssh."""

from __future__ import annotations

import subprocess
import sys

import pytest


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


WIDGETS_MAY_NOT = ("engine.table.owner", "engine.table.autoplay", "engine.table.club", "engine.table.keeper")
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
    """No module under tui/widgets imports engine.table.owner or engine.table.autoplay (any import, at any
    depth of the module: a function's, a TYPE_CHECKING block's)."""
    from pathlib import Path

    widgets = sorted((Path(__file__).resolve().parents[2] / "tui" / "widgets").glob("*.py"))
    assert len(widgets) >= 8 and any(p.name == "tableview.py" for p in widgets)
    bad = [f"{p.name}: {name}" for p in widgets for name in _imports(p)
           if any(name == m or name.startswith(m + ".") for m in WIDGETS_MAY_NOT)]
    assert not bad, "widgets draw an engine.view.Snapshot, never a table: " + ", ".join(bad)


def test_the_import_scan_sees_imports(tmp_path) -> None:
    sample = tmp_path / "w.py"
    sample.write_text("from engine.table.owner import Table\nif 1:\n    import engine.table.autoplay as a\n"
                      "def f():\n    from engine.table import club\n", encoding="utf-8")
    found = _imports(sample)
    assert "engine.table.owner" in found and "engine.table.autoplay" in found and "engine.table.club" in found


def _module_imports(path, known: set[str]) -> set[str]:
    """What a module imports when it is loaded: its top level (a function's, a class body's or a
    ``TYPE_CHECKING`` block's imports run later or never, so they cannot make a circle at load time)."""
    import ast

    found: set[str] = set()
    stack = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return {name for name in found if name in known}


def import_circles(root) -> list[list[str]]:
    """Every circle among the modules of engine/, tui/ and net/ under ``root`` (each as a path a → … → a)."""
    modules = {}
    for package in ("engine", "tui", "net"):
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph = {name: _module_imports(path, set(modules)) - {name} for name, path in modules.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path now, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        path.append(name)
        for dep in sorted(graph[name]):
            if state.get(dep) == 1:
                circles.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, path)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return circles


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_no_import_circle_in_the_house() -> None:
    """Issue 14: no module of engine/, tui/ or net/ imports, at load time, a module that imports it back."""
    from pathlib import Path

    circles = import_circles(Path(__file__).resolve().parents[2])
    assert not circles, "import circles: " + "; ".join(" → ".join(c) for c in circles)


def test_the_circle_scan_finds_a_circle(tmp_path) -> None:
    for package in ("engine", "tui", "net"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "engine" / "a.py").write_text("from engine.b import x\n", encoding="utf-8")
    (tmp_path / "engine" / "b.py").write_text("import engine.c\n", encoding="utf-8")
    (tmp_path / "engine" / "c.py").write_text("from engine import a\n", encoding="utf-8")
    (tmp_path / "tui" / "d.py").write_text("def f():\n    import engine.a\n", encoding="utf-8")
    (tmp_path / "net" / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                           "    import net.f\n", encoding="utf-8")
    (tmp_path / "net" / "f.py").write_text("import net.e\n", encoding="utf-8")
    assert import_circles(tmp_path) == [["engine.a", "engine.b", "engine.c", "engine.a"]]
