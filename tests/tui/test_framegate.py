"""Players first (tui/framegate.py, issue 16): a hub draws a table's change after the Apps that owe it a frame.

The gate decides only when a hub may draw: at once if nobody owes, when the last owed frame is
paid, or after ``wait_max`` at most (a slow or vanished App delays the watchers, never stops them).
"""

from __future__ import annotations

import asyncio

from tui.framegate import FrameGate, gate


class App:
    """Stands for a person's App (the gate only needs something weakly referable)."""


async def turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_nobody_owes_the_hub_draws_a_turn_later_not_at_once():
    frames = FrameGate()
    drawn: list[str] = []
    frames.after(1, lambda: drawn.append("hub"))
    assert drawn == []  # the players told after the hub owe by then: it looks a turn later
    await turns()
    assert drawn == ["hub"]


async def test_a_hub_told_before_the_players_still_waits_for_them():
    frames = FrameGate(wait_max=5)
    anna, boris = App(), App()
    drawn: list[str] = []
    frames.after(1, lambda: drawn.append("hub"))  # the table told the hub first
    frames.owe(1, anna)
    frames.owe(1, boris)
    await turns()
    assert drawn == []
    frames.paid(1, anna)
    assert drawn == [] and frames.owing(1) == 1
    frames.paid(1, boris)
    assert drawn == ["hub"] and frames.owing(1) == 0


async def test_another_tables_debt_does_not_hold_a_hub():
    frames = FrameGate(wait_max=5)
    frames.owe(2, App())
    drawn: list[int] = []
    frames.after(1, lambda: drawn.append(1))
    await turns()
    assert drawn == [1]


async def test_one_redraw_per_hub_however_many_changes_came_meanwhile():
    frames = FrameGate(wait_max=5)
    anna = App()
    drawn: list[str] = []

    def hub() -> None:
        drawn.append("hub")

    for _ in range(3):  # three changes while Anna draws
        frames.owe(1, anna)
        frames.after(1, hub)
    await turns()
    frames.paid(1, anna)
    assert drawn == ["hub"]


async def test_a_late_app_delays_the_hub_by_wait_max_at_most():
    frames = FrameGate(wait_max=0.05)
    stuck = App()
    drawn: list[float] = []
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    frames.owe(1, stuck)
    frames.after(1, lambda: drawn.append(loop.time() - t0))
    deadline = t0 + 5
    while not drawn and loop.time() < deadline:
        await asyncio.sleep(0.01)
    assert drawn and drawn[0] >= 0.05
    assert frames.late == 1 and frames.owing(1) == 0  # he owes again only at the next change
    frames.after(1, lambda: drawn.append(-1.0))
    await turns()
    assert drawn[-1] == -1.0


async def test_an_app_that_ends_owes_nothing():
    frames = FrameGate(wait_max=5)
    gone = App()
    drawn: list[str] = []
    frames.owe(1, gone)
    frames.owe(2, gone)
    frames.after(1, lambda: drawn.append("one"))
    frames.after(2, lambda: drawn.append("two"))
    await turns()
    frames.forget(gone)
    assert sorted(drawn) == ["one", "two"]


async def test_one_failing_hub_does_not_keep_the_others_from_drawing():
    frames = FrameGate(wait_max=5)
    drawn: list[str] = []

    def broken() -> None:
        raise RuntimeError("a hub's bug")

    frames.after(1, broken)
    frames.after(1, lambda: drawn.append("other"))
    await turns()
    assert drawn == ["other"]


async def test_each_loop_has_its_own_gate():
    here = gate()
    assert gate() is here
    other: list[FrameGate] = []

    def in_thread() -> None:
        async def main() -> None:
            other.append(gate())

        asyncio.run(main())

    await asyncio.get_running_loop().run_in_executor(None, in_thread)
    assert other and other[0] is not here


async def test_a_drawn_change_tells_its_delay_from_the_first_owing_and_a_skipped_one_tells_nothing():
    frames = FrameGate(wait_max=5)
    anna, boris = App(), App()
    delays: list[float] = []
    frames.on_drawn.append(delays.append)
    frames.owe(1, anna)
    await asyncio.sleep(0.02)
    frames.owe(1, anna)  # a second change before she drew: the delay counts from the first
    frames.owe(1, boris)
    frames.drawn(1, anna)
    frames.paid(1, boris)  # his screen shows another table: nothing was drawn
    assert len(delays) == 1 and delays[0] >= 0.02
    assert frames.owing(1) == 0
    frames.drawn(1, anna)  # nothing owed any more: no delay to tell
    assert len(delays) == 1
