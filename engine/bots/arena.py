"""A referee that plays deals between bots: for tests, benchmarks and tables of bots only.

It is the only place that holds the ``Game``; each bot gets ``game.view(seat)``
and ``game.legal_actions(seat)`` for a seat that may act, and ``apply`` checks
whatever it answers.

Time: a game that runs on a clock (Спекулянт, ``start_clock``) is driven in
*rounds* of ``step`` seconds: in a round every seat that may act is asked once,
in a shuffled order, and a bot may wait (``None``); when nobody acts the clock
jumps to the game's ``deadline()``, which closes the window.  So a random bot
that keeps bidding still sees every window close, at ``Wmax`` at the latest.
With ``clock=False`` the game keeps a record's rules (no time: a window closes
when all are ready or at the revealer's next ``reveal``) and idle rounds repeat.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Protocol, Sequence, cast

from engine.bots.base import Bot
from engine.game import Action, DeckSource, Event, Game

IDLE_ROUNDS = 100
"""Without a clock (a record's rules) a round where every bot waits is asked again, this many times."""

Timer = Callable[[int, float], None]


class Listener(Protocol):
    """A bot that hears the table's public events (the search bot)."""

    def observe(self, events: Sequence[Event]) -> None: ...

"""Called with (seat, seconds) after each bot decision (the bench's move times)."""


class Stuck(RuntimeError):
    """Nobody acts and nothing waits on time: the deal cannot go on."""


class Arena:
    """Plays deals of one ``game`` session with one bot per seat."""

    def __init__(self, game: Game, bots: Sequence[Bot], *, step: float = 5.0,
                 rng: random.Random | None = None, timer: Timer | None = None, clock: bool = True):
        if len(bots) != game.n:
            raise ValueError(f"{game.n} seats need {game.n} bots, not {len(bots)}")
        self.game = game
        self.bots = list(bots)
        self.step = step
        self.rng = rng or random.Random(0)
        self.timer = timer
        self.now = 0.0
        self.actions = 0
        self.live = clock and game.clocked
        self.idle = 0
        self.listeners: list[Listener] = [cast(Listener, b) for b in self.bots
                                          if callable(getattr(b, "observe", None))]
        if self.live:
            game.start_clock(self.now)

    def ask(self, seat: int) -> Action | None:
        game = self.game
        legal = game.legal_actions(seat)
        if not legal:
            return None
        view = game.view(seat)
        if self.timer is None:
            return self.bots[seat].choose(view, legal)
        start = time.perf_counter()
        action = self.bots[seat].choose(view, legal)
        self.timer(seat, time.perf_counter() - start)
        return action

    def act(self, seat: int, action: Action) -> None:
        if self.live:
            self.tell(self.game.tick(self.now))
        self.tell(self.game.apply(seat, action))
        self.actions += 1

    def tell(self, events: list[Event]) -> None:
        """Public events to every bot that listens (``observe``: the search bot), as a table's feed would."""
        if events:
            for bot in self.listeners:
                bot.observe(events)

    def play_deal(self, decks: DeckSource) -> list[int]:
        """Start a deal and play it out; returns the deal's money per seat."""
        game = self.game
        self.tell(game.start_deal(decks))
        while game.in_deal:
            seats = game.to_act()
            if len(seats) == 1:
                action = self.ask(seats[0])
                if action is not None:
                    self.act(seats[0], action)
                    continue
            self._round(list(seats))
        return list(game.deals[-1].money)

    def _round(self, seats: list[int]) -> None:
        """Everyone who may act is asked once; if nobody acts, time runs to the deadline."""
        game = self.game
        self.rng.shuffle(seats)
        acted = False
        for seat in seats:
            if not game.in_deal or seat not in game.to_act():
                continue
            action = self.ask(seat)
            if action is not None:
                self.act(seat, action)
                acted = True
        if acted:
            self.now += self.step
            self.idle = 0
        else:
            deadline = game.deadline()
            self.idle += 1
            if deadline is None and self.idle > IDLE_ROUNDS:
                raise Stuck(f"nobody acts in {game.name} and no deadline waits")
            if deadline is not None:
                self.now = max(self.now, deadline)
        if self.live:
            self.tell(game.tick(self.now))
