"""The screen mode keeps the real terminal cursor on the command line's caret (issue 17).

Screen readers and braille displays follow the terminal's cursor; a hidden one,
or one left wherever the last frame ended, leaves them nowhere.
"""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_the_cursor_is_shown_at_the_caret_of_the_command_line(tmp_path):
    config = make_config(tmp_path / "data")
    async with running(config) as server:
        client = await connect(server.port, key=new_key())
        await client.wait("book of names")
        client.line("Anna")
        await client.wait("Anna ·")
        client.type("sit 9")
        await client.wait(lambda t: "sit 9" in t)
        screen = client.screen
        row = next(y for y, line in enumerate(screen.display) if "sit 9" in line)
        await client.wait(lambda t: screen.cursor.y == row)
        assert not screen.cursor.hidden
        assert screen.cursor.x == screen.display[row].index("sit 9") + len("sit 9")
        client.type("\x7f\x7f")  # the caret moves back with the text
        await client.wait(lambda t: "sit 9" not in t and screen.cursor.x == screen.display[row].index("sit") + 3)
        assert not screen.cursor.hidden and screen.cursor.y == row
        await client.close()


async def test_a_watchers_cursor_stays_on_his_own_line_across_shared_frames(tmp_path):
    """The shared view's frames would leave the cursor where the App's end; each watcher's comes back to his caret."""
    config = make_config(tmp_path / "data")
    async with running(config) as server:
        client = await connect(server.port, key=None, command="watch 1")
        await client.wait("say look sit leave")
        client.type("say hi")
        await client.wait("> say hi")
        screen = client.screen
        row = screen.lines - 1
        col = screen.display[row].index("say hi") + len("say hi")
        await client.wait(lambda t: (screen.cursor.y, screen.cursor.x) == (row, col))
        assert not screen.cursor.hidden
        frames = client.session.frames
        server.club.tables[1].watch("somebody")  # the table changes: a shared frame goes out
        await client.wait(lambda t: client.session.frames > frames)
        await client.wait(lambda t: (screen.cursor.y, screen.cursor.x) == (row, col))
        assert not screen.cursor.hidden
        await client.close()
