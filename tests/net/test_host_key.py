"""One host key for every node (issue 15): a given file wins, else the PostgreSQL store's, else the data folder's."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import asyncssh
import pytest
from sshclient import make_config, new_key, running

from net.ssh.hostkey import HOST_KEY_NAME, club_host_key

ROOT = Path(__file__).resolve().parents[2]


async def _presented(port: int) -> str:
    async with asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[new_key()],
                                agent_path=None) as conn:
        return conn.get_server_host_key().get_fingerprint()


def _key_file(path: Path, mode: int = 0o600) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key())
    os.chmod(path, mode)
    return key


async def test_a_given_key_file_is_presented_and_made_private(tmp_path):
    """--host-key FILE: clients see that key; a file others could read is made 0600; no key is made."""
    key = _key_file(tmp_path / "club_key", 0o644)
    config = make_config(tmp_path / "data", host_key=tmp_path / "club_key")
    async with running(config) as server:
        assert await _presented(server.port) == key.get_fingerprint()
    assert stat.S_IMODE(os.stat(tmp_path / "club_key").st_mode) == 0o600
    assert not (tmp_path / "data" / HOST_KEY_NAME).exists()


def _serve(*words: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "net.cli.main", "serve", "--port", "0", "--data", str(data), *words],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_sukno_serve_refuses_a_missing_or_bad_key_file(tmp_path):
    """A key file that is not there, or not a key, stops sukno serve (78) saying so, never quoting it."""
    out = _serve("--host-key", str(tmp_path / "nothing"), data=tmp_path / "data")
    assert out.returncode == 78
    assert "no such file" in out.stderr and str(tmp_path / "nothing") in out.stderr
    bad = tmp_path / "bad"
    bad.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LXdvcmRz\n-----END OPENSSH PRIVATE KEY-----\n")
    os.chmod(bad, 0o600)
    out = _serve("--host-key", str(bad), data=tmp_path / "data")
    assert out.returncode == 78
    assert "not an unencrypted OpenSSH private key" in out.stderr
    assert "c2VjcmV0" not in out.stderr + out.stdout
    assert not (tmp_path / "data" / HOST_KEY_NAME).exists()


def test_nodes_starting_at_once_make_one_key_in_the_store(pg_url, tmp_path, caplog):
    """Four nodes asking for the key at the same moment get one key, made once, kept in the store,
    with no file in any data folder and no private text in any log line."""
    from engine.store.postgres import PgStore

    stores = [PgStore(pg_url) for _ in range(4)]
    found: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(len(stores))

    def node(store: PgStore, n: int) -> None:
        try:
            start.wait(10)
            found.append(club_host_key(tmp_path / f"data{n}", store).get_fingerprint())
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    caplog.set_level(logging.INFO, logger="sukno")
    try:
        threads = [threading.Thread(target=node, args=(s, n)) for n, s in enumerate(stores)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not errors and len(found) == 4
        assert len(set(found)) == 1
        rows = stores[0]._db.execute("SELECT private FROM host_key").fetchall()
        assert len(rows) == 1
        assert asyncssh.import_private_key(rows[0][0]).get_fingerprint() == found[0]
        body = rows[0][0].splitlines()[1]
        assert body not in caplog.text
        assert sum("made the club's host key" in r.getMessage() for r in caplog.records) == 1
        assert not any((tmp_path / f"data{n}" / HOST_KEY_NAME).exists() for n in range(4))
    finally:
        for s in stores:
            s.close()


async def test_a_node_on_postgresql_presents_the_stored_key_and_a_given_file_wins(pg_url, tmp_path):
    """A server on the store presents the key another node reads there, again after a restart;
    with --host-key the file's key is presented instead and the store's is left as it was."""
    from engine.store.postgres import PgStore

    with PgStore(pg_url) as other:
        expected = club_host_key(tmp_path / "other", other).get_fingerprint()
    config = make_config(tmp_path / "data")
    for _ in range(2):
        store = PgStore(pg_url, exclusive=True)
        try:
            async with running(config, store=store) as server:
                assert await _presented(server.port) == expected
        finally:
            store.close()
    assert not (tmp_path / "data" / HOST_KEY_NAME).exists()
    key = _key_file(tmp_path / "given")
    store = PgStore(pg_url, exclusive=True)
    try:
        async with running(make_config(tmp_path / "data", host_key=tmp_path / "given"), store=store) as server:
            assert await _presented(server.port) == key.get_fingerprint()
    finally:
        store.close()
    with PgStore(pg_url) as other:
        assert club_host_key(tmp_path / "other", other).get_fingerprint() == expected
