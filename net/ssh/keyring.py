"""A person's keys: ``key add`` makes a one-time code, a new key types ``key link CODE``.

The TUI asks only for ``add() -> code``, ``link(code) -> name | catalogue key``,
``list() -> [(fingerprint, is this session's)]`` and ``remove(fingerprint) ->
None | catalogue key`` — each answered as an ``engine.table.pending.Pending`` once the accounts'
store thread has made its store calls (``tui.pending.after`` waits for it).  The codes (eight
letters, ten minutes, once) are kept hashed in the store (``engine.store.codes``), so a code made on
one node of a club links a key on any other; spending one binds the key in the same transaction.  A session may try ``LINK_TRIES`` codes, so a
code cannot be guessed by trying.  A removed key's open sessions are shown
out; its next visit is a new key's (it is asked for a name).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable

from engine.store.base import AccountError
from engine.table.social import CODE_LIFE, CODES_PER_ACCOUNT, code_word, new_code, shown_code
from net.modes.texts import text
from net.ssh import account
from net.ssh.logsafe import clean

if TYPE_CHECKING:
    from engine.table.pending import Pending
    from net.ssh.ports import SessionPort

log = logging.getLogger("sukno.keys")

LINK_TRIES = 5
_closing: set[asyncio.Task[None]] = set()


class KeyRing:
    """The keys of one session's account."""

    def __init__(self, session: SessionPort) -> None:
        self.session = session
        self.tries = 0

    @property
    def _store(self) -> Any:
        return self.session.server.store

    def add(self) -> str | Pending:
        """A one-time code for this account's next key, shown ``ABCD-EFGH``, as a ``Pending`` once the
        store's thread has kept it (hashed: it works on every node); ``cmd.failed`` if it could not."""
        name = self.session.name
        if name is None:  # the key verbs run for a named person; a new key links, never adds
            raise RuntimeError("a link code was asked before the person had a name")
        if self._store is None:
            return "social.key_none"
        code = new_code()

        def work(store: Any) -> str:
            store.put_link_code(name, code, life=CODE_LIFE, keep=CODES_PER_ACCOUNT)
            log.info("link code made for %s", clean(name))
            return shown_code(code)

        return self._job(work, "add")

    def _job(self, work: Callable[[Any], Any], op: str) -> Pending:
        """``work(store)`` in the accounts' store thread, as a ``Pending`` of its result; a
        store that fails or is silent answers ``cmd.failed`` (what a store error here always showed)."""
        return self.session.read_off_loop(work, f"key {op}")

    def link(self, code: str) -> str | Pending:
        """Bind this session's (new) key to the account the code was made for: its name, or why not (a
        catalogue key) — now, or as a ``Pending`` once the store's thread has bound it."""
        session = self.session
        if session.guest or session.conn.fingerprint is None or self._store is None:
            return "social.key_none"
        if session.name is not None:
            return "social.key_linked_already"
        if self.tries >= LINK_TRIES:
            return "social.key_tries"
        self.tries += 1
        social = session.server.club.social
        if not social.hold(code):  # another connection here is binding it now
            return "social.key_busy"
        fingerprint, word = session.conn.fingerprint, code_word(code)

        def work(store: Any) -> Any:  # in the store's thread: the code spent and the key bound at once
            try:
                name = store.spend_link_code(word, fingerprint)
            except AccountError:
                return "social.key_bad"
            if name is None:
                return "social.key_bad"
            settings: Any = None
            if hasattr(store, "settings"):
                try:
                    settings = store.settings(name)
                except Exception as err:  # told where they are used (``net.ssh.account.saved_prefs``)
                    settings = err
            try:
                ignores = list(store.ignores(name)) if hasattr(store, "ignores") else None
            except Exception as err:  # None: not read (never "nobody"); the club reads it again when needed
                log.warning("cannot read the ignore list of %s at a key link: %s", clean(name), err)
                ignores = None
            return name, settings, ignores

        def settled(got: Any) -> Any:
            """On the loop: linked (the store spent the code), or why not (a refused or failed bind
            left the code as it was: it works again)."""
            social.unhold(code)
            return got if isinstance(got, str) else self._linked(*got)

        return self._job(work, "link").map(settled)

    def _linked(self, name: str, settings: Any, ignores: list[str] | None) -> str:
        """On the loop: the key is bound to ``name``; the session becomes his (unless the door refuses him)."""
        session = self.session
        session.name = name
        log.info("key %s linked to %s from %s", session.conn.fingerprint, clean(name), session.conn.peer)
        refusal = session.server.gate(session) or session.server.limits.admit_account(name)
        if refusal:
            session.name = None
            asyncio.get_running_loop().call_soon(session.finish, 1, refusal)
            return "social.key_refused"
        if ignores is not None:
            session.server.club.social.preload(name, ignores)
        account.saved_prefs(session, session.prefs, settings)
        return name

    def list(self) -> list[tuple[str, bool]] | Pending:
        """``[(fingerprint, is this session's)]`` of his account, as a ``Pending`` (or ``cmd.failed``)."""
        name, mine = self.session.name, self.session.conn.fingerprint
        if self._store is None:
            return []

        def work(store: Any) -> Any:
            account = store.account(name)
            keys = list(account.keys) if account is not None else []
            return [(k, k == mine) for k in keys]

        return self._job(work, "list")

    def remove(self, fingerprint: str) -> str | Pending:
        """Take a key off his account: None, or why not (a catalogue key), as a ``Pending``."""
        session = self.session
        name, mine = session.name, session.conn.fingerprint
        wanted = fingerprint if fingerprint.startswith("SHA256:") else "SHA256:" + fingerprint
        if self._store is None:
            return "social.key_unknown"

        def work(store: Any) -> str | None:  # in the store's thread: checked against his keys, then removed
            account = store.account(name)
            keys = list(account.keys) if account is not None else []
            if wanted not in keys:
                return "social.key_unknown"
            if wanted == mine:
                return "social.key_current"
            if len(keys) <= 1:
                return "social.key_last"
            store.remove_key(wanted)
            return None

        def removed(problem: str | None) -> str | None:
            if problem is None:
                self._removed(wanted)
            return problem

        return self._job(work, "remove").map(removed)

    def _removed(self, wanted: str) -> None:
        """On the loop: the key is off his account; its open sessions are shown out."""
        session = self.session
        log.info("key %s removed from %s", wanted, clean(session.name or "-"))
        for other in list(session.server.sessions):
            if other is not session and other.conn.fingerprint == wanted and not other.closed:
                task = asyncio.get_running_loop().create_task(other.close(text(other.lang, "key_removed")))
                _closing.add(task)
                task.add_done_callback(_closing.discard)
        return None
