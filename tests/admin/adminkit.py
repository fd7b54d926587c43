"""Helpers for the admin tests: a real server with its admin socket, and ``sukno admin`` as a script runs it."""

from __future__ import annotations

import asyncio
import io
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

sys.path.insert(0, str(Path(__file__).parent.parent / "net"))

from sshclient import running  # noqa: E402


@asynccontextmanager
async def admin_server(config: Any, **kwargs: Any) -> AsyncIterator[Any]:
    """A real SSH server on port 0 with its admin socket; yields the server (``server.admin``: the commands)."""
    from net.house.admin import start_admin

    async with running(config, **kwargs) as server:
        sock = await start_admin(server)
        server.admin_socket = sock  # so that a test can take the socket away
        try:
            yield server
        finally:
            await sock.close()
            server.admin.close()


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """The CLI's own parser and runner, with its streams given (Textual swaps sys.stdout while apps run)."""
    from net.cli.admin import run_admin
    from net.cli.main import build_parser

    out, err = io.StringIO(), io.StringIO()
    status = run_admin(build_parser().parse_args(argv), out, err)
    return status, out.getvalue(), err.getvalue()


async def sukno_admin(data: Path, *words: str) -> tuple[int, str, str]:
    """``sukno admin --data DATA WORDS…`` in a thread (it blocks on the socket): (status, stdout, stderr)."""
    return await asyncio.to_thread(_cli, ["admin", "--data", str(data), *words])
