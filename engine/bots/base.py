"""What every bot is: a chooser that sees one seat's view and the legal actions, nothing else.

Why the narrow door: a bot sits at a table where people play, so it must not
know more than a person in its seat.  It is never handed the ``Game`` (which
holds every hidden card); ``choose`` refuses anything but a view dict of its
own game and only returns an action from ``legal``.  A bot may remember what
its earlier views showed (as a person remembers the cards played), but such
memory must survive being seated in the middle of a deal.

``choose`` returns ``None`` only in Спекулянт's trade window, where every seat
is in ``to_act()`` at once and a seat with nothing to add waits (the window
closes when all are ready or by its clock); everywhere else it returns an
action.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Sequence

from engine.cards import Card
from engine.game import Action

View = dict[str, Any]


class BotError(ValueError):
    """A bot was given something it must not decide from (a Game, another game's view, no choices)."""


class Bot(ABC):
    """A player of one game; ``kind`` is "random" or "rule"."""

    game: str = ""
    kind: str = ""
    may_wait: bool = False
    """True where simultaneous play lets a seat wait (Спекулянт's windows)."""

    def __init__(self, game: str, seed: int | None = None):
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action for the seat whose ``view`` this is; ``legal`` as ``legal_actions(seat)`` gave it."""
        if not isinstance(view, dict):
            raise BotError(f"a bot decides from its seat's view (a dict), not from {type(view).__name__}")
        if view.get("game") != self.game:
            raise BotError(f"a {self.game} bot was given a view of {view.get('game')!r}")
        if not isinstance(view.get("viewer"), int) or not 0 <= view["viewer"] < len(view.get("names", ())):
            raise BotError("a bot plays a seat: the view must be a seat's view")
        if not legal:
            raise BotError("the seat has nothing legal to do")
        action = self._choose(view, legal)
        if action is None:
            if not self.may_wait:
                raise AssertionError(f"{type(self).__name__} chose nothing")
            return None
        if action not in legal:
            raise AssertionError(f"{type(self).__name__} chose {action.text()!r}, which is not legal")
        return action

    @abstractmethod
    def _choose(self, view: View, legal: Sequence[Action]) -> Action | None: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game} {self.kind} seed={self.seed}>"


def seat_of(view: View) -> int:
    return view["viewer"]


def hand_of(view: View) -> list[Card]:
    """The seat's own cards (empty if it sees none, e.g. Стуколка before looking)."""
    return list(view["hands"][view["viewer"]] or [])


def played_cards(legal: Sequence[Action]) -> list[Card]:
    """The cards of the ``play C`` actions in ``legal``."""
    return [a.args[0] for a in legal if a.verb == "play"]


def play(card: Card) -> Action:
    return Action("play", (card,))
