"""Sealed deals at a table (engine.shuffle, sukno-shuffle/1): seal before the deal, cuts, reveal, no leak.

The seed of a deal must appear nowhere a person can read — a view, a log
event, a narrated line, the admin's view — until the deal ends; then the log
tells it with the cut string and the deal's record carries ``fair``.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.table.admin_ops import admin_view, tables_rows, tables_text
from engine.table.club import Club
from engine.games.stukolka import Stukolka
from engine.record import verify
from engine.shuffle import deck_for, lot_for, seal_of
from engine.table.owner import Table, TableError
from tui.narrate import narrate

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def seated(game: str = "stukolka", seed: int = 3, seats: int | None = None) -> Table:
    table = Club([{"game": game, **({"seats": seats} if seats else {})}], seed=seed).tables[1]
    for name in NAMES[: len(table.seats)]:
        table.sit(name)
    return table


def everything_shown(table: Table, club: Club) -> str:
    """Every text a person or the house's console could read now: views, log events, narration, admin."""
    parts = [repr(table.view_for(n)) for n in (*table.seated(), "someone", None)]
    for entry in table.log_since(0):
        parts.append(repr(entry.event))
        for lang in ("en", "ru"):
            parts.append(narrate(entry.event, entry.names, lang))
    text, data = admin_view(table)
    parts += [text, json.dumps(data, ensure_ascii=False), tables_text(tables_rows(club))]
    return "\n".join(parts)


def play_out(table: Table, rng: random.Random) -> None:
    while table.in_deal():
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())


def start_all(table: Table) -> None:
    for name in table.seated():
        table.start(name)


def test_a_deal_is_sealed_before_it_is_dealt_and_opened_when_it_ends() -> None:
    club = Club([{"game": "stukolka"}], seed=3)
    table = club.tables[1]
    table.sit("Anna")
    seals = [e.event for e in table.log_since(0) if e.event.kind == "fair_seal"]
    assert len(seals) == 1 and seals[0].data["seal"] == table.sealed.seal  # the first to sit seals deal 1
    for name in NAMES[1:]:
        table.sit(name)
    seed = table.sealed.seed
    assert table.view_for("Anna")["seal"] == seal_of(seed) and table.view_for(None)["cut_by"] == []
    table.cut("Boris", "верба")
    table.cut("Anna", "42")
    table.cut("Boris", "ива")  # again: replaces, keeps Boris first
    assert table.view_for("Vera")["cut_by"] == ["Boris", "Anna"]
    start_all(table)
    assert table.in_deal()
    shown = everything_shown(table, club)
    assert seed.hex() not in shown and "ива" not in shown and "верба" not in shown
    assert table.game.deals[0].decks[0] == deck_for(seed, 52, "Boris:ива\nAnna:42", 0)
    assert table.game.deals[0].fair is None  # not before the deal ends
    play_out(table, random.Random(1))
    opened = [e.event for e in table.log_since(0) if e.event.kind == "fair_open"]
    assert len(opened) == 1 and opened[0].data == {"seal": seal_of(seed), "seed": seed.hex(),
                                                   "cut": "Boris:ива\nAnna:42"}
    kinds = [e.event.kind for e in table.log_since(0)]
    assert kinds.index("deal_over") < kinds.index("fair_open") < len(kinds) - 1 - kinds[::-1].index("fair_seal")
    assert table.game.deals[0].fair == {"protocol": "sukno-shuffle/1", "seal": seal_of(seed), "seed": seed.hex(),
                                        "cut": "Boris:ива\nAnna:42"}
    # the next deal has its own seal, shown the moment the deal ended, and no cut yet
    assert table.sealed.seed != seed and table.view_for("Anna")["cut_by"] == []
    assert table.sealed.seed.hex() not in everything_shown(table, club)
    line = narrate(opened[0], NAMES, "en")
    assert seed.hex() in line and '"Boris:ива\\nAnna:42"' in line


