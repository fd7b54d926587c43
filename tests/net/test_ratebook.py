"""The server keeps the ratings off the loop: finished records are rated in a thread, the loop reads a copy."""

from __future__ import annotations

import asyncio

from ratingkit import accounts, save_games

from engine.store.sqlite import SqliteStore
from net.ssh.ratebook import RatingBook


async def test_the_book_is_rated_in_its_thread_and_read_without_the_store(tmp_path) -> None:
    store = SqliteStore(tmp_path / "sukno.db")
    accounts(store)
    save_games(store, 3, seed=9)
    book = RatingBook(store)
    book.start()
    try:
        for _ in range(200):
            if book.book:
                break
            await asyncio.sleep(0.02)
        assert set(book.of("Anna")) == {"french3"}
        key, rating = book.best_of("Anna") or ("", None)
        assert key == "french3" and rating is not None and rating.deals > 0
        assert book.book == store.recompute_ratings()[0]
        save_games(store, 2, seed=10, finished_at=2000.0)
        before = book.of("Vera")["french3"].deals
        book.poke()
        for _ in range(200):
            if book.of("Vera")["french3"].deals > before:
                break
            await asyncio.sleep(0.02)
        assert book.of("Vera")["french3"].deals > before
    finally:
        book.stop()
        store.close()
