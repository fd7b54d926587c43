"""Issue 14 step 4: in engine/, no module writes another object's private attributes, nor swaps a class.

The table is the one writer of its state, the game of its own: a keeper, an
autopilot or a bot that needs something changed asks through a public method
(``Table.resume``, ``Game.deal_from``).  Read by the AST, so a new
``table._decks = …`` in any engine module fails here, with its line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
OWN = ("self", "cls")


def _private(attr: str) -> bool:
    return attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__")) or attr == "__class__"


def _foreign(node: ast.expr) -> str | None:
    """``x._y`` (or ``x._y[k]``, ``x.z._y``) where ``x`` is not ``self``/``cls``: its text, else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and _private(node.attr):
        if not (isinstance(node.value, ast.Name) and node.value.id in OWN):
            return ast.unparse(node)
    return None


def offences(source: str, filename: str) -> list[str]:
    """Every write of another object's private attribute in ``source``, as ``file:line: text``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str) and _private(node.args[1].value)):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        for target in targets:
            for part in ast.walk(target) if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                text = _foreign(part) if isinstance(part, ast.expr) else None
                if text:
                    found.append(f"{filename}:{node.lineno}: {text}")
    return found


def test_no_engine_module_writes_another_objects_privates() -> None:
    found = [o for path in sorted(ENGINE.rglob("*.py"))
             for o in offences(path.read_text(), str(path.relative_to(ENGINE)))]
    assert found == []


def test_the_autopilot_reads_a_snapshot_not_the_table() -> None:
    """engine/table/autoplay.py never names the table: each call gets a ``Snapshot`` (``Table.snapshot``)."""
    tree = ast.parse((ENGINE / "table" / "autoplay.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names if node.module == "engine.table.owner"}
    assert imported == set()
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert "Table" not in names


def test_the_check_sees_each_kind_of_write() -> None:
    """The check itself can fail: each form a private write takes is caught, one's own are not."""
    bad = """
table._decks = None
game._source = decks
table.game._told += []
keeper.table._emit = print
a, table._seed = 1, 2
game.__class__ = object
table._watching["x"] = 1
del table._fair_told
setattr(table, "_seed", 3)
"""
    assert len(offences(bad, "bad.py")) == 9
    good = """
self._decks = None
cls._cache = {}
self._bots[name] = bot
table.game = game
game.deals[0].fair = fair
setattr(table, "seed", 1)
"""
    assert offences(good, "good.py") == []