def test_who_may_cut_and_bad_cuts_change_nothing() -> None:
    table = seated()
    before = dict(table.sealed.cuts)
    with pytest.raises(TableError) as err:
        table.cut("Zoe", "x")  # not seated
    assert err.value.key == "table.not_seated"
    for bad in ("", "   ", "x" * 65, "a\x1b[31mb", "bell\x07"):
        with pytest.raises(TableError) as err:
            table.cut("Anna", bad)
        assert err.value.key == "fair.cut_bad"
    assert table.sealed.cuts == before
    start_all(table)
    with pytest.raises(TableError) as err:
        table.cut("Anna", "too late")
    assert err.value.key == "fair.cut_in_deal" and table.sealed.cuts == before
    assert [e.event.kind for e in table.log_since(0)].count("fair_cut") == 0


def test_the_log_says_who_cut_not_the_text() -> None:
    table = seated()
    table.cut("Vera", "секрет")
    table.cut("Vera", "другой")
    told = [(e.event.kind, e.event.data) for e in table.log_since(0) if e.event.kind.startswith("fair_")]
    assert told[-2:] == [("fair_cut", {"name": "Vera"}), ("fair_recut", {"name": "Vera"})]
    lines = [narrate(e.event, e.names, lang) for e in table.log_since(0) for lang in ("en", "ru")]
    assert any("Vera cuts the deck." == line for line in lines) and any("Vera снимает колоду." == line for line in lines)
    assert not any("секрет" in line or "другой" in line for line in lines)


def test_redeals_come_from_the_same_seed_in_order() -> None:
    """R35: an ace turned up in Стуколка redeals; deck j = 1, 2… of the same seal and cut."""
    for seed in range(400):
        table = seated(seed=seed)
        table.cut("Gleb", "g")
        sealed = table.sealed
        start_all(table)
        decks = table.game.deals[0].decks
        if len(decks) > 1:
            break
    else:
        pytest.fail("no redeal in 400 sealed Стуколка deals")
    for j, order in enumerate(decks):
        assert order == deck_for(sealed.seed, 52, "Gleb:g", j)
    play_out(table, random.Random(2))
    record_deal = table.game.deals[0]
    assert verify_one(record_deal) == "fair"


def verify_one(deal_log) -> str:
    from engine.record import Record, RecordDeal

    record = Record("stukolka", list(NAMES), deals=[RecordDeal(deal_log.decks, [], deal_log.fair)])
    return verify(record)[0].status


def test_the_first_dealer_is_drawn_from_the_first_sealed_seed() -> None:
    """R3/R33: the draw for the first deal uses the first deal's seed and cut, label first-dealer."""
    table = seated(seed=8)
    table.cut("Anna", "lot")
    sealed = table.sealed
    start_all(table)
    dealer, events = Stukolka.draw_first_dealer(4, lot_for(sealed.seed, "Anna:lot"))
    told = [e.event for e in table.log_since(0) if e.event.kind in ("draw_for_deal", "first_dealer")]
    assert told == events and table.game.deals[0].dealer == dealer
    # a later session of the table draws no more
    play_out(table, random.Random(3))
    table.stand("Gleb")
    table.sit("Gleb")
    start_all(table)
    assert [e.event.kind for e in table.log_since(0)].count("first_dealer") == 1


@pytest.mark.parametrize("game", ["stukolka", "kopilka", "french3", "ukr_pairs", "speculator"])
def test_every_game_deals_sealed_and_its_deals_verify(game: str) -> None:
    club = Club([{"game": game, "think": 0.5, "clock": 2}], seed=11)  # the turn clock plays for Anna
    table = club.tables[1]
    table.sit("Anna")
    while not table.full():
        table.sit_bot()
    table.cut("Anna", "мой съём")
    now = 0.0
    seeds_seen: list[str] = []
    for _ in range(3000):
        if not table.in_deal():
            if table.game is not None and len(table.game.deals) >= 2:
                break
            table.start("Anna", now=now)
            seeds_seen.append(table.sealed.seed.hex())
        assert seeds_seen[-1] not in everything_shown(table, club)
        deadline = club.next_deadline()
        now = max(now, deadline if deadline is not None else now + 1)
        club.tick(now)
    from engine.record import record_of

    record = record_of(table.game)
    assert [c.status for c in verify(record)] == ["fair"] * len(record.deals)
    assert record.deals[0].fair["cut"] == "Anna:мой съём" and record.deals[1].fair["cut"] == ""
