"""Table and Club behaviour against a fake game (tests/tui/fakegame.py) and every real game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))

from fakegame import fake_game  # noqa: E402,F401  (pytest fixture)

from engine.table.club import Club  # noqa: E402
from engine.game import IllegalAction  # noqa: E402
from engine.games import registry  # noqa: E402
from engine.table.owner import Table, TableError, sanitize  # noqa: E402
from viewscan import cards_in  # noqa: E402


def seat_all(table: Table, names: list[str]) -> None:
    for name in names:
        table.sit(name)


def play_deal(table: Table) -> None:
    """Play the current deal to its end with the first legal action each time."""
    game = table.game
    assert game is not None
    while game.in_deal:
        seat = game.to_act()[0]
        table.act(game.names[seat], game.legal_actions(seat)[0].text())


def test_seats_default_to_minimum_and_fill_in_order(fake_game):
    table = Table(1, "highcard")
    assert len(table.seats) == 2
    assert table.sit("anna") == 0
    assert table.sit("boris") == 1
    with pytest.raises(TableError) as err:
        table.sit("vera")
    assert err.value.key == "table.full"
    assert table.seats == ["anna", "boris"]


def test_sit_refusals_change_nothing(fake_game):
    table = Table(1, "highcard", seats=3)
    table.sit("anna", 1)
    for name, seat, key in [("boris", 1, "table.seat_taken"), ("boris", 7, "table.no_seat"),
                            ("anna", 0, "table.already_seated")]:
        with pytest.raises(TableError) as err:
            table.sit(name, seat)
        assert err.value.key == key
    assert table.seats == [None, "anna", None]
    with pytest.raises(TableError):
        Table(2, "highcard", seats=9)


def test_deal_starts_when_everyone_is_ready(fake_game):
    table = Table(1, "highcard", seed=5)
    table.sit("anna")
    table.start("anna")  # ready before the table is full
    assert not table.in_deal()
    table.sit("boris")
    assert not table.in_deal()
    table.start("boris")
    assert table.in_deal()
    assert table.first_drawn and table.sealed is not None and table.game.deals[0].decks[0] == table.sealed.decks(table.game_cls.deck_size).next_deck()


def test_act_checks_turn_and_legality(fake_game):
    table = Table(1, "highcard", seed=1)
    seat_all(table, ["anna", "boris"])
    with pytest.raises(TableError):
        table.act("anna", "knock")
    table.start("anna"), table.start("boris")
    first = table.game.names[table.game.to_act()[0]]
    other = "anna" if first == "boris" else "boris"
    with pytest.raises(IllegalAction):
        table.act(other, "knock")
    with pytest.raises(IllegalAction):
        table.act(first, "play QS")
    with pytest.raises(TableError):
        table.act("gleb", "knock")
    events = table.act(first, "knock")
    assert events[0].kind == "knock"


def test_money_is_conserved_across_deals_and_sessions(fake_game):
    table = Table(1, "highcard", seats=3, seed=11)
    seat_all(table, ["anna", "boris", "vera"])
    for _ in range(4):
        for name in table.seated():
            table.start(name)
        play_deal(table)
        assert sum(table.balance(n) for n in ["anna", "boris", "vera"]) + table.pot == 0
    table.stand("vera")  # ends the session between deals
    assert table.game is None
    table.sit("gleb")
    for name in table.seated():
        table.start(name)
    play_deal(table)
    total = sum(table.balance(n) for n in ["anna", "boris", "vera", "gleb"])
    assert total + table.pot == 0
    assert any(table.balance(n) for n in ["anna", "boris", "vera"])


def test_no_standing_up_mid_deal_and_leaving_keeps_the_seat(fake_game):
    club = Club([{"game": "highcard"}])
    table = club.tables[1]
    club.enter("anna")
    seat_all(table, ["anna", "boris"])
    table.start("anna"), table.start("boris")
    with pytest.raises(TableError) as err:
        table.stand("anna")
    assert err.value.key == "table.in_deal"
    club.leave("anna")
    assert "anna" not in club.online()
    assert table.seats[0] == "anna"
    assert club.where("anna") is table


def test_spectator_and_player_views_hold_no_hidden_card(fake_game):
    table = Table(1, "highcard", seats=3, seed=3)
    seat_all(table, ["anna", "boris", "vera"])
    table.watch("gleb")
    for name in table.seated():
        table.start(name)
    game = table.game
    for step in range(20):
        spectator = table.view_for("gleb")
        assert all(h is None for h in spectator["hands"])
        public = {c for _, c in spectator["trick"]}
        assert set(cards_in(spectator)) <= public
        for seat, name in enumerate(game.names):
            mine = set(game.hands[seat]) | public
            assert set(cards_in(table.view_for(name))) <= mine
        if not game.in_deal:
            break
        seat = game.to_act()[0]
        table.act(game.names[seat], game.legal_actions(seat)[0].text())


def test_sanitize_strips_escapes_and_control_characters():
    assert sanitize("hi\x1b[2J\x1b]0;pwned\x07 there\x00\x08\r\nyou") == "hi there you"
    assert sanitize("\u202eevil\u200b") == "evil"
    assert sanitize("x" * 1000) == "x" * 300
    assert sanitize("  Привет,   мир  ") == "Привет, мир"


def test_chat_is_sanitised_and_logged(fake_game):
    club = Club([{"game": "highcard"}])
    seen: list = []
    club.subscribe(seen.extend)
    club.say("anna", "\x1b[31mred\x1b[0m alert")
    assert seen[-1].data == {"name": "anna", "text": "red alert"}
    with pytest.raises(TableError):
        club.say("anna", "\x1b[0m  ")
    table = club.tables[1]
    table.say("anna", "hello\tthere")
    assert table.log_since(0)[-1].event.data["text"] == "hello there"


def test_table_subscribers_and_unsubscribe(fake_game):
    table = Table(1, "highcard")
    got: list = []
    stop = table.subscribe(got.extend)
    table.sit("anna")
    stop()
    table.sit("boris")
    assert [e.kind for e in got] == ["sit", "fair_seal"]  # the first to sit seals the first deal (engine.shuffle)
    assert [e.event.kind for e in table.log_since(0)] == ["sit", "fair_seal", "sit"]


def test_club_counts_sessions_and_skips_unknown_games(fake_game):
    club = Club([{"game": "highcard", "seats": 3}, {"game": "no_such_game"}])
    assert club.skipped == ["no_such_game"]
    assert list(club.tables) == [1]
    club.enter("anna"), club.enter("anna"), club.enter("boris", guest=True)
    assert club.online() == ["anna", "boris"] and club.is_guest("boris")
    club.leave("anna")
    assert "anna" in club.online()
    club.leave("anna")
    assert club.online() == ["boris"]
    table = club.open_table("highcard")
    assert table.id == 2 and len(table.seats) == 2


def test_club_tick_wakes_only_due_tables(fake_game):
    club = Club([{"game": "highcard"}])
    assert club.next_deadline() is None
    assert club.tick(1e9) == {}


def assert_no_hidden_card(table: Table) -> None:
    """No card of any hand is in the public view; no other player's hand card is in a seat's view."""
    from engine.game import ADMIN

    hands = [set(h or ()) for h in table.game.view(ADMIN)["hands"]]
    spectator = table.view_for("watcher")
    assert all(h is None for h in spectator["hands"])
    assert not set(cards_in(spectator)) & set().union(*hands)
    for seat, name in enumerate(table.game.names):
        others = set().union(*(h for s, h in enumerate(hands) if s != seat))
        assert not set(cards_in(table.view_for(name))) & others


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_registered_game_plays_deals_at_a_table(game):
    """Random legal play through a table: money conserved, spectators see no hand."""
    import random

    rng = random.Random(7)
    club = Club([{"game": game}], seed=1)
    table = club.tables[1]
    names = [f"p{i}" for i in range(len(table.seats))]
    seat_all(table, names)
    now = 100.0
    for _ in range(3):
        if table.game is not None and table.game.is_over():
            break
        for name in table.seated():
            table.start(name, now=now)
        for _step in range(2000):
            if not table.in_deal():
                break
            assert_no_hidden_card(table)
            table.tick(now)
            if not table.in_deal():
                break
            seat = rng.choice(table.game.to_act())
            actions = table.game.legal_actions(seat)
            table.act(table.game.names[seat], rng.choice(actions).text(), now=now)
            now += 0.5
        assert sum(table.balance(n) for n in names) + table.pot == 0


def test_table_and_club_import_neither_textual_nor_asyncssh():
    """The layering rule of DESIGN.md, checked in a fresh interpreter."""
    import subprocess

    code = "import sys, engine.table.owner, engine.table.club; print(sorted(m for m in ('textual', 'asyncssh', 'asyncio') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_the_hall_hears_of_seats_readiness_and_deals(fake_game):
    club = Club([{"game": "highcard"}])
    heard: list = []
    club.subscribe(heard.extend)
    table = club.tables[1]
    table.sit("anna")
    table.start("anna")
    table.say("anna", "hi")  # table chat stays at the table
    assert [(e.kind, e.data) for e in heard] == [("table", {"table": 1})] * 2


@pytest.mark.skipif("speculator" not in registry(), reason="Спекулянт has not landed")
def test_club_tick_closes_a_speculator_window_at_its_deadline():
    club = Club([{"game": "speculator", "clock": 0}], seed=3)  # the window's own clock only
    table = club.tables[1]
    for name in ("anna", "boris", "vera"):
        table.sit(name)
        table.start(name, now=10.0)
    game = table.game
    for _ in range(3):  # reveal until a trade window opens
        if club.next_deadline() is not None:
            break
        seat = game.to_act()[0]
        table.act(game.names[seat], "reveal", now=10.0)
    deadline = club.next_deadline()
    assert deadline is not None and deadline > 10.0
    assert club.tick(deadline - 1.0) == {}
    events = club.tick(deadline)
    assert "window_closed" in [e.kind for e in events[1]]
    assert club.next_deadline() is None or club.next_deadline() > deadline


def test_the_first_dealer_is_drawn_by_lot_from_the_recorded_seed():
    """R3/R33: a table's first dealer comes from the draw, reproducibly from the session's seed."""
    from engine.table.owner import Table

    dealers = set()
    for seed in range(12):
        tables = []
        for _ in range(2):
            table = Table(1, "stukolka", {}, 4, seed=seed)
            for name in ("a", "b", "c", "d"):
                table.sit(name)
            for name in ("a", "b", "c", "d"):
                table.start(name, now=0.0)
            tables.append(table)
        assert tables[0].game.dealer == tables[1].game.dealer
        kinds = [e.event.kind for e in tables[0].log_since(0)]
        assert kinds.index("first_dealer") < kinds.index("deal_start")
        dealers.add(tables[0].game.dealer)
    assert len(dealers) > 1


def test_two_sessions_of_one_watcher_count_once_and_the_last_one_ends_it(fake_game):
    """Issue 13 item 3: one account watching from two sessions; the first to leave does not end his watch."""
    table = Table(1, "highcard")
    table.watch("wanda"), table.watch("wanda")
    assert table.spectators == {"wanda"}
    table.unwatch("wanda")
    assert table.spectators == {"wanda"}
    table.unwatch("wanda")
    assert table.spectators == set()
    table.watch("wanda"), table.watch("wanda")
    table.unwatch("wanda", every=True)  # his last session left the club
    assert table.spectators == set()
    kinds = [e.event.kind for e in table.log_since(0)]
    assert kinds == ["watch", "unwatch", "watch", "unwatch"]
