"""Russian first names in the genitive and accusative («Время Ани вышло», «Вы больше не слышите Аню»).

Only names whose ending says how they decline are declined: a Cyrillic name
ending in a consonant or ``й`` (masculine: Борис → Бориса, Андрей → Андрея),
or in ``а``/``я`` (Аня → Ани, Ольга → Ольги, Никита → Никиты, Мария → Марии).
A name ending in ``ь`` (Игорь → Игоря, but Любовь → Любови), a Latin name, a
name with digits or several words is not guessed at: ``genitive`` gives None,
and the sentence is told with the name in the nominative instead («Аня:
время вышло»), which is always right.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

_CYRILLIC_WORD = re.compile(r"^[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?$")
_HUSHING = set("гкхжшщч")  # after these the genitive ending is и, not ы
_VOWELS = set("аеёиоуыэюя")
_INDECLINABLE_ENDS = set("еёиоуыэю")


def genitive(name: str) -> str | None:
    """The genitive of a Russian first name, or None when it cannot be told from its ending."""
    if not _CYRILLIC_WORD.match(name):
        return None
    if "-" in name:  # Анна-Мария: both parts would decline; not guessed
        return None
    last, before = name[-1], name[-2]
    if last in _INDECLINABLE_ENDS:
        return name  # Пьеро, Мэри: the same in every case
    if last == "а":
        return name[:-1] + ("и" if before in _HUSHING else "ы")
    if last == "я":
        return name[:-1] + "и"  # Аня → Ани, Дарья → Дарьи, Мария → Марии, Илья → Ильи
    if last == "й":
        return name[:-1] + "я"  # Андрей → Андрея
    if last == "ь":
        return None  # Игорь → Игоря, Любовь → Любови: the gender is not in the name
    if last in _VOWELS:
        return None
    return name + "а"  # Борис → Бориса, Глеб → Глеба


def accusative(name: str) -> str | None:
    """The accusative of a Russian first name (a person: a man's is his genitive), or None as ``genitive``."""
    declined = genitive(name)
    if declined is None or name[-1] not in "ая":
        return declined
    return name[:-1] + ("у" if name[-1] == "а" else "ю")  # Аня → Аню, Никита → Никиту, Мария → Марию


CASES: dict[str, Callable[[str], str | None]] = {"gen": genitive, "acc": accusative}
_CASE_PLACEHOLDER = re.compile(r"\{(\w+?)_(gen|acc)[}:]")


def decline(template: str, params: Mapping[str, Any], *, or_nominative: bool = False) -> dict[str, Any] | None:
    """``params`` with every name the template wants declined (``{who_gen}``, ``{name_acc}``) filled in from
    the name in the nominative (``who``, ``name``); None when one of them cannot be told from its ending (the
    caller then says the sentence another way, with the name in the nominative), or with ``or_nominative``
    that name left as it is (a sentence with no other way to say it)."""
    filled = dict(params)
    for key, case in _CASE_PLACEHOLDER.findall(template):
        if f"{key}_{case}" in filled:
            continue
        value = params.get(key)
        declined = CASES[case](value) if isinstance(value, str) and value else None
        if declined is None and not or_nominative:
            return None
        if declined is None:
            declined = str(value) if value is not None else ""
        filled[f"{key}_{case}"] = declined
    return filled
