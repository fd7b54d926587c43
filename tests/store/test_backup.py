"""``sukno db backup`` / ``db restore``: a copy taken while a deal is under way comes back whole."""

from __future__ import annotations

import random
import stat
from pathlib import Path

from engine.store.base import make_data_folder
from engine.store.opening import open_store
from engine.table.club import Club
from net.cli.backup import restore
from net.cli.main import main
from net.ssh.hostkey import HOST_KEY_NAME, data_folder_key

NAMES = ("Anna", "Boris", "Vera", "Gleb")
TABLES = [{"game": "stukolka"}, {"game": "kopilka"}]


def _club(data: Path) -> Club:
    store = open_store(data)
    for name in NAMES:
        if store.account(name) is None:
            store.create_account(name, grant=10_000)
    return Club(TABLES, store=store, now=100.0)


def _play(club: Club, table_id: int, steps: int, rng: random.Random) -> None:
    table = club.tables[table_id]
    for _ in range(steps):
        game = table.game
        if game is None or not game.in_deal:
            for name in table.seated():
                if name not in table.ready:
                    table.start(name, now=100.0)
            continue
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=100.0)


def test_a_backup_taken_mid_deal_restores_every_account_balance_and_live_table(tmp_path: Path, capsys) -> None:
    data, other, file = tmp_path / "data", tmp_path / "other", tmp_path / "club.backup"
    make_data_folder(data)
    key = data_folder_key(data)
    club = _club(data)
    for name in NAMES:
        club.tables[1].sit(name)
    for name in NAMES[:3]:
        club.tables[2].sit(name)
    rng = random.Random(3)
    _play(club, 1, 25, rng)
    _play(club, 2, 17, rng)
    while not (club.tables[1].game and club.tables[1].game.in_deal):
        _play(club, 1, 1, rng)
    assert club.tables[1].game is not None and club.tables[1].game.in_deal  # mid-deal, the server still open
    states = {tid: t.state() for tid, t in club.tables.items()}
    balances = {n: club.balance(n) for n in NAMES}

    assert main(["db", "backup", str(file), "--data", str(data)]) == 0  # online: the club's store is open
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    _play(club, 1, 10, rng)  # what happens after the backup is not in it
    club.store.close()

    assert main(["db", "restore", str(file), "--data", str(other)]) == 0
    assert "host key: yes" in capsys.readouterr().out
    assert stat.S_IMODE((other / "sukno.db").stat().st_mode) == 0o600
    assert stat.S_IMODE((other / HOST_KEY_NAME).stat().st_mode) == 0o600
    assert data_folder_key(other).get_fingerprint() == key.get_fingerprint()
    again = _club(other)
    assert again.restore_errors == []
    assert {tid: t.state() for tid, t in again.tables.items()} == states
    assert {n: again.balance(n) for n in NAMES} == balances
    assert again.store.ledger_sum() == 0
    _play(again, 1, 10, rng)  # and the deal goes on from where it was
    again.store.close()


def test_restore_refuses_a_folder_with_a_club_and_a_file_that_is_no_backup(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    make_data_folder(data)
    _club(data).store.close()
    backup_file = tmp_path / "b"
    assert main(["db", "backup", str(backup_file), "--data", str(data)]) == 0
    assert main(["db", "backup", str(backup_file), "--data", str(data)]) == 73  # never over a file unasked
    assert main(["db", "restore", str(backup_file), "--data", str(data)]) == 73
    assert "give --force" in capsys.readouterr().err
    plain = tmp_path / "plain.db"
    plain.write_bytes((data / "sukno.db").read_bytes())
    assert main(["db", "restore", str(plain), "--data", str(tmp_path / "x")]) == 65
    assert not (tmp_path / "x" / "sukno.db").exists()
    assert restore(backup_file, data, replace=True)["host_key"] == "no"  # --force: the same club back


def test_version_and_python_dash_m(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "sukno", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("sukno ")
