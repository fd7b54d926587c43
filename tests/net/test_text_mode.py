"""The text mode over real SSH (issue 17): a Стуколка deal played by reading sentences and answering prompts.

The clients parse no screen: they read lines, answer the "Your turn. You may …"
prompts with the first thing offered, and ask ``hand``/``trick``/``table``
mid-deal, whose answers are checked against the table itself.  Every byte they
got is checked for escape sequences (there must be none).
"""

from __future__ import annotations

import asyncio
import re

import pytest
from sshclient import make_config, new_key, running, until
from textclient import connect_text, first_choice

from engine.cards import Card
from tui.text.cards import in_symbols

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLES = [{"game": "stukolka", "think": 0, "clock": 0}]
WORDS = {
    "en": {"name": "What shall he write?", "deal_over": "The deal is over.", "turn": "Your turn.",
           "hand": "Your hand: ", "felt": ("On the felt: ", "No cards are on the felt"), "seat": "Seat 1: Anna (you)",
           "ready": "Type start when you are ready"},
    "ru": {"name": "Как вас записать?", "deal_over": "Сдача окончена.", "turn": "Ваш ход.",
           "hand": "У вас на руке: ", "felt": ("На сукне: ", "На сукне карт нет"), "seat": "Место 1: Anna (вы)",
           "ready": "Наберите start (начать), когда готовы"},
}


def bells(raw: bytes) -> int:
    """BEL characters that ring: not those ending an OSC sequence (Textual's pointer shape)."""
    return re.sub(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)", b"", bytes(raw)).count(b"\x07")


def is_prompt(line: str) -> bool:
    return first_choice(line) is not None


async def play_one_deal(server, client, lang: str, name: str) -> None:
    words = WORDS[lang]
    table = server.club.tables[1]
    await client.wait(words["name"])
    client.send(name)
    await client.wait(name)
    client.send("sit 1" if lang == "en" else "сесть 1")
    for _ in range(3):
        client.send("sit bot" if lang == "en" else "сесть бот")
    await client.wait(words["ready"])
    client.send("start" if lang == "en" else "начать")
    asked = False
    while True:
        line = await client.wait(lambda t: is_prompt(t) or words["deal_over"] in t, timeout=15)
        if words["deal_over"] in line:
            break
        choice = first_choice(line)
        assert choice
        if not asked and table.game is not None and table.game.phase == "play":
            asked = True
            await check_answers(client, table, name, words)
        client.send(choice)
    assert asked, "the deal reached play and the questions were asked"
    assert not table.in_deal() and table.game is not None and table.game.deals


async def check_answers(client, table, name: str, words: dict) -> None:
    """``hand``, ``trick`` and ``table`` mid-deal say what the table holds."""
    view = table.view_for(name)
    client.send("hand" if words is WORDS["en"] else "рука")
    line = await client.wait(words["hand"])
    lang = "en" if words is WORDS["en"] else "ru"
    mine = [in_symbols(c.text(), lang) for c in view["hands"][view["seat"]]]  # В Д К Т in Russian
    assert line == words["hand"] + ", ".join(mine) + "."
    client.send("trick" if words is WORDS["en"] else "взятка")
    line = await client.wait(lambda t: t.startswith(words["felt"]))
    for seat, card in view["trick"]:
        assert f"{view['names'][seat]} {in_symbols(Card.text(card), lang)}" in line
    if not view["trick"]:
        assert line.startswith(words["felt"][1])
    client.send("table" if words is WORDS["en"] else "стол")
    line = await client.wait(words["seat"])
    assert "bot-" not in line
    for seat in range(2, 5):
        line = await client.wait(f" {seat}: ")
        assert view["names"][seat - 1] in line


