"""Read what a Textual app shows, as plain text rows; type into it."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.keys import _character_to_key
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


async def type_keys(pilot: Pilot, keys: str) -> None:
    """Type printable characters one key at a time, as a fast typist's terminal sends them.

    Each character is its own Key event, built as ``pilot.press`` builds it and handled in order
    by the focused widget; what this saves is Pilot's two idle waits (at least 40 ms) after every
    key, 8 s for the 200 keys of a full command line.  The queues are then drained in order (the
    app forwards keys to the focused widget, which posts on to its parents), and the screen settles.
    """
    app = pilot.app
    assert app._driver is not None
    for char in keys:
        assert char.isprintable(), f"type_keys types printable characters, not {char!r}"
        key = events.Key(char if char.isalnum() else _character_to_key(char), char)
        key.set_sender(app)
        app._driver.send_message(key)
    for _ in range(3):  # app → focused widget → its parents
        await pilot._wait_for_screen()
    await pilot.pause()

