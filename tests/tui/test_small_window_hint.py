"""A window smaller than the felt's 80×24 tells the person, in his language, that the text mode exists."""

from __future__ import annotations

import pytest
from screen import text

from textual.pilot import Pilot

from engine.table.club import Club
from tui.app import ClubApp


async def shown_when(pilot: Pilot, words: str, pauses: int = 200) -> str:
    """The screen's words once ``words`` are among them (a bounded wait on the condition, not on time)."""
    shown = ""
    for _ in range(pauses):
        await pilot.pause()
        shown = " ".join(text(pilot.app).split())
        if words in shown:
            break
    return shown


@pytest.mark.parametrize("lang, size, said", [
    ("en", (60, 20), "This window is 60×20; the felt needs 80×24"),
    ("ru", (40, 24), "Окно 40×24, а столу нужно 80×24"),
])
async def test_a_small_window_names_the_text_mode(lang: str, size: tuple[int, int], said: str) -> None:
    app = ClubApp(Club([{"game": "stukolka"}], seed=4), "anna", lang=lang)
    async with app.run_test(size=size) as pilot:
        shown = await shown_when(pilot, said)
        assert said in shown, shown
        assert ("mode text" if lang == "en" else "режим текст") in shown, shown
        assert sum(shown.count(w) for w in ("This window", "Окно ")) == 1  # said once, not on every frame


async def test_a_window_of_80_by_24_is_not_told_and_a_shrink_is() -> None:
    app = ClubApp(Club([{"game": "stukolka"}], seed=4), "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "This window" not in text(app)
        await pilot.resize_terminal(70, 24)
        shown = await shown_when(pilot, "This window is 70×24")
        assert "This window is 70×24" in shown and "mode text" in shown, shown
