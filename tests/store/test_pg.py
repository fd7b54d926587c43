"""What only the PostgreSQL store has to prove (the shared behaviour runs on both backends through the
``store`` fixture): its schema's versions, bounded waits, a lost connection, one server per database,
``sukno serve --store`` and ``sukno db upgrade`` (issue 15)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.store.base import GRANTS, StoreError
from engine.store.opening import open_store
from engine.store.postgres import SCHEMA_VERSION, PgStore, shown_url

psycopg = pytest.importorskip("psycopg")
ROOT = Path(__file__).resolve().parents[2]


def sukno(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "net.cli.main", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    assert "Traceback" not in proc.stderr
    return proc


def tables_and_versions(url: str) -> tuple[list[str], list[int]]:
    with psycopg.connect(url, autocommit=True) as db:
        names = sorted(r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"))
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")]
    return names, versions


def test_an_empty_schema_is_made_at_the_latest_version(pg_url: str) -> None:
    with PgStore(pg_url) as store:
        assert store.schema_version() == SCHEMA_VERSION
    names, versions = tables_and_versions(pg_url)
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    assert {"account", "account_key", "purse", "ledger_txn", "ledger_entry", "live_table", "journal",
            "record", "record_player", "account_setting", "schema_version"} <= set(names)


def test_a_newer_schema_is_refused_untouched(pg_url: str) -> None:
    with PgStore(pg_url) as store:
        store.create_account("Anna", grant=100)
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("INSERT INTO schema_version VALUES (%s, 0)", (SCHEMA_VERSION + 1,))
    before = tables_and_versions(pg_url)
    with pytest.raises(StoreError) as err:
        PgStore(pg_url)
    assert err.value.exit_status == 78
    assert f"newer sukno (schema version {SCHEMA_VERSION + 1}; this sukno knows up to {SCHEMA_VERSION})" in str(
        err.value)
    assert tables_and_versions(pg_url) == before


def test_another_programs_tables_are_refused(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TABLE invoices (id int)")
    with pytest.raises(StoreError, match="some other program") as err:
        PgStore(pg_url)
    assert err.value.exit_status == 65
    assert tables_and_versions_of_other(pg_url) == ["invoices"]


def tables_and_versions_of_other(url: str) -> list[str]:
    with psycopg.connect(url, autocommit=True) as db:
        return [r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_one_server_per_database(pg_url: str) -> None:
    with PgStore(pg_url, exclusive=True):
        with pytest.raises(StoreError, match="another 'sukno serve'") as err:
            PgStore(pg_url, exclusive=True)
        assert err.value.exit_status == 75
        PgStore(pg_url).close()  # a reader (sukno export) may open it meanwhile
    PgStore(pg_url, exclusive=True).close()  # released on close


def test_a_held_row_lock_refuses_the_write_after_its_wait_and_the_store_goes_on(pg_url: str) -> None:
    store = PgStore(pg_url, exclusive=True)  # the server's store: a write waits at most 50 ms
    store.create_account("Anna", grant=100)
    holder = psycopg.connect(pg_url)
    try:
        holder.execute("SELECT * FROM purse WHERE name = 'Anna' FOR UPDATE")
        with pytest.raises(StoreError, match="locked by another session") as err:
            store.post([(GRANTS, -5), ("Anna", 5)], reason="top-up")
        assert err.value.exit_status == 75
        assert store.balance("Anna") == 100  # reads do not wait
    finally:
        holder.rollback()
        holder.close()
    store.post([(GRANTS, -5), ("Anna", 5)], reason="top-up")
    assert store.balance("Anna") == 105 and store.ledger_sum() == 0
    assert [m.reason for m in store.statement("Anna")] == ["top-up", "starting grant"]
    store.close()


def test_a_lost_connection_refuses_one_write_and_the_next_connects_again(pg_url: str) -> None:
    store = PgStore(pg_url)
    store.create_account("Anna", grant=100)
    pid = store._db.info.backend_pid  # noqa: SLF001
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreError, match="cannot be reached") as err:
        store.post([(GRANTS, -5), ("Anna", 5)])
    assert err.value.exit_status == 75
    assert store.reachable() is None  # connected again
    assert store.check() is None  # never "gone for good" (that stops the server's probe)
    store.post([(GRANTS, -7), ("Anna", 7)])
    assert store.balance("Anna") == 107 and store.ledger_sum() == 0
    store.check_ledger()
    store.close()


def test_a_password_never_reaches_a_message(pg_url: str) -> None:
    bad = pg_url.replace("postgresql://postgres@", "postgresql://postgres:s3cr3t@").replace(
        "/postgres?", "/no_such_db?")
    with pytest.raises(StoreError) as err:
        PgStore(bad)
    assert "s3cr3t" not in str(err.value) and "no_such_db" in str(err.value)
    assert "s3cr3t" not in shown_url(bad)
    with pytest.raises(StoreError, match="starts with postgresql://") as err:
        open_store(".", url="mysql://root:s3cr3t@db/x")
    assert "s3cr3t" not in str(err.value) and err.value.exit_status == 78


def test_table_ids_come_back_as_given(pg_url: str) -> None:
    from engine.store.base import TableHeader

    with PgStore(pg_url) as store:
        store.open_table_journal(3, TableHeader("stukolka", {}, ["a", "b"]))
        store.open_table_journal("3", TableHeader("kopilka", {}, ["a", "b"]))
        store.append(3, "note", {"n": 1})
        store.append("3", "note", {"n": 2})
        assert [(t.table_id, t.header.game) for t in store.live_tables()] == [(3, "stukolka"), ("3", "kopilka")]
        assert [e.payload for e in store.journal(3)] == [{"n": 1}]
        assert [e.payload for e in store.journal("3")] == [{"n": 2}]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_db_upgrade_makes_the_schema_and_serve_refuses_a_newer_one(pg_url: str, tmp_path: Path) -> None:
    done = sukno("db", "upgrade", "--store", pg_url)
    assert done.returncode == 0, done.stderr
    assert f"is at schema version {SCHEMA_VERSION}" in done.stdout and "postgresql://postgres@" in done.stdout
    assert tables_and_versions(pg_url)[1] == list(range(1, SCHEMA_VERSION + 1))
    again = sukno("db", "upgrade", "--store", pg_url)  # nothing to do: says so, changes nothing
    assert again.returncode == 0 and tables_and_versions(pg_url)[1] == list(range(1, SCHEMA_VERSION + 1))
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("INSERT INTO schema_version VALUES (%s, 0)", (SCHEMA_VERSION + 1,))
    served = sukno("serve", "--store", pg_url, "--data", str(tmp_path / "data"), "--port", "0")
    assert served.returncode == 78 and "newer sukno" in served.stderr
    upgraded = sukno("db", "upgrade", "--store", pg_url)
    assert upgraded.returncode == 78 and "newer sukno" in upgraded.stderr
    bad = sukno("serve", "--store", "mysql://x/y", "--data", str(tmp_path / "data"), "--port", "0")
    assert bad.returncode == 78 and "postgresql://" in bad.stderr


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_serve_opens_the_club_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    """``sukno serve --store URL`` opens (its tables journaled there), then stops on SIGTERM."""
    data = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--store", pg_url, "--data", str(data),
                             "--port", "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:  # type: ignore[union-attr]
            assert "Traceback" not in line
            if "the club is open" in line:
                break
        else:
            raise AssertionError(f"sukno serve --store ended with {proc.wait()}")
        with PgStore(pg_url) as reader:
            assert len(reader.live_tables()) >= 1  # the config's tables, journaled in PostgreSQL
    finally:
        proc.terminate()
        proc.wait(30)
    assert not (data / "sukno.db").exists()  # the data folder keeps the host key, not the club


def test_the_config_names_the_store_and_its_commit_mode(tmp_path: Path) -> None:
    from net.config import ConfigError, from_mapping

    assert (from_mapping({}).store_url, from_mapping({}).store_synchronous_commit) == ("", "on")
    config = from_mapping({"store": {"url": "postgresql://sukno@db/club", "synchronous_commit": "off"}})
    assert (config.store_url, config.store_synchronous_commit) == ("postgresql://sukno@db/club", "off")
    for bad in ({"url": "sqlite:///x.db"}, {"url": 5}, {"synchronous_commit": "sometimes"}):
        with pytest.raises(ConfigError, match="store\\."):
            from_mapping({"store": bad})


def test_synchronous_commit_is_what_the_store_says(pg_url: str) -> None:
    for mode in ("on", "off"):
        with PgStore(pg_url, synchronous_commit=mode) as store:
            assert store._db.execute("SHOW synchronous_commit").fetchone()[0] == mode  # noqa: SLF001
    with pytest.raises(ValueError):
        PgStore(pg_url, synchronous_commit="on; DROP TABLE account")


def test_an_unreachable_database_is_not_tried_again_at_every_write(pg_url: str, monkeypatch) -> None:
    """After a failed connect, writes are refused at once until the retry time: the loop waits once."""
    store = PgStore(pg_url)
    store.create_account("Anna", grant=100)
    tries = []
    from engine.store import postgres

    connection = postgres._bounded()  # noqa: SLF001 - the class the store connects with
    real = connection.connect

    def refused(*args, **kwargs):  # PostgreSQL is away
        tries.append(1)
        raise psycopg.OperationalError("connection refused")

    store._db.close()  # noqa: SLF001 - the connection is lost ...
    monkeypatch.setattr(connection, "connect", refused)  # ... and the database cannot be reached
    for _ in range(5):
        with pytest.raises(StoreError, match="cannot be reached") as err:
            store.touch("Anna")
        assert err.value.exit_status == 75
    assert len(tries) == 1 and "tried again in 0.25 s" in (store.reachable() or "")
    monkeypatch.setattr(connection, "connect", real)
    store._retry_at = 0.0  # noqa: SLF001 - the second is over
    store.touch("Anna", now=7.0)
    assert store.account("Anna").last_seen == 7.0  # type: ignore[union-attr]
    store.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_export_reads_a_record_from_postgresql(pg_url: str) -> None:
    import json
    import random

    from store_play import open_table, step

    names = ["Anna", "Boris", "Vera", "Gleb"]
    with PgStore(pg_url) as store:
        for name in names:
            store.create_account(name)
        table = open_table(store, 3, "stukolka", names, 2, {"variant": "b", "rounds": 1})
        rng = random.Random(1)
        while not table.sessions:
            step(store, table, rng)
        kept = store.get_record(table.sessions[0])
    done = sukno("export", str(table.sessions[0]), "--store", pg_url)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == kept.to_json()
    missing = sukno("export", "999999", "--store", pg_url)
    assert missing.returncode == 65 and "no record number 999999" in missing.stderr


def test_every_connection_names_its_node_and_role_in_pg_stat_activity(pg_url) -> None:
    """An operator reading pg_stat_activity sees ``sukno/NODE/ROLE`` for each of the club's connections."""
    import psycopg

    from engine.store.postgres import PgStore

    store = PgStore(pg_url, role="serve")
    store.create_account("Anna")
    with psycopg.connect(pg_url, autocommit=True) as look:
        names = {row[0] for row in look.execute(
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'sukno/%'")}
    store.close()
    assert "sukno/main/serve" in names, names
