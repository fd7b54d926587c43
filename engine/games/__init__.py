"""The registry of games: every module here that defines ``GAME`` (a ``Game`` subclass).

Modules are discovered, not listed, so a new game lands by adding its module.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from engine.game import Game
from engine.view import View, build_view

_REGISTRY: dict[str, type[Game]] = {}


def _discover() -> None:
    if _REGISTRY:
        return
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            _REGISTRY[game.name] = game


def registry() -> dict[str, type[Game]]:
    """Game id → game class, e.g. ``"stukolka"`` → ``Stukolka``."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def get_game(name: str) -> type[Game]:
    """The game class for an id; ``KeyError`` with the known ids otherwise."""
    games = registry()
    try:
        return games[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; sukno knows: {', '.join(games) or 'none'}") from None


def view_of(view: View | Mapping[str, Any]) -> View:
    """A ``View`` as it is, or one built from a view dict (a replay's frame, a test's), its sheet by its game."""
    if isinstance(view, View):
        return view
    cls = registry().get(str(view.get("game")))
    return build_view(view, cls.score_view if cls is not None else None)
