"""``sukno serve --workers N``: N node processes sharing one port on one machine.

The parent serves nobody: it starts N children, each an ordinary ``sukno serve --node NAME-i``
on the same PostgreSQL store, listening on the same port with ``SO_REUSEPORT`` (the kernel spreads
new connections over them), and supervises them:

* a child that dies (a crash, kill -9) is started again, after 1 s doubling to 30 s while it keeps
  dying young (``RESTART_FIRST``/``RESTART_MAX``; a child that lived ``STEADY`` s starts over at 1 s);
* a child that stops at once with a usage or configuration status (64–78 but 75, "try again
  later", in its first ``STEADY`` seconds, e.g. a bad config or a newer schema) would fail the same
  way again: every child is stopped and the parent exits with that status;
* SIGTERM or SIGINT to the parent stops every child (SIGTERM: each closes as ``sukno serve`` does,
  its tables handed over) and waits ``STOP_WAIT`` s before killing what is left.

Each worker keeps its own data folder ``DATA/NAME-i`` (its admin socket and audit log: ``sukno
admin --data DATA/NAME-1``); the host key, bans and who is online are the store's, so every worker
presents one key and ``sukno admin sessions`` on any of them lists them all.  ``--port 0`` picks a
free port once, held by the parent (bound with ``SO_REUSEPORT``, never listening) so that a
restarted child gets the same one.  SQLite is one process's store: ``--workers`` refuses it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any, Sequence

from net.config import Config

log = logging.getLogger("sukno.workers")

MAX_WORKERS = 64
RESTART_FIRST, RESTART_MAX = 1.0, 30.0
STEADY = 10.0
"""Seconds a child must live to count as started: dying sooner with 64–78 stops everything."""
STOP_WAIT = 30.0
POLL = 0.1


class WorkersError(ValueError):
    """``--workers`` cannot be used as asked (the text says why)."""


def check(config: Config, workers: int) -> None:
    if not 1 <= workers <= MAX_WORKERS:
        raise WorkersError(f"--workers is 1–{MAX_WORKERS}, not {workers}")
    if not config.store_url:
        raise WorkersError("--workers N needs a PostgreSQL store (--store postgresql://… or [store] url): the "
                           "workers are nodes of one club and share it there; SQLite is one process's store")


def base_name(config: Config) -> str:
    """The workers' names are BASE-1..N: ``--node NAME``, else this machine's name."""
    name = str(getattr(config, "node", "") or socket.gethostname().split(".")[0] or "worker")
    return name[:58]


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound to the port the workers share (``SO_REUSEPORT``, not listening): the port of
    ``--port 0`` stays ours while children come and go."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host or "0.0.0.0", port))
    except OSError:
        sock.close()
        raise
    return sock


def child_argv(args: argparse.Namespace, config: Config, name: str, port: int) -> list[str]:
    """The command line of one worker: what was given to the parent, with its own node, data and port."""
    argv = [sys.executable, "-m", "net.cli.main", "serve", "--node", name, "--port", str(port),
            "--data", str(config.data / name), "--reuse-port"]
    for flag, value in (("--config", args.config), ("--host", args.host), ("--store", getattr(args, "store", None)),
                        ("--host-key", getattr(args, "host_key", None))):
        if value:
            argv += [flag, str(value)]
    for flag, value in (("--log-level", getattr(args, "log_level", None)),
                        ("--log-format", getattr(args, "log_format", None))):
        if value:
            argv += [flag, value]
    if getattr(args, "new", False):
        argv.append("--new")
    return argv


class _Child:
    def __init__(self, name: str, argv: list[str]) -> None:
        self.name = name
        self.argv = argv
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.delay = RESTART_FIRST
        self.due = 0.0  # when to start it again (monotonic), after a death

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL)
        self.started = time.monotonic()
        log.info("worker %s started (pid %d)", self.name, self.proc.pid)


def supervise(children: Sequence[_Child]) -> int:
    """Run the children until SIGTERM/SIGINT (0) or a child's configuration failure (its status)."""
    stop: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    status = 0
    try:
        for child in children:
            child.start()
        while not stop:
            now = time.monotonic()
            for child in children:
                if child.proc is None:
                    if now >= child.due:
                        child.start()
                    continue
                code = child.proc.poll()
                if code is None:
                    continue
                lived = now - child.started
                child.proc = None
                if 64 <= code <= 78 and code != 75 and lived < STEADY:  # 75: try again later
                    log.error("worker %s stopped at start with status %d; stopping every worker", child.name, code)
                    status = code
                    stop.append(0)
                    break
                child.delay = RESTART_FIRST if lived >= STEADY else min(RESTART_MAX, child.delay * 2)
                child.due = now + child.delay
                how = f"signal {-code}" if code < 0 else f"status {code}"
                log.warning("worker %s ended (%s) after %.1f s; starting it again in %g s",
                            child.name, how, lived, child.delay)
            time.sleep(POLL)
    finally:
        _stop_all(children)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return status


def _stop_all(children: Sequence[_Child]) -> None:
    live = [(c.name, c.proc) for c in children if c.proc is not None and c.proc.poll() is None]
    for _name, proc in live:
        try:
            proc.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + STOP_WAIT
    for name, proc in live:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("worker %s did not stop in %g s; killed", name, STOP_WAIT)
            proc.kill()
            proc.wait()
    log.info("every worker stopped")


def run_workers(args: argparse.Namespace, config: Config) -> int:
    """``sukno serve --workers N`` (the parent); the module docstring says what it does."""
    workers = int(args.workers)
    try:
        check(config, workers)
    except WorkersError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return 78
    try:
        held = reserve_port(config.host, config.port)
    except OSError as err:
        print(f"sukno serve: cannot listen on {config.host}:{config.port}: {err.strerror or err}", file=sys.stderr)
        return 75
    try:
        port = held.getsockname()[1]
        config.data.mkdir(mode=0o700, parents=True, exist_ok=True)
        base = base_name(config)
        children = [_Child(f"{base}-{i}", child_argv(args, config, f"{base}-{i}", port))
                    for i in range(1, workers + 1)]
        print(f"sukno: {workers} workers ({base}-1..{base}-{workers}) share port {port}; the parent pid {os.getpid()}",
              file=sys.stderr, flush=True)
        return supervise(children)
    finally:
        held.close()
