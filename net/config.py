"""The server's configuration: the defaults, a TOML file over them, ``SUKNO_…`` variables over that, flags last.

The defaults are the commented ``net/sukno.toml`` installed with the package (``sukno config
--example`` prints it), so they are written once; ``Config``'s own field defaults mirror them for code
that builds a ``Config`` by hand, and a test keeps the two equal.  Unknown keys are refused with the
known ones named, in the file and in the environment alike: a typo in a limit must not silently leave
the default in force.
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from importlib import resources
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from engine.table.autoplay import Settings
from engine.table.club import SETTING_WORDS, table_settings
from engine.table.social import Seating

SAMPLE = "sukno.toml"
"""The commented configuration installed with the package: the one table of the defaults."""


def sample_text() -> str:
    """The commented defaults, as ``sukno config --example`` prints them."""
    return resources.files("net").joinpath(SAMPLE).read_text(encoding="utf-8")


DEFAULTS: dict[str, Any] = tomllib.loads(sample_text())
ENV_PREFIX = "SUKNO_"
NOT_CONFIG = frozenset({"SUKNO_LOOP_PROBE"})
"""Environment variables of sukno's that are not configuration keys."""


MOTD_MAX = 500
"""Characters of the message of the day (it is shown whole to everyone arriving)."""
_FINGERPRINT = re.compile(r"^SHA256:[A-Za-z0-9+/]{43}=?$")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the text says where and why."""


@dataclass
class Config:
    """Everything ``sukno serve`` needs, checked."""

    host: str = "127.0.0.1"
    port: int = 2222
    data: Path = Path("data")
    host_key: Path | None = None  # None: the store's key (PostgreSQL), else the data folder's (net/ssh/hostkey.py)
    login_timeout: float = 30
    keepalive_interval: float = 30
    keepalive_count_max: int = 3
    ciphers: list[str] = field(default_factory=lambda: ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes256-ctr"])
    max_sessions: int = 500
    max_sessions_per_address: int = 50
    max_sessions_per_account: int = 3
    connections_per_minute: int = 60
    connection_burst: int = 10
    input_bytes_per_second: int = 4096
    input_burst: int = 65536
    input_events_per_second: int = 100
    input_event_burst: int = 400
    idle_timeout: float = 3600
    max_session_time: float = 0
    max_cols: int = 250
    max_rows: int = 100
    chat_lines_per_second: float = 1.0
    chat_burst: int = 5
    buckets: list[tuple[int, int]] = field(default_factory=lambda: [(80, 24), (100, 30), (120, 40), (160, 50)])
    buffer_limit: int = 262144
    tables: list[dict[str, Any]] = field(default_factory=list)
    grant: int = 10000
    league_reset: str = "monday"  # when the money league begins again: "day", "month" or a weekday (UTC)
    admins: list[str] = field(default_factory=list)
    admin_keys: list[str] = field(default_factory=list)
    shutdown_grace: float = 60
    name_hold_days: float = 30  # days a closed account keeps its name before a newcomer may take it
    store_url: str = ""  # "": the data folder's sukno.db (SQLite); "postgresql://…": that database
    store_synchronous_commit: str = "on"  # PostgreSQL only: "off" may lose ~0.6 s of moves if PostgreSQL crashes
    store_write_wait: float = 0.05  # seconds a write may wait for a lock another holds (the loop waits that long at most)
    node: str = ""  # "": the one server of its store; a name: one node of several on one PostgreSQL club
    node_lease_ttl: float = 3.0  # seconds a node's table lease lasts unless renewed (failover waits this)
    node_call_timeout: float = 2.0  # seconds a move sent to a table's owner node may go unanswered (then refused)
    reuse_port: bool = False  # a worker of ``sukno serve --workers N`` (net/cluster/workers.py): SO_REUSEPORT, not a key
    metrics_listen: str = ""  # "HOST:PORT": Prometheus figures served there (net/metrics.py); "": off
    motd: str = ""  # the message of the day: plain text shown once to each arrival
    keep_days: float = 14  # days the chat log keeps a line; 0: none kept
    keep_private: bool = False  # whispers kept in the chat log too
    new: bool = False  # ``sukno serve --new``: an empty sukno.db may start a new club (not a config key)


def _merge(base: dict[str, Any], over: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if key not in base:
            known = ", ".join(base)
            raise ConfigError(f"unknown key '{where}{key}'; known: {known}")
        if isinstance(base[key], dict):
            if not isinstance(value, Mapping):
                raise ConfigError(f"{where}{key} must be a table")
            out[key] = _merge(base[key], value, f"{where}{key}.")
        else:
            out[key] = value
    return out


def _bucket(text: Any) -> tuple[int, int]:
    try:
        cols, rows = str(text).lower().split("x")
        size = int(cols), int(rows)
    except ValueError:
        raise ConfigError(f"spectators.buckets: {text!r} is not COLSxROWS, e.g. '80x24'") from None
    if size[0] < 20 or size[1] < 5:
        raise ConfigError(f"spectators.buckets: {text!r} is too small (at least 20x5)")
    return size


def _ciphers(names: Any) -> list[str]:
    """Cipher names asyncssh knows ([] means its defaults)."""
    from asyncssh.encryption import get_encryption_algs

    known = [a.decode() for a in get_encryption_algs()]
    if not isinstance(names, list) or any(str(n) not in known for n in names):
        raise ConfigError(f"server.ciphers: {names!r}; known: {', '.join(known)}")
    return [str(n) for n in names]


def _number(section: str, key: str, value: Any, kind: type) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(f"{section}.{key} must be a number ≥ 0, not {value!r}")
    return kind(value)


TABLE_KEYS = ("game", "options", "seats", "at_zero", *SETTING_WORDS)
"""The keys of a ``[[tables]]`` entry: its game, the game's options, and the table's settings."""


def _option_words(option: Any) -> str:
    """``variant (a, b, v, g)``, ``W (1–600)``: an option as a refusal lists it."""
    if option.choices:
        return f"{option.name} ({', '.join(str(c) for c in option.choices)})"
    if option.minimum is not None:
        return f"{option.name} ({option.minimum}–{option.maximum if option.maximum is not None else '…'})"
    return option.name


def _check_table(number: int, entry: Mapping[str, Any]) -> None:
    """A table entry names only known keys, a known game, and options and seats that game takes: a
    typo (``clok``) or a variant the game lacks is refused at start, never left to the first deal."""
    from engine.games import registry

    where = f"tables[{number}]"
    unknown = [key for key in entry if key not in TABLE_KEYS]
    if unknown:
        raise ConfigError(f"unknown key '{where}.{unknown[0]}'; known: {', '.join(TABLE_KEYS)} "
                          "(a game's own options go in options = {…})")
    games = registry()
    game = games.get(str(entry["game"]))
    if game is None:
        raise ConfigError(f"{where}.game: unknown game {entry['game']!r}; known: {', '.join(games)}")
    options = entry.get("options") or {}
    if not isinstance(options, Mapping):
        raise ConfigError(f"{where}.options must be a table, e.g. options = {{}}")
    try:
        made = game.make_options(options)
    except ValueError as err:
        known = ", ".join(_option_words(o) for o in game.options_spec)
        raise ConfigError(f"{where}.options: {err}; {entry['game']} takes: {known}") from None
    seats = entry.get("seats")
    if seats is not None:
        least, most = game.player_range(made)
        if isinstance(seats, bool) or not isinstance(seats, int) or not least <= seats <= most:
            raise ConfigError(f"{where}.seats: {entry['game']} is played by {least}–{most}, not {seats!r}")


def from_mapping(raw: Mapping[str, Any]) -> Config:
    """Defaults overlaid with ``raw`` (a parsed TOML document), checked."""
    merged = _merge({k: v for k, v in DEFAULTS.items() if k != "tables"}, {k: v for k, v in raw.items() if k != "tables"})
    tables = raw.get("tables", DEFAULTS["tables"])
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) and "game" in t for t in tables):
        raise ConfigError("tables must be a list of [[tables]] with a 'game' each")
    for number, entry in enumerate(tables, 1):
        _check_table(number, entry)
        if entry.get("at_zero", "refuse") not in ("refuse", "debt"):
            raise ConfigError(f"tables[{number}].at_zero is 'refuse' or 'debt', not {entry.get('at_zero')!r}")
        try:
            settings = table_settings(dict(entry))
            Seating.make({k: settings.pop(k) for k in Seating.KEYS if k in settings})  # who may sit, watch and talk
            Settings.make(settings)
        except ValueError as err:
            raise ConfigError(f"tables[{number}]: {err}") from None
    server, limits, spect = merged["server"], merged["limits"], merged["spectators"]
    admin = merged["admin"]
    if not isinstance(admin["accounts"], list) or not all(isinstance(a, str) for a in admin["accounts"]):
        raise ConfigError("admin.accounts must be a list of account names")
    keys = admin["keys"]
    if not isinstance(keys, list) or not all(isinstance(k, str) and _FINGERPRINT.match(k.strip()) for k in keys):
        raise ConfigError("admin.keys must be a list of key fingerprints as ssh-keygen -l shows them, "
                          "e.g. \"SHA256:Xr6N…\"")
    if not all(isinstance(server[k], str) for k in ("host", "data", "host_key")):
        raise ConfigError("server.host, server.data and server.host_key are strings")
    port = server["port"]
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"server.port must be 0–65535, not {port!r}")
    store_url = merged["store"]["url"]
    if not isinstance(store_url, str) or (store_url and not store_url.startswith(("postgresql://", "postgres://"))):
        raise ConfigError("store.url is \"\" (the data folder's sukno.db) or a postgresql://… URL")
    sync = merged["store"]["synchronous_commit"]
    if sync not in ("on", "off"):
        raise ConfigError(f"store.synchronous_commit is \"on\" or \"off\", not {sync!r}")
    write_wait = _number("store", "write_wait", merged["store"]["write_wait"], float)
    if not 0.01 <= write_wait <= 10:
        raise ConfigError(f"store.write_wait is 0.01–10 seconds, not {write_wait!r}")
    node = merged["node"]
    if not isinstance(node["name"], str) or len(node["name"]) > 64 or not node["name"].isprintable():
        raise ConfigError("node.name is a short printable name (\"\": not a node)")
    lease_ttl = _number("node", "lease_ttl", node["lease_ttl"], float)
    if not 0.5 <= lease_ttl <= 300:
        raise ConfigError(f"node.lease_ttl is 0.5–300 seconds, not {lease_ttl!r}")
    call_timeout = _number("node", "call_timeout", node["call_timeout"], float)
    if not 0.1 <= call_timeout <= 60:
        raise ConfigError(f"node.call_timeout is 0.1–60 seconds, not {call_timeout!r}")
    from tui.ratings import RESETS

    league_reset = merged["club"]["league_reset"]
    if league_reset not in RESETS:
        raise ConfigError(f"club.league_reset is one of {', '.join(RESETS)}, not {league_reset!r}")
    listen = merged["metrics"]["listen"]
    if not isinstance(listen, str) or (listen and not re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[\w.-]+):\d{1,5}", listen)):
        raise ConfigError(f"metrics.listen is \"\" (off) or HOST:PORT, e.g. \"127.0.0.1:9122\", not {listen!r}")
    motd = server["motd"]
    if not isinstance(motd, str) or len(motd) > MOTD_MAX:
        raise ConfigError(f"server.motd is one line of text of at most {MOTD_MAX} characters")
    moderation = merged["moderation"]
    keep_days = _number("moderation", "keep_days", moderation["keep_days"], float)
    if keep_days > 3650:
        raise ConfigError(f"moderation.keep_days is 0–3650 days, not {keep_days!r}")
    if not isinstance(moderation["keep_private"], bool):
        raise ConfigError("moderation.keep_private is true or false")
    floats = ("idle_timeout", "max_session_time", "chat_lines_per_second")
    ints = {k: _number("limits", k, v, int) for k, v in limits.items() if k not in floats}
    return Config(
        host=server["host"],
        port=port,
        data=Path(server["data"]).expanduser(),
        host_key=Path(server["host_key"]).expanduser() if server["host_key"] else None,
        login_timeout=_number("server", "login_timeout", server["login_timeout"], float),
        keepalive_interval=_number("server", "keepalive_interval", server["keepalive_interval"], float),
        keepalive_count_max=_number("server", "keepalive_count_max", server["keepalive_count_max"], int),
        ciphers=_ciphers(server["ciphers"]),
        idle_timeout=_number("limits", "idle_timeout", limits["idle_timeout"], float),
        max_session_time=_number("limits", "max_session_time", limits["max_session_time"], float),
        chat_lines_per_second=_number("limits", "chat_lines_per_second", limits["chat_lines_per_second"], float),
        buckets=sorted(_bucket(b) for b in spect["buckets"]),
        buffer_limit=_number("spectators", "buffer_limit", spect["buffer_limit"], int),
        tables=[dict(t) for t in tables],
        grant=_number("club", "grant", merged["club"]["grant"], int),
        league_reset=league_reset,
        admins=list(admin["accounts"]),
        admin_keys=[k.strip() for k in keys],
        shutdown_grace=_number("admin", "shutdown_grace", admin["shutdown_grace"], float),
        name_hold_days=_number("admin", "name_hold_days", admin["name_hold_days"], float),
        store_url=store_url,
        store_synchronous_commit=sync,
        store_write_wait=write_wait,
        node=node["name"],
        node_lease_ttl=lease_ttl,
        node_call_timeout=call_timeout,
        metrics_listen=listen,
        motd=motd,
        keep_days=keep_days,
        keep_private=moderation["keep_private"],
        **ints,
    )


def load(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read a config file (or none: the defaults) and the ``SUKNO_SECTION_KEY`` variables over it;
    ``ConfigError`` says what is wrong and where."""
    raw: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                raw = tomllib.load(f)
        except OSError as err:
            raise ConfigError(f"{path}: {err.strerror or err}") from None
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{path}: {err}") from None
    raw = _environment(raw, os.environ if environ is None else environ)
    try:
        return from_mapping(raw)
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}" if path is not None else str(err)) from None


