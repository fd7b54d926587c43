"""The social club over real SSH (issue 20): the rail, tells, ignore, mute, away, private tables, keys, the bell.

Screens are read through pyte (players, watchers) or as lines (the text mode);
what must never reach someone is checked in every byte his terminal got.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import pytest
from sshclient import Client, connect, make_config, new_key, running, until
from textclient import connect_text

sys.path.insert(0, str(Path(__file__).parent.parent / "admin"))

from adminkit import admin_server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BOTS = [{"game": "stukolka", "think": 0, "clock": 0, "takeover": 0}]


async def register(port: int, name: str, key=None, **kw) -> Client:
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait(lambda screen: "book of names" in screen or "книгу имён" in screen)
    client.line(name)
    await client.wait(f"{name} ·")
    return client


def raw(client: Client) -> str:
    """Every character the terminal got, escape sequences taken out (so a drawn word reads whole)."""
    return re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]", "", client.session.raw.decode("utf-8", "replace"))


async def play_out(table, name: str, client: Client) -> None:
    """Anna answers every turn of hers with her first legal action until the deal is over."""
    while table.in_deal():
        game = table.game
        seat = table.seat_of(name)
        if seat in game.to_act():
            legal = game.legal_actions(seat)
            seq = table.last_seq
            client.line(legal[0].text(ascii=True))
            await until(lambda: table.last_seq > seq or not table.in_deal(), what="Anna's move")
        else:
            await asyncio.sleep(0.05)


async def seat_with_bots(table, client: Client) -> None:
    client.line("sit 1")
    await until(lambda: "Anna" in table.seats, what="Anna seated")
    for _ in range(3):
        client.line("sit bot")
    await until(lambda: table.full(), what="bots seated")
    client.line("start")
    await until(table.in_deal, what="the deal starts")


async def test_a_watchers_row_is_the_social_verbs_host_and_quit_leaves_the_club(tmp_path):
    """A watcher's own row answers ``away``, ``back`` and ``ignore`` with the hall's own handlers and words
    (the watch is their host); ``watch 9`` is refused in his row; ``quit`` ends his session."""
    config = make_config(tmp_path / "d", tables=BOTS)
    async with running(config) as server:
        vera = await register(server.port, "Vera")
        vera.line("watch 1")
        await vera.wait("watching · ")
        vera.line("away lunch")
        await vera.wait("You are away (lunch)")
        assert server.club.social.away_note("Vera") == "lunch"
        vera.line("back")
        await vera.wait("Welcome back")
        assert not server.club.is_away("Vera")
        vera.line("ignore")
        await vera.wait("You ignore nobody")
        vera.line("watch 9")
        await vera.wait("There is no table 9")
        assert "Vera" in server.club.tables[1].spectators
        vera.line("quit")
        await until(lambda: not server.sessions, what="his session ends")
        assert "Vera" not in server.club.tables[1].spectators
        await vera.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("rail", ["after", "never"])
async def test_the_rail_is_for_watchers_only_while_the_deal_lasts(tmp_path, rail):
    """Wanda's words mid-deal reach Walt, never Anna (after the deal: a summary, or never); Anna's reach all;
    the admin reads the rail; a watcher cannot whisper to a player of that table mid-deal."""
    config = make_config(tmp_path / "d", tables=[{**BOTS[0], "rail": rail}])
    async with admin_server(config) as server:
        table = server.club.tables[1]
        anna = await register(server.port, "Anna")
        await seat_with_bots(table, anna)
        wanda = await register(server.port, "Wanda")
        walt = await register(server.port, "Walt")
        xena = await register(server.port, "Xena")
        for w in (wanda, walt, xena):
            w.line("watch 1")
            await w.wait("watching · ")
        xena.line("ignore wanda")  # in the watcher's own row; she gets her own frame, without Wanda's words
        await xena.wait("You no longer hear Wanda")
        await until(lambda: len([k for k in server.hubs.hubs if k.table_id == 1]) == 2, what="a hub of her own")
        wanda.line("say psst she holds the golets")
        await wanda.wait("only the watchers hear you")
        await walt.wait("[rail] Wanda: psst she holds the golets")
        walt.line("say walt was here")
        await xena.wait("[rail] Walt: walt was here")
        assert "psst" not in raw(xena) and "psst" not in xena.text()
        anna.line("say good luck all")
        await walt.wait("Anna says: good luck all")
        await wanda.wait("Anna says: good luck all")
        reply = await server.admin.run(["watch", "1"], "unix:test")
        assert "rail: Wanda: psst she holds the golets" in reply.text
        walt.line("tell Anna she has it")
        await walt.wait("Anna is playing at table 1, which you watch")
        assert table.in_deal()
        assert "psst" not in raw(anna) and "she has it" not in raw(anna) and "psst" not in anna.text()
        await play_out(table, "Anna", anna)
        if rail == "after":
            await anna.wait("The rail during the deal: Wanda: psst she holds the golets")
        else:
            anna.line("say the deal is over")
            await walt.wait("Anna says: the deal is over")
            await anna.wait("Anna says: the deal is over")
            assert "The rail during" not in raw(anna)
        for c in (anna, wanda, walt, xena):
            await c.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_tell_reaches_one_person_ignore_hides_and_mute_refuses(tmp_path):
    """Anna whispers to Boris alone; Boris ignores Anna (kept across a restart); the house mutes Vera (audited)."""
    config = make_config(tmp_path / "d")
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris", lang="ru_RU.UTF-8")
        vera = await register(server.port, "Vera")
        anna.line("tell boris meet me at table one")
        await boris.wait("Anna шепчет вам: meet me at table one")
        await anna.wait("You whisper to Boris: meet me at table one")
        assert "meet me" not in raw(vera)
        boris.line("игнор anna")
        await boris.wait("Anna: вы больше не слышите этого человека")  # a Latin name is not declined
        anna.line("tell Boris second whisper")
        await anna.wait("You whisper to Boris: second whisper")
        anna.line("say loud words in the hall")
        await vera.wait("Anna says: loud words in the hall")
        vera.line("say a marker")
        await boris.wait("Vera говорит: a marker")
        assert "second whisper" not in raw(boris) and "loud words" not in raw(boris)
        anna.line("tell Nobody hello")
        await anna.wait("Nobody is not in the club now.")

        reply = await server.admin.run(["mute", "Vera", "--for", "1h", "spamming"], "unix:test")
        assert reply.ok, reply.text
        vera.line("say let me speak")
        await vera.wait("The house has muted you for 60 more minutes: spamming.")
        vera.line("tell Anna psst")
        await vera.wait("The house has muted you for 60 more minutes: spamming.")
        assert "let me speak" not in raw(anna) and "psst" not in raw(anna)
        reply = await server.admin.run(["unmute", "Vera"], "unix:test")
        assert reply.ok
        vera.line("say free again")
        await anna.wait("Vera says: free again")
        reply = await server.admin.run(["mute", "Vera", "rude"], "unix:test")
        for c in (anna, boris, vera):
            await c.close()
    audit = [json.loads(line) for line in (config.data / "audit.log").read_text("utf-8").splitlines()]
    assert [e["command"][0] for e in audit] == ["mute", "unmute", "mute"]
    async with running(config) as server:  # a restart: Boris still ignores Anna, Vera is still muted
        server.club.social.hides("Boris", "Anna")  # not on screen here: his list is asked of the store's thread
        await until(lambda: server.club.social.hides("Boris", "Anna"), timeout=20, what="Boris's list read")
        assert server.club.social.muted("Vera") is not None and server.club.social.muted("Vera").reason == "rude"


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_key_link_lets_a_second_key_in_and_key_remove_shuts_it_out(tmp_path):
    config = make_config(tmp_path / "d")
    async with running(config) as server:
        first, second, third = new_key(), new_key(), new_key()
        anna = await register(server.port, "Anna", key=first)
        anna.line("key add")
        screen = await anna.wait("Your code: ")
        code = re.search(r"Your code: ([A-Z0-9]{4}-[A-Z0-9]{4})", screen).group(1)
        other = await connect(server.port, key=second)
        await other.wait("key link CODE")
        other.line("key link WRONG-CODE")
        await other.wait("That code is wrong")
        other.line(f"key link {code}")
        await other.wait("Anna ·")
        assert len(server.store.account("Anna").keys) == 2
        stranger = await connect(server.port, key=third)
        await stranger.wait("book of names")
        stranger.line(f"key link {code}")  # used once already
        await stranger.wait("That code is wrong")
        await stranger.close()
        anna.line("key list")
        fp_first, fp_second = first.get_fingerprint("sha256"), second.get_fingerprint("sha256")
        await anna.wait(f"{fp_first}  (this connection)")
        await anna.wait(fp_second)
        anna.line(f"key remove {fp_first}")
        await anna.wait("That is the key you are connected with")
        anna.line(f"key remove {fp_second}")
        await anna.wait("no longer lets anyone")
        await asyncio.wait_for(other.session.closed.wait(), 10)
        assert server.store.account("Anna").keys == (fp_first,)
        again = await connect(server.port, key=second)
        await again.wait("book of names")  # a stranger's key again
        await again.close()
        await anna.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_away_lets_the_stand_in_play_and_shows_beside_the_name(tmp_path):
    """Anna (text mode) types away mid-deal: the stand-in finishes her deal; who shows the note; back ends it."""
    config = make_config(tmp_path / "d", tables=BOTS)
    async with running(config) as server:
        table = server.club.tables[1]
        anna = await connect_text(server.port, key=new_key())
        await anna.wait("What shall he write?")
        anna.send("Anna")
        await anna.wait("Anna")
        anna.send("sit 1")
        for _ in range(3):
            anna.send("sit bot")
        await until(table.full, what="bots seated")
        anna.send("start")
        await until(table.in_deal, what="deal")
        boris = await register(server.port, "Boris")
        anna.send("away lunch")
        await anna.wait("You are away (lunch)")
        await until(lambda: not table.in_deal(), timeout=20, what="the stand-in plays Anna's deal out")
        await anna.wait("The deal is over.")
        boris.line("who")
        await boris.wait("Anna (away: lunch) (table 1)")
        anna.send("back")
        await anna.wait("Welcome back")
        boris.line("who")
        await boris.wait(lambda s: "Anna (table 1)" in s)
        await anna.close()
        await boris.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_private_table_invite_and_no_watchers_kept_across_a_restart(tmp_path):
    config = make_config(tmp_path / "d")
    async with running(config) as server:
        table = server.club.tables[1]
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.line("sit 1")
        await until(lambda: "Anna" in table.seats, what="Anna seated")
        anna.line("table private")
        await anna.wait("Table 1: private")
        boris.line("watch 1")
        await boris.wait("Table 1 is private")
        boris.line("sit 1")
        await boris.wait("Table 1 is private")
        anna.line("invite boris")
        await boris.wait("Anna invites you to table 1")
        boris.line("watch 1")
        await boris.wait("watching · ")
        boris.line("leave")
        await boris.wait("Boris ·")
        anna.line("table watchers none")
        await anna.wait("watchers: nobody")
        vera = await register(server.port, "Vera")
        vera.line("watch 1")
        await vera.wait("Table 1 takes no watchers")
        boris.line("table public")
        await boris.wait("Sit at a table first")
        for c in (anna, boris, vera):
            await c.close()
    async with admin_server(config) as server:
        rules = server.club.tables[1].seating
        assert (rules.private, rules.watchers, rules.host, rules.invited) == (True, "none", "Anna", {"Boris"})
        reply = await server.admin.run(["open", "stukolka", "private", "watchers=friends"], "unix:test")
        assert reply.ok, reply.text
        opened = server.club.tables[reply.data["table"]].seating
        assert (opened.private, opened.watchers) == (True, "friends")


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_bell_on_a_tell_and_bell_off_kept(tmp_path):
    """Text mode: a tell rings (the bell is on there by default); bell off stops it and survives a reconnect."""
    config = make_config(tmp_path / "d")
    async with running(config) as server:
        key = new_key()
        anna = await connect_text(server.port, key=key)
        await anna.wait("What shall he write?")
        anna.send("Anna")
        await anna.wait("Anna")
        boris = await register(server.port, "Boris")
        boris.line("tell Anna ring ring")
        await anna.wait("Boris whispers to you: ring ring")
        await until(lambda: b"\x07" in anna.raw, what="the bell")
        anna.send("bell off")
        await anna.wait("No bell rings any more.")
        rung = anna.raw.count(b"\x07")
        boris.line("tell Anna quiet now")
        await anna.wait("Boris whispers to you: quiet now")
        assert anna.raw.count(b"\x07") == rung
        await anna.close()
        anna = await connect_text(server.port, key=key)
        await anna.wait("Anna")
        boris.line("tell Anna still quiet")
        await anna.wait("Boris whispers to you: still quiet")
        assert b"\x07" not in anna.raw
        boris.line("bell on")
        await boris.wait("A bell rings")
        anna.send("tell Boris ding")
        await until(lambda: b"\x07" in boris.session.raw, what="the screen's bell")
        await anna.close()
        await boris.close()
