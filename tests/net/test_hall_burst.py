"""A burst of people connecting to a crowded hall (issue 16): the newcomer first, the others told together.

The doors here run on stand-in sessions whose bytes go through the server's own
``net.ssh.door.OneSend`` to a recording socket, so the order of the journal is the
order the bytes leave the server; each screen is read through pyte.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pyte
import pytest

from engine.table.club import Club
from net.modes import hallview
from net.config import DEFAULTS
from net.ssh.door import OneSend
from net.modes.hall import HallDoor, make_board
from sshclient import until
from tui.text.prefs import Prefs

Journal = list[tuple[str, str, bytes]]


class _Socket:
    """The bottom of a connection: what is written here has left the server (in the journal's order)."""

    def __init__(self, journal: Journal, name: str, screen: pyte.Screen) -> None:
        self.journal, self.name = journal, name
        self.stream = pyte.ByteStream(screen)

    def write(self, data: bytes) -> None:
        self.journal.append(("socket", self.name, bytes(data)))
        self.stream.feed(bytes(data))

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


class _Config:
    input_burst = 65536


class _Server:
    def __init__(self, club: Club) -> None:
        self.club = club
        self.config = _Config()


class Person:
    """A stand-in session with a hall door: its bytes through OneSend to its socket, and from there to pyte."""

    def __init__(self, server: _Server, board: Any, journal: Journal, name: str, lang: str = "en",
                 size: tuple[int, int] = (80, 24)) -> None:
        self.server, self.name, self.lang, self.size = server, name, lang, size
        self.ascii = self.guest = self.paused = False
        self.prefs = Prefs()
        self.carried: list[Any] = []
        self.journal = journal
        self.screen = pyte.Screen(*size)  # what left the server, on his terminal
        self.transport = OneSend(_Socket(journal, name, self.screen))  # type: ignore[arg-type]
        self.door = HallDoor(self, board)  # type: ignore[arg-type]
        self.task = asyncio.ensure_future(self.door.run())

    # what a door asks of its session
    def app_size(self) -> tuple[int, int]:
        return self.size

    def send(self, data: bytes) -> None:
        self.journal.append(("queued", self.name, data))
        self.transport.write(data)

    def flush_now(self) -> None:
        self.transport.flush()

    def take_early(self) -> bytes:
        return b""

    def push_early(self, data: bytes) -> None:
        pass

    def _schedule_poll(self) -> None:
        pass

    def hold(self) -> None:
        pass

    def release_hold(self) -> None:
        pass

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def socket_writes(self, journal: Journal) -> list[bytes]:
        return [data for kind, who, data in journal if kind == "socket" and who == self.name]


async def hall(names: list[str], langs: dict[str, str] | None = None) -> tuple[Club, Any, Journal, list[Person]]:
    club = Club(DEFAULTS["tables"], seed=1)
    board = make_board(club)
    journal: Journal = []
    server = _Server(club)
    people = [Person(server, board, journal, n, (langs or {}).get(n, "en")) for n in names]
    last = names[-1]
    await until(lambda: all(last in p.text() or p.name == last for p in people), what="everyone in the hall")
    await until(lambda: board._handle is None, what="the hall quiet")
    return club, board, journal, people


async def leave(people: list[Person]) -> None:
    for p in people:
        p.door.finish(None)
    await asyncio.gather(*(p.task for p in people), return_exceptions=True)


async def test_the_newcomers_first_frame_leaves_before_the_others_are_told_of_him():
    """Vera's whole first frame is on her socket before any other door has a byte of her arrival."""
    club, board, journal, people = await hall(["Anna", "Boris", "Carol"], {"Boris": "ru"})
    await asyncio.sleep(hallview.GAP_MAX + 0.05)  # the hall quiet longer than its widest gap: it could draw at once
    journal.clear()
    vera = Person(people[0].server, board, journal, "Vera")
    await until(lambda: all("Vera" in p.text() for p in people), what="Vera's arrival on every screen")
    first = next(i for i, (kind, who, _) in enumerate(journal) if kind == "socket" and who == "Vera")
    others = [i for i, (_, who, _) in enumerate(journal) if who != "Vera"]
    assert others and first < min(others), journal[:3]
    frame = vera.socket_writes(journal)[0].decode()
    assert "The Green Baize" in frame and "Vera" in frame and "\x1b[?1049h" in frame  # the whole screen
    assert "Vera comes into the club." in people[0].text() and "Vera входит в клуб." in people[1].text()
    await leave(people + [vera])


async def test_a_burst_of_arrivals_is_one_frame_on_each_screen(monkeypatch):
    """Five people come in one after another (each in his own turn of the loop, within the arrivals'
    wait): the hall is drawn once, each screen gets one write with all five lines, each shown once."""
    club, board, journal, people = await hall(["Anna", "Boris", "Carol"], {"Boris": "ru"})
    monkeypatch.setattr(hallview, "ARRIVALS", 2.0)  # a wide window: the test does not hang on the machine's speed
    journal.clear()
    ticks = board.ticks
    names = [f"New{i}" for i in range(5)]
    for name in names:
        club.enter(name, False, now=0.0)
        await asyncio.sleep(0.01)
    await until(lambda: all(all(n in p.text() for n in names) for p in people), what="the five on every screen")
    assert board.ticks == ticks + 1
    for p in people:
        writes = p.socket_writes(journal)
        assert len(writes) == 1, (p.name, len(writes))
        line = "{} входит в клуб." if p.lang == "ru" else "{} comes into the club."
        for n in names:
            assert p.text().count(line.format(n)) == 1, (p.name, n, p.text())
    await leave(people)


async def test_a_chat_line_in_a_burst_of_arrivals_is_not_held_back(monkeypatch):
    """Arrivals wait to be told together, a chat line does not: it is drawn at once, with them."""
    club, board, journal, people = await hall(["Anna", "Boris"])
    monkeypatch.setattr(hallview, "ARRIVALS", 30.0)
    club.enter("Late", False, now=0.0)
    await asyncio.sleep(0.05)
    assert "Late" not in people[0].text()  # waiting for the others of a burst
    club.say("Boris", "[bold]not markup[/bold] [link=http://x]y[/link]")
    await until(lambda: "Boris says: [bold]not markup[/bold]" in people[0].text(), timeout=10,
                what="the chat line well before the arrivals' wait ends")
    assert "Late comes into the club." in people[0].text()
    assert "[link=http://x]y[/link]" in people[0].text()  # shown as typed, never parsed as markup
    await leave(people)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_every_arrival_of_a_burst_is_on_the_screen_once(lang):
    """However the burst is drawn (one frame or several), every arrival is a line on the screen, once."""
    club, board, journal, people = await hall(["Anna", "Boris"], {"Anna": lang})
    names = [f"Burst{i}" for i in range(8)]
    for name in names:
        club.enter(name, False, now=0.0)
        await asyncio.sleep(0)
    await until(lambda: all(n in people[0].text() for n in names), what="the burst on Anna's screen")
    line = "{} входит в клуб." if lang == "ru" else "{} comes into the club."
    assert all(people[0].text().count(line.format(n)) == 1 for n in names)
    await leave(people)


@pytest.mark.slow  # real SSH clients connecting at once (pytest -m "not slow" skips it)
async def test_people_connecting_at_once_are_lines_on_a_hall_screen_read_through_pyte(tmp_path):
    """Anna (Russian, 100x30) is in the hall; five known keys connect at once over SSH: each is told on
    her screen once, in her language, and her screen built from the bytes is her door's whole frame."""
    from engine.store.base import make_data_folder
    from engine.store.opening import open_store
    from net.config import Config
    from sshclient import connect, make_config, new_key, running
    from test_hall_door import same_as_model, session_of

    config = make_config(tmp_path / "data")
    make_data_folder(config.data)
    names = ["Anna"] + [f"Gost{i}" for i in range(5)]
    keys = {n: new_key() for n in names}
    with open_store(config.data) as store:
        for n in names:
            store.create_account(n, key=keys[n].get_fingerprint("sha256"), language="en", grant=Config().grant)
    async with running(config) as server:
        anna = await connect(server.port, key=keys["Anna"], lang="ru_RU.UTF-8", cols=100, rows=30)
        await anna.wait("Anna ·")
        burst = await asyncio.gather(*(connect(server.port, key=keys[n]) for n in names[1:]))
        for client, n in zip(burst, names[1:]):
            await client.wait(f"{n} ·")
        for n in names[1:]:
            await anna.wait(f"{n} входит в клуб.")
        assert all(anna.text().count(f"{n} входит в клуб.") == 1 for n in names[1:]), anna.text()
        await same_as_model(anna, session_of(server, "Anna"))
        for c in [anna, *burst]:
            await c.close()


async def test_arrivals_wait_while_people_are_connecting_and_at_most_arrivals_max(monkeypatch):
    """While someone is between his connect and his first frame, arrivals are not drawn (the burst's
    key exchanges first); they are drawn when the last has his frame, or after ARRIVALS_MAX anyway."""
    club, board, journal, people = await hall(["Anna", "Boris"])
    monkeypatch.setattr(hallview, "ARRIVALS", 0.01)
    monkeypatch.setattr(hallview, "ARRIVALS_MAX", 30.0)
    connecting = [True]
    board.connecting = lambda: connecting[0]
    club.enter("Early", False, now=0.0)
    await asyncio.sleep(0.3)
    assert "Early" not in people[0].text()
    connecting[0] = False  # the burst has its first frames
    await until(lambda: "Early comes into the club." in people[0].text(), what="the arrival once nobody connects")
    monkeypatch.setattr(hallview, "ARRIVALS_MAX", 0.2)
    connecting[0] = True  # someone stuck at his key exchange holds the hall's news back ARRIVALS_MAX at most
    club.enter("Later", False, now=0.0)
    await until(lambda: "Later comes into the club." in people[0].text(), what="the arrival after ARRIVALS_MAX")
    await leave(people)


async def test_the_server_counts_a_connection_as_connecting_until_his_first_screen(tmp_path):
    """SuknoServer.connecting: true from the TCP accept to the first frame, false after (and when he goes)."""
    from sshclient import make_config, running
    from test_club_over_ssh import register

    async with running(make_config(tmp_path / "data")) as server:
        assert not server.connecting()
        anna = await register(server.port, "Anna")
        assert not server.connecting()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)  # TCP only: no key exchange
        await until(lambda: server.connecting(), what="a connection accepted, no screen yet")
        writer.close()
        await until(lambda: not server.connecting(), what="the half-open connection gone")
        await anna.close()


