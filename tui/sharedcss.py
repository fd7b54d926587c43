"""One parse of the club's CSS for every App of the process.

Each Textual App parses its CSS (sukno.tcss and every widget's DEFAULT_CSS) into
rule sets of its own, and keeps a cache of parsed styles: ~0.25 MB an App, the
same rules in every seated player's App and every spectator hub (a
seated player's App held 1.36 MB).  Parsed rules are only read after the parse
(Textual itself hands them from one stylesheet to its copy), so Apps whose CSS
variables (the theme) are the same share one cache of them here.

Uses two private caches of ``textual.css.stylesheet.Stylesheet`` (Textual 8.2);
if they are gone, Apps keep their own (``share_stylesheet`` does nothing).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet

RULES_KEPT = 256
"""Parsed CSS sources kept per set of variables (an App has ~40: its file and each widget class's)."""
STYLES_KEPT = 4096
"""Parsed style strings kept per set of variables (Textual's own size for one App)."""
VARIABLE_SETS = 4
"""Sets of CSS variables (themes) whose caches are kept; the club uses one."""

_caches: OrderedDict[tuple[tuple[str, str], ...], tuple[LRUCache[Any, Any], LRUCache[Any, Any]]] = OrderedDict()


def _caches_for(variables: dict[str, str]) -> tuple[LRUCache[Any, Any], LRUCache[Any, Any]]:
    key = tuple(sorted(variables.items()))
    found = _caches.get(key)
    if found is None:
        found = _caches[key] = (LRUCache(RULES_KEPT), LRUCache(STYLES_KEPT))
        while len(_caches) > VARIABLE_SETS:
            _caches.popitem(last=False)
    else:
        _caches.move_to_end(key)
    return found


class SharedStylesheet(Stylesheet):
    """A stylesheet whose parse caches are the process's, for its variables."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._parse_cache, self._style_parse_cache = _caches_for(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        # Textual's own clears its caches: here they are other Apps' too, so it clears two of its
        # own, and this stylesheet takes the caches of its new variables.
        self._parse_cache, self._style_parse_cache = LRUCache(1), LRUCache(1)
        super().set_variables(variables)
        self._parse_cache, self._style_parse_cache = _caches_for(self._variables)

    def copy(self) -> Stylesheet:
        sheet = SharedStylesheet(variables=self._variables.copy())
        sheet.source = self.source.copy()
        return sheet


def share_stylesheet(app: Any) -> bool:
    """Give ``app`` (just built, not running) a stylesheet with the shared caches; False if it keeps its own."""
    old = getattr(app, "stylesheet", None)
    if type(old) is not Stylesheet or not hasattr(old, "_parse_cache") or not hasattr(old, "_style_parse_cache"):
        return False
    sheet = SharedStylesheet(variables=old._variables)
    sheet.source = old.source.copy()
    app.stylesheet = sheet
    return True


__all__ = ["SharedStylesheet", "share_stylesheet"]
