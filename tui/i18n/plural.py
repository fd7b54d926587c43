"""Plural forms by the CLDR rules (cardinal, whole numbers), for the catalogue and for code.

Russian has three forms for whole numbers — one (1, 21, 101…), few (2–4, 22–24…,
not 12–14) and many (0, 5–20, 25–30…); English two — one (1) and other.  A
catalogue entry writes ``{n:plural:# card|# cards}`` (English) or
``{n:plural:# карта|# карты|# карт}`` (Russian: one|few|many); ``#`` stands for
the number.  Code that builds a phrase itself calls ``plural(lang, n, ...)``.
"""

from __future__ import annotations

import string
from typing import Any, Mapping, Sequence

CATEGORIES: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "ru": ("one", "few", "many")}


def category(lang: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` in ``lang``."""
    n = abs(int(n))
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def choose(lang: str, n: int, forms: Sequence[str]) -> str:
    """The form of ``forms`` (in ``CATEGORIES[lang]`` order) for ``n``; ``#`` becomes the number."""
    names = CATEGORIES.get(lang, CATEGORIES["en"])
    cat = category(lang, n)
    index = names.index(cat) if cat in names else len(names) - 1
    form = forms[min(index, len(forms) - 1)] if forms else ""
    return form.replace("#", str(n))


def plural(lang: str, n: int, one: str, few: str | None = None, many: str | None = None,
           other: str | None = None) -> str:
    """``plural("ru", 5, "# карта", "# карты", "# карт")`` → ``5 карт``; English takes ``one`` and ``other``."""
    if lang == "ru":
        forms = [one, few or many or other or one, many or other or few or one]
    else:
        forms = [one, other or many or few or one]
    return choose(lang, n, forms)


def _as_count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


class PluralFormatter(string.Formatter):
    """``str.format`` plus the ``plural:`` spec; anything that is not a whole number is shown as it is."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            n = _as_count(value)
            if n is None:
                return str(value)
            return choose(self.lang, n, format_spec[len("plural:"):].split("|"))
        return super().format_field(value, format_spec)


_FORMATTERS: dict[str, PluralFormatter] = {}


def render(lang: str, template: str, params: Mapping[str, Any]) -> str:
    """Format ``template`` with ``params`` (raises as ``str.format`` does on a missing blank)."""
    if "plural:" not in template:
        return template.format(**params)
    fmt = _FORMATTERS.get(lang)
    if fmt is None:
        fmt = _FORMATTERS[lang] = PluralFormatter(lang)
    return fmt.vformat(template, (), dict(params))
