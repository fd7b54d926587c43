"""The admin's verbs on accounts: accounts, account NAME rename|disable|enable|close|key-code, key add.

Every store call is made by the console's store thread (``House.off_loop``), never on the loop.  A
rename keeps the account's id (its records, keys and settings) and moves its purse and ratings to the
new name, and with them his mute and a ban of his name (``engine.store.accounts``); its name obeys the registration's rules, look-alikes included
(``net.ssh.identity``).  A disabled or closed account is shown out wherever it is and refused at every
door (``net.house.shut``); a seat he held is then a dropped player's, as after a kick.  A closed
account's name is held ``[admin] name_hold_days`` before a newcomer may take it.  A lost key is
replaced without the house ever holding a key: ``key-code`` makes the one-time code that ``key link``
takes from the player's new key, as a member's own ``key add`` does; the store keeps it hashed, so it
works on any node (``engine.store.codes``), and never the code itself, nor does the audit log.
"""

from __future__ import annotations

import fnmatch
import time
from typing import Any, Callable

from engine.store.base import AccountError
from engine.table.admin_ops import AdminError
from engine.table.social import CODE_LIFE, CODES_PER_ACCOUNT, new_code, shown_code
from net.house.shut import FAREWELL
from net.house.verbs import House, Reply, UsageError, need
from net.modes.texts import text
from net.ssh.identity import check_name, fold

VERBS = ("accounts", "account", "key")
SHOWN = 50
"""The most accounts one listing shows (it says how many more match)."""
PATTERN_MAX = 64
ACCOUNT_USAGE = "account NAME [rename NEW | disable | enable | close | key-code]"
ACTIONS = ("rename", "disable", "enable", "close", "key-code")


async def accounts(house: House, args: list[str], who: str) -> Reply:
    need(args, 0, "accounts [PATTERN]", 1)
    pattern = args[0] if args else ""
    if len(pattern) > PATTERN_MAX or not pattern.isprintable():
        raise UsageError(f"a pattern is printable text of at most {PATTERN_MAX} characters")
    rows, total = await _store(house, lambda own: _listing(own, pattern))
    if not rows:
        return Reply(True, f"no account matches {pattern!r}" if pattern else "the club has no accounts",
                     {"accounts": [], "total": 0, "more": 0})
    lines = [_line(row) for row in rows]
    more = total - len(rows)
    if more:
        lines.append(f"… and {more} more; narrow it with a pattern")
    return Reply(True, "\n".join(lines), {"accounts": rows, "total": total, "more": more})


async def account(house: House, args: list[str], who: str) -> Reply:
    need(args, 1, ACCOUNT_USAGE)
    name, action = args[0], (args[1].lower() if len(args) > 1 else "")
    rest = args[2:]
    if not action:
        found = await _store(house, lambda own: own.account(name))
        if found is None:
            raise AdminError(f"there is no account named {name!r}")
        row = _row(found)
        return Reply(True, _line(row) + "\n" + "\n".join(f"  key {k}" for k in row["keys"]), {"account": row})
    if action not in ACTIONS:
        raise UsageError(f"usage: {ACCOUNT_USAGE}")
    need(rest, 1 if action == "rename" else 0, ACCOUNT_USAGE, 1 if action == "rename" else 0)
    if action == "rename":
        return await _rename(house, name, rest[0])
    if action == "key-code":
        return await _key_code(house, name)
    return await _set_state(house, name, {"disable": "disabled", "enable": "active", "close": "closed"}[action])


async def key(house: House, args: list[str], who: str) -> Reply:
    """``key add NAME``: the issue's words for ``account NAME key-code``."""
    if len(args) >= 2 and args[0].lower() == "add":
        if len(args) > 2:
            raise UsageError("key add NAME: the house never takes a key; it makes a one-time code that the "
                             "player types from his new key (key link CODE)")
        return await _key_code(house, args[1])
    raise UsageError("usage: key add NAME")


# -- the acts ------------------------------------------------------------------------------------


async def _rename(house: House, name: str, new: str) -> Reply:
    accounts_book = house.server.accounts
    if fold(new) == fold(name):  # his own name in other letters: only the rules, not "taken"
        problem = check_name(new, "en", getattr(accounts_book, "reserved", frozenset()))
    else:
        problem = accounts_book.precheck(new) if hasattr(accounts_book, "precheck") else check_name(new)
    if problem:
        raise AdminError(f"{new!r} cannot be a name: {problem}")
    far = _nodes_of(house, name)
    if far:  # his session there would go on under a name whose purse has moved
        raise AdminError(f"{name} is connected on node {', '.join(far)}; kick him (kick {name}) and rename then")
    old, spelled, bans = await _store(house, lambda own: _renamed(own, name, new, house.bans))
    house.bans.made += 1  # after the write: a read begun before it is stale
    house.bans.take(bans)  # a ban of his name is his new name's now, here at once (the others read it)
    if hasattr(accounts_book, "forget"):
        accounts_book.forget(old)
        accounts_book.named(spelled)
    house.club.social.renamed(old, spelled)  # the store moved his mute and the lists ignoring him
    relay = getattr(house, "house_relay", None)
    if relay is not None:  # the other nodes' books of names and lists, at once
        relay.renamed_here(old, spelled)
    shut = getattr(house, "shut", None)
    state = shut.state_of(old) if shut is not None else None
    if shut is not None and state:
        shut.note(old, "active")
        shut.note(spelled, state)
    ended = await _show_out(house, old, lambda s: text(s.lang, "account_renamed", name=spelled))
    return Reply(True, f"renamed {old} to {spelled}; his records, keys and ledger stay his"
                 + (f" ({ended} session(s) ended: he comes back as {spelled})" if ended else ""),
                 {"name": spelled, "was": old, "ended": ended})


