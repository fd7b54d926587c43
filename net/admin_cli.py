"""``sukno admin``: find the running server's socket in the data folder and speak to it.

With a command it sends that one command, prints the answer and exits with
its status (0 done, 1 refused, 2 usage error or no server); ``--json`` prints
the whole reply as JSON for scripts.  With no command it opens the
interactive console (``net.admin_console``).  The data folder is found exactly
as ``sukno serve`` finds it (``--data``, else the config's, else ``./data``),
so the same flags reach the same server.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

from net.admin import SOCKET_NAME


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
        path = data_folder(args) / SOCKET_NAME
    except ConfigError as problem:
        print(f"sukno admin: {problem}", file=err)
        return 2
    if not argv:
        if not path.exists():
            print(f"sukno admin: no sukno server is running with data folder {path.parent} (no socket at {path})",
                  file=err)
            return 2
        from net.admin_console import run_console

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
