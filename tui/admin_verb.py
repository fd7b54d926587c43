"""The ``admin`` verb: admin accounts run the house's commands from their own screen.

The TUI knows nothing of sockets or sessions: ``ClubApp`` is given
``admin(line) -> Awaitable[reply | None]`` by net, the same dispatcher the
admin socket uses (one path, one audit log).  ``None`` means this player is
not an admin; he is refused in his own language and nothing runs.  A reply
has ``ok`` and ``text``; the text is the house's own (English, as ``sukno
admin`` prints it), since only the club's hosts read it.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Protocol, runtime_checkable

from tui.host import Lines

log = logging.getLogger("sukno.tui")


class AdminReply(Protocol):
    ok: bool
    text: str


AdminRunner = Callable[[str], Awaitable[Any]]
"""``admin(line)``: the reply, or None when the player may not administer the club."""


@runtime_checkable
class AdminScreen(Lines, Protocol):
    """The screen the verb is typed on: its lines, and a worker to wait in (a Textual screen's)."""

    def run_worker(self, work: Awaitable[Any], *, group: str = ...) -> Any: ...


def run_admin(screen: AdminScreen, rest: str) -> None:
    """Start ``admin REST`` in a worker (the command may wait, e.g. for a kicked session to close)."""
    runner: AdminRunner | None = getattr(screen.club_app, "admin", None)
    if runner is None:
        screen.error(screen.t("admin.refused"))
        return
    screen.run_worker(_run(screen, runner, rest.strip() or "help"), group="admin")


async def _run(screen: AdminScreen, runner: AdminRunner, line: str) -> None:
    try:
        reply = await runner(line)
    except Exception:  # the club must never show a traceback
        log.exception("admin %r failed", line)
        screen.error(screen.t("cmd.failed"))
        return
    if reply is None:
        screen.error(screen.t("admin.refused"))
        return
    for text in str(reply.text).splitlines() or [""]:
        if reply.ok:
            screen.say_line(text)
        else:
            screen.error(text)
