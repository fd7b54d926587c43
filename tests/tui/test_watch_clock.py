"""The watchers' clock ticks coarser (tui/widgets/timer.py, issue 16) and still tells the truth.

A tick of the shared view is a frame to every watcher of the table, so the watchers' bar says
``<45 s`` (an upper bound) and is drawn again only when that bound goes down (every 5 s), with
every change of the table, and each second of the last ten.  A person's own bar ticks each second.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from screen import rows

from engine.table.club import Club
from tui.spectator import WATCH_STEP, SpectatorApp
from tui.widgets.timer import EXACT, TimerBar, seconds_to_change, shown_seconds

SHOWN = re.compile(r"⏱ \S+ +(<?)(\d+) (s|с)")


def test_the_bound_is_above_the_time_left_and_changes_when_said():
    for tenth in range(1, 1300):
        left = tenth / 10
        said = shown_seconds(left, WATCH_STEP)
        if left > EXACT:
            assert said.startswith("<") and left < int(said[1:]) <= left + WATCH_STEP, (left, said)
        else:
            assert int(said) - 1 < left <= int(said), (left, said)
        wait = seconds_to_change(left, WATCH_STEP)
        assert 0 < wait <= WATCH_STEP
        assert shown_seconds(left - wait - 0.0001, WATCH_STEP) != said  # it has changed by then
        if wait > 0.002:
            assert shown_seconds(left - wait + 0.002, WATCH_STEP) == said  # and not long before
    assert shown_seconds(42.3) == "43" and seconds_to_change(42.3) == pytest.approx(0.299)  # a person's: each s


def seated_three(clock: float) -> Club:
    club = Club([{"game": "french3", "clock": clock}], seed=8)
    for name in ("anna", "boris", "vera"):
        club.tables[1].sit(name)
        club.enter(name)
    return club


def start(club: Club) -> float:
    """The deal starts now (the turn clock runs from here); its deadline."""
    table = club.tables[1]
    now = time.monotonic()
    for name in ("anna", "boris", "vera"):
        table.start(name, now=now)
    deadline = table.timer_deadline()
    assert deadline is not None
    return deadline


async def shows_clock(app: SpectatorApp, pilot) -> None:
    limit = time.monotonic() + 10
    while not any("⏱" in r for r in rows(app)):
        assert time.monotonic() < limit, rows(app)
        await pilot.pause(0.02)


def clock_row(app: SpectatorApp) -> tuple[str, int]:
    row = next((r for r in rows(app) if "⏱" in r), "")
    found = SHOWN.search(row)
    assert found, rows(app)
    return found.group(1), int(found.group(2))


async def test_the_watchers_clock_in_russian_says_a_bound():
    club = seated_three(60)
    app = SpectatorApp(club, 1, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        start(club)
        await shows_clock(app, pilot)
        row = next(r for r in rows(app) if "⏱" in r)
        assert "<60 с" in row, row


@pytest.mark.slow  # waits for a real clock: ~5.5 s
async def test_after_a_quiet_spell_the_watchers_countdown_is_still_right():
    club = seated_three(14.5)
    app = SpectatorApp(club, 1)
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = start(club)  # the App is up first: a slow start on a busy machine eats no clock
        await shows_clock(app, pilot)
        bar = app.query_one(TimerBar)
        draws = [0]
        draw = bar._draw

        def counted() -> None:
            draws[0] += 1
            draw()

        bar._draw = counted  # type: ignore[method-assign]
        seen: list[tuple[str, int]] = []

        def look() -> float:
            shown = clock_row(app)
            left = deadline - time.monotonic()  # read after the frame: only less time is left
            bound, number = shown
            if bound:
                assert left < number, (shown, left)  # "<15 s": true
            else:
                assert number - 2 < left <= number, (shown, left)  # "10 s": whole seconds (a late tick: -1)
            if not seen or seen[-1] != shown:
                seen.append(shown)
            return left

        assert look() > 10.4 and seen == [("<", 15)]
        while look() > 10.2:  # a quiet spell of ~4 s: a watcher's bar is not drawn again meanwhile
            await asyncio.sleep(0.05)
        assert draws[0] == 0 and seen == [("<", 15)]
        limit = time.monotonic() + 10
        while ("", 9) not in seen and time.monotonic() < limit:
            look()
            await asyncio.sleep(0.05)
        assert seen[:3] == [("<", 15), ("", 10), ("", 9)], seen  # then each second of the last ten


async def test_a_move_keeps_the_watchers_clock_timer_it_has():
    """Each move sets a new deadline; the bar keeps its timer if it is due no later (no churn per move)."""
    club = seated_three(60)
    app = SpectatorApp(club, 1)
    async with app.run_test(size=(80, 24)) as pilot:
        start(club)
        await shows_clock(app, pilot)
        bar = app.query_one(TimerBar)
        timer = bar._timer
        assert timer is not None
        for _turn in range(3):  # the next turns: each starts the 60 s clock again, a moment later
            await asyncio.sleep(0.05)
            bar.set_deadline(time.monotonic() + 60, who=bar.who)
            assert bar._timer is timer
        bar.set_deadline(time.monotonic() + 22, who=bar.who)  # much nearer: its words change sooner
        assert bar._timer is not timer and bar._timer is not None
        bar.set_deadline(None)
        assert bar._timer is None
