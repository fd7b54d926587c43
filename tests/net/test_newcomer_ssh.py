"""Issue 13 over real SSH (screens read with pyte): what a newcomer meets with more than one session."""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path / "data")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_two_sessions_of_one_account_watch_and_one_leaves(config):
    """Item 3: the watcher count stays 1 while the account's other session still watches."""
    async with running(config) as server:
        key = new_key()
        first = await connect(server.port, key=key)
        await first.wait("book of names")
        first.line("Wanda")
        await first.wait("Wanda ·")
        second = await connect(server.port, key=key)
        await second.wait("Wanda ·")
        table = server.club.tables[1]
        for client in (first, second):
            client.line("watch 1")
            await client.wait("watching · ")
        assert table.spectators == {"Wanda"}
        second.line("leave")
        await second.wait("Wanda ·")
        first.line("look")
        await first.wait("1 watching")  # the watcher's own look: still one
        assert table.spectators == {"Wanda"}
        assert server.club.summary()[0]["spectators"] == 1  # what sukno admin tables prints
        second.line("tables")
        await second.wait(lambda s: any(row.rstrip().endswith("  1") for row in s.splitlines() if " 1  " in row[:5]))
        first.line("leave")
        await first.wait("Wanda ·")
        await until(lambda: not table.spectators, what="no watcher left")
        await first.close()
        await second.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_refused_name_is_not_also_run_as_a_command(config):
    """Item 2: a taken, reserved or too short name is refused, and nothing else is said about it."""
    async with running(config) as server:
        anna = await connect(server.port, key=new_key())
        await anna.wait("book of names")
        anna.line("anna")
        await anna.wait("anna ·")
        newcomer = await connect(server.port, key=new_key())
        await newcomer.wait("book of names")
        for name, said in (("anna", "is taken"), ("bot-Mitya", "reserved"), ("x", "will not do")):
            newcomer.line(name)
            await newcomer.wait(said)
            newcomer.line("lang ru")  # the welcome's own word: its answer comes after anything the name caused
            await newcomer.wait("Как вас записать")
            screen = newcomer.text()
            newcomer.line("lang en")
            await newcomer.wait(lambda s: s.rfind("What shall he write") > s.rfind("Как вас записать"))
            assert "I do not know" not in screen and "Did you mean" not in screen, screen
        newcomer.line("Vera")
        await newcomer.wait("Vera ·")
        await anna.close()
        await newcomer.close()
