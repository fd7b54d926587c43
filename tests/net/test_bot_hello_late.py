"""A bot's hello answered by the store's thread after its connection ended (issue 15 review).

The hello's account read and naming are store jobs answered later (``BotSession._ask``); a bot
that drops meanwhile has had its ``end`` already, so an answer applied then would enter it in the
club (and follow its table) with nobody to ever make it leave: an online ghost.
"""

from __future__ import annotations

import asyncio
from typing import Any

from net.modes.bot import BotSession
from tests.botharness import club_with_store


def test_a_hello_answered_after_the_bots_end_does_not_bring_it_into_the_club(tmp_path) -> None:
    async def main() -> None:
        club, accounts = club_with_store(tmp_path, [{"game": "stukolka"}])
        loop = asyncio.get_running_loop()
        jobs: list[tuple[Any, asyncio.Future[Any]]] = []

        def off_loop(work: Any) -> asyncio.Future[Any]:  # the store's thread, answered by hand below
            future: asyncio.Future[Any] = loop.create_future()
            jobs.append((work, future))
            return future

        sent: list[dict[str, Any]] = []
        bot = BotSession(club, accounts, fingerprint="SHA256:late", lang="en", send=sent.append,
                         now=lambda: 0.0, off_loop=off_loop)
        bot.handle({"type": "hello", "name": "Latebot"})
        assert len(jobs) == 1  # its key's account asked of the store's thread
        bot.end()  # the connection dropped meanwhile
        answered = 0
        while jobs and answered < 5:  # the thread answers every job asked, as it would
            work, future = jobs.pop(0)
            future.set_result(work(accounts.store))
            answered += 1
            await asyncio.sleep(0)
        assert not club.is_online("Latebot")
        assert "Latebot" not in club.robots and not bot.entered
        assert not any(m["type"] == "welcome" for m in sent)

    asyncio.run(main())