def _renamed(own: Any, name: str, new: str, bans: Any) -> tuple[str, str, list[Any]]:
    """In the store thread: no other account may read as ``new`` (look-alikes too), then the rename (a
    ban of his name moved with it); the bans as they are now."""
    current = own.account(name)
    if current is None:
        raise AccountError(f"there is no account named {name!r}")
    wanted = fold(new)
    for other, _state in own.account_list():
        if fold(other) == wanted and fold(other) != fold(current.name):
            raise AccountError(f"{new!r} reads as the account {other!r}; choose another")
    old, spelled = own.rename_account(current.name, new)
    return str(old), str(spelled), bans.read_pruned(own)[1]


async def _set_state(house: House, name: str, state: str) -> Reply:
    hold = float(getattr(house.server.config, "name_hold_days", 30))
    free_at = time.time() + hold * 86400 if state == "closed" else None
    spelled = await _store(house, lambda own: own.set_account_state(name, state, free_at=free_at))
    shut = getattr(house, "shut", None)
    if shut is not None:
        shut.note(spelled, state)
    ended = 0
    if state in FAREWELL:
        ended = await _show_out(house, spelled, lambda s: text(s.lang, FAREWELL[state]))
    words = {"disabled": "disabled", "active": "enabled", "closed": "closed"}[state]
    said = f"{words} {spelled}" + (f" ({ended} session(s) ended)" if ended else "")
    if free_at is not None:
        said += f"; his name is free for newcomers from {_date(free_at)}"
    return Reply(True, said, {"name": spelled, "state": state, "ended": ended, "free_at": free_at})


async def _key_code(house: House, name: str) -> Reply:
    code = new_code()
    spelled, state = await _store(house, lambda own: _code_kept(own, name, code))
    if state != "active":
        raise AdminError(f"{spelled} is {state}; enable the account first")
    shown = shown_code(code)
    said = (f"a one-time code for {spelled}: {shown} (works once, on any node, for {int(CODE_LIFE // 60)} minutes); "
            f"he connects with his new key and types  key link {shown}  when asked for a name")
    return Reply(True, said, {"name": spelled, "code": shown, "expires_in": CODE_LIFE},
                 audit=f"a one-time code for {spelled} was made")


def _code_kept(own: Any, name: str, code: str) -> tuple[str, str]:
    """In the store thread: the code kept (hashed) for an active account; (his spelling, his state)."""
    found = own.account(name)
    if found is None:
        raise AccountError(f"there is no account named {name!r}")
    if found.state == "active":
        own.put_link_code(found.name, code, life=CODE_LIFE, keep=CODES_PER_ACCOUNT)
    return str(found.name), str(found.state)


# -- the helpers -----------------------------------------------------------------------------


async def _store(house: House, work: Callable[[Any], Any]) -> Any:
    """``work(store)`` in the console's store thread (or now, without one); a refusal in words."""
    store = getattr(house.server, "store", None)
    if store is None or not hasattr(store, "set_account_state"):
        raise AdminError("this club keeps no accounts in a store")
    if house.store_reads is not None:
        return await house.off_loop(lambda run: run(work))
    try:
        return work(store)
    except AccountError as err:
        raise AdminError(f"the store refused it; nothing changed: {err}") from None


def _listing(own: Any, pattern: str) -> tuple[list[dict[str, Any]], int]:
    """In the store thread: the accounts matching ``pattern`` (the first ``SHOWN``) and how many match."""
    matching = [name for name, _state in own.account_list() if _matches(name, pattern)]
    rows = []
    for name in matching[:SHOWN]:
        found = own.account(name)
        if found is not None:
            rows.append(_row(found))
    return rows, len(matching)


def _matches(name: str, pattern: str) -> bool:
    """A glob (``*``, ``?``, ``[…]``) or else a substring, both compared folded (case and look-alikes)."""
    if not pattern:
        return True
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(fold(name), fold(pattern))
    return fold(pattern) in fold(name)


def _row(found: Any) -> dict[str, Any]:
    return {"name": found.name, "created": found.created, "last_seen": found.last_seen, "balance": found.balance,
            "keys": list(found.keys), "state": found.state, "role": found.role, "free_at": found.free_at}


def _line(row: dict[str, Any]) -> str:
    seen = _date(row["last_seen"]) if row["last_seen"] else "never"
    return (f"{row['name']:<16} {row['state']:<8} {row['balance']:>9} kop  {len(row['keys'])} key(s)  "
            f"since {_date(row['created'])}  seen {seen}")


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def _nodes_of(house: House, name: str) -> list[str]:
    """The other nodes where ``name`` has a session, as this node last read their presence."""
    presence = getattr(house.server, "presence", None)
    if presence is None:
        return []
    wanted = fold(name)
    return sorted({row.node for row in presence.elsewhere() if fold(row.name) == wanted})


async def _show_out(house: House, name: str, farewell: Callable[[Any], str]) -> int:
    """End this node's sessions of ``name`` (another node's end when it reads the shut accounts)."""
    wanted = fold(name)
    sessions = [s for s in house.server.sessions if s.name and fold(s.name) == wanted and not s.closed
                and not getattr(s, "guest", False)]
    await house.show_out(sessions, farewell)
    return len(sessions)
