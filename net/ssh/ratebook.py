"""The club's ratings as the loop sees them: rated off the loop, read from a copy kept here.

A thread of its own rates the records finished since it last looked (the store decides which,
so several nodes never count one twice) and reads the book back; the loop only swaps in the new
copy, so ``who``, ``top`` and ``rating`` answer at once and never wait for the store.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.ratings import Rating
from net.ssh.offloop import StoreThread

log = logging.getLogger("sukno.ratings")

EVERY = 5.0
"""Seconds between looks for newly finished records (a deal's end pokes it sooner)."""


class RatingBook:
    """The kept ratings, refreshed every ``EVERY`` seconds; empty until the first read."""

    def __init__(self, store: Any) -> None:
        self.book: dict[str, dict[str, Rating]] = {}
        self._thread = StoreThread(store, "sukno ratings", EVERY)
        self._thread.add("the ratings", self._rate_and_read, self._got)

    @staticmethod
    def _rate_and_read(store: Any) -> dict[str, dict[str, Rating]]:
        while store.rate_new_records():
            pass
        return store.ratings_book()

    def _got(self, book: dict[str, dict[str, Rating]]) -> None:
        self.book = book

    def start(self) -> None:
        self._thread.start()

    def poke(self) -> None:
        """A record was finished here: rate it soon rather than at the next round."""
        self._thread.poke()

    def stop(self) -> None:
        self._thread.stop()

    def of(self, name: str) -> dict[str, Rating]:
        """A player's rating in every game he is rated in (key → rating)."""
        return {key: ratings[name] for key, ratings in self.book.items() if name in ratings}

    def best_of(self, name: str) -> tuple[str, Rating] | None:
        """The game he has played most, with his rating there (for a short mark beside his name)."""
        mine = self.of(name)
        return max(mine.items(), key=lambda item: (item[1].deals, item[0])) if mine else None
