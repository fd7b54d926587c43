"""How a screen pulls its table for its ``TableView``: one ``engine.view.Snapshot`` at a time.

The widget holds no table (tests/engine/test_layering.py); its owner — the player's table
screen or the spectators' app — gives it ``puller(table, viewer, …)``, which adds what only
the club knows (who is gone or away) to the table's own snapshot.
"""

from __future__ import annotations

from typing import Callable

from engine.ratings import rating_key
from engine.botnames import is_bot
from engine.table.face import TableLike
from engine.view import Snapshot


def puller(table: TableLike, viewer: str | None, is_online: Callable[[str], bool] | None = None,
           is_away: Callable[[str], bool] | None = None,
           rating_of: Callable[[str, str], str] | None = None) -> Callable[[int, int], Snapshot]:
    """``pull(seq, rail_seq)``: the table as ``viewer`` may see it, with the log after ``seq``.
    ``rating_of(key, name)``: the club's rating label of a player in a game (``""`` if unrated)."""
    key = rating_key(table.game_name, table.options)

    def pull(seq: int, rail_seq: int) -> Snapshot:
        away: list[str] = []
        if is_online is not None:
            gone = set(table.away_now())  # the table's own word (on a replica: its owner's)
            away = [n for n in table.seated() if not is_bot(n) and (n in gone or not is_online(n) or (
                is_away is not None and is_away(n)))]
        ratings: list[tuple[str, str]] = []
        if rating_of is not None:
            ratings = [(n, label) for n in table.seated() if (label := rating_of(key, n))]
        return table.pull(viewer, seq, rail_seq, away=away, ratings=ratings)

    return pull
