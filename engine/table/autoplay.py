"""Seats that play without a person: bots, turn clocks, and players who dropped.

A ``Table`` owns one ``Autopilot``.  Like the rest of the engine it never
reads a clock: the table tells it the time of every change (``note``), it
says when it next needs waking (``deadline``) and, at ``tick(now)``, which
moves are due (``next_move``).  The table makes each move through the very
path a person's ``act`` takes, so it is journaled before anyone sees it.
The autopilot never holds the table: each call gets a ``Snapshot`` of it
(``Table.snapshot``) to read, and it only ever answers.

Decisions (why):

- A bot is a seat whose name starts with ``bot-`` (``bot-Mitya``): the name
  says so to everyone, passes the club's sanitising, is reserved so no person
  can register it, and survives a restart in the journal's seats, where the
  bot object is simply made again (a bot may lose its memory of a deal, never
  its seat).  Bots are always ready between deals; they are not accounts:
  the store plays them with a ``bot:NAME`` pool.
- A bot waits ``think`` seconds (0.6 by default) so people can follow the
  play; in a Спекулянт window a bot that chose to wait is asked again only
  when something changes.
- The turn clock (``clock`` seconds per action, 0 = none) runs for a present
  person whose turn it is; at its end the table takes the game's safe
  ``default_action`` for him and the log says so.  A game that runs its own
  clock at that moment (Спекулянт's windows) is not also on the turn clock.
- A player whose last session left is *away*: he is no longer ready for the
  next deal; after ``takeover`` seconds a stand-in bot plays his turns (the
  felt marks it).  A stand-in makes only the game's safe moves, the turn
  clock's ``default_action`` (pass, stand pat, ready; a card only where one
  must be played): it plays with a person's money, so it never knocks, bids,
  sells or buys for him.  Coming back (``back``) gives him his seat and his turns.
  When ``grace`` seconds have passed and no deal is being played he stands
  up (a deal in play is finished by the stand-in first), so his money at
  stake is never more than the deal he left.
- ``fill``: when someone says ``start`` at a table with free seats, bots take
  them; a person who wants to sit at a table full only thanks to bots gets a
  bot's seat (between sessions, as every sit).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields
from typing import Any, Callable, NamedTuple

from engine.botnames import is_bot
from engine.bots import Bot, default_action, make_bot
from engine.bots.random_bot import RandomBot
from engine.game import Action, Event

log = logging.getLogger("sukno.autoplay")

MAX_MOVES_PER_TICK = 500
"""A guard: with ``think`` 0 a whole deal of bots is played in one tick."""


@dataclass
class Settings:
    """A table's options about time and bots (kept in its journal)."""

    clock: float = 60.0
    grace: float = 300.0
    fill: bool = False
    think: float = 0.6
    takeover: float = 5.0
    kind: str = "rule"

    @classmethod
    def make(cls, raw: dict[str, Any] | None) -> "Settings":
        """Checked settings from ``raw``; ``ValueError`` with the reason otherwise."""
        out = cls()
        known = {f.name for f in fields(cls)}
        for key, value in (raw or {}).items():
            if key not in known:
                raise ValueError(f"unknown table setting {key!r} (settings: {', '.join(sorted(known))})")
            if key == "fill":
                if isinstance(value, str):
                    if value.lower() not in ("yes", "no", "true", "false", "1", "0", "fill", "on", "off"):
                        raise ValueError(f"fill is yes or no, not {value!r}")
                    value = value.lower() in ("yes", "true", "1", "fill", "on")
                setattr(out, key, bool(value))
            elif key == "kind":
                if value not in ("rule", "random"):
                    raise ValueError(f"bot kind is rule or random, not {value!r}")
                out.kind = value
            else:
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    raise ValueError(f"{key} must be a number of seconds, not {value!r}") from None
                if isinstance(value, bool) or not 0 <= number <= 86400:
                    raise ValueError(f"{key} must be 0–86400 seconds, not {value!r}")
                setattr(out, key, number)
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def safe_default(game_name: str, view: dict[str, Any], legal: list[Action]) -> Action | None:
    """``engine.bots.default_action``; for a game with no bots yet, ``pass`` if legal, else the first."""
    try:
        return default_action(game_name, view, legal)
    except KeyError:
        if not legal:
            return None
        return next((a for a in legal if a.verb == "pass"), legal[0])


class Snapshot(NamedTuple):
    """What the autopilot reads of its table at one moment (``Table.snapshot``); it writes nothing back.

    A tuple, not a dataclass: the table makes one at every change, so it is cheap.
    """

    table_id: int
    game_name: str
    seed: int | None  # the table's repeatable seed (tests, benches); None: bots draw their own
    seats: tuple[str | None, ...]
    in_deal: bool
    turn: tuple | None  # what identifies the turn in play (a new one restarts the timers); None between deals
    to_act: tuple[int, ...]  # the seats the game waits for (empty between deals)
    names: tuple[str, ...]  # the game's seat names (the table's between sessions)
    game_deadline: float | None  # the game's own timer (Спекулянт's window), None without one
    view: Callable[[int], dict[str, Any]]  # a seat's view of the game, made when asked
    legal: Callable[[int], list[Action]]  # a seat's legal actions, made when asked