@pytest.mark.parametrize("lang,words", [("en", "Here: P00, P01, P02"), ("ru", "Здесь: P00, P01, P02")])
async def test_a_crowded_halls_look_names_twenty_and_counts_the_rest(lang, words):
    """A newcomer's ``look`` in a hall of 23 others names 20 and counts 3 (500 names were 45 rows drawn
    for every newcomer); ``who`` still lists everyone."""
    names = [f"P{i:02d}" for i in range(23)]
    club, board, journal, people = await hall(names)
    vera = Person(people[0].server, board, journal, "Vera", lang, size=(160, 50))
    more = "P19 и ещё 3; наберите кто — все по именам." if lang == "ru" else "P19 and 3 more; type who for everyone."
    await until(lambda: more in vera.text(), what="the bounded Here line")
    assert words in vera.text() and "P20" not in vera.text()
    vera.door.feed(b"who\r")
    await until(lambda: "P22" in vera.text(), what="who lists everyone")
    await leave(people + [vera])


async def test_the_hall_is_drawn_a_slice_of_doors_a_turn_of_the_loop(monkeypatch):
    """A chat line to a crowd is drawn SLICE doors at a time, the loop free between (a newcomer's key
    exchange is not queued behind every screen); every door gets it, in one drawing."""
    club, board, journal, people = await hall([f"P{i}" for i in range(6)])
    monkeypatch.setattr(hallview, "SLICE", 2)
    journal.clear()
    ticks, drawn = board.ticks, board.drawn
    club.say("P0", "one line for six")
    while board.ticks == ticks:
        await asyncio.sleep(0)
    told = {who for kind, who, data in journal if kind == "queued"}
    assert 0 < len(told) < len(people)  # the first slice drawn, the loop's turn before the next
    await until(lambda: all("P0 says: one line for six" in p.text() for p in people), what="the line everywhere")
    assert board.drawn == drawn + 1 and board.ticks == ticks + 1
    await leave(people)


async def test_two_screens_of_one_size_and_language_get_the_same_bytes_for_a_chat_line():
    """Anna and Carol (English, 80x24, full logs) get byte for byte the same frame for a chat line — the
    shared rows and the scroll made alike for both; Boris (Russian, same size) gets his own language's."""
    club, board, journal, people = await hall(["Anna", "Boris", "Carol"], {"Boris": "ru"})
    anna, boris, carol = people
    for i in range(30):  # every log full: a new line scrolls it
        club.say("Boris", f"filler {i}")
    await until(lambda: all("filler 29" in p.text() for p in people), what="the fillers")
    await until(lambda: board._handle is None and board._drawing is None, what="the hall quiet")
    journal.clear()
    club.say("Boris", "the [b]same[/b] bytes")
    await until(lambda: all("the [b]same[/b] bytes" in p.text() for p in people), what="the line everywhere")
    assert anna.socket_writes(journal) == carol.socket_writes(journal) and len(anna.socket_writes(journal)) == 1
    assert boris.socket_writes(journal) != anna.socket_writes(journal)
    assert "Boris говорит: the [b]same[/b] bytes" in boris.text()
    await leave(people)
