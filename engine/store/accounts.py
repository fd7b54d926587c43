"""The house's hold on accounts in the store: a state (active, disabled, closed), a rename, a name freed.

An account is its row's id: records point at it (``record_player.account_id``), its keys, settings and
ignore list too.  Only the ledger and the ratings know an account by its name (a purse is spelt as its
account is), so a rename moves that purse, its entries and its ratings to the new name in the same
transaction: the account's statement keeps every movement, the records keep the name each deal was
played under, and every transaction still sums to zero.  The house's hold on the name goes with him
too: his mute, a ban of his name (a banned account renamed stays banned), the lists that ignore him.

A closed account keeps its name until ``free_at``; then ``release_names`` gives the name back to the
club by renaming the account ``closed:<id>:<name>``.  A ``:`` is never in a name a person chooses, so
that spelling is a pool's (its purse can never be a new member's), and the history stays whole under it.
"""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

from engine.names import look_key
from engine.store.base import AccountError

STATES = ("active", "disabled", "closed")
"""An account's states: a disabled or closed account cannot enter; a closed one's name is freed later."""


def migration(real: str) -> tuple[str, ...]:
    """The state columns, in a backend's words for a float (existing accounts are active)."""
    return (
        "ALTER TABLE account ADD COLUMN state TEXT NOT NULL DEFAULT 'active'",
        f"ALTER TABLE account ADD COLUMN free_at {real}",
        # every node reads the shut accounts every few seconds: the few of them, not the whole club
        "CREATE INDEX account_shut ON account(state) WHERE state <> 'active'",
    )


def released_name(account_id: int, name: str) -> str:
    """The spelling a closed account takes when its name is freed (a pool's: it has a ``:``)."""
    return f"closed:{account_id}:{name}"


def set_state(store: Any, name: str, state: str, free_at: float | None) -> str:
    """Put the account ``name`` in ``state``; its own spelling.  A freed account is changed no more."""
    if state not in STATES:
        raise AccountError(f"an account's state is one of {', '.join(STATES)}, not {state!r}")
    with store._tx():
        account_id = store._existing(name)
        spelled, was = store._x("SELECT name, state FROM account WHERE id = ?", (account_id,)).fetchone()
        spelled = str(spelled)
        if ":" in spelled:
            raise AccountError(f"{spelled} was closed and its name freed; it changes no more")
        if state == "closed" == was:  # closing again would put the freeing of his name off
            raise AccountError(f"{spelled} is closed already")
        store._x("UPDATE account SET state = ?, free_at = ? WHERE id = ?",
                 (state, free_at if state == "closed" else None, account_id))
    return spelled


def rename(store: Any, old: str, new: str, key_of: Any, check_name: Any) -> tuple[str, str]:
    """Rename the account ``old`` to ``new`` (the purse, its entries and ratings with it): (old, new) spelt.

    Refused when ``new`` is another account's, or while ``old`` plays at a live table (its journal posts
    to the purse by name)."""
    new = check_name(new)
    with store._tx():
        account_id = store._existing(old)
        spelled = str(store._x("SELECT name FROM account WHERE id = ?", (account_id,)).fetchone()[0])
        if ":" in spelled:
            raise AccountError(f"{spelled} was closed and its name freed; it changes no more")
        other = store._account_id(new)
        if other is not None and other != account_id:
            raise AccountError(f"the name {new!r} is taken; choose another")
        refuse_lookalike(store, new, account_id)
        table = _seated_at(store, spelled, key_of)
        if table is not None:
            raise AccountError(f"{spelled} plays at table {table}; rename him when he has left it")
        _respell(store, account_id, spelled, new, key_of)
    return spelled, new


def refuse_lookalike(store: Any, name: str, account_id: int = -1) -> None:
    """Inside a transaction: ``AccountError`` if another account's name looks like ``name``."""
    alike = store._x("SELECT name FROM account WHERE look_key = ? AND id <> ?", (look_key(name), account_id)).fetchone()
    if alike is not None:
        raise AccountError(f"the name {name!r} looks like {alike[0]!r}, which is taken; choose another")


def release_names(store: Any, now: float | None, key_of: Any) -> list[str]:
    """Free the names of closed accounts whose waiting is over; the names freed (a write only if any)."""
    at = time.time() if now is None else now
    with store._read():
        due = store._x("SELECT id, name FROM account WHERE state <> 'active' AND state = 'closed' "  # the index's
                       "AND free_at IS NOT NULL AND free_at <= ?", (at,)).fetchall()
    due = [(int(i), str(n)) for i, n in due if ":" not in str(n)]
    if not due:
        return []
    freed = []
    with store._tx():
        for account_id, name in due:
            _respell(store, account_id, name, released_name(account_id, name), key_of, follow=False)
            freed.append(name)
    return freed


