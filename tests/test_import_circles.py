"""No import circle among the project's modules, counting EVERY import: a function's, a class body's and a
``TYPE_CHECKING`` block's too, relative ones resolved, and the packages a dotted import loads on the way.

A circle hidden in a function still ties two modules into one unit: neither can be read, tested or moved
without the other.  ``STILL_TIED`` names the groups not yet untied, each exactly: a new circle, or a module
joining a group, fails; a group that shrank or vanished fails too, until it is struck off the list.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "net", "tui", "sukno")

STILL_TIED: list[frozenset[str]] = []
"""Groups allowed to stay tied: none.  An optional dependency allowed to import back would be named here."""


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every project module ``name`` imports anywhere in its file, with the packages loaded on the way."""
    is_package = path.name == "__init__.py"
    targets: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            targets += [base] + [f"{base}.{alias.name}" for alias in node.names]
    edges = set()
    for target in targets:
        while target:
            if target in known and target != name and not name.startswith(target + "."):
                edges.add(target)  # the module, and each package above it that the import runs
            target = target.rpartition(".")[0]
    return edges


def import_graph(root: Path) -> dict[str, list[str]]:
    known = modules(root)
    return {name: sorted(imported(name, path, known)) for name, path in known.items()}


def circle_in(group: frozenset[str], graph: dict[str, list[str]]) -> list[str]:
    """One circle through the group's first module, in import order (breadth first: a shortest one)."""
    start = min(group)
    came_from: dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in graph[node]:
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1] + [start]
            if nxt in group and nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    return sorted(group)


def tied_groups(root: Path) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    graph = import_graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(graph[node]):
                work.append((node, i + 1))
                nxt = graph[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def test_no_import_circle_counting_every_import() -> None:
    groups = tied_groups(ROOT)
    graph = import_graph(ROOT)
    new = [g for g in groups if g not in STILL_TIED]
    assert not new, "import circles (counting every import): " + "; ".join(
        f"{' → '.join(circle_in(g, graph))} (a group of {len(g)}: {', '.join(sorted(g))})" for g in new)
    gone = [sorted(g) for g in STILL_TIED if g not in groups]
    assert not gone, "untied, strike them off STILL_TIED: " + "; ".join(", ".join(g) for g in gone)


def test_the_scan_sees_deferred_type_checking_and_relative_imports(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "engine" / "a.py").write_text("def f():\n    from engine.b import x\n", encoding="utf-8")
    (tmp_path / "engine" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                              "    from . import a\n", encoding="utf-8")
    (tmp_path / "net" / "c.py").write_text("import tui.d\n", encoding="utf-8")
    (tmp_path / "tui" / "d.py").write_text("class K:\n    import net.c as c\n", encoding="utf-8")
    (tmp_path / "tui" / "e.py").write_text("import engine.a\n", encoding="utf-8")
    assert sorted(sorted(g) for g in tied_groups(tmp_path)) == [["engine.a", "engine.b"], ["net.c", "tui.d"]]


def test_a_circle_is_named_in_import_order(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "net" / "a.py").write_text("import net.b\n", encoding="utf-8")
    (tmp_path / "net" / "b.py").write_text("def f():\n    from net import c\n", encoding="utf-8")
    (tmp_path / "net" / "c.py").write_text("import net.a\nimport net.d\n", encoding="utf-8")
    (tmp_path / "net" / "d.py").write_text("import net.b\n", encoding="utf-8")
    [group] = tied_groups(tmp_path)
    assert circle_in(group, import_graph(tmp_path)) == ["net.a", "net.b", "net.c", "net.a"]


def test_a_package_that_imports_its_own_module_back_is_a_circle(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "engine" / "games").mkdir()
    (tmp_path / "engine" / "games" / "__init__.py").write_text("from engine.x import y\n", encoding="utf-8")
    (tmp_path / "engine" / "x.py").write_text("from engine.games.kopilka import K\n", encoding="utf-8")
    (tmp_path / "engine" / "games" / "kopilka.py").write_text("K = 1\n", encoding="utf-8")
    assert tied_groups(tmp_path) == [frozenset({"engine.games", "engine.x"})]
