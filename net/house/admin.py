"""The house's console: a Unix socket in the data folder and the admin commands.

``sukno admin`` (one command, or the interactive console) and the ``admin``
verb of admin accounts in the club all come here as an argv list and get a
``Reply``; the socket speaks one JSON object per line each way::

    → {"argv": ["close", "3", "--after-deal"]}
    ← {"ok": true, "status": 0, "text": "…", "data": {…}}

``status`` is what ``sukno admin`` exits with: 0 done, 1 refused (unknown
table, bad option…), 2 a usage error.

Who may speak (why two locks): the socket is created with mode 0600 inside
the data folder, so the kernel refuses ``connect`` to every other Unix user
but root; and each connection's peer credentials (``SO_PEERCRED``) are checked
against the server's own uid, so a socket whose mode was loosened by mistake
still answers nobody else.  Root is let in: it could read the data folder anyway.

The commands themselves are ``net.house.commands``; every action is written
to ``<data>/audit.log`` (``net.house.bans.AuditLog``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pwd
import shlex
import socket
import struct
from pathlib import Path
from typing import Any, Awaitable, Callable

from net.house import moderation
from net.house.commands import COMMANDS, AdminCommands, Reply

__all__ = ["COMMANDS", "SOCKET_NAME", "AdminCommands", "AdminSocket", "Reply", "admin_runner", "socket_path",
           "start_admin"]

log = logging.getLogger("sukno.admin")

SOCKET_NAME = "admin.sock"
MAX_LINE = 1 << 16


# -- the socket -------------------------------------------------------------------------


def socket_path(data: Path) -> Path:
    return Path(data) / SOCKET_NAME


def peer_uid(writer: asyncio.StreamWriter) -> int | None:
    sock = writer.get_extra_info("socket")
    if sock is None:
        return None
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    return struct.unpack("3i", creds)[1]


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


class AdminSocket:
    """Listens on ``<data>/admin.sock`` (0600) and runs each line through ``AdminCommands``."""

    def __init__(self, commands: AdminCommands, path: Path, *, owner_uid: int | None = None) -> None:
        self.commands = commands
        self.path = path
        self.owner_uid = os.getuid() if owner_uid is None else owner_uid
        self._server: asyncio.base_events.Server | None = None
        self._clients: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        path = self.path
        if len(os.fsencode(path)) >= 104:
            raise OSError(f"the admin socket path {path} is too long for a Unix socket; use a shorter data folder")
        if path.exists() or path.is_symlink():
            if await _answers(path):
                raise OSError(f"another sukno server is running with this data folder (it answers at {path})")
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        old = os.umask(0o177)
        try:
            self._server = await asyncio.start_unix_server(self._client, str(path), limit=MAX_LINE)
        finally:
            os.umask(old)
        os.chmod(path, 0o600)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._clients):
                task.cancel()
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2)
            except asyncio.TimeoutError:
                pass
            self._server = None
        try:
            self.path.unlink()
        except OSError:
            pass

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._clients.add(task)
        try:
            uid = peer_uid(writer)
            if uid is None or uid not in (self.owner_uid, 0):
                log.warning("admin socket: refused a connection from uid %s", uid)
                await _send(writer, Reply(False, f"refused: only the server's own user ({user_name(self.owner_uid)}) "
                                          "may administer this club", status=2))
                return
            who = f"unix:{user_name(uid)}"
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    await _send(writer, Reply(False, "request too long", status=2))
                    return
                if not line:
                    return
                await _send(writer, await self._answer(line, who))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if task is not None:
                self._clients.discard(task)
            writer.close()

    async def _answer(self, line: bytes, who: str) -> Reply:
        try:
            request = json.loads(line)
            argv = request["argv"]
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise TypeError
        except (ValueError, TypeError, KeyError, RecursionError):  # RecursionError: JSON nested too deeply
            return Reply(False, 'bad request: send {"argv": ["command", "arg", …]} on one line', status=2)
        return await self.commands.run(argv, who)


async def _send(writer: asyncio.StreamWriter, reply: Reply) -> None:
    writer.write(json.dumps(reply.to_json(), ensure_ascii=False).encode("utf-8") + b"\n")
    await writer.drain()


async def _answers(path: Path) -> bool:
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 2)
    except (OSError, asyncio.TimeoutError):
        return False
    writer.close()
    try:
        await asyncio.wait_for(writer.wait_closed(), 2)
    except (OSError, asyncio.TimeoutError):
        pass
    return True


async def start_admin(server: Any, on_shutdown: Callable[[], Any] | None = None) -> AdminSocket:
    """Open the admin socket of a started ``SuknoServer`` (``sukno serve`` calls this).

    ``OSError`` with a sentence when it cannot: another server on this data
    folder, a path too long for a socket, an unreadable ``bans.json``.
    """
    try:
        commands = AdminCommands(server, on_shutdown)
    except ValueError as err:  # BanList: a bans file that is not one
        raise OSError(str(err)) from None
    admin = AdminSocket(commands, socket_path(server.config.data))
    try:
        await admin.start()
    except OSError:
        commands.close()
        raise
    server.admin = commands
    commands.watch_store()
    moderation.follow_motd(commands)  # the house's message of the day, as the store keeps it
    commands.join_cluster()
    return admin


def admin_runner(session: Any) -> Callable[[str], Awaitable[Reply | None]]:
    """The ``admin …`` verb of a player's session: the reply, or None when he is no admin.

    Admin is a key, not a name: the session's key must be one of
    ``commands.admin_keys`` (the config's ``[admin] keys``, and the keys the
    accounts of ``[admin] accounts`` had when the server started); a name
    typed at the welcome screen never makes anyone admin.  Guests never are.
    """

    async def run(line: str) -> Reply | None:
        server, name = session.server, session.name
        commands = getattr(server, "admin", None)
        key = None if session.guest else session.conn.fingerprint
        if commands is None or not name or key is None or key not in commands.admin_keys:
            if name and commands is not None:
                try:  # at most one line a minute per person, however often he tries
                    if commands.audit.refused(f"ssh:{name}", ["admin", line[:200]], "refused: not an admin"):
                        log.warning("refused admin %r from %s (not an admin)", line[:80], name)
                except OSError as err:
                    log.error("cannot write the audit log: %s", err)
            return None
        try:
            argv = shlex.split(line)
        except ValueError as err:
            return Reply(False, f"cannot read that line: {err}", status=2)
        # Shielded: an admin who kicks himself ends the App whose worker awaits this,
        # and the command must still finish and be audited.
        return await asyncio.shield(commands.run(argv, f"ssh:{name}"))

    return run
