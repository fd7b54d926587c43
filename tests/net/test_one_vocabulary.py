"""``выйти``/``leave`` and ``выход``/``quit`` mean the same in every mode: leave the table for the hall, and
leave the club.  A watcher once read ``выйти`` as quitting the club while a player read it as leaving the table.

Checked where a person types them: the watchers' row, the hall door and the text mode over real SSH; the
player's App and the text mode read ``tui.commands`` itself, which the watchers' row now shares.
"""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, running, until
from textclient import connect_text

from net.modes.texts import SPECTATOR_VERBS
from tui import commands

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WORDS = ("выйти", "уйти", "leave", "quit", "выход", "exit", "say", "сказать", "look", "сесть", "смотреть", "help")


@pytest.mark.parametrize("word", WORDS)
def test_the_watchers_row_reads_a_word_as_the_club_does(word: str) -> None:
    command = commands.parse(word)
    assert command is not None
    assert SPECTATOR_VERBS[word] == command.verb


@pytest.mark.parametrize("word", ["выйти", "leave"])
async def test_a_watcher_who_types_leave_is_back_in_the_hall_not_out_of_the_club(tmp_path, word: str) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        watcher = await connect(server.port, key=None, command="watch 1")
        await watcher.wait("watching · ")
        session = next(iter(server.sessions))
        watcher.line(word)
        await until(lambda: session.door is not None and session.watching is None, what="the hall door")
        assert not session.closed
        watcher.line("выход")
        await until(lambda: session.closed, what="the session ended by выход")
        await watcher.close()


async def test_in_the_hall_door_leave_stays_and_quit_leaves_the_club(tmp_path) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        guest = await connect(server.port, key=None)
        await until(lambda: any(s.door is not None for s in server.sessions), what="a hall door")
        session = next(iter(server.sessions))
        guest.line("выйти")
        await guest.wait("You are already in the hall.")
        assert not session.closed and session.door is not None
        guest.line("quit")
        await until(lambda: session.closed, what="the session ended by quit")
        await guest.close()


async def test_in_the_text_mode_leave_goes_to_the_hall_and_quit_leaves_the_club(tmp_path) -> None:
    async with running(make_config(tmp_path / "data")) as server:
        client = await connect_text(server.port, key=None, term=None, command="text")
        await client.wait("Type help for the commands")
        session = next(iter(server.sessions))
        client.send("watch 1")
        await client.wait("You watch table 1")
        client.send("выйти")
        await until(lambda: session.name is not None and not server.club.watching(session.name),
                    what="he watches no table")
        assert not session.closed
        client.send("выход")
        await until(lambda: session.closed, what="the text mode ended by выход")
        await client.close()
