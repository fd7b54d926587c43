"""Who is knocking: names bound to public keys, kept in the store's accounts.

A public key is the identity (like ssh-chat): a new key chooses a name once,
a known key is greeted by it.  ``StoreAccounts`` keeps them in the club's
store (``engine.store``: an account per name, its keys, its language and the
starting grant from the config); a guest has no account.  Names are unique
regardless of case and of Latin/Cyrillic look-alikes ("Anna" and "Аnna" with a
Cyrillic А are the same name), so nobody can pass for someone else.
"""

from __future__ import annotations

import logging
import re

from engine.store import AccountError, Store

log = logging.getLogger("sukno.identity")

_LETTERS = "A-Za-zА-Яа-яЁёІіЇїЄєҐґЎў"
NAME_RE = re.compile(rf"^[{_LETTERS}][{_LETTERS}0-9_\-]{{1,15}}$")
RESERVED = ("guest", "гость", "admin", "root", "sukno", "system", "server", "bot-", "бот-")
"""Names starting so are the club's: ``bot-…`` are the bots' seats (engine.autoplay)."""

# Cyrillic letters that look like Latin ones, folded for the uniqueness check only.
_LOOKALIKES = str.maketrans("аеорсхукмтнвіјѕԁёї", "aeopcxykmthbijsdei")

TEXTS = {
    "en": {
        "bad_name": "A name is 2–16 letters (Latin or Cyrillic), digits, _ or -, starting with a letter.",
        "reserved": "That name is reserved; choose another.",
        "taken": "The name {name} is taken; choose another.",
        "bound": "This key already has the name {name}.",
    },
    "ru": {
        "bad_name": "Имя — от 2 до 16 букв (латиница или кириллица), цифр, _ или -, начиная с буквы.",
        "reserved": "Это имя занято клубом; выберите другое.",
        "taken": "Имя {name} уже занято; выберите другое.",
        "bound": "У этого ключа уже есть имя {name}.",
    },
}


def fold(name: str) -> str:
    """The form two names are compared in: case and look-alike letters folded."""
    return name.casefold().translate(_LOOKALIKES)


def check_name(name: str, lang: str = "en") -> str | None:
    """None if ``name`` may be chosen (uniqueness aside), else the reason."""
    texts = TEXTS.get(lang, TEXTS["en"])
    if not NAME_RE.match(name):
        return texts["bad_name"]
    folded = fold(name)
    if any(folded.startswith(fold(r)) for r in RESERVED):
        return texts["reserved"]
    return None


class StoreAccounts:
    """Key fingerprint → name, in the store's accounts; a new name gets the starting grant."""

    def __init__(self, store: Store, grant: int = 0) -> None:
        self.store = store
        self.grant = grant
        self._folded = {fold(a.name) for a in store.accounts()}

    def name_for(self, fingerprint: str) -> str | None:
        """The name bound to this key, if any (and the account is seen now)."""
        account = self.store.account_by_key(fingerprint)
        if account is None:
            return None
        self.store.touch(account.name)
        return account.name

    def is_taken(self, name: str) -> bool:
        return fold(name) in self._folded

    def register(self, fingerprint: str, name: str, lang: str = "en") -> str | None:
        """Make the account ``name`` for the key; None on success, else the reason (nothing changes)."""
        texts = TEXTS.get(lang, TEXTS["en"])
        name = name.strip()
        problem = check_name(name, lang)
        if problem:
            return problem
        bound = self.store.account_by_key(fingerprint)
        if bound is not None:
            return texts["bound"].format(name=bound.name)
        if self.is_taken(name):
            return texts["taken"].format(name=name)
        try:
            self.store.create_account(name, key=fingerprint, language=lang if lang in ("ru", "en") else "en",
                                      grant=self.grant)
        except AccountError:
            return texts["taken"].format(name=name)
        self._folded.add(fold(name))
        return None
