"""The real club (ClubApp, SpectatorApp, Стуколка) over real SSH, screens read with pyte."""

from __future__ import annotations

import asyncio

import pytest
from sshclient import Client, connect, make_config, new_key, running, until

from engine.cards import Card
from engine.game import ADMIN
from viewscan import cards_in

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path / "data")


async def register(port: int, name: str, key=None, **kw) -> Client:
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait("book of names")
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def seat_four(server) -> list[Client]:
    players = [await register(server.port, n) for n in ("Anna", "Boris", "Vera", "Gleb")]
    for p in players:
        p.line("sit 1")
    await until(lambda: server.club.tables[1].full(), what="four seated")
    return players


def hidden_cards(table) -> set[Card]:
    """Cards in hands right now that nobody outside the hand has ever been shown.

    Public means in the public view now or in any logged event (events are public
    by the protocol): a redeal puts a card that was turned up back into a hand,
    and the log may still name it.
    """
    game = table.game
    if game is None or not game.in_deal:
        return set()
    shown = cards_in(table.view_for(None))
    for entry in table.log_since(0):
        shown |= cards_in(dict(entry.event.data))
    return cards_in(game.view(ADMIN).get("hands")) - shown


def assert_no_hidden(watcher: Client, table) -> None:
    screen = watcher.text()
    leaked = [str(c) for c in hidden_cards(table) if str(c) in screen]
    assert not leaked, f"the spectator sees hidden cards {leaked}:\n{screen}"


