"""``analyse ID`` in the club: made in a worker process, kept in the store, refused for games one did not play."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ratingkit import accounts, save_games
from sshclient import make_config, running

from tui.analysis import lines_of_json


async def _answer(pending: Any, timeout: float = 300.0) -> Any:
    got: list[Any] = []
    pending.then(got.append)
    deadline = time.monotonic() + timeout
    while not got:
        assert time.monotonic() < deadline, "no answer"
        await asyncio.sleep(0.05)
    return got[0]


async def test_a_game_one_played_is_analysed_once_and_kept(tmp_path) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        accounts(server.store)
        save_games(server.store, 1, seed=5)  # record 1: Vera, Bot Ivan and Anna
        analyst = server.analyst
        assert analyst is not None and server.club.analyst is analyst
        analyst.budget = 4  # a few imagined deals a decision: the test is of the plumbing, not the judgement
        ticks: list[float] = []

        async def beat() -> None:  # the loop keeps turning while the worker judges
            while True:
                ticks.append(time.monotonic())
                await asyncio.sleep(0.05)

        beating = asyncio.get_running_loop().create_task(beat())
        started = time.monotonic()
        lines = await _answer(analyst.ask("Anna", 1, "en", lines_of_json))
        beating.cancel()
        assert isinstance(lines, list) and lines[0].startswith("The search bot's judgement")
        assert any(line.startswith("Anna gave away") for line in lines)
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        assert gaps and max(gaps) < 1.0, max(gaps)  # never held: the search ran in another process
        assert server.store.kept_analysis(1, 4, 1) is not None
        took = time.monotonic() - started
        again = time.monotonic()
        assert await _answer(analyst.ask("Anna", 1, "ru", lines_of_json)) != lines  # kept, told in Russian
        assert time.monotonic() - again < took
        assert await _answer(analyst.ask("Boris", 1, "en", lines_of_json)) == "analysis.not_yours"
        assert await _answer(analyst.ask("Anna", 99, "en", lines_of_json)) == "analysis.no_record"


async def test_one_waiting_analysis_a_person(tmp_path) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        accounts(server.store)
        save_games(server.store, 2, seed=6)
        server.analyst.budget = 4
        first = server.analyst.ask("Anna", 1, "en", lines_of_json)
        assert await _answer(server.analyst.ask("Anna", 2, "en", lines_of_json)) == "analysis.busy"
        assert isinstance(await _answer(first), list)
