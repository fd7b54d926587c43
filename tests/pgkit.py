"""A real PostgreSQL for the tests and benches: ``initdb`` + ``pg_ctl`` in a temporary folder.

The server listens on a Unix socket in its own folder only (``listen_addresses
= ''``), on a port number picked free, so it never meets a cluster that the
Debian package may have started on 5432.  initdb refuses to run as root: then
the folder is given to the ``postgres`` user and the binaries run as him
(``runuser``).  Without PostgreSQL's binaries (or psycopg) ``PgCluster.start``
raises ``Unavailable`` with a one-line reason, which the fixtures turn into a
skip.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence


class Unavailable(Exception):
    """No PostgreSQL here: the reason, in one line."""


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "initdb").is_file() and (Path(candidate) / "pg_ctl").is_file():
            return Path(candidate)
    return None


PREFIX = "sukno-pg-"


def sweep_orphans() -> None:
    """Stop and remove clusters whose test run was killed before it could stop them (SIGKILL, SIGTERM)."""
    bin_dir = _bin_dir()
    for folder in Path(tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            owner = int((folder / "owner.pid").read_text())
            os.kill(owner, 0)
            continue  # its run is alive
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue  # not ours to judge (no owner file yet, another user's)
        if bin_dir is not None and (folder / "data" / "postmaster.pid").exists():
            as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
            subprocess.run([*as_user, str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate",
                            "-w", "stop"], capture_output=True, timeout=60, cwd=folder)
        shutil.rmtree(folder, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """One throw-away PostgreSQL server; ``url(schema)`` gives a URL whose tables live in ``schema``."""

    def __init__(self, settings: dict[str, str] | None = None):
        self.settings = dict(settings or {})
        self.folder: Path | None = None
        self.port = 0
        self._as: list[str] = []
        self._bin: Path | None = None
        self._schemas = 0

    def start(self) -> PgCluster:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise Unavailable("psycopg is not installed (pip install 'psycopg[binary]')") from None
        self._bin = _bin_dir()
        if self._bin is None:
            raise Unavailable("no PostgreSQL binaries (initdb, pg_ctl): apt-get install postgresql")
        sweep_orphans()
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.folder / "owner.pid").write_text(str(os.getpid()))
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no 'postgres' user for initdb") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.port = _free_port()
        data = self.folder / "data"
        self._run(["initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                   "--no-locale", "--no-sync"], timeout=120)
        options = {"listen_addresses": "''", "unix_socket_directories": f"'{self.folder}'",
                   "port": str(self.port), **self.settings}
        flags = " ".join(f"-c {k}={v}" for k, v in options.items())
        self._run(["pg_ctl", "-D", str(data), "-l", str(self.folder / "log"), "-w", "-t", "60",
                   "-o", flags, "start"], timeout=90)
        return self

    def _run(self, words: Sequence[str], timeout: float) -> None:
        assert self._bin is not None
        command = [*self._as, str(self._bin / words[0]), *words[1:]]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=self.folder)
        if done.returncode:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise Unavailable(f"{words[0]} failed: {' / '.join(tail)}")

    def base_url(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.folder}&port={self.port}"

    def url(self, schema: str | None = None) -> str:
        """A URL for a fresh schema of its own (a test's empty database, in effect)."""
        import psycopg

        if schema is None:
            self._schemas += 1
            schema = f"t{os.getpid()}_{self._schemas}_{int(time.time() * 1000) % 10**6}"
        with psycopg.connect(self.base_url(), autocommit=True) as db:
            db.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        return f"{self.base_url()}&options=-csearch_path%3D{schema}"

    def stop(self) -> None:
        if self.folder is None:
            return
        if (self.folder / "data" / "postmaster.pid").exists():
            try:
                self._run(["pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"], timeout=60)
            except (Unavailable, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


_CLUSTER: PgCluster | None = None
_WHY: str | None = None


def shared_cluster() -> PgCluster:
    """The test session's one cluster (started on first use, stopped at exit); ``Unavailable`` if none."""
    global _CLUSTER, _WHY
    if _WHY is not None:
        raise Unavailable(_WHY)
    if _CLUSTER is None:
        import atexit

        cluster = PgCluster({"fsync": "off", "full_page_writes": "off"})  # tests: speed, not durability
        try:
            cluster.start()
        except (Unavailable, OSError, subprocess.TimeoutExpired) as err:
            cluster.stop()
            _WHY = f"no PostgreSQL for the tests: {err}"
            raise Unavailable(_WHY) from None
        atexit.register(cluster.stop)
        _CLUSTER = cluster
    return _CLUSTER


def stop_shared() -> None:
    global _CLUSTER
    if _CLUSTER is not None:
        _CLUSTER.stop()
        _CLUSTER = None


def round_trips(conn: Any, work: Callable[[], object]) -> tuple[int, int]:
    """(round trips, statements) of ``work()`` on the psycopg connection ``conn``, read from libpq's
    trace: each run of messages sent (F) that the database's answer (B) follows is one wait; each
    Bind (or simple Query) one statement."""
    import psycopg

    folder = Path(tempfile.mkdtemp(prefix="sukno-trace-"))
    trace = folder / "trace.txt"
    fd = os.open(trace, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    conn.pgconn.trace(fd)
    conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
    try:
        work()
    finally:
        conn.pgconn.untrace()
        os.close(fd)
        lines = [line.split("\t") for line in trace.read_text().splitlines()]
        shutil.rmtree(folder, ignore_errors=True)
    sides = [line[0] for line in lines if line[0] in ("F", "B")]
    waits = sum(1 for sent, answer in zip(sides, sides[1:]) if (sent, answer) == ("F", "B"))
    return waits, sum(1 for line in lines if line[0] == "F" and line[2:3] in (["Bind"], ["Query"]))
