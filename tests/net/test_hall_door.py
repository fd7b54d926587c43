"""The hall door (issue 16): the hall without an App, seen through real SSH clients (pyte).

What a hall person sees must not get poorer: chat, arrivals, his own answers,
both languages, window sizes; two people of one size and language see the
shared rows cell for cell alike; the screen a client built from diffs is the
door's whole frame; a reader who stops reading is skipped and repainted.
"""

from __future__ import annotations

import pyte
import pytest
from sshclient import Client, connect, make_config, new_key, running, until
from test_club_over_ssh import register

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def register_ru(port: int, name: str, **kw) -> Client:
    client = await connect(port, key=new_key(), lang="ru_RU.UTF-8", **kw)
    await client.wait("книгу имён")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


def session_of(server, name):
    return next(s for s in server.sessions if s.name == name)


def cells(screen: pyte.Screen, y: int) -> list[tuple[str, str, str, bool]]:
    row = screen.buffer[y]
    return [(row[x].data, row[x].fg, row[x].bg, row[x].bold) for x in range(screen.columns)]


def model(session) -> pyte.Screen:
    """The door's whole frame now, painted on a fresh screen (what a late painter would show)."""
    cols, rows = session.app_size()
    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    frame = session.door.frame()
    stream.feed(("\x1b[H\x1b[2J" + "".join(f"\x1b[{y + 1};1H{row}" for y, row in enumerate(frame))).encode())
    return screen


async def same_as_model(client: Client, session) -> None:
    """The client's screen, built from diffs, equals the door's whole frame cell for cell."""
    def equal() -> bool:
        fresh = model(session)
        return all(cells(fresh, y) == cells(client.screen, y) for y in range(fresh.lines))

    await until(equal, what="the client's screen equal to the door's frame")


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path / "data")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_hall_people_get_a_door_and_see_chat_arrivals_and_their_answers(config):
    """Anna (English, 80x24) and Борис (Russian, 120x40): no App in the hall; each sees the chat, an arrival
    and his own answers in his language; the screens built from diffs are the doors' frames."""
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register_ru(server.port, "Boris", cols=120, rows=40)
        for name in ("Anna", "Boris"):
            session = session_of(server, name)
            assert session.door is not None and session.app is None, "a hall person runs no App"
        await anna.wait("Boris comes into the club.")
        boris.line("say добрый вечер")
        await anna.wait("Boris says: добрый вечер")
        await boris.wait("Boris говорит: добрый вечер")
        anna.line("who")
        await anna.wait("Online (2): Anna, Boris.")
        boris.line("кто")
        await boris.wait("В клубе (2)")
        anna.line("dance")
        await anna.wait("dance")
        assert "> dance" in anna.text()
        vera = await register(server.port, "Vera")
        await anna.wait("Vera comes into the club.")
        await boris.wait("Vera входит в клуб.")
        for client, name in ((anna, "Anna"), (boris, "Boris")):
            await same_as_model(client, session_of(server, name))
        assert boris.screen.columns == 120 and "─" * 120 in boris.text()
        for c in (anna, boris, vera):
            await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_two_people_of_one_size_and_language_see_the_shared_rows_alike(config):
    """The table list, the rule and a chat line: the same cells for two English 80x24 people, not for a Russian."""
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        carol = await register_ru(server.port, "Carol")
        anna.line("say the shared line")
        for c in (anna, boris):
            await c.wait("Anna says: the shared line")
        await carol.wait("Anna говорит: the shared line")
        for c, name in ((anna, "Anna"), (boris, "Boris"), (carol, "Carol")):
            await same_as_model(c, session_of(server, name))
        rule = next(y for y in range(24) if anna.screen.display[y].startswith("────"))
        for y in range(1, rule + 1):  # the table list and the rule: one rendering for both
            assert cells(anna.screen, y) == cells(boris.screen, y), y
        said = [next(y for y in range(24) if "Anna says: the shared line" in c.screen.display[y]) for c in (anna, boris)]
        assert cells(anna.screen, said[0]) == cells(boris.screen, said[1])
        assert cells(anna.screen, 1) != cells(carol.screen, 1)  # another language: its own rendering
        for c in (anna, boris, carol):
            await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_the_door_keeps_the_command_line_keys(config):
    """Tab completes (options in the hint), Up recalls, F1 is help, Ctrl+C says how to leave, Left edits."""
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        line = lambda: anna.screen.display[23].strip()  # noqa: E731
        anna.type("wh\t")
        await until(lambda: line() == "who", what="who completed")
        anna.type("\r")
        await anna.wait("Online (1): Anna.")
        anna.type("\x1b[A")
        await until(lambda: line() == "who", what="who recalled")
        anna.type("\x15")  # Ctrl+U clears the line
        await until(lambda: line() == "", what="the line cleared")
        anna.type("s\t")
        await anna.wait("Possible:")
        anna.type("\x15sy hi" + "\x1b[D" * 4 + "a\r")  # "sy hi", four lefts, "a": "say hi"
        await anna.wait("Anna says: hi")
        anna.type("\x03")
        await anna.wait("Ctrl+C does not leave the club")
        anna.type("\x1bOP")
        await anna.wait("help")
        cursor = anna.screen.cursor
        assert cursor.y == 23, "the terminal's cursor stays on the command line (issue 17)"
        await same_as_model(anna, session_of(server, "Anna"))
        await anna.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_sitting_gives_the_app_and_leaving_gives_the_door_back(config):
    """``sit 1`` from the door: his App draws the table (no 'connection dropped' for him); ``leave``: a door."""
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        table = server.club.tables[1]
        session = session_of(server, "Anna")
        seq = table.last_seq
        anna.line("sit 1")
        await anna.wait("Table 1 · ")
        await until(lambda: session.app is not None and session.door is None, what="Anna's App at the table")
        anna.line("leave")
        await anna.wait("You have a seat at table 1")
        await until(lambda: session.door is not None and session.app is None, what="the door again")
        kinds = [e.event.kind for e in table.log_since(seq)]
        assert "away" not in kinds, f"moving between the door and the App looked like a drop: {kinds}"
        assert server.club.online() == ["Anna"]
        anna.line("sit 1")
        await anna.wait(lambda t: "Table 1 · " in t and "> sit 1" not in t)
        await anna.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_hall_reader_who_stops_reading_is_skipped_and_repainted(tmp_path):
    """Frames are skipped while his buffers are full (nothing queued for him); then his whole screen, exact."""
    config = make_config(tmp_path / "data", buffer_limit=4096, chat_burst=1000)  # a talker past the chat limit
    async with running(config) as server:
        talker = await register(server.port, "Talker")
        slow = await register(server.port, "Slow", window=1024)
        session = session_of(server, "Slow")
        slow.chan.pause_reading()
        for i in range(400):  # until his buffers are full (a scrolled line costs a few hundred bytes)
            talker.line(f"say hall line {i:03d} " + "y" * 30)
            await talker.wait(f"hall line {i:03d}")
            if session.door.stale:
                break
        assert session.door.stale, "the slow reader was never skipped"
        for j in range(i + 1, i + 6):  # skipped lines: nothing more is queued for him
            talker.line(f"say hall line {j:03d} " + "y" * 30)
            await talker.wait(f"hall line {j:03d}")
        assert session.buffered() < 4096 + 64 * 1024, "frames were queued for a client that does not read"
        slow.chan.resume_reading()
        await slow.wait(f"hall line {i + 5:03d}")
        await until(lambda: not session.door.stale, what="repainted")
        await same_as_model(slow, session)
        await same_as_model(talker, session_of(server, "Talker"))  # his log scrolled by the terminal 30 times
        for c in (talker, slow):
            await c.close()


