"""The journal of live tables: replaying it gives back the live state, for every game."""

from __future__ import annotations

import random

import pytest
from store_play import GAME_SEATS, PlayedTable, comparable, open_table, step

from engine.game import ADMIN, Game
from engine.games import registry
from engine.record import record_of
from engine.store.base import (
    ACTION,
    DEAL,
    StoreError,
    TableJournal,
    pot_purse,
    record_of_journal,
    restore_table,
)
from engine.store.sqlite import SqliteStore

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]


@pytest.fixture
def people(store: SqliteStore) -> list[str]:
    for name in NAMES:
        store.create_account(name, grant=1_000)
    return NAMES


def assert_same(restored: Game, live: Game) -> None:
    """Everything a viewer or the money could tell apart."""
    assert comparable(restored.view(ADMIN)) == comparable(live.view(ADMIN))
    for seat in range(live.n):
        assert comparable(restored.view(seat)) == comparable(live.view(seat))
        assert restored.legal_actions(seat) == live.legal_actions(seat)
    assert (restored.balances, restored.pot, restored.deal_no) == (live.balances, live.pot, live.deal_no)
    assert [(d.decks, d.actions, d.money) for d in restored.deals] == [
        (d.decks, d.actions, d.money) for d in live.deals
    ]
    assert restored.deadline() == live.deadline()


def test_every_registered_game_is_covered() -> None:
    assert set(registry()) <= set(GAME_SEATS), "add the new game to store_play.GAME_SEATS"


@pytest.mark.parametrize("game_name", sorted(GAME_SEATS))
def test_journal_replay_equals_live_state(store: SqliteStore, people: list[str], game_name: str) -> None:
    """Restored at many moments (mid-deal, between deals), the table is the live one."""
    rng = random.Random(sorted(GAME_SEATS).index(game_name))
    table = open_table(store, 5, game_name, people[: GAME_SEATS[game_name]], seed=11)
    for moment in range(12):
        for _ in range(rng.randrange(1, 40)):
            step(store, table, rng)
        restored = restore_table(store, 5)
        assert_same(restored.game, table.game)
        assert restored.purses == table.accounts
    assert table.game.deal_no >= 2


def test_a_restored_table_plays_on_and_restores_again(store: SqliteStore, people: list[str]) -> None:
    rng = random.Random(4)
    table = open_table(store, 1, "stukolka", people, seed=2)
    for _ in range(120):
        step(store, table, rng)
    restored = restore_table(store, 1)
    again = PlayedTable(1, restored.game, restored.journal(store), restored.purses, table.decks, table.clock)
    for _ in range(120):
        step(store, again, rng)
    assert_same(restore_table(store, 1).game, again.game)
    assert [store.balance(n) for n in people] == [1_000 + b for b in again.game.balances]
    assert store.balance(pot_purse(1)) == again.game.pot


def test_redeal_decks_are_journaled(store: SqliteStore, people: list[str]) -> None:
    """Спекулянт's K♠ forces a redeal (R65): the extra deck orders come back with the journal."""
    rng = random.Random(65)
    table = open_table(store, 2, "speculator", people[:4], seed=3)
    while not any(len(deal.decks) > 1 for deal in table.game.deals):
        step(store, table, rng)
    assert_same(restore_table(store, 2).game, table.game)
    assert any(len(e.payload.get("decks", [])) for e in store.journal(2) if e.kind == ACTION)


def test_a_clocked_game_gets_its_remaining_time_back(store: SqliteStore, people: list[str]) -> None:
    """Deadlines are recomputed: the last journaled moment is mapped to the restart's clock."""
    rng = random.Random(8)
    table = open_table(store, 3, "speculator", people[:3], seed=5)
    while table.game.deadline() is None:
        step(store, table, rng)
    left = table.game.deadline() - table.clock  # type: ignore[operator]
    restored = restore_table(store, 3, clock=9_000_000.0)
    assert restored.game.deadline() == pytest.approx(9_000_000.0 + left)
    unshifted = restore_table(store, 3)
    assert unshifted.game.deadline() == table.game.deadline()


