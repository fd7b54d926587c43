"""Issue 14 step 5: typed views (``engine.view``) and the table's one snapshot.

Seeded random play at a real ``Table`` of every registered game: after each action, every seat's and
a watcher's ``Table.pull`` is checked against the game itself — a seat's typed view holds his own
hand and no other (``hand`` None for every other seat, in every view of a watcher), its trick, trump,
pot, balances and turn are the game's, it shows no card that the game's own view for him does not
(tests/viewscan.py, which walks the dataclasses), and the legal actions, log and deadline are the
table's.  The lobby (no game yet) is built by the same constructor.
"""

from __future__ import annotations

import random
import zlib

import pytest

from engine.table.club import Club
from engine.game import SPECTATOR
from engine.games import registry, view_of
from engine.view import LineSheet, RecordSheet, SeatView, Snapshot, TrickView, View, build_view
from viewscan import cards_in

GAMES = sorted(registry())
ACTIONS = 250  # per game: several deals of the short games, a good part of a long one


def _seated_table(game: str, seed: int):
    club = Club([{"game": game, "clock": 0}], seed=seed)
    table = club.tables[1]
    names = [f"p{i}" for i in range(len(table.seats))]
    for name in names:
        club.sit(name, 1)
    return club, table, names


def _typed_part(view: View) -> tuple:
    """Every typed field but ``extra`` (the game's own dict, scanned on its own)."""
    return (view.seats, view.trick, view.trump, view.trump_card, view.sheet)


def _check(table, names: list[str]) -> None:
    game = table.game
    for name in names + [None]:
        seat = table.seat_of(name) if name else None
        snap = table.pull(name)
        view = snap.view
        raw = game.view(SPECTATOR if seat is None else seat)
        assert isinstance(snap, Snapshot) and view.seat == seat
        assert view.game == table.game_name and view.deal_no == game.deal_no and view.in_deal == game.in_deal
        assert view.to_act == tuple(game.to_act()) and view.pot == game.pot
        assert view.balances == tuple(game.balances) and view.names == tuple(game.names)
        for place in view.seats:
            assert isinstance(place, SeatView)
            if place.seat != seat:
                assert place.hand is None, f"{name} sees seat {place.seat}'s hand"
            assert place.count == len(raw["hands"][place.seat]) if raw["hands"][place.seat] is not None \
                else place.count == raw["hand_counts"][place.seat]
        if seat is not None and raw["hands"][seat] is not None:
            assert list(view.hand) == list(raw["hands"][seat])
        assert [list(x) for x in view.trick.cards] == [list(x) for x in raw.get("trick") or []]
        assert view.trick.best == raw.get("best")
        assert cards_in(_typed_part(view)) <= cards_in(raw), "the typed view shows a card the game's does not"
        assert cards_in(view) == cards_in(table.view_for(name))
        assert list(snap.legal) == table.legal_actions(name) if name else snap.legal == ()
        assert snap.deadline == table.timer_deadline()
        assert [e.seq for e in snap.log] == [e.seq for e in table.log_since(0)]
        assert table.pull(name, since=table.last_seq).log == ()


@pytest.mark.parametrize("game", GAMES)
def test_every_snapshot_shows_each_viewer_only_his_own(game: str) -> None:
    rng = random.Random(zlib.crc32(game.encode()))
    club, table, names = _seated_table(game, seed=3)
    for name in names:
        table.start(name, now=0.0)
    acted = 0
    now = 0.0
    while acted < ACTIONS:
        if not table.in_deal():
            if table.game is None or table.game.is_over():
                break
            for name in names:
                table.start(name, now=now)
            continue
        _check(table, names)
        movers = [names[s] for s in table.game.to_act()]
        name = rng.choice(movers)
        legal = table.legal_actions(name)
        if not legal:
            now += 60.0
            table.tick(now)  # a clocked window closes on time
            continue
        table.act(name, rng.choice(legal).text(), now=now)
        acted += 1
    assert acted > 20


