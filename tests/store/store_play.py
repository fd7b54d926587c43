"""Random live play of real games through ``TableJournal``, the way the server drives a table.

Shared by the store tests and the kill -9 writer (``crash_writer.py``): each
change is made to the ``Game`` first, then written (journal + money in one
commit), exactly the order the server must keep.  Games on a clock
(Спекулянт) get the table's treatment: ``start_clock`` at the first deal,
``tick`` before every action, and now and then a tick of their own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.game import Action, Game, ShuffledDecks
from engine.games import get_game
from engine.record import record_of
from engine.store.base import Store, TableJournal

GAME_SEATS = {"french3": 3, "kopilka": 4, "speculator": 4, "stukolka": 5, "ukr_pairs": 4}
SHORT = {"stukolka": {"variant": "b", "rounds": 2}}  # sessions that end (only Стуколка's do)


@dataclass
class PlayedTable:
    table_id: int
    game: Game
    journal: TableJournal
    accounts: list[str]
    decks: ShuffledDecks
    clock: float = 0.0
    sessions: list[int] = field(default_factory=list)  # record ids of finished sessions
    past: dict[str, int] = field(default_factory=dict)  # money of the finished sessions


def open_table(
    store: Store,
    table_id: int,
    game_name: str,
    accounts: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    pot: int = 0,
) -> PlayedTable:
    """A new live table whose seats play for ``accounts`` (``pot``: money already on it)."""
    cls = get_game(game_name)
    game = cls(accounts, options or {}, dealer=seed % len(accounts), pot=pot)
    journal = TableJournal.open(store, table_id, game, accounts, extra={"seed": seed}, now=1000.0 + table_id)
    return PlayedTable(table_id, game, journal, accounts, ShuffledDecks(cls.deck_size, seed), clock=50.0 * seed)


def step(store: Store, table: PlayedTable, rng: random.Random) -> str:
    """One change at the table (a deal, an action, a tick or a new session); what it was."""
    game = table.game
    if game.is_over() and not game.in_deal:
        _next_session(store, table)
        return "session"
    if not game.in_deal:
        _clock_on(table)
        table.journal.write(game.deal_step(table.decks), clock=table.clock)
        return "deal"
    if _clocked(game) and rng.random() < 0.2:
        table.clock += rng.choice((1.0, 5.0, 20.0))
        ticked = game.tick_step(table.clock)
        if ticked is not None:
            table.journal.write(ticked, clock=table.clock)
        return "tick"
    _clock_on(table)
    if _clocked(game):
        game.tick(table.clock)  # replayed from the action's clock: not written apart
    seat = rng.choice(game.to_act())
    step = game.apply_step(seat, _choose(game, seat, rng))
    table.journal.write(step, clock=table.clock if _clocked(game) else None)
    return "action"


def _clocked(game: Game) -> bool:
    return game.clocked  # every game has a (no-op) start_clock: ask the game (issue 14 step 2)


def _clock_on(table: PlayedTable) -> None:
    """Like ``Table._clock``: a game with a clock goes on it at the table's first ``now``."""
    if _clocked(table.game) and not table.game.live_clock:
        table.game.start_clock(table.clock)


def _choose(game: Game, seat: int, rng: random.Random) -> Action:
    legal = list(game.legal_actions(seat))
    action = rng.choice(legal)
    if action.verb in ("bid", "sell") and action.args:
        return Action(action.verb, (action.args[0] + rng.randrange(0, 30),))
    return action


def _next_session(store: Store, table: PlayedTable) -> None:
    """Book the finished session and go on with a new one; the pot carries over."""
    old = table.game
    for seat, name in enumerate(table.accounts):
        table.past[name] = table.past.get(name, 0) + old.balances[seat]
    with store.batch():
        table.sessions.append(
            store.save_record(record_of(old), table_id=table.table_id, result=old.result(), now=2000.0)
        )
        game = type(old)(old.names, old.options, dealer=old._next_dealer(), pot=old.pot)
        table.journal.new_session(game)
    table.game = game


def seat_money(tables: list[PlayedTable]) -> dict[str, int]:
    """Each account's net money over every session of every table (from the games, not the store)."""
    money: dict[str, int] = {}
    for table in tables:
        for seat, name in enumerate(table.accounts):
            money[name] = money.get(name, 0) + table.past.get(name, 0) + table.game.balances[seat]
    return money


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the last time the table told the game (untold no-op ticks move it)."""
    return {k: v for k, v in view.items() if k != "clock"}
