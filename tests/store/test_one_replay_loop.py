"""Issue 14 step 4: one replay loop (engine.playback) gives back, byte for byte, what a live table did.

A table plays with its journal on each backend; the steps its port was handed
are kept.  The same loop then plays the journal (restore) and the records the
store saved (record replay): it yields the very same steps, and the rebuilt
game writes the very same record.
"""

from __future__ import annotations

import json
import random
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from engine.table.club import Club
from engine.game import ADMIN, ShuffledDecks
from engine.games import get_game, registry
from engine.playback import play
from engine.record import load_record, rebuild, record_moves, record_of, replay
from engine.step import DEAL, TICK
from engine.store.base import TableJournal, journal_moves, replay_journal, restore_table

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha")
SEATS = {"french3": 3, "kopilka": 4, "speculator": 4, "stukolka": 4, "ukr_pairs": 4}
RECORDS = Path(__file__).resolve().parents[1] / "records"


def dumped(value: Any) -> bytes:
    """As the stores write JSON (engine/store/sqlite.py ``_json``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class Spy:
    """Forwards every call to the table's keeper, keeping the steps it hands over (a new session: anew)."""

    def __init__(self, keeper: Any) -> None:
        self.keeper = keeper
        self.steps: list[Any] = []  # of the session in play
        self.every: list[Any] = []  # of every session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.keeper, name)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.keeper.transaction():
            yield

    def session_started(self, game: Any) -> None:
        self.steps = []
        self.keeper.session_started(game)

    def dealt(self, step: Any, now: float | None) -> None:
        self.steps.append(step)
        self.every.append(step)
        self.keeper.dealt(step, now)

    applied = ticked = dealt


def test_every_game_is_here() -> None:
    assert set(registry()) <= set(SEATS)


@pytest.mark.parametrize("game_name", sorted(SEATS))
def test_the_loop_gives_back_the_live_steps_from_the_journal_and_the_records(open_again, game_name: str) -> None:
    store = open_again()
    for name in NAMES:
        store.create_account(name, grant=10**7)
    options = {"variant": "b", "rounds": 1} if game_name == "stukolka" else None
    club = Club([{"game": game_name, "options": options, "seats": SEATS[game_name]}], store=store, now=0.0, seed=4)
    table = club.tables[1]
    spy = Spy(table.journal)
    table.journal = spy
    for name in NAMES[: SEATS[game_name]]:
        table.sit(name)
    rng = random.Random(game_name)
    clocked = game_name == "speculator"  # on the table's clock: ticks close windows, the journal keeps them
    clock = [10.0]
    for moment in range(6):
        for _ in range(rng.randrange(5, 40)):
            one_move(table, rng, clock if clocked else None)
        if table.game is None:
            continue
        live = store.live_tables()[0]
        entries = store.journal(1)
        # the journal, through the loop: the steps the port was handed, in order, byte for byte
        fresh = get_game(game_name)(live.header.players, live.header.options, dealer=live.header.dealer,
                                    pot=live.header.pot)
        assert [repr(s) for s in play(fresh, journal_moves(entries))] == [repr(s) for s in spy.steps]
        # a restore (the same loop): the same game, the same record, the story of the deal in play
        restored = replay_journal(live, entries)
        assert restored.game.view(ADMIN) == table.game.view(ADMIN)
        assert dumped(record_of(restored.game).to_json()) == dumped(record_of(table.game).to_json())
        last = max(i for i, s in enumerate(spy.steps) if s.kind == DEAL) if spy.steps else 0
        assert restored.told == [e for s in spy.steps[last:] for e in s.events]
    # the records the store saved replay (the same loop again) to the steps of their deals, their bytes unchanged
    for _ in range(20_000):
        if store.history(NAMES[0]):
            break
        one_move(table, rng, clock if clocked else None)
    saved = [store.get_record(info.id) for info in store.history(NAMES[0], limit=100)]
    assert saved, "no record was saved"
    for record in saved:
        game = get_game(record.game)(record.players, record.options, dealer=record.dealer, pot=record.pot)
        steps = list(play(game, record_moves(record, game)))
        assert len([s for s in steps if s.kind == DEAL]) == len(record.deals)
        if not clocked:  # a record has no time: the live deals it keeps are played again step by step
            assert played(steps) in played(s for s in spy.every if s.kind != TICK)
        again = record_of(rebuild(record), start_dealer=record.dealer)
        for deal, kept in zip(again.deals, record.deals):
            deal.fair = kept.fair  # the seed is the record's, not the rules'
        assert dumped(again.to_json()) == dumped(record.to_json())
    store.close()


def played(steps: Any) -> str:
    """Steps as text, without their deal's number (a record counts its deals from 1)."""
    return "".join(repr(s._replace(deal_no=0)) + "\n" for s in steps)


def one_move(table: Any, rng: random.Random, clock: list[float] | None) -> None:
    """Everyone ready, a random legal action, or (on a clock) time passing."""
    game = table.game
    now = clock[0] if clock is not None else None
    if game is None or not game.in_deal:
        for name in table.seated():
            table.start(name, now=now)
        return
    if clock is not None and rng.random() < 0.3:
        clock[0] += rng.choice((1.0, 30.0))
        table.tick(clock[0])
        return
    seat = rng.choice(game.to_act())
    table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=now)


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*[!d].json")), ids=lambda p: p.stem)
def test_a_record_file_rebuilds_to_its_own_bytes(path: Path) -> None:
    """RULES.md §9: a record played through the loop writes back its decks as given, its actions as the rules
    log them (a hand-written ``buy 3♦ 3♣`` comes back ``buy 3♣ 3♦``), and that record again to its own bytes."""
    record = load_record(path)
    again = record_of(rebuild(record), start_dealer=record.dealer)
    assert [d["decks"] for d in again.to_json()["deals"]] == [d["decks"] for d in record.to_json()["deals"]]
    assert replay(again) == replay(record)
    twice = record_of(rebuild(again), start_dealer=again.dealer)
    assert dumped(twice.to_json()) == dumped(again.to_json())


def test_steps_written_later_in_one_batch_restore_the_live_game(open_again) -> None:
    """A step is a value: a port may queue the table's steps and commit them after the game moved on, in one
    transaction (what a PostgreSQL commit of 5–10 ms asks for), and the journal still restores the live game."""
    store = open_again()
    for name in NAMES[:4]:
        store.create_account(name, grant=10**6)
    game = get_game("kopilka")(list(NAMES[:4]))
    journal = TableJournal.open(store, 3, game, list(NAMES[:4]))
    rng = random.Random(5)
    decks = ShuffledDecks(game.deck_size, 8)
    queued = []
    while len(queued) < 120:
        if not game.in_deal:
            queued.append(game.deal_step(decks))
            continue
        seat = game.to_act()[0]
        queued.append(game.apply_step(seat, rng.choice(game.legal_actions(seat))))
    assert store.journal(3) == []  # nothing written yet: the game is 120 changes ahead
    with store.batch():
        for step in queued:
            journal.write(step)
    restored = restore_table(store, 3).game
    assert restored.view(ADMIN) == game.view(ADMIN)
    assert dumped(record_of(restored).to_json()) == dumped(record_of(game).to_json())
    assert [store.balance(n) - 10**6 for n in NAMES[:4]] == game.balances
    store.check_ledger()
    store.close()
