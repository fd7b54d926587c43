"""The screen mode keeps the real terminal cursor on the command line's caret (issue 17).

Screen readers and braille displays follow the terminal's cursor; a hidden one,
or one left wherever the last frame ended, leaves them nowhere.
"""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


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
