"""The admin's verbs that keep people out or quiet: ban, unban, bans, mute, unmute, mutes.

A ban ends the sessions it hits at once (on this node; ``net.house.commands`` ends another node's
when it reads the bans); a mute holds on every path a person's words take (``engine.table.social``).
With a store thread the change is written there and the loop awaits it (``House.off_loop``).
"""

from __future__ import annotations

import time
from typing import Any

from engine.table import admin_ops
from engine.table.admin_ops import AdminError
from engine.table.owner import sanitize
from net.house.bans import Ban, kind_of, shuts_out
from net.house.verbs import House, Reply, flag, need
from net.modes.texts import text

VERBS = ("ban", "unban", "bans", "mute", "unmute", "mutes")


async def ban(house: House, args: list[str], who: str) -> Reply:
    args, duration = flag(args, "--for", takes_value=True)
    need(args, 1, "ban NAME|FINGERPRINT|ADDRESS [--for DURATION] [reason …]")
    target, reason = args[0], sanitize(" ".join(args[1:]))
    seconds = admin_ops.parse_duration(str(duration)) if duration is not None else None
    if kind_of(target) == "name":
        target = house.account_name(target) if house.known(target) else target
    if house.store_reads is not None:  # written by the store's thread: the loop awaits it
        ban = await house.off_loop(lambda run: house.bans.add_off_loop(run, target, seconds, reason, who))
    else:
        ban = house.bans.add(target, seconds, reason, who)
    hit = [s for s in house.server.sessions if not s.closed and ban_hits(ban, s)]
    await house.show_out(hit, lambda s: ban_text(ban, s.lang))
    until = "for ever" if ban.until is None else f"for {admin_ops.show_duration(seconds or 0)}"
    return Reply(True, f"banned {ban.kind} {ban.target} {until}" + (f" ({len(hit)} session(s) ended)" if hit else ""),
                 {"ban": ban_json(ban), "ended": len(hit)})


async def unban(house: House, args: list[str], who: str) -> Reply:
    need(args, 1, "unban NAME|FINGERPRINT|ADDRESS", 1)
    if house.store_reads is not None:
        gone = await house.off_loop(lambda run: house.bans.remove_off_loop(run, args[0]))
    else:
        gone = house.bans.remove(args[0])
    if not gone:
        raise AdminError(f"{args[0]!r} is not banned")
    return Reply(True, f"lifted the ban on {gone[0].kind} {gone[0].target}", {"lifted": [ban_json(b) for b in gone]})

async def bans(house: House, args: list[str], who: str) -> Reply:
    need(args, 0, "bans", 0)
    house.bans.prune()
    now = time.time()
    rows = [ban_json(b) for b in house.bans.bans]
    if not rows:
        return Reply(True, "nobody is banned", {"bans": []})
    lines = []
    for b in house.bans.bans:
        left = b.left(now)
        until = "for ever" if left is None else f"{admin_ops.show_duration(left)} left"
        lines.append(f"{b.kind:<7} {b.target:<24} {until:<14} by {b.by}: {b.reason or '-'}")
    return Reply(True, "\n".join(lines), {"bans": rows})


async def mute(house: House, args: list[str], who: str) -> Reply:
    args, duration = flag(args, "--for", takes_value=True)
    need(args, 1, "mute NAME [--for DURATION] [reason …]")
    name = house.account_name(args[0]) if house.known(args[0]) else online(house, args[0])
    reason = sanitize(" ".join(args[1:]))
    seconds = admin_ops.parse_duration(str(duration)) if duration is not None else None
    social = house.club.social
    if house.store_reads is not None and social.store is not None:  # the store's thread writes it
        mute = social.mute_of(name, seconds, reason, who)
        await house.off_loop(lambda run: run(lambda own: own.set_mute(name, mute.until, reason, who)))
        social.mute(name, seconds, reason, who, keep=False)
    else:
        mute = social.mute(name, seconds, reason, who)
    until = "for ever" if mute.until is None else f"for {admin_ops.show_duration(seconds or 0)}"
    return Reply(True, f"muted {name} {until}" + (f": {reason}" if reason else ""),
                 {"name": name, "until": mute.until, "reason": reason})

def online(house: House, name: str) -> str:
    spelled = house.club.online_name(name)
    if spelled is None:
        raise AdminError(f"there is no account named {name!r}")
    return spelled

async def unmute(house: House, args: list[str], who: str) -> Reply:
    need(args, 1, "unmute NAME", 1)
    social = house.club.social
    if house.store_reads is not None and social.store is not None and social.muted(args[0]) is not None:
        await house.off_loop(lambda run: run(lambda own: own.clear_mute(args[0])))
        social.unmute(args[0], keep=False)
    elif not social.unmute(args[0]):
        raise AdminError(f"{args[0]!r} is not muted")
    return Reply(True, f"unmuted {args[0]}", {"name": args[0]})

async def mutes(house: House, args: list[str], who: str) -> Reply:
    need(args, 0, "mutes", 0)
    now = house.club.social.wall()
    mutes = house.club.social.mutes()
    if not mutes:
        return Reply(True, "nobody is muted", {"mutes": []})
    lines = []
    for m in mutes:
        left = "for ever" if m.until is None else f"{admin_ops.show_duration(max(0, m.until - now))} left"
        lines.append(f"{m.name:<16} {left:<14} by {m.by}: {m.reason or '-'}")
    return Reply(True, "\n".join(lines), {"mutes": [{"name": m.name, "until": m.until, "reason": m.reason,
                                                      "by": m.by} for m in mutes]})


def ban_hits(ban: Ban, session: Any) -> bool:
    return shuts_out(ban, name=session.name, key=session.conn.fingerprint, address=session.conn.peer)

def ban_text(ban: Ban, lang: str) -> str:
    reason = ban.reason or text(lang, "no_reason")
    if ban.until is None:
        return text(lang, "banned_ever", reason=reason)
    until = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ban.until))
    return text(lang, "banned", until=until, reason=reason)


def ban_json(ban: Ban) -> dict[str, Any]:
    return {"kind": ban.kind, "target": ban.target, "until": ban.until, "reason": ban.reason, "by": ban.by}
