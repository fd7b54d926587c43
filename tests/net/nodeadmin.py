"""What the tests of a club on several nodes do as its people and its house: register a member over
SSH, and run ``sukno admin --json`` against one node's data folder."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

from sshclient import Client, connect, new_key


async def register(port: int, name: str, key: Any = None, **kw: Any) -> Client:
    """A new member ``name`` on the node at ``port`` (English or Russian welcome)."""
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait(lambda screen: "book of names" in screen or "книгу имён" in screen, timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """The CLI's own parser and runner, with its streams given."""
    from net.cli.admin import run_admin
    from net.cli.main import build_parser

    out, err = io.StringIO(), io.StringIO()
    status = run_admin(build_parser().parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


async def admin(data: Path, *words: str) -> tuple[int, dict]:
    """``sukno admin --data DATA --json WORDS…`` of one node, in a thread."""
    status, out, _err = await asyncio.to_thread(_cli, ["admin", "--data", str(data), "--json", *words])
    return status, json.loads(out) if out.strip() else {}


async def close_all(clients: list[Client], nodes: list[Any]) -> None:
    """A test's end: its sessions closed (one closed already is fine), its nodes stopped."""
    for client in clients:
        try:
            await client.close()
        except Exception:  # noqa: BLE001 - a closed session is fine here
            pass
    for node in nodes:
        node.stop()
        node.kill()
