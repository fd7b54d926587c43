"""Money over time as a one-line chart: ``▁▂▄█▆`` (``_.-=+*#@`` in ASCII mode).

Pure text, no Textual: the hall's ``balance``/``history`` and the admin
console's tables panel draw with it, the text mode says the same in a sentence.
"""

from __future__ import annotations

from typing import Sequence

BLOCKS = "▁▂▃▄▅▆▇█"
ASCII_BLOCKS = "_.-=+*#@"
MAX_POINTS = 40
"""The newest points drawn (a chart wider than this is no longer small)."""


def sparkline(values: Sequence[float], ascii: bool = False, scale: tuple[float, float] | None = None) -> str:
    """One character per value, the lowest ``▁`` and the highest ``█``; all equal: a flat middle line.
    ``scale`` (low, high): a range shared with another line drawn under it, so the two compare."""
    values = list(values)[-MAX_POINTS:]
    if not values:
        return ""
    blocks = ASCII_BLOCKS if ascii else BLOCKS
    low, high = scale if scale is not None else (min(values), max(values))
    if high == low:
        return blocks[len(blocks) // 2 - 1] * len(values)
    top = len(blocks) - 1
    return "".join(blocks[round((v - low) * top / (high - low))] for v in values)


def marks(count: int, best: int | None, worst: int | None, ascii: bool = False) -> str:
    """The line under a sparkline: ``▲`` under the best point, ``▼`` under the worst (``^``/``v``)."""
    cells = [" "] * count
    if worst is not None and 0 <= worst < count:
        cells[worst] = "v" if ascii else "▼"
    if best is not None and 0 <= best < count:
        cells[best] = "^" if ascii else "▲"
    return "".join(cells).rstrip()


def balance_series(current: int, nets_newest_first: Sequence[int]) -> list[int]:
    """The balance after each of the last games, oldest first, ending at ``current``.

    Walked back from today's balance by each game's result, so a grant or a
    transfer between games shows as part of the game before it (the ledger
    keeps those too; this chart is about the games).
    """
    out = [current]
    for net in list(nets_newest_first)[:-1]:
        out.append(out[-1] - net)
    return out[::-1]


def expected_series(series: Sequence[int], given_away: Sequence[float]) -> list[int]:
    """The balance had the decisions the analysis judged cost nothing: each game's real balance plus the
    money the player's own decisions gave away in expectation in it and every game before (oldest first)."""
    out, kept = [], 0.0
    for balance, lost in zip(series, given_away):
        kept += lost
        out.append(round(balance + kept))
    return out