class Autopilot:
    """The bots, turn clock and away players of one table (see the module docstring)."""

    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.away: dict[str, float | None] = {}  # name → since when
        self._bots: dict[str, Bot] = {}  # name (a bot's, or an away player's) → its bot
        self._turn_key: tuple | None = None
        self._turn_since: float | None = None
        self._waiting: set[int] = set()  # bot seats that chose to wait in this turn
        self._stood_in: set[str] = set()  # away players the log was told a bot plays for

    # -- what the table tells --------------------------------------------------------

    def went_away(self, name: str, now: float | None) -> None:
        """``name``'s last session left at ``now``: a stand-in plays for him after ``takeover``."""
        self.away[name] = now

    def note(self, turn: tuple | None, now: float | None) -> None:
        """After every change, the turn in play (``Snapshot.turn``): a new one starts its timers at ``now``
        (unknown without one)."""
        key = turn
        if key != self._turn_key:
            self._turn_key = key
            self._waiting.clear()
            if now is not None:  # without a time (tests, a rebuild) the old start stands: late, never stuck
                self._turn_since = now
        elif self._turn_since is None and now is not None:
            self._turn_since = now

    def forget(self, name: str) -> None:
        """A seat's name changed: its bot (if any) goes."""
        self._bots.pop(name, None)
        self.away.pop(name, None)
        self._stood_in.discard(name)

    # -- who plays -------------------------------------------------------------------

    def played_by_bot(self, name: str, now: float | None) -> bool:
        """A bot seat, or an away player whose stand-in has taken over by ``now``."""
        if is_bot(name):
            return True
        since = self.away.get(name, -1.0)
        if name not in self.away or since is None or now is None:
            return False
        return now >= since + self.settings.takeover

    def stand_ins(self, now: float | None) -> list[str]:
        """Away players a bot plays for (for the felt)."""
        return sorted(n for n in self.away if n in self._stood_in or self.played_by_bot(n, now))

    def bot_for(self, table: Snapshot, name: str) -> Bot:
        bot = self._bots.get(name)
        if bot is None:
            seat = table.seats.index(name) if name in table.seats else 0
            seed = None if table.seed is None else table.seed + 7 * seat
            try:
                bot = make_bot(table.game_name, self.settings.kind, seed)
            except KeyError:  # a game with no bot of its own yet: the random one plays it
                bot = RandomBot(table.game_name, seed)
            self._bots[name] = bot
        return bot

    # -- time --------------------------------------------------------------------------

    def deadline(self, table: Snapshot) -> float | None:
        """When a bot should move, a turn clock runs out, or an away player's grace ends."""
        times = [t for t, _ in self._due(table)]
        return min(times) if times else None

    def timer(self, table: Snapshot) -> float | None:
        """The turn clock's end for the bar (a present person's turn), or None."""
        times = [t for t, what in self._due(table) if what[0] == "clock"]
        return min(times) if times else None

    def _due(self, table: Snapshot) -> list[tuple[float, tuple]]:
        out: list[tuple[float, tuple]] = []
        s = self.settings
        for name, since in self.away.items():
            if since is not None and not table.in_deal and name in table.seats:
                out.append((since + s.grace, ("gone", name)))
        start = self._turn_since
        if not table.in_deal or start is None:
            return out
        own_clock = table.game_deadline is not None
        for seat in table.to_act:
            name = table.names[seat]
            if is_bot(name):
                if seat not in self._waiting:
                    out.append((start + s.think, ("bot", seat)))
                continue
            since = self.away.get(name)
            if name in self.away and since is not None and seat not in self._waiting:
                out.append((max(start + s.think, since + s.takeover), ("bot", seat)))
            if s.clock > 0 and not own_clock and name not in self.away and seat not in self._waiting:
                out.append((start + s.clock, ("clock", seat)))
        return out

    def next_move(self, table: Snapshot, now: float) -> tuple[str, Any] | None:
        """One thing due by ``now``: ("gone", name), ("bot"|"clock", (name, Action)); None: nothing."""
        for when, what in sorted(self._due(table), key=lambda d: d[0]):
            if when > now:
                break
            if what[0] == "gone":
                return what
            seat = what[1]
            name = table.names[seat]
            legal = table.legal(seat)
            view = table.view(seat)
            try:
                if what[0] == "bot" and is_bot(name):
                    action: Action | None = self.bot_for(table, name).choose(view, legal) if legal else None
                else:  # the clock, or a stand-in for an away person: only the game's safe move
                    action = safe_default(table.game_name, view, legal)
            except Exception:  # a broken bot must not stop the table's clock: the seat waits for its turn to change
                log.exception("table %s: no %s move for %s", table.table_id, what[0], name)
                action = None
            if action is None:
                self._waiting.add(seat)
                continue
            return what[0], (name, action)
        return None

    def give_up(self, seat: int | None) -> None:
        """A move for ``seat`` failed: no bot or clock tries it again until the turn changes."""
        if seat is not None:
            self._waiting.add(seat)

    def told(self, name: str) -> list[Event]:
        """The log's line the first time a stand-in plays for an away player."""
        if is_bot(name) or name in self._stood_in:
            return []
        self._stood_in.add(name)
        return [Event("stand_in", None, {"name": name})]
