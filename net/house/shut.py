"""The accounts the house has disabled or closed: refused at the door, and shown out if they are in.

The set is read from the store (``Store.shut_accounts``) by the console's store thread every few
seconds, so a disable made on another node of the club reaches this one; a change made here is noted
at once.  The gate (``SuknoServer.gates``) is asked wherever a member is let in: the people's door, the
text mode, the bot protocol's hello and a ``key link``, so one check covers them all.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Coroutine, Mapping

from net.modes.texts import text
from net.ssh.identity import fold

log = logging.getLogger("sukno.admin")

FAREWELL = {"disabled": "account_disabled", "closed": "account_closed"}
"""The line a shut account is shown, by its state (``net.modes.texts``)."""
_ending: set[asyncio.Task[None]] = set()


class ShutAccounts:
    """Folded name → state, for every account that may not enter."""

    def __init__(self, states: Mapping[str, str] | None = None) -> None:
        self.states: dict[str, str] = {}
        if states:
            self.take(states)

    def take(self, states: Mapping[str, str]) -> list[str]:
        """The store's whole list (read off the loop); the folded names shut that were not before."""
        fresh = {fold(name): state for name, state in states.items() if state in FAREWELL}
        new = [key for key in fresh if key not in self.states]
        self.states = fresh
        return new

    def note(self, name: str, state: str) -> None:
        """A change made by this node's house (the store already has it)."""
        if state in FAREWELL:
            self.states[fold(name)] = state
        else:
            self.states.pop(fold(name), None)

    def read_back(self, got: tuple[list[str], dict[str, str]], server: Any,
                  show_out: Callable[[list[Any], Callable[[Any], str]], Coroutine[Any, Any, None]]) -> None:
        """On the loop, ``read_shut``'s answer: the names freed are forgotten by the book of names and by
        the ignore lists and mutes in memory, and an account shut on another node loses his sessions here."""
        for name in got[0]:
            getattr(server.accounts, "forget", lambda _name: None)(name)
            server.club.social.renamed(name, None)  # no list in memory may catch the newcomer
        if self.take(got[1]):
            hit = [s for s in server.sessions if not s.closed and self.gate(s)]
            if hit:
                task: asyncio.Task[None] = asyncio.get_running_loop().create_task(
                    show_out(hit, lambda s: self.farewell(s.name, s.lang) or ""), name="sukno shut")
                _ending.add(task)
                task.add_done_callback(_ending.discard)

    def state_of(self, name: str | None) -> str | None:
        return self.states.get(fold(name)) if name else None

    def farewell(self, name: str | None, lang: str) -> str | None:
        """What a shut account is told (in his language), or None if he may enter."""
        state = self.state_of(name)
        return None if state is None else text(lang, FAREWELL[state])

    def gate(self, session: Any) -> str | None:
        """The server's check on a session whose name is known: a shut account's farewell, or None."""
        if getattr(session, "guest", False):
            return None
        refusal = self.farewell(session.name, session.lang)
        if refusal:
            log.info("refused %s: the account is %s", session.name, self.state_of(session.name))
        return refusal


def read_shut(store: Any) -> tuple[list[str], dict[str, str]]:
    """In a store thread: the names just freed (their waiting over) and then the shut accounts."""
    if not hasattr(store, "release_names"):
        return [], {}
    freed = store.release_names()
    for name in freed:
        log.info("the name %s is free again (its account was closed)", name)
    return freed, dict(store.shut_accounts())
