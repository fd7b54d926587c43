"""What is in memory is always what the journal says: a step that could not be committed is undone,
and a table whose journal cannot even be read is suspended (every change refused, its players and
watchers told) until it reads again; then play resumes by itself, from the journal."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest

from engine.store.base import StoreError
from engine.table.club import Club
from engine.table.keeper import TableKeeper
from engine.table.owner import SUSPEND_RETRY, Table, TableError


def run(club: Club, now: float) -> list[str]:
    """Wake the club as net's runtime would, up to ``now``; the kinds of events made."""
    kinds: list[str] = []
    for _ in range(2000):
        deadline = club.next_deadline()
        if deadline is None or deadline > now:
            break
        for events in club.tick(now).values():
            kinds += [e.kind for e in events]
    return kinds


def replayed(store: Any, table: Table) -> Table:
    """A fresh table put back from the store's journal alone (what a restart or a takeover finds)."""
    live = next(t for t in store.live_tables() if t.table_id == table.id)
    again = Table(table.id, table.game_name, table.options, len(table.seats))
    TableKeeper(store, again).restore(live, None, tell=False)
    return again


def same_as_journal(store: Any, table: Table) -> None:
    again = replayed(store, table)
    assert again.state() == table.state()
    for name in table.seated():
        assert again.view_for(name) == table.view_for(name)
    assert again.view_for(None) == table.view_for(None)


def bot_club(open_again: Callable[..., Any]) -> tuple[Any, Club, Table]:
    """Anna and three house bots at Копилка, a deal under way, Anna to act."""
    store = open_again()
    store.create_account("anna", grant=10_000)
    club = Club([{"game": "kopilka", "think": 0, "clock": 0}], seed=5, store=store, now=0.0)
    table = club.tables[1]
    table.sit("anna")
    for _ in range(3):
        table.sit_bot()
    table.start("anna", now=0.0)
    run(club, 0.0)
    return store, club, table


def anna_acts(table: Table, now: float) -> None:
    game = table.game
    assert game is not None and game.in_deal and game.names[game.to_act()[0]] == "anna"
    table.act("anna", game.legal_actions(game.to_act()[0])[0].text(), now=now)


@contextmanager
def store_away(store: Any, monkeypatch: pytest.MonkeyPatch, *, commit_lands: bool = False) -> Iterator[None]:
    """The store cannot be written nor read; ``commit_lands``: the first commit lands but its answer is lost
    (as when PostgreSQL dies between its commit and its reply)."""
    real_batch, real_journal = store.batch, store.journal
    landed: list[bool] = []
    depth = [0]
    length = len(real_journal(1))

    def away(*args: Any, **kwargs: Any) -> Any:
        raise StoreError("the store is away", 75)

    @contextmanager
    def batch() -> Iterator[None]:
        if not commit_lands or landed:
            raise StoreError("the store is away", 75)
        depth[0] += 1
        try:
            with real_batch():
                yield
        finally:
            depth[0] -= 1
        if depth[0] == 0:  # the outermost batch committed: its answer is what is lost
            if len(real_journal(1)) > length:  # (a commit of nothing is answered, as it would be)
                landed.append(True)
                raise StoreError("the store is away", 75)

    with monkeypatch.context() as patch:
        patch.setattr(store, "batch", batch)
        for name in ("live_tables", "journal"):
            patch.setattr(store, name, away)
        yield