async def test_a_tiny_and_a_resized_window(config):
    """A 20x6 window still has its command line; a resize repaints the whole frame at the new size."""
    async with running(config) as server:
        anna = await register(server.port, "Anna", cols=100, rows=30)
        session = session_of(server, "Anna")
        anna.chan.change_terminal_size(20, 6)
        anna.session.screen.resize(6, 20)
        anna.line("who")
        await until(lambda: session.app_size() == (20, 6), what="the new size")
        await same_as_model(anna, session)
        anna.chan.change_terminal_size(90, 26)
        anna.session.screen.resize(26, 90)
        anna.line("say wider")
        await anna.wait("Anna says: wider")
        await same_as_model(anna, session)
        await anna.close()


def finish_a_session(server) -> int:
    """Four people who are not connected play a deal of table 1 through the club; one stands: record 1."""
    import random

    table = server.club.tables[1]
    names = ("Ivan", "Petr", "Olga", "Lida")
    for name in names:
        server.store.create_account(name, grant=5000)
        table.sit(name)
    for name in names:
        table.start(name, now=0.0)
    rng = random.Random(2)
    while table.in_deal():
        game = table.game
        seat = game.to_act()[0]
        table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=0.0)
    table.stand("Ivan")
    for name in names[1:]:
        table.stand(name)
    server.store.get_record(1)  # it is there
    return 1


