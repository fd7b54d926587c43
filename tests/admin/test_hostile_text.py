"""Text people and the house type is shown as text, never read as markup (issue 12, item 2)."""

from __future__ import annotations

import logging

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import Client, connect, new_key, until

from tui.limits import COMMAND_MAX

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HOSTILE = ("x [/] y", "[/b]", "[x]", "[bold red]loud[/]", "[link=http://e.x]l[/link]", "[@click=app.quit]q[/]")


async def register(port: int, name: str) -> Client:
    client = await connect(port, key=new_key(), cols=100, rows=30)
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def test_announcements_are_text(config):
    """``admin say`` with markup-looking words reaches a seated player literally; his App lives on."""
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        for words in HOSTILE:
            status, out, _ = await sukno_admin(config.data, "say", words)
            assert status == 0, out
            await anna.wait(words)
        anna.line("bid -5")  # another game's verb at a Стуколка table (issue 12, item 11)
        await anna.wait("This game has no 'bid'; it knows")
        anna.line("look")
        await anna.wait("> look")
        assert not anna.session.closed.is_set()
        assert any(s.app is not None for s in server.sessions)


async def test_a_crashed_app_ends_its_session(config, caplog):
    """An App that dies of an exception ends its session: Anna is no longer online, her seat is away (a
    stand-in plays), the table's log tells it and the server's log says why; even when the crash also
    broke the App's own unmount."""
    caplog.set_level(logging.INFO, logger="sukno")
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        anna.line("sit 1")
        await until(lambda: server.club.where("Anna") is not None, what="Anna seated")
        table = server.club.tables[1]
        session = next(s for s in server.sessions if s.name == "Anna")
        app = session.app

        def boom() -> None:
            raise RuntimeError("a bug in a widget")

        def broken_unsubscribe() -> None:
            raise RuntimeError("unmount broken too")

        app._unsubscribe = broken_unsubscribe
        app.call_later(boom)
        await until(lambda: anna.session.closed.is_set(), what="Anna's session closed")
        await until(lambda: not server.club.is_online("Anna"), what="Anna offline")
        assert "Anna" in table.auto.away
        assert any(e.event.kind == "away" and e.event.data["name"] == "Anna" for e in table.log_since(0))
        await until(lambda: session not in server.sessions, what="the session forgotten")
        assert "Something went wrong on our side" in anna.session.raw.decode("utf-8", "replace")
        assert any("App of Anna failed" in r.getMessage() and "a bug in a widget" in r.getMessage()
                   for r in caplog.records)
        assert server.admin.session_rows() == []


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_chat_and_names_are_text(config):
    """Markup-looking chat reaches others literally, in the hall and at a table; such a name is refused."""
    async with admin_server(config) as server:
        odd = await connect(server.port, key=new_key(), cols=100, rows=30)
        await odd.wait("book of names")
        odd.line("[b]x")
        await odd.wait("'[b]x' will not do")
        await odd.close()
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        for words in HOSTILE[:3]:
            anna.line(f"say {words}")
            await boris.wait(words)
        anna.line("sit 1")
        boris.line("sit 1")
        await until(lambda: server.club.where("Boris") is not None, what="Boris seated")
        for words in HOSTILE[3:]:  # Boris speaks now: five lines at once is each one's share (item 7)
            boris.line(f"say {words}")
            await anna.wait(words)
        assert not anna.session.closed.is_set() and not boris.session.closed.is_set()


async def test_chat_is_throttled_per_person_and_zalgo_is_cut(config):
    """A burst of 30 lines: five reach the hall and Anna is told to slow down; 190 combining marks on one
    letter (all the command line holds: tui.limits.COMMAND_MAX) reach others as two.

    The refill is slowed to one line a minute so that a loaded machine, taking over a second to
    read the burst, cannot earn Anna a sixth line: the burst of five is what is tested here."""
    config.chat_lines_per_second = 1 / 60
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        for i in range(30):
            anna.line(f"say burst{i:02d}")
        await anna.wait("Slow down")
        await boris.wait("burst04")
        said = [e.event.data["text"] for e in server.club.hall_since(0) if e.event.kind == "say"]
        assert said == [f"burst{i:02d}" for i in range(5)]
        assert "burst05" not in boris.text()
        boris.line("say Z" + "\u0301" * (COMMAND_MAX - 10) + "zalgo")
        await anna.wait("zalgo")
        said = [e.event.data for e in server.club.hall_since(0) if e.event.kind == "say"]
        assert said[-1] == {"name": "Boris", "text": "Z\u0301\u0301zalgo"}


async def test_a_watcher_is_throttled_too(config):
    config.chat_lines_per_second = 1 / 60  # as above: only the burst of five, however slow the machine
    async with admin_server(config) as server:
        boris = await register(server.port, "Boris")
        boris.line("watch 1")
        await until(lambda: any(s.watching == 1 for s in server.sessions), what="Boris watching")
        await boris.wait("say look sit leave")
        for i in range(20):
            boris.line(f"say w{i:02d}")
        await boris.wait("Slow down")
        table = server.club.tables[1]
        await until(lambda: sum(e.event.kind == "say" for e in table.log_since(0)) >= 5, what="five lines said")
        said = [e.event.data["text"] for e in table.log_since(0) if e.event.kind == "say"]
        assert said == [f"w{i:02d}" for i in range(5)]
