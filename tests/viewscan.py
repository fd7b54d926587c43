"""Every card a view shows: the scan behind every "no hidden card" test.

Views keep cards as ``Card`` objects (an ``int`` subclass, so told apart by
type); the scan walks dicts and read-only mappings (keys and values), lists,
tuples and sets, and the typed views' frozen dataclasses (``engine.view``:
every field), iteratively, since it runs after every action of thousands of
random deals.
Importable from any test folder: ``tests/`` is on ``sys.path`` through its
``conftest.py``.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

from engine.cards import Card


_LEAVES = frozenset({int, str, bool, float, type(None)})


def cards_in(value: Any) -> set[Card]:
    """Every ``Card`` anywhere inside ``value``."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Card:
            found.add(item)
        elif kind in _LEAVES:
            continue
        elif kind is dict or kind is MappingProxyType:
            stack.extend(item.keys())
            stack.extend(item.values())
        elif kind in (list, tuple, set, frozenset) or isinstance(item, tuple):
            stack.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found
