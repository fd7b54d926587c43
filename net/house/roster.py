"""Who is connected, for the admin: the sessions' rows (this node's and the others'), and a line shown to all."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Iterable

log = logging.getLogger("sukno.admin")


def where(club: Any, session: Any) -> str:
    """Where a session of this node is: watching a table, seated at one, or in the hall."""
    if session.watching is not None:
        return f"watching {session.watching}"
    table = club.where(session.name) if session.name else None
    return f"table {table.id} seat {table.seat_of(session.name) + 1}" if table is not None else "hall"


def session_rows(server: Any) -> list[dict[str, Any]]:
    """Every session of the club: this node's from memory, the other nodes' from the store's
    presence rows as last read (``net.cluster.presence``: no store call here), each with its node's name."""
    club, now = server.club, time.monotonic()
    rows = []
    presence = getattr(server, "presence", None)
    node = presence.node if presence is not None else "main"
    for s in sorted(server.sessions, key=lambda s: s.started):
        rows.append({
            "node": node,
            "name": s.name, "guest": s.guest, "address": s.conn.peer, "key": s.conn.fingerprint,
            "where": where(club, s), "lang": s.lang, "seconds": round(now - s.started),
            "idle": round(now - s.last_input),
            "muted": bool(s.name and club.social.muted(s.name) is not None),
            "away": bool(s.name and club.is_away(s.name)),
        })
    wall = time.time()
    for p in presence.elsewhere() if presence is not None else []:
        rows.append({
            "node": p.node, "name": p.name, "guest": p.guest, "address": p.address, "key": p.key,
            "where": p.place, "lang": p.lang, "seconds": max(0, round(wall - p.since)),
            "idle": None if p.active is None else max(0, round(wall - p.active)),
            "muted": bool(p.name and club.social.muted(p.name) is not None), "away": False,
        })
    return rows


def sessions_text(rows: list[dict[str, Any]]) -> str:
    """The rows as the admin reads them; a node's column once the club has more than one."""
    nodes = len({r["node"] for r in rows}) > 1 or rows[0]["node"] != "main"
    lines = [("node         " if nodes else "") + f"{'name':<16} {'address':<15} {'where':<18} {'time':>6} {'idle':>6}  key"]
    for r in rows:
        name = (r["name"] or "-") + (" (guest)" if r["guest"] else "")
        idle = "-" if r["idle"] is None else f"{r['idle']}s"
        lines.append((f"{r['node'][:12]:<12} " if nodes else "") +
                     f"{name:<16} {r['address']:<15} {r['where']:<18} {r['seconds']:>5}s {idle:>6}"
                     f"  {r['key'] or '-'}")
    return "\n".join(lines)


def broadcast(sessions: Iterable[Any], line: Callable[[str], str]) -> int:
    """Show a line to every session: a notice in a player's App, a note in a watcher's row."""
    count = 0
    for session in list(sessions):
        if session.closed:
            continue
        message = line(session.lang)
        app, member, door = session.app, session.member, getattr(session, "door", None)
        if app is not None:
            app.call_later(app.announce, message)  # a log line (tui.app.ClubApp.announce)
        elif door is not None:
            door.announce(message)  # a log line in the hall door (net.modes.hall)
        elif member is not None:
            member.say_note(message)
        elif getattr(session, "text", None) is not None:
            session.text.notice(message)
        else:
            continue
        count += 1
    return count


def admin_keys(config: Any, store: Any) -> frozenset[str]:
    """Admin is a key, not a name: the config's ``[admin] keys``, and the keys that the accounts named
    in ``[admin] accounts`` have in the store now, at start (a name registered later gets nothing)."""
    keys = {str(k) for k in getattr(config, "admin_keys", [])}
    for name in getattr(config, "admins", []):
        account = store.account(name) if store is not None else None
        if account is None or not account.keys:
            log.warning("config: the admin account %r does not exist with a key; it has no admin rights "
                        "(list its key in [admin] keys)", name)
            continue
        keys |= set(account.keys)
    return frozenset(keys)
