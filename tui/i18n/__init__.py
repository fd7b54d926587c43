"""The message catalogue: every text a person reads, in Russian and English.

``tr(lang, key, **params)`` formats a catalogue entry; a missing key falls back
to English and then to the key itself, so a missing text shows up as a visible
key in tests rather than a traceback on someone's screen.  A count is written
``{n:plural:# card|# cards}`` (Russian: one|few|many, by CLDR; see ``plural``).  A name in another case
is written ``{name_gen}``/``{name_acc}`` and declined from ``name`` (``names``); where its ending does not
tell how, the entry's ``.alt`` says the sentence with the name as it is.
"""

from __future__ import annotations

import re
from typing import Any

from tui.i18n import en, ru
from tui.i18n.names import decline
from tui.i18n.plural import category, plural, render

__all__ = ["CATALOGUES", "LANGS", "category", "has", "money", "pick_lang", "plural", "render", "tr"]

CATALOGUES: dict[str, dict[str, str]] = {"en": en.MESSAGES, "ru": ru.MESSAGES}
LANGS = tuple(CATALOGUES)


def pick_lang(value: str | None) -> str:
    """The catalogue for a LANG value such as ``ru_RU.UTF-8`` (English otherwise)."""
    text = (value or "").strip().lower()
    return "ru" if text.startswith("ru") else "en"


def has(lang: str, key: str) -> bool:
    return key in CATALOGUES.get(lang, {}) or key in en.MESSAGES


_STOP_AFTER = re.compile(r"\{(\w+)\}\.")


def _one_stop(text: str, params: dict[str, Any]) -> str:
    """``{price}.`` with a price ``30 k.`` ends in one full stop, not ``30 k..``."""
    def fix(match: re.Match[str]) -> str:
        value = params.get(match.group(1))
        if isinstance(value, str) and value.endswith(".") and not value.endswith(".."):
            return match.group(0)[:-1]
        return match.group(0)

    return _STOP_AFTER.sub(fix, text) if "}." in text else text


def tr(lang: str, key: str, **params: Any) -> str:
    catalogue = CATALOGUES.get(lang, en.MESSAGES)
    text = catalogue.get(key) or en.MESSAGES.get(key) or key
    if "_gen" in text or "_acc" in text:  # a Russian name in the case the sentence needs (tui.i18n.names)
        declined = decline(text, params)
        alt = catalogue.get(f"{key}.alt")
        if declined is None and alt:
            text = alt  # the same words with the name in the nominative («Игорь: сейчас не в клубе»)
        else:
            params = declined if declined is not None else decline(text, params, or_nominative=True) or params
    try:
        return render(lang, _one_stop(text, params), params)
    except (KeyError, IndexError, ValueError):
        return text


def money(amount: int, lang: str = "ru") -> str:
    """Kopecks the Russian way: ``1 р. 20 к.``, ``30 к.``, ``-2 р.``."""
    sign = "-" if amount < 0 else ""
    rub, kop = divmod(abs(int(amount)), 100)
    r, k = (tr(lang, "money.rub"), tr(lang, "money.kop"))
    if rub and kop:
        return f"{sign}{rub} {r} {kop} {k}"
    if rub:
        return f"{sign}{rub} {r}"
    return f"{sign}{kop} {k}"