@pytest.mark.parametrize("commit_lands", [False, True], ids=["commit-lost", "answer-lost"])
def test_a_bot_move_not_committed_is_undone_and_the_table_waits_for_its_journal(open_again, monkeypatch,
                                                                                commit_lands):
    store, club, table = bot_club(open_again)
    anna_acts(table, 1.0)
    heard: list[str] = []
    table.subscribe(lambda events: heard.extend(e.kind for e in events))
    before = {name: table.view_for(name) for name in table.seated()}
    state = table.state()
    journal_before = len(store.journal(1))

    keeper = table.keeper
    assert isinstance(keeper, TableKeeper)
    replays: list[int] = []
    real_restore = keeper.restore
    monkeypatch.setattr(keeper, "restore", lambda *a, **k: replays.append(1) or real_restore(*a, **k))
    with store_away(store, monkeypatch, commit_lands=commit_lands):
        run(club, 2.0)  # a bot's move: it cannot be written, nor the journal read
        assert table.suspended
        assert len(replays) == 1  # put back once, from memory
        # memory is the last commit known here: the bot's move is not in it
        assert table.state() == state
        assert {name: table.view_for(name) for name in table.seated()} == before
        assert heard == ["suspended"]  # told, and nothing of the move
        with pytest.raises(TableError) as refused:
            table.act("anna", "pass", now=2.0)
        assert refused.value.key == "store.suspended"  # refused before the rules are even asked
        assert table.deadline() is not None and table.deadline() <= 2.0 + SUSPEND_RETRY
        run(club, 5.0)  # still away: still suspended, nothing written, nothing changed
        assert table.suspended and table.state() == state
        run(club, 5.0 + 3 * SUSPEND_RETRY)
        assert len(replays) == 1  # the tries that found the store away had nothing to put back again

    # the move and what was told of it landed, or nothing did
    assert len(store.journal(1)) == journal_before + (2 if commit_lands else 0)
    run(club, 6.0 + 4 * SUSPEND_RETRY)  # the store is back: the next try reads the journal, play resumes
    assert not table.suspended
    assert "resumed" in heard
    # the journal holds what the table was put back to: nothing replayed; or the commit whose answer
    # was lost, which the table must then be put back with
    assert len(replays) == (2 if commit_lands else 1)
    for step in range(400):  # the bots play on with Anna until the deal is over
        if not table.in_deal():
            break
        game = table.game
        if game is not None and game.names[game.to_act()[0]] == "anna":
            anna_acts(table, 10.0 + 4 * SUSPEND_RETRY + step)
        run(club, 10.0 + 4 * SUSPEND_RETRY + step)
    assert not table.in_deal(), "play did not resume"
    same_as_journal(store, table)
    assert store.ledger_sum() == 0
    store.close()


def test_a_person_refused_while_suspended_is_told_why(open_again, monkeypatch):
    store, club, table = bot_club(open_again)
    with store_away(store, monkeypatch):
        with pytest.raises(TableError) as refused:
            anna_acts(table, 1.0)
        assert refused.value.key == "store.failed"  # his own move: it did not happen
        assert table.suspended
        with pytest.raises(TableError) as refused:
            anna_acts(table, 1.5)
        assert refused.value.key == "store.suspended"
        undone = table.state()
    same_as_journal(store, table)
    assert table.state() == undone
    run(club, 2.0 + SUSPEND_RETRY)
    assert not table.suspended
    anna_acts(table, 3.0)  # the same move, now written
    same_as_journal(store, table)
    store.close()


def test_a_failed_write_with_a_readable_journal_does_not_suspend(open_again, monkeypatch):
    store, club, table = bot_club(open_again)

    def disk_full(*args: Any, **kwargs: Any) -> Any:
        raise StoreError("disk full", 74)

    with monkeypatch.context() as patch:
        patch.setattr(store, "append", disk_full)
        with pytest.raises(TableError) as refused:
            anna_acts(table, 1.0)
    assert refused.value.key == "store.failed" and not table.suspended
    same_as_journal(store, table)
    anna_acts(table, 2.0)
    same_as_journal(store, table)
    store.close()


def test_the_words_exist_in_both_languages():
    from tui.i18n import CATALOGUES

    for lang in ("en", "ru"):
        for key in ("ev.suspended", "ev.resumed", "store.suspended"):
            assert CATALOGUES[lang].get(key), (lang, key)
