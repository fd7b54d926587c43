"""Read what a Textual app shows, as plain text rows."""

from __future__ import annotations

from textual.app import App
from textual.pilot import Pilot


def rows(app: App) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def text(app: App) -> str:
    return "\n".join(rows(app))


async def type_line(pilot: Pilot, line: str) -> None:
    """Type a line into the focused command line and press Enter."""
    app = pilot.app
    app.screen.cmdline.value = line
    await pilot.press("enter")
    await pilot.pause()
