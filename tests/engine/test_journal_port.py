"""Issue 14 step 4: the table hands each change to its journal port as a ``Step`` (engine.table.journal, engine.step)."""

from __future__ import annotations

import inspect
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from engine.game import Action, Event
from engine.table.journal import NULL_JOURNAL, JournalPort, NullJournal
from engine.step import ACTION, DEAL, TICK, Step
from engine.store.base import StoreError
from engine.table.owner import Table, TableError

NAMES = ["anna", "boris", "vera", "gleb"]


class SpyPort(NullJournal):
    """A port that keeps what it was handed, and whether it came inside a transaction."""

    def __init__(self, fail_on: int | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.open = 0
        self.fail_on = fail_on  # the transaction (counted from 1) whose commit fails
        self.transactions = 0
        self.rebuilt = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.transactions += 1
        self.open += 1
        try:
            yield
        finally:
            self.open -= 1
        if self.transactions == self.fail_on:
            raise StoreError("disk full")

    def _note(self, kind: str, value: Any) -> None:
        assert self.open == 1, f"{kind} handed outside one transaction"
        self.calls.append((kind, value))

    def session_started(self, game: Any) -> None:
        self._note("session", game)

    def dealt(self, step: Step, now: float | None) -> None:
        self._note("dealt", step)

    def applied(self, step: Step, now: float | None) -> None:
        self._note("applied", step)

    def ticked(self, step: Step, now: float | None) -> None:
        self._note("ticked", step)

    def revealed(self, deal_no: int, fair: Any) -> None:
        self._note("revealed", deal_no)

    def told(self, events: Any) -> None:
        self._note("told", list(events))

    def session_over(self, game: Any) -> None:
        self._note("over", game)

    def rebuild(self) -> None:
        self.rebuilt += 1

    def steps(self) -> list[Step]:
        return [v for k, v in self.calls if k in ("dealt", "applied", "ticked")]


def table_with(port: SpyPort, game: str = "stukolka", seats: int = 4, **options: Any) -> Table:
    table = Table(1, game, options or None, seats, seed=3)
    table.journal = port
    for name in NAMES[:seats]:
        table.sit(name)
    return table


def play_scripted(table: Table, deals: int) -> list[tuple[int, Action, list[int], int]]:
    """Start and play ``deals`` deals by each seat's first legal action; what each act did to the game."""
    done: list[tuple[int, Action, list[int], int]] = []
    for _ in range(deals):
        for name in table.seated():
            table.start(name)
        game = table.game
        assert game is not None
        while game.in_deal:
            seat = game.to_act()[0]
            action = game.legal_actions(seat)[0]
            balances, pot = list(game.balances), game.pot
            table.act(game.names[seat], action.text())
            done.append((seat, action, [b - a for a, b in zip(balances, game.balances)], game.pot - pot))
    return done


def test_the_port_sees_each_step_with_its_seat_action_and_money() -> None:
    port = SpyPort()
    table = table_with(port)
    done = play_scripted(table, 3)
    game = table.game
    assert game is not None
    steps = port.steps()
    assert [s.kind for s in steps].count(DEAL) == 3 == game.deal_no
    actions = [s for s in steps if s.kind == ACTION]
    assert [(s.seat, s.action, list(s.money), s.pot) for s in actions] == done
    for number, deal in enumerate(game.deals, 1):
        mine = [s for s in steps if s.deal_no == number]
        assert mine[0].kind == DEAL and [list(d) for d in mine[0].decks] == deal.decks[:len(mine[0].decks)]
        assert [list(d) for s in mine for d in s.decks] == deal.decks  # every deck order drawn, once
        assert [sum(s.money[i] for s in mine) for i in range(game.n)] == deal.money
        assert [(s.seat, s.action) for s in mine if s.kind == ACTION] == deal.actions
        for s in mine:
            assert sum(s.money) + s.pot == 0  # money is moved, never made
    kinds = [k for k, _ in port.calls if k != "told"]
    assert kinds[0] == "session" and kinds.count("revealed") == 3


def test_all_the_table_shows_of_a_change_is_handed_to_tell_inside_its_transaction() -> None:
    port = SpyPort()
    heard: list[Event] = []
    table = Table(1, "kopilka", None, 4, seed=3)
    table.journal = port
    table.subscribe(heard.extend)
    for name in NAMES:
        table.sit(name)
    table.cut(NAMES[1], "верба 7")
    table.set_rule(NAMES[0], "private", True)
    table.invite(NAMES[0], "Dasha")
    play_scripted(table, 2)
    table.stand(NAMES[2])  # the session ends: Копилка pays its kitty out (R16), then he stands
    table.away(NAMES[3], 5.0)  # relayed over the bus between nodes: not a change's told events
    told = [e for kind, events in port.calls if kind == "told" for e in events]
    assert told == [e for e in heard if e.kind != "stepped_away" and e.kind != "away"]
    kinds = {e.kind for e in told}
    assert {"sit", "fair_seal", "fair_cut", "rule", "invite", "table_ready", "deal_over", "session_over",
            "stand"} <= kinds, kinds


def test_a_step_holds_values_not_the_live_game() -> None:
    port = SpyPort()
    table = table_with(port)
    play_scripted(table, 1)
    first = port.steps()[0]
    before = (first.events, first.money, first.decks)
    play_scripted(table, 1)  # the game moves on
    assert (first.events, first.money, first.decks) == before
    assert isinstance(first.events, tuple) and all(isinstance(e, Event) for e in first.events)
    with pytest.raises(AttributeError):
        first.seat = 2  # type: ignore[misc]


def test_the_action_is_handed_as_the_game_normalized_it() -> None:
    port = SpyPort()
    table = Table(1, "french3", None, 3, seed=1)
    table.journal = port
    for name in NAMES[:3]:
        table.sit(name)
    for name in NAMES[:3]:
        table.start(name)
    game = table.game
    assert game is not None
    while True:  # the first buy of the deal, its cards named in descending order
        seat = game.to_act()[0]
        buys = [a for a in game.legal_actions(seat) if a.verb == "buy" and len(a.args) >= 2]
        if buys:
            break
        table.act(game.names[seat], game.legal_actions(seat)[0].text())
    wanted = buys[0]
    table.act(game.names[seat], "buy " + " ".join(str(c) for c in reversed(wanted.args)))
    assert port.steps()[-1].action == wanted and port.steps()[-1].seat == seat


def test_a_tick_that_closes_a_window_is_a_step() -> None:
    port = SpyPort()
    table = table_with(port, "speculator", 4)
    for name in table.seated():
        table.start(name, now=100.0)
    game = table.game
    assert game is not None
    while game.deadline() is None:  # reveal until a trade window is open
        seat = game.to_act()[0]
        table.act(game.names[seat], "reveal", now=100.0)
    table.tick(game.deadline() + 1)  # type: ignore[operator]
    ticks = [s for s in port.steps() if s.kind == TICK]
    assert ticks and ticks[-1].seat is None and ticks[-1].action is None
    assert [e.kind for e in ticks[-1].events] == ["window_closed"]


def test_a_failed_transaction_shows_nothing_and_rebuilds() -> None:
    port = SpyPort()
    table = table_with(port)
    for name in table.seated():
        table.start(name)
    game = table.game
    assert game is not None
    seq = table.last_seq
    port.fail_on = port.transactions + 1
    seat = game.to_act()[0]
    with pytest.raises(TableError) as err:
        table.act(game.names[seat], game.legal_actions(seat)[0].text())
    assert err.value.key == "store.failed" and port.rebuilt == 1
    assert table.last_seq == seq  # nobody heard of it


def test_without_a_store_the_table_has_the_do_nothing_port() -> None:
    table = Table(1, "stukolka", None, 4, seed=3)
    assert table.journal is NULL_JOURNAL and table.keeper is None
    for name in NAMES:
        table.sit(name)
    assert play_scripted(table, 2)  # whole deals, nothing written, nobody refused
    null = NullJournal()
    assert null.gone is False and null.check_funds("anna") is None
    with pytest.raises(RuntimeError):
        with null.transaction():  # it commits nothing, and swallows nothing
            raise RuntimeError("x")


def test_the_null_port_and_the_keeper_implement_the_whole_port() -> None:
    from engine.table.keeper import TableKeeper

    wanted = {n for n, _ in inspect.getmembers(JournalPort) if not n.startswith("_")}
    assert wanted >= {"transaction", "dealt", "applied", "ticked", "revealed", "session_started", "session_over",
                      "check_funds", "rebuild", "gone"}
    for cls in (NullJournal, TableKeeper):
        assert wanted <= {n for n, _ in inspect.getmembers(cls)}, cls
        for name in wanted - {"gone"}:
            ours = inspect.signature(getattr(cls, name)).parameters
            assert list(ours) == list(inspect.signature(getattr(JournalPort, name)).parameters), (cls, name)