@pytest.mark.parametrize("term, lang", [("dumb", "en"), (None, "ru"), ("dumb", "ru"), (None, "en")])
async def test_a_whole_deal_by_sentences_and_prompts(tmp_path, term, lang):
    """TERM dumb (a pty) and no pty at all (``ssh host text``), in English and in Russian."""
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await connect_text(server.port, key=new_key(), term=term,
                                    lang="ru_RU.UTF-8" if lang == "ru" else "en_US.UTF-8",
                                    command=None if term else "text")
        await play_one_deal(server, client, lang, "Anna")
        assert b"\x1b" not in client.raw, "no escape sequence, ever"
        if term is None:
            assert b"\r" not in client.raw  # no pty: plain LF lines
        await client.close()
        await until(lambda: not server.sessions, what="the session ends")
        assert not server.club.is_online("Anna")
        assert server.club.tables[1].seats[0] == "Anna"  # leaving keeps the seat


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_bell_on_the_screen_and_mode_text_kept_for_the_next_visit(tmp_path):
    """The screen: no BEL by default, BEL once ``bell on``; ``mode text`` moves the session and is saved."""
    from sshclient import connect

    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        key = new_key()
        screen = await connect(server.port, key=key)
        await screen.wait("book of names")
        screen.line("Anna")
        await screen.wait("Anna ·")
        screen.line("sit 1")
        await screen.wait("Table 1 ·")
        for _ in range(3):
            screen.line("sit bot")
        await screen.wait("bot-Sonya")
        table = server.club.tables[1]

        async def play_out() -> None:
            while table.in_deal():
                await until(lambda: bool(table.legal_actions("Anna")) or not table.in_deal(), what="a turn")
                legal = table.legal_actions("Anna")
                if legal:
                    seq = table.last_seq
                    screen.line(legal[0].text())
                    await until(lambda: table.last_seq > seq, what="the move")

        screen.line("start")
        await until(table.in_deal, what="the deal")
        await play_out()
        assert bells(screen.session.raw) == 0  # off by default on the screen
        screen.line("bell on")
        await screen.wait("A bell rings")
        screen.line("start")
        await until(lambda: bool(table.legal_actions("Anna")), what="Anna's turn")
        await until(lambda: bells(screen.session.raw) > 0, what="a bell when her turn came")
        await play_out()
        assert server.store.settings("Anna") == {"bell": "on"}
        screen.line("mode text")
        await until(lambda: server.store.settings("Anna").get("mode") == "text", what="mode saved")
        await until(lambda: b"in text mode" in screen.session.raw, what="the text mode in the same session")
        await screen.close()

        again = await connect_text(server.port, key=key, term="xterm-256color")  # a capable terminal, no command
        await again.wait("in text mode")
        assert b"\x1b[?1049h" not in again.raw  # no alternate screen
        again.send("mode")
        await again.wait("The mode is text now")
        await again.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_watcher_in_text_mode_hears_public_events_and_no_hidden_card(tmp_path):
    """``watch 1`` in text mode: sentences of the public events; hand, table and trick hide every hand."""
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        table = server.club.tables[1]
        watcher = await connect_text(server.port, key=None, term=None, command="watch 1")
        await watcher.wait("You watch table 1")
        anna = await connect_text(server.port, key=new_key(), term=None, command="text")
        player = asyncio.get_running_loop().create_task(play_one_deal(server, anna, "en", "Anna"))
        await until(lambda: player.done() or (table.in_deal() and table.game.phase == "play"), what="play")
        assert not player.done(), player
        start = len(watcher.lines())
        watcher.send("hand")
        watcher.send("table")
        watcher.send("trick")
        await watcher.wait(lambda t: t.startswith(("On the felt", "No cards are on the felt")))
        from engine.game import ADMIN

        hidden = {c.text() for hand in table.game.view(ADMIN)["hands"] for c in hand}  # hands only shrink
        hidden.discard(table.game.trump_card.text() if table.game.trump_card is not None else "")
        answers = "\n".join(watcher.lines()[start:])
        assert "You are watching: you hold no cards here." in answers
        assert not [c for c in hidden if c in answers], answers
        await asyncio.wait_for(player, 30)
        await watcher.wait("The deal is over.")
        told = "\n".join(watcher.lines())
        assert "Your hand" not in told and " plays " in told and " takes trick " in told
        assert b"\x1b" not in watcher.raw
        await watcher.close()
        await anna.close()


async def test_an_unknown_term_gets_the_text_mode_and_a_pty_gets_the_line_editor(tmp_path):
    """TERM unknown to terminfo → text mode; on a real terminal (``ssh -t host text``) Up recalls a line."""
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        odd = await connect_text(server.port, key=None, term="nosuchterm-9000")
        await odd.wait("in text mode")
        assert b"\x1b" not in odd.raw
        await odd.close()

        xterm = await connect_text(server.port, key=None, term="xterm-256color", command="text")
        await xterm.wait("in text mode")
        xterm.send("who")
        await xterm.wait("Online (")
        xterm.chan.write(b"\x1b[A\r")  # Up: the line editor gives back "who"
        await xterm.wait("Online (")
        await xterm.close()

        screen = await connect_text(server.port, key=None, term="xterm-256color", command="screen")
        await until(lambda: b"\x1b[?1049h" in screen.raw, what="the screen for ssh -t host screen")
        await screen.close()


