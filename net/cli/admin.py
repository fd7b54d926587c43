"""``sukno admin``: find the running server's socket in the data folder and speak to it.

With a command it sends that one command, prints the answer and exits with
its status (0 done, 1 refused, 2 usage error or no server); ``--json`` prints
the whole reply as JSON for scripts.  With no command it opens the
interactive console (``net.house.console``).  The data folder is found exactly
as ``sukno serve`` finds it (``--data``, else the config's, else ``./data``),
so the same flags reach the same server.

``sukno serve --workers N`` gives each worker its own folder ``DATA/NAME-i`` (its socket): given
the parent's ``DATA``, ``sukno admin`` speaks to the only worker there is, or to the one ``--node
NAME`` names, and otherwise says which workers it found (each of them sees the whole club).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

from net.house.admin import SOCKET_NAME


class NotRunning(Exception):
    """No server answers at the data folder's socket (exit status 2)."""


def request(path: Path, argv: list[str], timeout: float = 30.0) -> dict[str, Any]:
    """Send one command over the socket and wait for its reply (blocking)."""
    data = path.parent
    if not path.exists():
        raise NotRunning(f"no sukno server is running with data folder {data} (no socket at {path})")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        try:
            sock.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            raise NotRunning(f"no sukno server is running with data folder {data} "
                             f"(the socket at {path} is left over from one that stopped)") from None
        except PermissionError:
            raise NotRunning(f"permission denied on {path}: run sukno admin as the user that runs the server") from None
        sock.sendall(json.dumps({"argv": argv}, ensure_ascii=False).encode("utf-8") + b"\n")
        buffer = b""
        while not buffer.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            buffer += chunk
    except socket.timeout:
        raise NotRunning(f"the server at {path} did not answer in {timeout:.0f} s") from None
    finally:
        sock.close()
    if not buffer.strip():
        raise NotRunning(f"the server at {path} closed the connection without an answer")
    return json.loads(buffer)


def data_folder(args: argparse.Namespace) -> Path:
    """The data folder as ``sukno serve`` would choose it."""
    from net.config import load

    if args.data:
        return Path(args.data).expanduser()
    return load(args.config).data


class Ambiguous(Exception):
    """The data folder holds no socket of its own but several workers' (exit status 2)."""


def workers_sockets(data: Path) -> dict[str, Path]:
    """The sockets of ``sukno serve --workers`` children under ``data`` (``DATA/NAME-i``), by name."""
    try:
        folders = sorted((p for p in data.iterdir() if p.is_dir()), key=lambda p: p.name)
    except OSError:
        return {}
    return {p.name: p / SOCKET_NAME for p in folders if (p / SOCKET_NAME).exists()}


def socket_of(data: Path, node: str | None) -> Path:
    """The socket to speak to: ``data``'s own, or a worker's under it (``node``, or the only one)."""
    own = data / SOCKET_NAME
    found = workers_sockets(data) if node or not own.exists() else {}
    if node:
        if node in found:
            return found[node]
        if data.name == node and own.exists():
            return own
        names = ", ".join(found) or "none"
        raise Ambiguous(f"no worker named {node!r} has a socket under {data} (workers found: {names})")
    if own.exists() or not found:
        return own
    if len(found) == 1:
        return next(iter(found.values()))
    raise Ambiguous(f"{data} holds the sockets of {len(found)} workers ({', '.join(found)}), not one of its own; "
                    f"say which with --node NAME (each of them sees the whole club), "
                    f"e.g. sukno admin --data {data} --node {next(iter(found))} …")


def run_admin(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """The exit status; the answer goes to ``out``, complaints to ``err`` (default: stdout, stderr)."""
    from net.config import ConfigError

    out = out or sys.stdout
    err = err or sys.stderr

    argv = list(args.words)
    as_json = args.json
    if "--json" in argv:
        argv.remove("--json")
        as_json = True
    try:
        path = socket_of(data_folder(args), getattr(args, "node", None))
    except (ConfigError, Ambiguous) as problem:
        if as_json and argv:
            print(json.dumps({"ok": False, "status": 2, "text": str(problem), "data": {}}, ensure_ascii=False), file=out)
        print(f"sukno admin: {problem}", file=err)
        return 2
    if not argv:
        if not path.exists():
            print(f"sukno admin: no sukno server is running with data folder {path.parent} (no socket at {path})",
                  file=err)
            return 2
        from net.house.console import run_console

        return run_console(path)
    try:
        reply = request(path, argv)
    except NotRunning as problem:
        if as_json:
            print(json.dumps({"ok": False, "status": 2, "text": str(problem), "data": {}}, ensure_ascii=False), file=out)
        print(f"sukno admin: {problem}", file=err)
        return 2
    status = int(reply.get("status", 0 if reply.get("ok") else 1))
    if as_json:
        print(json.dumps(reply, ensure_ascii=False), file=out)
    elif reply.get("ok"):
        print(reply.get("text", ""), file=out)
    else:
        print(f"sukno admin: {reply.get('text', '')}", file=err)
    return status