async def play_one_action(table, players: dict[str, Client]) -> None:
    game = table.game
    seat = game.to_act()[0]
    name = game.names[seat]
    action = game.legal_actions(seat)[0]
    seq = table.last_seq
    players[name].line(action.text(ascii=True))
    await until(lambda: table.last_seq > seq, what=f"{name} {action.text()} applied")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_four_players_play_a_deal_while_watched(config):
    """Four new keys register, sit at Стуколка, play a deal by typing; a watcher never sees a hidden card."""
    async with running(config) as server:
        players = await seat_four(server)
        table = server.club.tables[1]
        watcher = await register(server.port, "Watcher")
        watcher.line("watch 1")
        await watcher.wait("watching · ")
        assert "Watcher" in table.spectators
        for p in players:
            p.line("start")
        await until(lambda: table.in_deal(), what="the deal starts")
        by_name = dict(zip(("Anna", "Boris", "Vera", "Gleb"), players))
        await watcher.wait("deal 1")
        # The check below is meaningful: a player's own screen does show his cards this way.
        anna_hand = table.game.view(ADMIN)["hands"][0]
        await by_name["Anna"].wait(lambda s: all(str(c) in s for c in anna_hand))
        steps = 0
        while table.in_deal():
            assert_no_hidden(watcher, table)
            await play_one_action(table, by_name)
            steps += 1
            assert steps < 60
        assert table.game is None or not table.game.in_deal
        await asyncio.sleep(0)  # the final frame is checked by waiting for the settled pot below
        await watcher.wait(lambda s: "deal 1" in s)
        for p in players + [watcher]:
            await p.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_late_watcher_sees_what_an_early_one_sees(config):
    """A watcher who joins after play has started sees the early watcher's screen cell for cell."""
    async with running(config) as server:
        players = await seat_four(server)
        table = server.club.tables[1]
        early = await register(server.port, "Early")
        early.line("watch 1")
        await early.wait("watching · ")
        for p in players:
            p.line("start")
        await until(lambda: table.in_deal(), what="the deal starts")
        by_name = dict(zip(("Anna", "Boris", "Vera", "Gleb"), players))
        for _ in range(3):
            await play_one_action(table, by_name)
        late = await register(server.port, "Late")
        late.line("watch 1")
        await late.wait("watching · ")
        await until(lambda: early.screen.display == late.screen.display, what="the same screen")
        await play_one_action(table, by_name)
        await until(lambda: early.screen.display == late.screen.display, what="the same screen after a move")
        assert len(server.hubs.hubs) == 1
        for p in players + [early, late]:
            await p.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_watcher_commands_and_leave(config):
    """The watcher's command row: look answers in place, say reaches the table, leave returns to the hall."""
    async with running(config) as server:
        w = await register(server.port, "Wanda")
        w.line("watch 1")
        await w.wait("watching · ")
        w.line("look")
        await w.wait("Table 1 ·")
        w.line("say hello there")
        await until(lambda: any(e.event.kind == "say" for e in server.club.tables[1].log_since(0)), what="say")
        w.line("frobnicate")
        await w.wait("Unknown command")
        w.line("leave")
        await w.wait("Wanda ·")
        assert "Wanda" not in server.club.tables[1].spectators
        await until(lambda: not server.hubs.hubs, what="the hub closes with its last watcher")
        assert server.club.is_online("Wanda")
        await w.close()
        await until(lambda: not server.club.is_online("Wanda"), what="Wanda offline")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_guest_may_watch_but_not_sit(config):
    """A guest watches and is told he cannot sit."""
    async with running(config) as server:
        g = await connect(server.port, key=None)
        await g.wait("You are a guest")  # said on screen from the start
        g.line("sit 1")
        await g.wait("not sit down to play.")
        assert not server.club.tables[1].seated()
        g.line("watch 1")
        await g.wait("watching · ")
        g.line("sit")
        await g.wait("Guests may watch")
        assert not server.club.tables[1].seated()
        await g.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_dropped_player_keeps_seat_and_reconnect_resumes(config):
    """A dropped connection mid-deal keeps the seat; the same key comes back to it."""
    async with running(config) as server:
        keys = [new_key() for _ in range(4)]
        names = ("Anna", "Boris", "Vera", "Gleb")
        players = [await register(server.port, n, key=k) for n, k in zip(names, keys)]
        table = server.club.tables[1]
        for name, p in zip(names, players):  # one at a time: four lines at once may be seated in any order
            p.line("sit 1")
            await until(lambda name=name: name in table.seats, what=f"{name} seated")
        assert table.full()
        for p in players:
            p.line("start")
        await until(table.in_deal, what="the deal starts")
        players[0].conn.abort()  # Anna's line drops
        await until(lambda: not server.club.is_online("Anna"), what="Anna offline")
        assert table.seats[0] == "Anna" and table.in_deal()
        back = await connect(server.port, key=keys[0])
        await back.wait("Table 1 ·")
        await until(lambda: server.club.is_online("Anna"), what="Anna back")
        by_name = dict(zip(names, [back] + players[1:]))
        await play_one_action(table, by_name)
        for p in [back] + players[1:]:
            await p.close()
        await until(lambda: not server.sessions, what="all sessions gone")
        assert not server.club.online()
        assert table.seated() == list(names)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_slow_watcher_does_not_hold_up_others_and_is_repainted(tmp_path):
    """A watcher who stops reading is skipped (not queued for), and gets the whole screen when he reads again."""
    config = make_config(tmp_path / "data", buffer_limit=4096, chat_burst=100)  # a talker past the chat limit
    async with running(config) as server:
        talker = await register(server.port, "Talker")
        steady = await register(server.port, "Steady")
        slow = await register(server.port, "Slow", window=1024)
        for w in (talker, steady, slow):
            w.line("watch 1")
        for w in (talker, steady, slow):
            await w.wait("watching · ")
        slow.chan.pause_reading()
        for i in range(40):
            talker.line(f"say line {i:02d} " + "x" * 40)
            await steady.wait(f"line {i:02d}")  # the others keep up, one line at a time
        members = [m for hub in server.hubs.hubs.values() for m in hub.members]
        assert any(m.stale for m in members), "the slow watcher was never marked behind"
        assert "line 39" not in slow.text()
        slow.chan.resume_reading()
        await until(lambda: slow.screen.display == steady.screen.display, what="the slow watcher repainted")
        assert not any(m.stale for hub in server.hubs.hubs.values() for m in hub.members)
        for w in (talker, steady, slow):
            await w.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_commands_typed_ahead_in_one_burst_act_in_order(config):
    """``sit 1⏎start⏎`` arriving in one packet (a slow link) sits, then says ready: nothing merged or lost."""
    async with running(config) as server:
        anna = await register(server.port, "Anna")
        anna.type("sit 1\rstart\r")
        table = server.club.tables[1]
        await until(lambda: "Anna" in table.ready, what="Anna seated and ready")
        await anna.wait("You are ready")
        await anna.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_watch_given_as_the_ssh_command(config):
    """``ssh -t host watch 1`` goes straight to the table's watchers; leave then opens the hall."""
    async with running(config) as server:
        g = await connect(server.port, key=None, command="watch 1")
        await g.wait("watching · ")
        assert any(n.startswith("guest-") for n in server.club.tables[1].spectators)
        g.line("leave")
        await g.wait("guest-")
        await g.wait(lambda s: "watching · " not in s)
        assert not server.club.tables[1].spectators
        await g.close()
        await until(lambda: not server.club.online(), what="nobody online")