async def test_a_script_pipes_lines_in_and_reads_sentences_out(tmp_path):
    """``printf 'tables\\nwho\\nquit\\n' | ssh host text``: plain LF lines, then a clean exit."""
    import asyncssh

    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        async with asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=None,
                                    password="", agent_path=None, username="x") as conn:
            result = await asyncio.wait_for(conn.run("text", input="tables\nwho\nquit\n"), 10)
        assert result.exit_status == 0
        out = result.stdout
        assert "in text mode" in out and "Stukolka" in out and "Online (1): guest-1 (guest)." in out
        assert "\x1b" not in out and "\r" not in out
        await until(lambda: not server.sessions, what="the session ends")


async def test_the_house_is_heard_and_a_kick_says_goodbye_in_text_mode(tmp_path):
    """``admin say`` reaches a text session as a line; ``kick`` ends it with the reason, the seat kept."""
    from net.house.admin import AdminCommands

    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await connect_text(server.port, key=new_key(), term="dumb")
        await client.wait("What shall he write?")
        client.send("Vera")
        await client.wait("in text mode")
        house = AdminCommands(server)
        reply = await house.do_say(["closing", "at", "ten"], "test")
        assert reply.ok and reply.data["sessions"] == 1
        await client.wait("[house] The house: closing at ten")
        reply = await house.do_kick(["Vera", "too", "loud"], "test")
        assert reply.ok
        await client.wait("too loud")
        await asyncio.wait_for(client.session.closed.wait(), 10)
        assert b"\x1b" not in client.raw


async def test_a_flood_of_one_line_is_cut_to_the_command_line_and_said_once(tmp_path):
    """No pty: 5000 letters then Enter — the line holds COMMAND_MAX, the refusal is said once, the club answers."""
    from tui.limits import COMMAND_MAX

    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await connect_text(server.port, key=None, term=None, command="text")
        await client.wait("in text mode")
        client.chan.write(b"say " + b"x" * 5000 + b"\n")
        await client.wait(f"at most {COMMAND_MAX} characters")
        client.send("who")
        await client.wait("Online (1)")
        assert "\n".join(client.lines()).count(f"at most {COMMAND_MAX} characters") == 1
        await client.close()


async def test_a_dumb_terminal_edits_its_line_with_the_clubs_editor_and_sees_each_change(tmp_path):
    """TERM=dumb: Backspace, Ctrl+U and Up (the history) edit the line as in the hall; the terminal is shown
    each change as it can show it (``\\b \\b`` back, the new letters typed again), never an escape."""
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await connect_text(server.port, key=None, term="dumb")
        await client.wait("in text mode")
        start = len(client.raw)
        client.chan.write(b"whx\x7fo\r")  # a typo mended with Backspace
        await client.wait("Online (1)")
        assert client.raw[start:].startswith(b"whx\b \bo\r\n")
        start = len(client.raw)
        client.chan.write(b"junk\x15\x1b[A\r")  # Ctrl+U wipes the line; Up brings back ``who``
        await client.wait("Online (1)")
        assert client.raw[start:].startswith(b"junk" + b"\b \b" * 4 + b"who\r\n")
        assert b"\x1b" not in client.raw
        await client.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_sukno_play_text_plays_a_deal_on_stdin_and_stdout():
    """``sukno play stukolka --text``: no SSH, lines on stdin and stdout, a whole deal by the prompts."""
    import sys
    from pathlib import Path

    from textclient import first_choice as choice_of

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "net.cli.main", "play", "stukolka", "--text", "--think", "0", "--name", "anna",
        "--lang", "ru", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2])
    assert proc.stdin is not None and proc.stdout is not None
    told: list[str] = []

    async def line() -> str:
        raw = await asyncio.wait_for(proc.stdout.readline(), 20)
        assert raw, "\n".join(told)
        told.append(raw.decode().rstrip("\n").replace("\x07", ""))
        return told[-1]

    try:
        while "Наберите start" not in await line():
            pass
        proc.stdin.write("начать\n".encode())
        while True:
            text = await line()
            if text.startswith("Сдача окончена."):
                break
            answer = choice_of(text)
            if answer:
                proc.stdin.write((answer + "\n").encode())
        proc.stdin.write("выход\n".encode())
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
    assert any(t.startswith("У вас на руке: ") for t in told)
    assert not any("\x1b" in t for t in told)