def _environment(raw: dict[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """``SUKNO_LIMITS_MAX_SESSIONS=100`` over the file's ``[limits] max_sessions``; a value is read as
    TOML (a number, ``true``, ``["a", "b"]``) and else taken as a string."""
    out = copy.deepcopy(raw)
    for variable in sorted(environ):
        if not variable.startswith(ENV_PREFIX) or variable in NOT_CONFIG:
            continue
        words = variable[len(ENV_PREFIX):].lower()
        section = next((s for s in DEFAULTS if isinstance(DEFAULTS[s], dict) and words.startswith(s + "_")), None)
        key = words[len(section) + 1:] if section else ""
        if section is None or key not in DEFAULTS[section]:
            known = ", ".join(f"{ENV_PREFIX}{s.upper()}_{k.upper()}" for s in DEFAULTS if isinstance(DEFAULTS[s], dict)
                              for k in list(DEFAULTS[s])[:1])
            raise ConfigError(f"environment: {variable} is not a setting (they are SUKNO_SECTION_KEY, e.g. {known})")
        try:
            value: Any = tomllib.loads(f"v = {environ[variable]}")["v"]
        except tomllib.TOMLDecodeError:
            value = environ[variable]
        if isinstance(DEFAULTS[section][key], str) and not isinstance(value, str):
            value = environ[variable]  # a name or a URL that happens to read as a number stays text
        out.setdefault(section, {})
        if not isinstance(out[section], dict):
            raise ConfigError(f"{section} must be a table")
        out[section][key] = value
    return out
