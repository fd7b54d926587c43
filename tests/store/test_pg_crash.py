"""A real PostgreSQL crash-stopped mid-deal (``pg_ctl -m immediate stop``) and started again: the
owner's table never plays on from a state its journal lacks; once PostgreSQL is back it reads its
journal again and play resumes by itself, memory equal to the journal replayed."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from engine.store.base import StoreError
from engine.table.club import Club
from engine.table.owner import SUSPEND_RETRY, TableError
from tests.store.test_suspend import anna_acts, run, same_as_journal

pytestmark = pytest.mark.slow


def crash(cluster: Any) -> None:
    cluster._run(["pg_ctl", "-D", str(cluster.folder / "data"), "-m", "immediate", "-w", "stop"], timeout=60)


def start_again(cluster: Any) -> None:
    options = {"listen_addresses": "''", "unix_socket_directories": f"'{cluster.folder}'",
               "port": str(cluster.port), **cluster.settings}
    flags = " ".join(f"-c {k}={v}" for k, v in options.items())
    cluster._run(["pg_ctl", "-D", str(cluster.folder / "data"), "-l", str(cluster.folder / "log"), "-w",
                  "-t", "60", "-o", flags, "start"], timeout=90)


@pytest.fixture
def cluster() -> Any:
    from tests.pgkit import PgCluster, Unavailable

    own = PgCluster()
    try:
        own.start()
    except Unavailable as err:
        own.stop()
        pytest.skip(str(err))
    yield own
    own.stop()


def step(club: Club, now: float) -> None:
    """One turn of play: Anna's move when it is hers, the bots' otherwise (refusals are the outage's)."""
    table = club.tables[1]
    game = table.game
    try:
        if game is not None and game.in_deal and game.names[game.to_act()[0]] == "anna":
            anna_acts(table, now)
        elif game is None or not game.in_deal:
            table.start("anna", now=now)
        run(club, now)
    except TableError as err:
        assert err.key.startswith("store."), err.key
    except StoreError:
        pass  # a person's start asks his balance of the store: refused while it is away


@pytest.mark.parametrize("seed", [5, 6])
def test_a_crash_mid_deal_suspends_the_table_and_play_resumes_from_the_journal(cluster, seed):
    from engine.store.postgres import PgStore

    url = cluster.url()
    store = PgStore(url)
    store.create_account("anna", grant=1_000_000)
    club = Club([{"game": "kopilka", "think": 0, "clock": 0}], seed=seed, store=store, now=0.0)
    table = club.tables[1]
    table.sit("anna")
    for _ in range(3):
        table.sit_bot()
    table.start("anna", now=0.0)
    now = 0.0
    for _ in range(20):
        now += 0.1
        step(club, now)

    crasher = threading.Thread(target=crash, args=(cluster,))
    crasher.start()  # while the table plays: the crash may meet a commit half-way
    while crasher.is_alive():
        now += 0.1
        step(club, now)
    crasher.join()
    for _ in range(20):
        now += 0.1
        step(club, now)
    # A table with a step to write is suspended; one between deals has nothing to write, and its
    # start is refused while the store is away (its balance cannot be read): it does not play on.
    assert table.suspended or not table.game.in_deal, "the table played on with its store gone"
    frozen = table.state()
    for _ in range(10):
        now += SUSPEND_RETRY
        step(club, now)
    assert table.state() == frozen  # nothing written, nothing played

    start_again(cluster)
    until = time.monotonic() + 30
    while table.suspended and time.monotonic() < until:
        now += SUSPEND_RETRY
        run(club, now)
        time.sleep(0.05)
    assert not table.suspended, "the table did not come back after PostgreSQL did"
    while not table.game.in_deal and time.monotonic() < until:  # the store backs off for a second
        now += 0.1
        step(club, now)
        time.sleep(0.05)
    assert table.game.in_deal, "no deal started after PostgreSQL came back"
    reader = PgStore(url)
    same_as_journal(reader, table)
    length = len(reader.journal(1))
    for _ in range(60):  # play resumes from there, and every step of it is the journal's
        now += 0.1
        step(club, now)
    assert len(reader.journal(1)) > length or reader.journal(1) == []
    same_as_journal(reader, table)
    assert reader.ledger_sum() == 0
    reader.close()
    store.close()