@pytest.mark.slow
async def test_after_a_replay_he_is_back_at_a_door_with_his_log(config):
    """``replay 1`` from the door runs his App for the replay; its end (q) gives him a door again, whose log
    is the one he had; a refused replay (no such record) is answered in the door without an App."""
    async with running(config) as server:
        record = finish_a_session(server)
        anna = await register(server.port, "Anna")
        session = session_of(server, "Anna")
        anna.line("say before the replay")
        await anna.wait("Anna says: before the replay")
        anna.line(f"replay {record}")
        await anna.wait(f"Record {record} · ")
        assert session.app is not None and session.door is None
        anna.type("q")
        await until(lambda: session.door is not None and session.app is None, what="the door after the replay")
        await anna.wait(lambda t: "Anna says: before the replay" in t and f"> replay {record}" in t
                        and "Record" not in t)
        assert server.club.online() == ["Anna"]
        await same_as_model(anna, session)
        anna.line("replay 99")
        await anna.wait("There is no record 99.")
        await until(lambda: session.door is not None and session.app is None, what="the door after a refusal")
        assert anna.text().count("> replay 99") == 1, "the line is told once, by the door"
        anna.line("say still here")
        await anna.wait("Anna says: still here")
        await same_as_model(anna, session)
        await anna.close()


async def test_the_apps_last_words_are_carried_into_the_door(config):
    """``stand`` at a table (his App): back at a door, whose log tells "You stand up from table 1." (in Russian
    for a Russian) after what the door had said before he sat."""
    async with running(config) as server:
        boris = await register_ru(server.port, "Boris")
        session = session_of(server, "Boris")
        boris.line("сесть 1")
        await until(lambda: session.app is not None and session.door is None, what="his App at the table")
        await boris.wait("Стол 1 · ")
        boris.line("встать")
        await until(lambda: session.door is not None and session.app is None, what="the door again")
        await boris.wait(lambda t: "> встать" in t and "Вы встаёте из-за стола 1." in t and "> сесть 1" in t)
        assert server.club.tables[1].seat_of("Boris") is None
        await same_as_model(boris, session)
        await boris.close()


async def test_a_new_keys_welcome_is_a_door_in_both_languages(config):
    """A new key is asked his name without an App (issue 16 item 3): the welcome's lines, its dim placeholder,
    its refusals in his language (a bad name, a taken one, ``lang``), then the hall door with his name."""
    async with running(config) as server:
        await register(server.port, "Anna")
        apps = server.apps_ended
        vera = await connect(server.port, key=new_key())
        await vera.wait("book of names")
        session = next(s for s in server.sessions if s.name is None)
        assert session.door is not None and session.app is None, "the welcome runs no App"
        screen = vera.text()
        assert "Welcome to the Green Baize" in screen and "key link CODE" in screen
        assert vera.screen.display[0].startswith(" The Green Baize")
        assert vera.screen.display[23].strip() == "your name"
        assert vera.screen.buffer[23][1].bg != vera.screen.buffer[23][2].bg, "the caret on the placeholder's 'y'"
        await same_as_model(vera, session)
        vera.line("x")
        await vera.wait("'x' will not do: use 2–16 letters")
        vera.line("Anna")
        await vera.wait("The name Anna is taken; choose another.")
        vera.line("lang ru")
        await vera.wait("Как вас записать?")
        vera.line("!!")
        await vera.wait("'!!' не годится")
        assert vera.screen.display[23].strip() == "ваше имя"
        await same_as_model(vera, session)
        vera.line("Vera")
        await vera.wait("Vera ·")
        await until(lambda: session.door is not None and session.name == "Vera", what="Vera's hall door")
        assert session.app is None and server.apps_ended == apps, "no App was started for the welcome"
        assert "в клубе 2" in vera.screen.display[0]
        await same_as_model(vera, session)
        await vera.close()


async def test_the_welcome_door_in_a_tiny_window_and_quit(config):
    """20x6: the command line and what fits above it; ``quit`` ends the session without a name."""
    async with running(config) as server:
        key = new_key()
        newcomer = await connect(server.port, key=key, cols=20, rows=6, lang="ru_RU.UTF-8")
        await until(lambda: any(s.name is None and s.door is not None for s in server.sessions), what="a welcome")
        session = next(s for s in server.sessions if s.name is None)
        await newcomer.wait("ваше имя")
        await same_as_model(newcomer, session)
        newcomer.line("z")
        await newcomer.wait("кириллица), цифр")  # the refusal's last rows: 4 rows of log fit
        await same_as_model(newcomer, session)
        newcomer.line("выход")
        await until(lambda: session.closed, what="the session ended by quit")
        assert server.store.account_by_key(key.get_fingerprint("sha256")) is None, "no name was written"
        await newcomer.close()
