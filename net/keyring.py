"""A person's keys (issue 20): ``key add`` makes a one-time code, a new key types ``key link CODE``.

The TUI asks only for ``add() -> code``, ``link(code) -> name | catalogue key``,
``list() -> [(fingerprint, is this session's)]`` and ``remove(fingerprint) ->
None | catalogue key``; the codes themselves are ``engine.social``'s (eight
letters, ten minutes, once).  A session may try ``LINK_TRIES`` codes, so a
code cannot be guessed by trying.  A removed key's open sessions are shown
out; its next visit is a new key's (it is asked for a name).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from engine.store import AccountError
from net.logsafe import clean

if TYPE_CHECKING:
    from net.session import Session

log = logging.getLogger("sukno.keys")

LINK_TRIES = 5
_closing: set[asyncio.Task[None]] = set()


class KeyRing:
    """The keys of one session's account."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.tries = 0

    @property
    def _store(self) -> Any:
        return self.session.server.store

    def add(self) -> str:
        code = self.session.server.club.social.new_code(self.session.name)
        log.info("link code made for %s", clean(self.session.name or "-"))
        return f"{code[:4]}-{code[4:]}"

    def link(self, code: str) -> str:
        """Bind this session's (new) key to the account the code was made for: its name, or why not."""
        session = self.session
        if session.guest or session.conn.fingerprint is None or self._store is None:
            return "social.key_none"
        if session.name is not None:
            return "social.key_linked_already"
        if self.tries >= LINK_TRIES:
            return "social.key_tries"
        self.tries += 1
        name = session.server.club.social.redeem(code)
        if name is None:
            return "social.key_bad"
        try:
            self._store.add_key(name, session.conn.fingerprint)
        except AccountError:
            return "social.key_bad"
        session.name = name
        log.info("key %s linked to %s from %s", session.conn.fingerprint, clean(name), session.conn.peer)
        refusal = session.server.gate(session) or session.server.limits.admit_account(name)
        if refusal:
            session.name = None
            asyncio.get_running_loop().call_soon(session.finish, 1, refusal)
            return "social.key_refused"
        session.saved_prefs(session.prefs)
        return name

    def list(self) -> list[tuple[str, bool]]:
        account = self._store.account(self.session.name) if self._store is not None else None
        keys = list(account.keys) if account is not None else []
        return [(k, k == self.session.conn.fingerprint) for k in keys]

    def remove(self, fingerprint: str) -> str | None:
        session = self.session
        keys = [k for k, _ in self.list()]
        wanted = fingerprint if fingerprint.startswith("SHA256:") else "SHA256:" + fingerprint
        if wanted not in keys:
            return "social.key_unknown"
        if wanted == session.conn.fingerprint:
            return "social.key_current"
        if len(keys) <= 1:
            return "social.key_last"
        self._store.remove_key(wanted)
        log.info("key %s removed from %s", wanted, clean(session.name or "-"))
        from net.texts import text

        for other in list(session.server.sessions):
            if other is not session and other.conn.fingerprint == wanted and not other.closed:
                task = asyncio.get_running_loop().create_task(other.close(text(other.lang, "key_removed")))
                _closing.add(task)
                task.add_done_callback(_closing.discard)
        return None