def test_the_lobby_is_built_by_the_same_constructor() -> None:
    club = Club([{"game": "stukolka", "clock": 0}], seed=1)
    table = club.tables[1]
    club.sit("anna", 1)
    snap = table.pull("anna")
    view = snap.view
    assert view == build_view(table.view_for("anna"), table.game_cls.score_view)
    assert view.phase == "waiting" and not view.in_deal and view.seat == 0
    assert view.names[0] == "anna" and all(s.hand is None for s in view.seats)
    assert view.seats[1].name is None and view.names[1] == ""
    assert snap.facts.free == len(table.seats) - 1 and snap.facts.variant == "а" and snap.facts.pot_name == "pot"
    assert snap.legal == () and view.trick == TrickView() and not view.trick
    watcher = table.pull(None)
    assert watcher.view.seat is None and watcher.legal == ()


def test_points_games_declare_their_typed_sheet() -> None:
    for game, kind in (("french3", LineSheet), ("ukr_pairs", RecordSheet)):
        club, table, names = _seated_table(game, seed=5)
        for name in names:
            table.start(name, now=0.0)
        sheet = table.pull(names[0]).view.sheet
        assert isinstance(sheet, kind), (game, sheet)
    _, table, names = _seated_table("ukr_pairs", seed=5)
    for name in names:
        table.start(name, now=0.0)
    sheet = table.pull(names[1]).view.sheet
    assert isinstance(sheet, RecordSheet) and sheet.team_of(1) == "B" and sheet.team_of(None) is None
    _, table, names = _seated_table("speculator", seed=5)
    assert table.pull(names[0]).view.sheet is None  # a money game has none


def test_views_are_frozen_and_built_leniently() -> None:
    view = view_of({"trick": [[0, None]], "names": ["a", "b"], "to_act": [1], "hands": [None]})
    assert view.trick.cards == ((0, None),) and view.trick.best is None
    assert view.seats[1].hand is None and view.seats[1].count == 0 and view.to_act == (1,)
    with pytest.raises(AttributeError):
        view.pot = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.extra["pot"] = 5  # type: ignore[index]


def test_kopilkas_typed_sheet_is_the_games_own_partiya() -> None:
    """Копилка's ``PartiyaSheet`` (its ``score_view``): tallies, W, M and V, the rows laid out, the stock."""
    from engine.cards import Suit
    from engine.games.kopilka import SUIT_VALUE_OPTIONS
    from engine.view import PartiyaSheet

    club, table, names = _seated_table("kopilka", seed=8)
    rng = random.Random(8)
    saw = {"laid": 0, "tally": 0, "ace": 0}
    for name in names:
        table.start(name, now=0.0)
    game = table.game
    for _ in range(400):
        if not game.in_deal:
            for name in names:
                table.start(name, now=0.0)
        for name in names + [None]:
            seat = table.seat_of(name) if name else None
            sheet = table.pull(name).view.sheet
            assert isinstance(sheet, PartiyaSheet)
            assert sheet.deal == game.partiya_deal and sheet.won == tuple(game.won())
            assert sheet.multiplier == game.options["M"]
            assert dict(sheet.suit_values) == {s: game.options[k] for s, k in SUIT_VALUE_OPTIONS.items()}
            for who, tricks in enumerate(game.sheet):
                for suit in Suit:
                    mine = [t for t in tricks if t.suit == suit]
                    tally = sheet.tally(who, suit)
                    assert (tally is None) == (not mine)
                    if tally is not None:
                        assert (tally.tricks, tally.doubled, tally.value) == (
                            len(mine), sum(t.doubled for t in mine), sum(t.value for t in mine))
                        saw["tally"] += 1
                        saw["ace"] += tally.doubled
            assert sheet.stock_count == len(game.stock)
            laid = {row.giver: row for row in sheet.laid}
            assert set(laid) == (set(game.layouts) if game.phase == "take" else set())
            for giver, row in laid.items():
                assert row.taken_by == tuple(game.layouts[giver].taken_by)
                shown = [c for c in row.places if c is not None]
                assert shown == ([c for c in game.layouts[giver].places if c is not None] if seat == giver else [])
                saw["laid"] += 1
            if laid:
                assert sheet.taking_from == game.take_queue[0][1]
        seat = rng.choice(sorted(game.to_act()))
        table.act(names[seat], rng.choice(game.legal_actions(seat)).text(), now=0.0)
    assert saw["laid"] and saw["tally"] and saw["ace"], saw  # each part was seen filled
