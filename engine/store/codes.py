"""One-time link codes in the store, so that a code made on one node of the club works on every node.

A code (``key add``, the house's ``key-code``) lets a new key join an account without anyone handling a
private key.  The store keeps only a slow hash of it (scrypt: eight letters are few enough to try them
all against a fast hash), the account, and when it stops working.  Spending one is one transaction:
the row is deleted and the key bound together, so of two nodes typing one code at once exactly one
deletes the row and links; the other finds it gone.  A bind the store refuses (the key is another
account's) rolls the deletion back: the code works again.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from engine.store.base import AccountError

SALT = b"sukno one-time link code"
"""Fixed: the hash is how a typed code finds its row; scrypt's cost, not a salt, is what bars trying them all."""
SCRYPT = {"n": 2**12, "r": 8, "p": 1, "dklen": 32}
CODE_MAX = 32
"""Characters of a code as the store takes it (the club's codes are eight letters)."""


def migration(real: str, integer: str) -> tuple[str, ...]:
    """The codes' table, in a backend's words for a float and an account's id."""
    return (
        f"""CREATE TABLE link_code (
            code_hash TEXT PRIMARY KEY,
            account_id {integer} NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            made {real} NOT NULL,
            expires {real} NOT NULL)""",
        "CREATE INDEX link_code_account ON link_code(account_id, made)",
    )


def code_hash(word: str) -> str:
    """The form a code is kept and looked up in (never the code itself)."""
    if not word or len(word) > CODE_MAX:
        raise AccountError(f"a code is 1 to {CODE_MAX} characters")
    return hashlib.scrypt(word.encode("utf-8"), salt=SALT, **SCRYPT).hex()


def put(store: Any, name: str, word: str, life: float, keep: int, now: float | None = None) -> str:
    """Keep a code for the account ``name`` for ``life`` seconds; at most ``keep`` live codes an account
    (the oldest go).  The account's own spelling."""
    at = time.time() if now is None else now
    hashed = code_hash(word)
    with store._tx():
        account_id = store._existing(name)
        spelled = str(store._x("SELECT name FROM account WHERE id = ?", (account_id,)).fetchone()[0])
        store._x("DELETE FROM link_code WHERE expires <= ?", (at,))
        mine = store._x("SELECT code_hash FROM link_code WHERE account_id = ? ORDER BY made DESC, code_hash",
                        (account_id,)).fetchall()
        for (old,) in mine[max(0, keep - 1):]:
            store._x("DELETE FROM link_code WHERE code_hash = ?", (old,))
        store._x("DELETE FROM link_code WHERE code_hash = ?", (hashed,))  # the same letters twice: the new one
        store._x("INSERT INTO link_code (code_hash, account_id, made, expires) VALUES (?, ?, ?, ?)",
                 (hashed, account_id, at, at + life))
    return spelled


def spend(store: Any, word: str, fingerprint: str, now: float | None = None) -> str | None:
    """Bind the key ``fingerprint`` to the account a live code was made for, the code used up in the same
    transaction: the account's name, or None (no such code, used, or expired).  ``AccountError`` when the
    store refuses the bind (the code stays usable)."""
    at = time.time() if now is None else now
    try:
        hashed = code_hash(word)
    except AccountError:
        return None
    with store._tx():
        row = store._x("SELECT account_id FROM link_code WHERE code_hash = ? AND expires > ?", (hashed, at)).fetchone()
        if row is None:
            return None
        gone = store._x("DELETE FROM link_code WHERE code_hash = ? AND account_id = ?", (hashed, row[0])).rowcount
        if gone != 1:  # another node spent it between the two (it waited for that node's row lock)
            return None
        name = str(store._x("SELECT name FROM account WHERE id = ?", (row[0],)).fetchone()[0])
        store.add_key(name, fingerprint, now=at)
    return name


def live(store: Any, name: str, now: float | None = None) -> int:
    """How many live codes the account ``name`` has (for the house and the tests)."""
    at = time.time() if now is None else now
    with store._read():
        row = store._x("SELECT COUNT(*) FROM link_code c JOIN account a ON a.id = c.account_id "
                       "WHERE a.name = ? AND c.expires > ?", (name, at)).fetchone()
    return int(row[0])


__all__ = ["CODE_MAX", "code_hash", "live", "migration", "put", "spend"]
