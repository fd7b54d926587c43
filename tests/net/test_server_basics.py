"""The SSH door with stand-in Apps: pty/no-pty, identity by key, guests, host key, locale, bad input."""

from __future__ import annotations

import asyncio
import os
import stat

import asyncssh
import pytest
from sshclient import connect, new_key, running, make_config, until
from standins import StandInClubApp

from net.ssh.server import HOST_KEY_NAME, locale_of


def _player(session):
    return StandInClubApp(session.server.club, session.name, lang=session.lang, ascii=session.ascii,
                          guest=session.guest, register=session.register, on_watch=session.on_watch)


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path / "data")


async def test_no_pty_is_refused_with_one_line(config):
    """A session without a pty gets one line about ssh -t and exit status 1."""
    async with running(config, player_app=_player) as server:
        async with asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                                    agent_path=None, username="x") as conn:
            result = await asyncio.wait_for(conn.run(), 10)
        assert result.exit_status == 1
        assert "ssh -t" in result.stdout
        assert result.stdout.count("\n") == 1
        await until(lambda: not server.sessions, what="session forgotten")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_new_key_registers_then_known_key_goes_to_hall(config):
    """An unknown key chooses a name; the same key later is greeted by it; names are unique."""
    key = new_key()
    async with running(config, player_app=_player) as server:
        a = await connect(server.port, key=key)
        await a.wait("newcomer")
        a.line("x")  # too short
        await a.wait("ERR A name is 2")
        a.line("Anna")
        await a.wait("HALL Anna")
        await a.close()

        b = await connect(server.port, key=new_key())
        await b.wait("newcomer")
        b.line("аnna")  # Cyrillic а: looks the same, so it is the same name
        await b.wait("taken")
        await b.close()

        c = await connect(server.port, key=key)
        await c.wait("HALL Anna")
        await c.close()
    from engine.store.opening import open_store

    with open_store(config.data) as store:
        assert [a.name for a in store.accounts()] == ["Anna"]
        assert store.account_by_key(key.get_fingerprint("sha256")).name == "Anna"
        assert store.balance("Anna") == config.grant


async def test_guest_without_key(config):
    """A client with no key enters as a guest; the App is told so."""
    async with running(config, player_app=_player) as server:
        g = await connect(server.port, key=None)
        await g.wait("guest=True")
        assert "HALL guest-" in g.text()
        await g.close()


async def test_host_key_made_once_private_and_reused(config):
    """The host key is generated on first start with mode 0600 and reused after a restart."""
    fingerprints = []
    for _ in range(2):
        async with running(config, player_app=_player) as server:
            async with asyncssh.connect("127.0.0.1", server.port, known_hosts=None,
                                        client_keys=[new_key()], agent_path=None) as conn:
                fingerprints.append(conn.get_server_host_key().get_fingerprint())
    assert fingerprints[0] == fingerprints[1]
    assert stat.S_IMODE(os.stat(config.data / HOST_KEY_NAME).st_mode) == 0o600


def test_locale_from_client_env():
    """Language from LC_ALL/LC_MESSAGES/LANG; ASCII when the charset is not UTF-8."""
    assert locale_of({"LANG": "ru_RU.UTF-8"}) == ("ru", False)
    assert locale_of({"LANG": "en_US.UTF-8"}) == ("en", False)
    assert locale_of({"LANG": "C"}) == ("en", True)
    assert locale_of({"LANG": "ru_RU.KOI8-R"}) == ("ru", True)
    assert locale_of({"LANG": "en_US.UTF-8", "LC_ALL": "ru_RU.utf8"}) == ("ru", False)
    assert locale_of({}) == ("en", False)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_language_and_ascii_follow_lang(config):
    """The App gets lang=ru for a Russian LANG and ascii=True for a non-UTF-8 one."""
    async with running(config, player_app=_player) as server:
        ru = await connect(server.port, key=new_key(), lang="ru_RU.UTF-8")
        await ru.wait("lang=ru ascii=False")
        c = await connect(server.port, key=new_key(), lang="C")
        await c.wait("lang=en ascii=True")
        await ru.close()
        await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_garbage_and_escapes_change_nothing(config):
    """Invalid UTF-8, stray escapes and a flood of input leave the session working."""
    async with running(config, player_app=_player) as server:
        a = await connect(server.port, key=new_key())
        await a.wait("newcomer")
        a.chan.write(b"\xff\xfe\xc3\x28\x1b[999;999;999M\x1b]0;evil\x07\x1b\x1b[")
        a.chan.write(b"\x1b")  # a lone Escape: a key after the timeout, not a hang
        a.chan.write(b"\xd0\r")  # half a Cyrillic letter, then Enter: a bad name, refused
        await a.wait("ERR A name is")
        a.line("Boris")
        await a.wait("HALL Boris")
        a.line("hello")
        await a.wait("ECHO hello")
        await a.close()


@pytest.mark.parametrize("size", [(1, 1), (3, 2), (1000, 1000)])
async def test_odd_window_sizes(config, size):
    """A 1x1 or a huge window does not crash the session; resizing back shows the App."""
    async with running(config, player_app=_player) as server:
        a = await connect(server.port, key=new_key(), cols=size[0], rows=size[1])
        await until(lambda: len(a.session.raw) > 0, what="first bytes")
        a.chan.change_terminal_size(80, 24)
        a.session.screen.resize(24, 80)
        a.session.screen.reset()
        a.type("\x0c")  # nothing special; the resize itself repaints
        await a.wait("newcomer")
        assert server.sessions
        await a.close()


async def test_disconnect_cleans_up(config):
    """A dropped connection ends its App and session; the club forgets the name."""
    async with running(config, player_app=_player) as server:
        a = await connect(server.port, key=new_key())
        await a.wait("newcomer")
        a.line("Vera")
        await a.wait("HALL Vera")
        assert server.club.is_online("Vera")
        a.conn.abort()
        await until(lambda: not server.sessions, what="session gone")
        await until(lambda: not server.club.is_online("Vera"), what="Vera offline")
        tasks = [t for t in asyncio.all_tasks() if "session" in t.get_name()]
        assert not tasks


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_input_flood_is_capped_and_others_stay_served(config):
    """Half a megabyte pasted at once is cut to the input burst; the session and the club go on."""
    config.input_burst = 2048
    async with running(config, player_app=_player) as server:
        flood = await connect(server.port, key=new_key())
        await flood.wait("newcomer")
        flood.chan.write(b"a" * 500_000)
        other = await connect(server.port, key=new_key())
        await other.wait("newcomer")
        other.line("Calm")
        await other.wait("HALL Calm")
        flood.chan.write(b"\r")
        await flood.wait("ERR A name is")  # 2048 letters: too long a name, refused
        session = next(s for s in server.sessions if s is not None and s.name != "Calm")
        assert not session.closed
        await flood.close()
        await other.close()
