"""What a known key's session needs from the store on arrival, read in one job off the loop.

The loop probe (PostgreSQL store, load 14) found an arrival's reads the largest stalls: the account by
its key, the ``touch`` noting he came, his settings, his ignore list and his balance, each 100-830 ms
on the loop, while every other session waited.  ``gather`` makes all of them in one job of the
server's ``sukno arrivals`` ``net.ssh.offloop.StoreThread`` (its own PostgreSQL connection; SQLite's
connection is shared under its lock), awaited before the first screen: the loop serves everyone else
meanwhile.  A ``StoreError`` of the account's read is raised by the await, as the read on the loop
raised it (the session's "failed" line); the other reads failing are told as before when used.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from engine.store.base import StoreError
from net.ssh.logsafe import clean

log = logging.getLogger("sukno.identity")


@dataclass
class Arrival:
    """A known key's account as read on arrival (``name`` None: a new key, nothing else is read)."""

    name: str | None = None
    settings: dict[str, str] | BaseException | None = None
    """His saved settings; the error if they could not be read; None if the store keeps none."""
    balance: int | None = None
    """His ledger balance (None: not read, the hall door asks the club itself)."""
    ignores: list[str] | None = None
    """The names he ignores (None: not read, the club reads them when first needed)."""
    money_mark: int | None = None
    """``HallBoard.money_mark()`` when the job was asked: ``balance`` holds while ``money_still`` it."""


def name_in(store: Any, fingerprint: str) -> str | None:
    """The name bound to this key, if any, and the account noted as seen now (when the store can write)."""
    account = store.account_by_key(fingerprint)
    if account is None:
        return None
    try:
        store.touch(account.name)
    except StoreError as err:  # a locked or vanished store must not keep anyone out of the hall
        log.warning("cannot note that %s came in: %s", account.name, err)
    return str(account.name)


def gather(store: Any, fingerprint: str, *, balance: bool, ignores: bool) -> Arrival:
    """In the store's thread: the account of the key and what his first screen shows of it."""
    arrival = Arrival(name_in(store, fingerprint))
    name = arrival.name
    if name is None:
        return arrival
    if hasattr(store, "settings"):
        try:
            arrival.settings = store.settings(name)
        except Exception as err:  # told where they are used (``Session.saved_prefs``), as before
            arrival.settings = err
    if balance:
        try:
            arrival.balance = store.balance(name)
        except Exception:  # the hall door asks again on the loop (the read of before)
            arrival.balance = None
    if ignores and hasattr(store, "ignores"):
        try:
            arrival.ignores = list(store.ignores(name))
        except Exception as err:  # None: not read; the club reads it again when needed and tells him if it fails
            log.warning("cannot read the ignore list of %s on arrival: %s", clean(name), err)
            arrival.ignores = None
    return arrival


__all__ = ["Arrival", "gather", "name_in"]
