"""The interactive console: live tables and sessions, commands with history and completion, a stopped server."""

from __future__ import annotations

import pytest
from adminkit import admin_server

from net.house.admin import socket_path
from net.house.console import AdminConsole, Link, complete

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def text_of(app, selector: str) -> str:
    return str(app.query_one(selector).render())


async def enter(pilot, line: str) -> None:
    """Type a line (set at once: pressing each key costs a frame on a loaded machine) and press Enter."""
    pilot.app.query_one("#cmd").value = line
    await pilot.press("enter")


async def settle(pilot, condition, what: str, tries: int = 200) -> None:
    """Let the console work until ``condition()`` holds (bounded; no fixed sleeps)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"{what}: not reached")


def out_lines(app) -> str:
    return "\n".join(line.text for line in app.query_one("#out").lines)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_console_runs_commands_and_shows_the_club(config):
    """Typing open adds a table the live panel shows; Up recalls the line; errors are shown, not raised."""
    async with admin_server(config) as server:
        app = AdminConsole(Link(socket_path(config.data)), every=0.1)
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot, lambda: "stukolka" in text_of(app, "#tables"), "tables shown")
            await enter(pilot, "open kopilka")
            await settle(pilot, lambda: 2 in server.club.tables, "table opened")
            await settle(pilot, lambda: "kopilka" in text_of(app, "#tables"), "the new table shown")
            await enter(pilot, "close 99")
            await settle(pilot, lambda: "there is no table 99" in out_lines(app), "refusal shown")
            await pilot.press("up", "up")
            assert app.query_one("#cmd").value == "open kopilka"
            await enter(pilot, 'say "unclosed')
            await settle(pilot, lambda: "cannot read that line" in out_lines(app), "bad quoting told")
            assert app.online
            await server.admin_socket.close()  # what a server that stops does last
            await settle(pilot, lambda: not app.online, "server gone noticed")
            assert "the server has stopped" in text_of(app, "#header")


def test_completion():
    """Tab completes commands, then table numbers, games, names and flags."""
    assert complete("sh") == ("shutdown ", [])
    assert complete("s")[1] == ["say", "seat", "sessions", "shutdown"]
    assert complete("close ", tables=[1, 12]) == ("close 1", ["1", "12"])
    assert complete("close 12 --a", tables=[1, 12]) == ("close 12 --after-deal ", [])
    assert complete("open ku", games=["kopilka", "stukolka"]) == ("open ku", [])
    assert complete("open st", games=["kopilka", "stukolka"]) == ("open stukolka ", [])
    assert complete("kick An", names=["Anna", "Boris"]) == ("kick Anna ", [])
    assert complete("seat 1 2 b", names=["Boris"])[0] == "seat 1 2 Bo"
    assert complete("seat 1 2 bo", names=["Boris"]) == ("seat 1 2 bo", ["Boris", "bot"])


def test_console_without_a_server(tmp_path, capsys):
    """A socket nobody answers on: the console does not start; one sentence and exit status 2."""
    import socket

    from net.house.console import run_console

    path = tmp_path / "admin.sock"
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(path))
    dead.close()
    assert run_console(path) == 2
    assert f"no sukno server answers at {path}" in capsys.readouterr().err


async def test_console_table_rows_fit_100_columns(config):
    """Issue 13 item 19: at 100×30 every table row is whole on screen, its state at the end."""
    async with admin_server(config) as server:
        table = server.club.tables[1]
        for name in ("Anastasia_Long1", "Boris", "Vera"):
            table.sit(name)
        app = AdminConsole(Link(socket_path(config.data)), every=0.1)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, lambda: "stukolka" in text_of(app, "#tables"), "tables shown")
            await pilot.pause()
            screen = [strip.text for strip in app.screen._compositor.render_strips()]
            row = next(line for line in screen if "stukolka" in line)
            assert "3/4 Anastasia_Long1" in row or "3/4 Anastasia" in row
            assert row[: row.index("│") if "│" in row else len(row)].rstrip().endswith("waiting"), row