def test_seat_changes_and_notes_come_back(store: SqliteStore, people: list[str]) -> None:
    rng = random.Random(1)
    table = open_table(store, 4, "kopilka", people[:4], seed=1)
    step(store, table, rng)
    table.journal.record_seat(2, "bot:Mitya")
    table.journal.note("chat", {"name": "Anna", "text": "привет"})
    while table.game.deal_no < 3:
        step(store, table, rng)
    restored = restore_table(store, 4)
    assert restored.purses == ["Anna", "Boris", "bot:Mitya", "Gleb"]
    assert [(n.kind, n.payload) for n in restored.notes] == [("chat", {"name": "Anna", "text": "привет"})]
    assert restored.header.extra == {"seed": 1}
    store.check_ledger()  # from the change on, seat 2's money went to the bot's own pool purse
    assert store.balance("Vera") - 1_000 + store.balance("bot:Mitya") == table.game.balances[2]
    assert store.statement("bot:Mitya")


def test_a_step_must_follow_the_last_one_written(store: SqliteStore, people: list[str]) -> None:
    """The journal writes steps in order: no action of a deal it was not told, no deal skipped."""
    rng = random.Random(2)
    table = open_table(store, 6, "stukolka", people[:4], seed=1)
    step(store, table, rng)  # the deal
    written = len(store.journal(6))
    seat = table.game.to_act()[0]
    action = table.game.apply_step(seat, table.game.legal_actions(seat)[0])
    with pytest.raises(ValueError, match="does not follow deal 1"):
        table.journal.write(action._replace(deal_no=2))
    with pytest.raises(ValueError, match="does not follow deal 1"):
        table.journal.write(action._replace(kind=DEAL, deal_no=3))
    assert len(store.journal(6)) == written  # nothing was written
    table.journal.write(action)
    assert store.journal(6)[-1].payload == {"seat": seat, "action": action.action.text()}


def test_the_journal_as_a_record(store: SqliteStore, people: list[str]) -> None:
    rng = random.Random(9)
    table = open_table(store, 7, "ukr_pairs", people[:4], seed=4)
    for _ in range(100):
        step(store, table, rng)
    live = store.live_tables()[0]
    assert record_of_journal(live, store.journal(7)).to_json() == record_of(table.game).to_json()


def test_sessions_and_closing(store: SqliteStore, people: list[str]) -> None:
    rng = random.Random(3)
    table = open_table(store, 8, "stukolka", people[:4], seed=3, options={"variant": "b", "rounds": 1})
    while not table.sessions:
        step(store, table, rng)
    assert [e.kind for e in store.journal(8)] == []  # the finished session's entries are gone
    assert store.live_tables()[0].header.pot == table.game.start_pot
    step(store, table, rng)
    assert [e.kind for e in store.journal(8)] == [DEAL]
    assert_same(restore_table(store, 8).game, table.game)
    store.close_table_journal(8)
    assert store.live_tables() == [] and store.journal(8) == []


def test_live_tables_in_the_order_opened(store: SqliteStore, people: list[str]) -> None:
    for number in (3, 1, 2):
        open_table(store, number, "french3", people[:3], seed=number)
    assert [t.table_id for t in store.live_tables()] == [3, 1, 2]
    with pytest.raises(StoreError, match="already has a live journal"):
        open_table(store, 1, "french3", people[:3], seed=1)


def test_appending_to_a_table_without_journal_is_refused(store: SqliteStore) -> None:
    with pytest.raises(StoreError, match="no live journal"):
        store.append(42, "action", {"seat": 0, "action": "pass"})


def test_a_journal_that_does_not_replay_says_where(store: SqliteStore, people: list[str]) -> None:
    rng = random.Random(5)
    table = open_table(store, 9, "stukolka", people[:4], seed=5)
    for _ in range(5):
        step(store, table, rng)
    seq = store.append(9, ACTION, {"seat": 0, "action": "play Q♠"})  # not what the rules allow now
    with pytest.raises(StoreError) as err:
        restore_table(store, 9)
    assert f"journal entry {seq} (action seat=0 action=play Q♠) does not replay" in str(err.value)
    with pytest.raises(StoreError, match="no live table 99"):
        restore_table(store, 99)


def test_a_journal_of_an_unknown_game_is_refused(store: SqliteStore, people: list[str]) -> None:
    game = registry()["french3"](people[:3])
    TableJournal.open(store, 1, game, people[:3])
    with pytest.raises(StoreError, match="unknown game 'french3'"):
        restore_table(store, 1, lookup=_unknown)


def _unknown(name: str) -> type[Game]:
    raise KeyError(f"unknown game {name!r}")