def shut(store: Any) -> dict[str, str]:
    """Every account that may not enter: its name → its state (disabled or closed)."""
    with store._read():
        rows = store._x("SELECT name, state FROM account WHERE state <> 'active'").fetchall()
    return {str(n): str(s) for n, s in rows}


def listing(store: Any) -> list[tuple[str, str]]:
    """Every account's name and state, in the order of its name key (cheap: for a pattern to filter)."""
    with store._read():
        rows = store._x(f"SELECT name, state FROM account ORDER BY name_key{store.COLLATE}").fetchall()
    return [(str(n), str(s)) for n, s in rows]


def _respell(store: Any, account_id: int, old: str, new: str, key_of: Any, follow: bool = True) -> None:
    """Inside a transaction: the account, its purse and entries and ratings spelt ``new``; his mute and
    the ignore lists that name him follow (``follow``) or, his name freed, are dropped."""
    store._x("UPDATE account SET name = ?, name_key = ?, look_key = ? WHERE id = ?",
             (new, key_of(new), look_key(new), account_id))
    row = store._x("SELECT balance FROM purse WHERE name = ?", (old,)).fetchone()
    if row is not None and old != new:
        store._x("INSERT INTO purse VALUES (?, ?)", (new, row[0]))
        store._x("UPDATE ledger_entry SET purse = ? WHERE purse = ?", (new, old))
        store._x("DELETE FROM purse WHERE name = ?", (old,))
    store._x("DELETE FROM rating WHERE name = ? AND bot = 0", (new,))
    store._x("UPDATE rating SET name = ? WHERE name = ? AND bot = 0", (new, old))
    if not follow:  # his name is freed: nobody's list, no mute and no ban may catch the newcomer who takes it
        store._x("DELETE FROM mute WHERE name_key = ?", (key_of(old),))
        store._x("DELETE FROM account_ignore WHERE other_key = ?", (key_of(old),))
        store._x("DELETE FROM ban WHERE kind = 'name' AND target_key = ?", (look_key(old),))
        return
    _move_name_ban(store, old, new)
    if key_of(old) != key_of(new):
        store._x("DELETE FROM mute WHERE name_key = ?", (key_of(new),))
        store._x("UPDATE mute SET name_key = ?, name = ? WHERE name_key = ?", (key_of(new), new, key_of(old)))
        store._x("DELETE FROM account_ignore WHERE other_key = ? AND account_id IN "
                 "(SELECT account_id FROM account_ignore WHERE other_key = ?)", (key_of(new), key_of(old)))
    store._x("UPDATE account_ignore SET other_key = ?, other = ? WHERE other_key = ?", (key_of(new), new, key_of(old)))


def _move_name_ban(store: Any, old: str, new: str) -> None:
    """Inside a transaction: a ban of the name ``old`` bans ``new`` now (a ban by name is the person's,
    compared as ``net.house.bans`` compares names: by their looks).  A ban of ``new`` already there
    stays when ``old`` had none: a rename never lifts a ban."""
    before, after = look_key(old), look_key(new)
    if store._x("SELECT 1 FROM ban WHERE kind = 'name' AND target_key = ?", (before,)).fetchone() is None:
        return
    if before != after:
        store._x("DELETE FROM ban WHERE kind = 'name' AND target_key = ?", (after,))
    store._x("UPDATE ban SET target_key = ?, target = ? WHERE kind = 'name' AND target_key = ?", (after, new, before))


def _seated_at(store: Any, name: str, key_of: Any) -> Any:
    """The live table whose seats hold ``name``'s purse, or None."""
    wanted = key_of(name)
    rows: Sequence[Any] = store._x("SELECT table_id, header FROM live_table").fetchall()
    for table_id, header in rows:
        seats = json.loads(header).get("seats", [])
        if any(isinstance(s, str) and ":" not in s and key_of(s) == wanted for s in seats):
            return store._tid_out(table_id)
    taken = store._x("SELECT table_id, payload FROM journal WHERE kind = 'seat'").fetchall()
    for table_id, payload in taken:  # a seat he took after the session began
        purse = json.loads(payload).get("purse")
        if isinstance(purse, str) and key_of(purse) == wanted:
            return store._tid_out(table_id)
    return None


__all__ = ["STATES", "listing", "migration", "release_names", "released_name", "rename", "set_state", "shut"]
