"""A new key's first line, read once: a name for the book, ``lang``, ``quit`` or ``key link CODE``.

The welcome screen (an App, ``tui.screens.welcome``) and the welcome door
(``net.modes.welcome``, no App) must answer the same lines in the same words, so
both inherit ``WelcomeVerbs`` and say only what differs between them: how they
leave, switch language, find the key ring, take a linked name, and write a name
in the book.  Writing it may answer later (an ``engine.table.pending.Pending``: the
store's thread writes it); until then the screen stays as it is and
another name typed is ignored.  Nothing here needs Textual.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

from tui.commands import ALIASES
from tui.host import Lines
from tui.i18n import LANGS
from tui.limits import NAME_MAX, quote
from tui.social import link_refusal, link_words

log = logging.getLogger("sukno.tui")

NAME = re.compile(r"^[A-Za-z0-9_\-\u0400-\u04FF]{2,%d}$" % NAME_MAX)
"""2–16 letters (Latin or Cyrillic), digits, ``_`` or ``-``."""


def valid_name(name: str) -> bool:
    return bool(NAME.match(name))


class Welcoming(Lines, Protocol):
    """What the welcome asks of its host: its ``Lines`` and the hooks of ``WelcomeVerbs``."""

    def welcome_quit(self) -> None: ...

    def welcome_lang(self, lang: str) -> None: ...

    def welcome_keys(self) -> Any: ...

    def welcome_linked(self, name: str) -> None: ...

    def welcome_register(self, name: str) -> Any: ...

    def welcome_named(self, name: str) -> None: ...


class WelcomeVerbs:
    """The welcome's one vocabulary.  A host (a screen or a door: a ``Welcoming``, listed first among
    its bases so their ``t``, ``say_line`` and ``error`` are used) overrides the hooks below."""

    def welcome_line(self: Welcoming, line: str) -> None:
        """The line is a name, never a hall command."""
        name = line.strip()
        if not name:
            return
        word, _, rest = name.partition(" ")
        verb = ALIASES.get(word.lower())
        if verb == "quit":
            self.welcome_quit()
            return
        from tui import pending

        if pending.busy(self.club_app):  # his name is being written (off the loop): a second Enter does nothing
            return
        if verb == "lang" and rest.strip().lower() in LANGS:
            self.welcome_lang(rest.strip().lower())
            self.say_line(self.t("welcome.ask"))
            return
        code = link_words(name)
        if code is not None:  # ``key link CODE``: this new key joins an account made with another
            keys = self.welcome_keys()
            linked = keys.link(code) if keys is not None else "social.key_none"
            pending.after(self, linked, lambda answer: _link_answer(self, answer))
            return
        if not valid_name(name):
            self.error(self.t("welcome.bad_name", name=quote(name)))
            return
        try:
            error = self.welcome_register(name)
        except Exception:  # the book of names failing must not show a traceback
            log.exception("register %r failed", name)
            error = self.t("cmd.failed")
        pending.after(self, error, lambda problem: _welcome_answer(self, name, problem))

    # -- what each host does ------------------------------------------------------------

    def welcome_quit(self) -> None:
        raise NotImplementedError

    def welcome_lang(self, lang: str) -> None:
        raise NotImplementedError

    def welcome_keys(self) -> Any:
        """The session's key ring (``link``), or None where keys cannot be linked."""
        return None

    def welcome_linked(self, name: str) -> None:
        """The key ring gave this key the account ``name``."""
        raise NotImplementedError

    def welcome_register(self, name: str) -> Any:
        """Write ``name`` in the book: None, or why not (in his words), or a ``Pending`` of either."""
        raise NotImplementedError

    def welcome_named(self, name: str) -> None:
        raise NotImplementedError


def _link_answer(host: Welcoming, linked: str) -> None:
    """The key ring's answer: the account's name, or why not (a catalogue key)."""
    refusal = link_refusal(linked)
    if refusal is not None:
        host.error(host.t(refusal))
        return
    host.welcome_linked(linked)


def _welcome_answer(host: Welcoming, name: str, error: str | None) -> None:
    """The book's answer (at once, or once the store's thread wrote it: ``tui.pending.after``)."""
    if error:
        host.error(error)
        return
    host.welcome_named(name)
