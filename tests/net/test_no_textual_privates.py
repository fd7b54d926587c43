"""Issue 14 step 6: outside ``net/textual_compat.py``, net/ names no private Textual attribute and
writes nothing onto another object with ``setattr``.

Textual builds a driver itself, so handing it a session's link (or a hub) by
``setattr(app, "_sukno_link", link)`` was the easy way, and reading ``app._is_mounted``
the easy question; both break silently when Textual changes.  The private names
sukno needs live behind ``net/textual_compat.py`` (checked against the pinned
Textual by tests/net/test_textual_compat.py); the rest of net/ asks it, or a
public question of our own App (``tui.app.ClubApp.entered``).  Read by the AST:

- ``x._name`` where ``_name`` is a private attribute of a Textual class (App, Driver,
  Screen, Widget, the key parser, and their Textual bases) and ``x`` is not ``self``;
- ``self._name`` inside a class that subclasses a Textual class, for such a name
  (a driver reading ``self._app`` leans on Textual's internals just the same, and
  one of ours by that name would overwrite Textual's);
- ``getattr(x, "_name")`` / ``hasattr(x, "_name")`` for such a name (the same lean, spelled as a string);
- any ``setattr``/``delattr`` call (on another object: an App, a link, a loop).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver
from textual.screen import Screen
from textual.widget import Widget

NET = Path(__file__).resolve().parents[2] / "net"
ADAPTER = "textual_compat.py"
TEXTUAL_BASES = {"App", "Driver", "Screen", "Widget", "ModalScreen", "Static", "XTermParser"}


def _textual_privates() -> frozenset[str]:
    """Every ``_name`` a Textual class defines or sets on ``self`` (not dunders)."""
    names: set[str] = set()
    for cls in (App, Driver, Screen, Widget, XTermParser):
        for klass in cls.__mro__:
            if not klass.__module__.startswith("textual"):
                continue
            names |= {n for n in vars(klass) if n.startswith("_") and not n.startswith("__")}
            try:
                tree = ast.parse(inspect.getsource(klass))
            except (OSError, TypeError, SyntaxError):
                continue
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                        and node.attr.startswith("_") and not node.attr.startswith("__")):
                    names.add(node.attr)
    return frozenset(names)


PRIVATE = _textual_privates()


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in cls.bases}


def offences(source: str, filename: str, private: frozenset[str] = PRIVATE) -> list[str]:
    """Every private Textual name and every setattr in ``source``, as ``file:line: text``."""
    found: list[str] = []
    tree = ast.parse(source, filename)
    in_textual_subclass: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and _base_names(node) & TEXTUAL_BASES:
            in_textual_subclass |= {id(inner) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in private):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr in private:
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not own or id(node) in in_textual_subclass:
                found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_net_leans_on_textual_only_through_the_adapter() -> None:
    found = [o for path in sorted(NET.rglob("*.py")) if path.name != ADAPTER
             for o in offences(path.read_text(), path.name)]
    assert found == []


def test_the_adapter_is_where_the_private_names_are() -> None:
    """The scan is not vacuous: the adapter itself is full of what it forbids elsewhere."""
    found = offences((NET / ADAPTER).read_text(), ADAPTER)
    for name in ("_is_mounted", "_running", "_closed", "_context", "_compositor", "_message_queue", "_size"):
        assert any(f".{name}" in line for line in found), (name, found)


def test_the_scan_sees_each_kind_of_lean() -> None:
    """The check itself can fail: each form is caught, our own privates and public names are not."""
    assert {"_is_mounted", "_app", "_size", "_loop", "_running", "_message_queue"} <= PRIVATE
    bad = '''
ready = app._is_mounted
app._capture_stdout = None
setattr(app, "_sukno_link", link)
setattr(link, "driver", self)
delattr(app, "x")
strips = screen._compositor.render_strips()
class D(Driver):
    def go(self):
        return self._app, self._loop
class H(textual.app.App):
    def size_of(self):
        return self._size
failure = getattr(app, "_exception", None)
queued = hasattr(app, "_message_queue")
'''
    assert len(offences(bad, "bad.py")) == 11, offences(bad, "bad.py")
    good = '''
self._driver = None
self._size = (80, 24)  # our own class, not a Textual one
link.driver_made(self)
ready = tc.app_mounted(app)
class D(Driver):
    def go(self):
        return self.app, self.loop, self._link
app.driver_class = SSHDriver
mine = getattr(session, "_early", b"")
failure = tc.app_failure(app)
'''
    assert offences(good, "good.py") == []


def test_watching_is_owned_by_the_session_not_mixed_in() -> None:
    """``net.modes.watch.Watch`` is an object the session holds (``session.watch``), not a base class; it reads
    its session only through ``self.host`` (typed ``WatchHost``), never as attributes of its own."""
    from net.ssh.session import Session
    from net.modes.watch import Watch

    assert not any(cls.__module__ == "net.modes.watch" for cls in Session.__mro__)
    tree = ast.parse((NET / "modes" / "watch.py").read_text())
    watch = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Watch")
    own = {n.name for n in watch.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    own |= {t.attr for n in ast.walk(watch) if isinstance(n, (ast.Assign, ast.AnnAssign))
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    used = {n.attr for n in ast.walk(watch)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}
    assert "host" in own and used <= own, sorted(used - own)
    assert set(Watch.__init__.__code__.co_varnames[:2]) == {"self", "host"}
