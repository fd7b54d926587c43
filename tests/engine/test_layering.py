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
