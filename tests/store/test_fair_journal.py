"""Sealed deals and the journal: a restarted server keeps the seal and the cuts and deals the same sealed deck;
the seed stays in the journal alone until the deal ends; an exported game verifies (``sukno verify``)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.table.club import Club
from engine.record import verify
from engine.shuffle import deck_for, seal_of
from engine.store.sqlite import SqliteStore
from tui.narrate import narrate

NAMES = ("Anna", "Boris", "Vera", "Gleb")
ROOT = Path(__file__).resolve().parents[2]


def club_of(path: Path, now: float = 100.0) -> tuple[SqliteStore, Club]:
    store = SqliteStore(path)
    for name in NAMES:
        if store.account(name) is None:
            store.create_account(name, grant=10_000)
    return store, Club([{"game": "stukolka"}], store=store, now=now)  # no seed: secrets, as a live club


def shown(club: Club) -> str:
    table = club.tables[1]
    parts = [repr(table.view_for(n)) for n in (*NAMES, None)]
    for entry in table.log_since(0):
        parts += [repr(entry.event), narrate(entry.event, entry.names, "en"), narrate(entry.event, entry.names, "ru")]
    return "\n".join(parts)


def act_once(table, rng: random.Random, now: float = 100.0) -> None:
    game = table.game
    seat = game.to_act()[0]
    table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=now)


def test_a_restart_keeps_the_seal_and_the_cuts_and_deals_the_sealed_deck(db_path):
    store, club = club_of(db_path)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    table.cut("Vera", "верба")
    table.cut("Anna", "42")
    seal, seed = table.sealed.seal, table.sealed.seed
    assert seed.hex() not in shown(club)
    store.close()

    store, again = club_of(db_path, now=5000.0)
    assert again.restore_errors == []
    table = again.tables[1]
    assert table.sealed.seal == seal and table.sealed.cuts == {"Vera": "верба", "Anna": "42"}
    assert table.view_for("Boris")["seal"] == seal and table.view_for(None)["cut_by"] == ["Vera", "Anna"]
    assert seed.hex() not in shown(again)
    table.cut("Gleb", "g")  # cuts go on after the restart, in order
    for name in NAMES:
        table.start(name, now=5000.0)
    assert table.game.deals[0].decks[0] == deck_for(seed, 52, "Vera:верба\nAnna:42\nGleb:g", 0)
    store.close()


def test_a_restart_mid_deal_goes_on_with_the_same_seed_and_opens_it_at_the_end(db_path):
    store, club = club_of(db_path)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    table.cut("Boris", "b")
    for name in NAMES:
        table.start(name, now=100.0)
    seed = table.sealed.seed
    rng = random.Random(5)
    act_once(table, rng)
    store.close()

    store, again = club_of(db_path, now=5000.0)
    table = again.tables[1]
    assert table.in_deal() and table.sealed.seed == seed and table.sealed.cuts == {"Boris": "b"}
    assert seed.hex() not in shown(again)
    drawn = len(table.game.deals[-1].decks)
    source = table.game._source  # a redeal after the restart takes the seed's next deck j
    assert source.drawn == drawn
    assert source.next_deck() == deck_for(seed, 52, "Boris:b", drawn)
    source.drawn = drawn
    while table.in_deal():
        act_once(table, rng, now=5000.0)
    opened = [e.event for e in table.log_since(0) if e.event.kind == "fair_open"]
    assert opened and opened[-1].data["seed"] == seed.hex() and opened[-1].data["seal"] == seal_of(seed)
    record = store.get_record(store.history("Anna", 1)[0].id)
    assert record.deals[-1].fair == {"protocol": "sukno-shuffle/1", "seal": seal_of(seed), "seed": seed.hex(),
                                     "cut": "Boris:b"}
    assert [c.status for c in verify(record)] == ["fair"] * len(record.deals)
    store.close()


def test_a_restored_session_still_writes_fair_for_its_earlier_deals(db_path):
    """Копилка: a partiya of several deals is one record, written at its end, across a restart."""
    store = SqliteStore(db_path)
    for name in NAMES:
        store.create_account(name, grant=10_000)
    club = Club([{"game": "kopilka"}], store=store, now=0.0)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(9)
    seeds = []
    while len(store.history("Anna", 5)) == 0:
        if not table.in_deal():
            seeds.append(table.sealed.seed)
            for name in NAMES:
                table.start(name, now=0.0)
            if len(seeds) == 2:  # restart after the first deal ended, in the second
                act_once(table, rng, now=0.0)
                store.close()
                store = SqliteStore(db_path)
                club = Club([{"game": "kopilka"}], store=store, now=0.0)
                table = club.tables[1]
            continue
        act_once(table, rng, now=0.0)
    record = store.get_record(store.history("Anna", 1)[0].id)
    assert len(record.deals) >= 2
    assert [d.fair["seed"] for d in record.deals[:2]] == [s.hex() for s in seeds[:2]]
    assert [c.status for c in verify(record)] == ["fair"] * len(record.deals)
    store.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_played_and_exported_game_verifies(tmp_path):
    store = SqliteStore(tmp_path / "sukno.db")
    for name in NAMES:
        store.create_account(name, grant=1000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    table.cut("Gleb", "на счастье")
    for name in NAMES:
        table.start(name, now=0.0)
    rng = random.Random(4)
    while table.in_deal():
        act_once(table, rng, now=0.0)
    record_id = store.history("Anna", 1)[0].id
    store.close()
    out = tmp_path / "game.json"
    run = [sys.executable, "-m", "net.cli.main"]
    export = subprocess.run(run + ["export", str(record_id), "--data", str(tmp_path), "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert export.returncode == 0, export.stderr
    assert '"fair"' in out.read_text("utf-8") and "на счастье" in out.read_text("utf-8")
    checked = subprocess.run(run + ["verify", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and checked.stdout.startswith("deal 1: fair (seal ")
    replayed = subprocess.run(run + ["replay", "--brief", str(out)], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
    assert replayed.returncode == 0
