"""The config file and ``sukno serve``: defaults, overrides, refusals, a real start and a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from net.config import DEFAULTS, Config, ConfigError, from_mapping, load

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_sample_is_the_one_table_of_defaults_and_config_mirrors_it(capsys):
    """The commented sample is the defaults; ``Config()``'s own field defaults say the same; ``sukno config
    --example`` prints the sample, which reads back as the defaults."""
    from dataclasses import fields

    from net.cli.main import main

    assert DEFAULTS == tomllib.loads((ROOT / "net" / "sukno.toml").read_text(encoding="utf-8"))
    built = load(None, environ={})
    by_hand = Config()
    for f in fields(Config):
        if f.name not in ("tables", "data"):
            assert getattr(by_hand, f.name) == getattr(built, f.name), f.name
    assert main(["config", "--example"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# sukno") and tomllib.loads(printed) == DEFAULTS


def test_sukno_variables_override_the_file_and_a_misspelt_one_is_refused(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[server]\nport = 2300\n[store]\nwrite_wait = 0.2\n", encoding="utf-8")
    config = load(path, environ={"SUKNO_SERVER_PORT": "2400", "SUKNO_LIMITS_MAX_SESSIONS": "80",
                                 "SUKNO_NODE_NAME": "7", "SUKNO_LOOP_PROBE": "/tmp/x", "HOME": "/root"})
    assert (config.port, config.max_sessions, config.node, config.store_write_wait) == (2400, 80, "7", 0.2)
    with pytest.raises(ConfigError, match="SUKNO_SERVER_PROT is not a setting"):
        load(path, environ={"SUKNO_SERVER_PROT": "1"})
    with pytest.raises(ConfigError, match="server.port"):
        load(None, environ={"SUKNO_SERVER_PORT": "99999"})


def test_a_bad_file_is_named_in_its_refusal(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[limits]\nmax_sesions = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"^{path}: unknown key 'limits.max_sesions'"):
        load(path, environ={})


def test_defaults():
    config = load(None)
    assert (config.host, config.port) == ("127.0.0.1", 2222)
    assert config.buckets[0] == (80, 24)
    assert {t["game"] for t in config.tables} >= {"stukolka"}


@pytest.mark.parametrize(
    "raw, words",
    [
        ({"server": {"prot": 1}}, "unknown key 'server.prot'"),
        ({"server": {"port": 70000}}, "server.port"),
        ({"limits": {"max_sessions": -1}}, "limits.max_sessions"),
        ({"spectators": {"buckets": ["80by24"]}}, "COLSxROWS"),
        ({"tables": [{"options": {}}]}, "'game'"),
        ({"server": {"ciphers": ["rot13"]}}, "server.ciphers"),
        ({"store": {"write_wait": 0}}, "store.write_wait is 0.01–10 seconds"),
        ({"store": {"write_wait": "long"}}, "store.write_wait"),
    ],
)
def test_bad_config_is_refused_with_the_reason(raw, words):
    with pytest.raises(ConfigError, match=words):
        from_mapping(raw)


def test_file_overrides_some_keys(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[server]\nport = 2323\n[spectators]\nbuckets = ["100x30", "80x24"]\n')
    config = load(path)
    assert config.port == 2323 and config.host == "127.0.0.1"
    assert config.buckets == [(80, 24), (100, 30)]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_serve_refuses_a_broken_config(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[server\n")
    out = subprocess.run([sys.executable, "-m", "net.cli.main", "serve", "--config", str(path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "sukno serve:" in out.stderr and str(path) in out.stderr


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_serve_starts_listens_and_stops_on_sigterm(tmp_path):
    """sukno serve --port 0 --data DIR: says where it listens, makes the host key, exits 0 on SIGTERM."""
    data = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-m", "net.cli.main", "serve", "--port", "0", "--data", str(data)],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        line = ""
        while "ssh -p" not in line:
            assert time.monotonic() < deadline, "no 'the club is open' line"
            line = proc.stderr.readline()
            assert line or proc.poll() is None, "sukno serve ended early"
        port = int(line.split("ssh -p")[1].split()[0])
        assert port > 0
        assert (data / "ssh_host_ed25519_key").exists()
        assert oct(os.stat(data / "ssh_host_ed25519_key").st_mode & 0o777) == "0o600"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_dataclass_defaults_match_the_builtin_defaults():
    """Config() built in code (tests, benches) behaves like sukno serve without a file."""
    from net.config import Config

    built, loaded = Config(), load(None)
    for name in ("host", "port", "ciphers", "buckets", "buffer_limit", "max_cols", "max_rows"):
        assert getattr(built, name) == getattr(loaded, name), name
