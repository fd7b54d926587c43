"""Russian first names in the genitive («Время Ани вышло», «У Бориса старшая карта»).

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
