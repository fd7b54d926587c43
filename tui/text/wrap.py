"""Lines of the text mode cut at the terminal's width, at spaces only.

A terminal wraps a long line wherever its last column falls, in the middle of a word or
between ``Q`` and ``♠``; a braille display of 40 cells then shows half a word.  Here a line
is cut before the word that would cross the edge, and the words of one card or one sum of
money ("queen of spades", "дама пик", "1 р. 20 к.") are kept on one line.  A single word
wider than the terminal stays whole (the terminal wraps it; nothing is lost).
"""

from __future__ import annotations

import re

from tui.text.cards import MONEY_WORDS, RANK_WORDS, SUIT_OF

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_GLUE = "\x00"  # stands for a space that must not be cut, while the line is measured


def _together() -> re.Pattern[str]:
    ranks = "|".join(w for lang in RANK_WORDS.values() for w in lang.values())
    suits = "|".join(re.escape(w) for lang in SUIT_OF.values() for w in lang.values())
    units = "|".join(re.escape(form.replace("# ", "")) for lang in MONEY_WORDS.values()
                     for forms in lang.values() for form in forms)
    amount = rf"-?\d+ (?:[rkрк]\.|(?:{units})\b)"
    return re.compile(rf"(?i)\b(?:(?:{ranks}) (?:{suits})|{amount}(?: {amount})?)")


_TOGETHER = _together()


def _shown(word: str) -> int:
    return len(_ESCAPE.sub("", word))


def wrap(line: str, width: int) -> list[str]:
    """``line`` as lines of at most ``width`` columns, cut only at spaces outside a card or a sum."""
    if width < 10 or _shown(line) <= width:
        return [line]
    glued = _TOGETHER.sub(lambda m: m.group(0).replace(" ", _GLUE), line)
    lines: list[str] = []
    current = ""
    for word in glued.split(" "):
        if current and _shown(current) + 1 + _shown(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return [piece.replace(_GLUE, " ") for piece in lines]
