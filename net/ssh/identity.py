"""Who is knocking: names bound to public keys, kept in the store's accounts.

A public key is the identity (like ssh-chat): a new key chooses a name once,
a known key is greeted by it.  ``StoreAccounts`` keeps them in the club's
store (``engine.store.base``: an account per name, its keys, its language and the
starting grant from the config); a guest has no account.  Names are unique
regardless of case and of Latin/Cyrillic look-alikes ("Anna" and "Аnna" with a
Cyrillic А are the same name), and of digits and letters that pass for each
other ("B0b" is "Bob", "lvan" is "Ivan"), so nobody can pass for someone else.
Names that read as the club's own words are refused: verbs (``help``,
``look``, ``say``…, in both languages), the house and its bots (``house``,
``all``, ``bot``, ``bot_Mitya``, ``бот_Митя``), and the admin names of the
config (``reserved``), so that a new key cannot take an admin's name.
"""

from __future__ import annotations

import logging
import re
from typing import Iterable

from engine.names import look_key
from engine.store.base import AccountError, Store, StoreError

log = logging.getLogger("sukno.identity")

_LETTERS = "A-Za-zА-Яа-яЁёІіЇїЄєҐґЎў"
NAME_RE = re.compile(rf"^[{_LETTERS}][{_LETTERS}0-9_\-]{{1,15}}$")
RESERVED = ("guest", "гость", "admin", "root", "sukno", "system", "server", "bot-", "бот-")
"""Names starting so are the club's: ``bot-…`` are the bots' seats (engine.table.autoplay)."""

WORDS = ("house", "all", "everyone", "nobody", "bot", "bots", "бот", "боты", "robot", "робот", "дом", "все",
         "хозяин", "клуб", "club")
"""Whole names that are the club's words (verbs come from ``tui.commands``)."""
BOT_PREFIXES = ("bot-", "бот-", "робот-", "robot-")

TEXTS = {
    "en": {
        "bad_name": "A name is 2–16 letters (Latin or Cyrillic), digits, _ or -, starting with a letter.",
        "reserved": "That name is reserved; choose another.",
        "taken": "The name {name} is taken; choose another.",
        "bound": "This key already has the name {name}.",
        "store": "The club could not write your name down just now; please try again in a while.",
    },
    "ru": {
        "bad_name": "Имя — от 2 до 16 букв (латиница или кириллица), цифр, _ или -, начиная с буквы.",
        "reserved": "Это имя занято клубом; выберите другое.",
        "taken": "Имя {name} уже занято; выберите другое.",
        "bound": "У этого ключа уже есть имя {name}.",
        "store": "Клуб не смог записать ваше имя; попробуйте ещё раз чуть позже.",
    },
}


def fold(name: str) -> str:
    """The form two names are compared in: case and look-alike letters folded (the store's key too)."""
    return look_key(name)


def _club_words() -> frozenset[str]:
    """Every verb a person types, in both languages, and the club's own words, folded."""
    global _WORDS
    if _WORDS is None:
        from tui.commands import ALIASES, BOT_WORDS, GAME_VERBS, HALL_VERBS

        words = set(ALIASES) | set(ALIASES.values()) | set(HALL_VERBS) | set(GAME_VERBS) | set(BOT_WORDS)
        _WORDS = frozenset(fold(w) for w in words | set(WORDS))
    return _WORDS


_WORDS: frozenset[str] | None = None


def check_name(name: str, lang: str = "en", reserved: frozenset[str] = frozenset()) -> str | None:
    """None if ``name`` may be chosen (uniqueness aside), else the reason; ``reserved``: folded names
    kept for someone (the config's admins)."""
    texts = TEXTS.get(lang, TEXTS["en"])
    if not NAME_RE.match(name):
        return texts["bad_name"]
    folded = fold(name)
    if any(folded.startswith(fold(r)) for r in RESERVED + BOT_PREFIXES):
        return texts["reserved"]
    if folded in _club_words() or folded in reserved:
        return texts["reserved"]
    return None


class StoreAccounts:
    """Key fingerprint → name, in the store's accounts; a new name gets the starting grant."""

    def __init__(self, store: Store, grant: int = 0, reserved: Iterable[str] = ()) -> None:
        self.store = store
        self.grant = grant
        self._folded = {fold(a.name) for a in store.accounts()}
        self.reserved = frozenset(fold(n) for n in reserved)
        """Names nobody new may take (the config's admin accounts: admin is a key, not a name)."""

    def name_for(self, fingerprint: str) -> str | None:
        """The name bound to this key, if any (and the account is seen now, when the store can write)."""
        from net.ssh.arrival import name_in

        return name_in(self.store, fingerprint)

    def is_taken(self, name: str) -> bool:
        return fold(name) in self._folded

    def register(self, fingerprint: str, name: str, lang: str = "en") -> str | None:
        """Make the account ``name`` for the key; None on success, else the reason (nothing changes).
        Its store calls are made here (tools, tests); a session makes them off the loop: ``precheck``
        on the loop, ``write`` in the store's thread, ``named`` on the loop again."""
        name = name.strip()
        problem = self.precheck(name, lang) or self.write(self.store, fingerprint, name, lang)
        if problem is None:
            self.named(name)
        return problem

    def precheck(self, name: str, lang: str = "en") -> str | None:
        """What can be refused without the store (a bad, reserved or known-taken name), or None."""
        name = name.strip()
        problem = check_name(name, lang, self.reserved)
        if problem:
            return problem
        if self.is_taken(name):
            return TEXTS.get(lang, TEXTS["en"])["taken"].format(name=name)
        return None

    def write(self, store: Store, fingerprint: str, name: str, lang: str = "en") -> str | None:
        """In the store's thread (``store``: its connection): the key checked unbound and the account made;
        None, or the reason in his words (a name taken meanwhile, a key bound meanwhile, a failing store)."""
        texts = TEXTS.get(lang, TEXTS["en"])
        name = name.strip()
        try:
            bound = store.account_by_key(fingerprint)
            if bound is not None:
                return texts["bound"].format(name=bound.name)
            store.create_account(name, key=fingerprint, language=lang if lang in ("ru", "en") else "en",
                                 grant=self.grant)
        except AccountError:
            return texts["taken"].format(name=name)
        except StoreError as err:
            log.error("cannot register %s: %s", name, err)
            return texts["store"]
        return None

    def named(self, name: str) -> None:
        """On the loop: ``name`` is written in the book (nobody else may take it from now on)."""
        self._folded.add(fold(name.strip()))

    def forget(self, name: str) -> None:
        """On the loop: ``name`` is no account's any more (renamed, or a closed account's name freed)."""
        self._folded.discard(fold(name.strip()))

    def store_failed(self, lang: str = "en") -> str:
        """The refusal of a name the store could not write (it failed, or did not answer in time)."""
        return TEXTS.get(lang, TEXTS["en"])["store"]
