"""``sukno-bot/1`` over real SSH (issue 19): bots register, sit, play a whole deal, are refused and taken over.

Real asyncssh clients without a pty against a real server on port 0; a person
watching reads the felt through pyte, as every tests/net test does.  The
server's own send path is tapped to check, at the moment each ``state`` or
``turn`` leaves, that it holds the seat's own view and no card hidden from it.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from schemacheck import check
from sshclient import connect, make_config, new_key, running, until

from engine.cards import Card, CardError, parse_card
from engine.game import ADMIN, SPECTATOR
from net.modes import bot as botproto
from net.cli.botclient import BotClient, Player
from net.modes.botwire import MAX_LINE, plain

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLES = [{"game": "stukolka", "think": 0, "clock": 0, "takeover": 0.2, "grace": 600}]


def wire_cards(value) -> set[Card]:
    """Every string in a message that is a card in the record notation."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and 2 <= len(item) <= 3:
            try:
                card = parse_card(item)
            except CardError:
                continue
            if card.text() == item:
                found.add(card)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def engine_cards(view) -> set[Card]:
    from viewscan import cards_in

    return cards_in(view)


class Tap:
    """Wraps ``BotSession.send``: every state/turn checked against the table at that very moment."""

    def __init__(self, server, monkeypatch):
        self.server = server
        self.checked = 0
        self.hidden_seen = 0
        original = botproto.BotSession.send
        tap = self

        def send(session, message):
            if message["type"] in ("state", "turn"):
                tap.check(session, message)
            original(session, message)

        monkeypatch.setattr(botproto.BotSession, "send", send)

    def check(self, session, message) -> None:
        table = self.server.club.tables[message["table"]]
        # The same door as the TUI's: exactly the view_for of the bot's name.
        assert message["view"] == plain(table.view_for(session.name))
        if table.game is None:
            return
        seat = table.seat_of(session.name)
        mine = engine_cards(table.game.view(seat))
        public = engine_cards(table.game.view(SPECTATOR))
        hidden = engine_cards(table.game.view(ADMIN)) - mine - public
        assert hidden, "the deal hides cards from this seat"
        assert not wire_cards(message) & hidden, (message["type"], wire_cards(message) & hidden)
        self.checked += 1


async def bot(port: int, name: str | None, key=None, lang: str = "en") -> BotClient:
    client = await BotClient.connect("127.0.0.1", port, key or new_key(), lang=lang)
    if name is not None:
        welcome = await client.hello(name, lang)
        assert welcome["type"] == "welcome", welcome
    return client


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_four_bots_play_a_whole_stukolka_deal_while_a_person_watches(tmp_path, monkeypatch):
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        tap = Tap(server, monkeypatch)
        names = ["Alpha", "Bravo", "Charlie", "Delta"]
        clients = [await bot(server.port, n) for n in names]
        watcher = await connect(server.port, key=None, cols=100, rows=30, command="watch 1")
        await watcher.wait("Table 1")
        players = [Player(c, 1, "rule", seed=i) for i, c in enumerate(clients)]
        done = await asyncio.wait_for(asyncio.gather(*(p.play(deals=1, seat=i) for i, p in enumerate(players))), 60)
        assert done == [1, 1, 1, 1]
        table = server.club.tables[1]
        assert table.seats == names
        # Every action came through the protocol, and no kopeck of the deal is made or lost.
        assert sum(p.acted for p in players) >= 4
        deal_end = next(m for m in clients[0].received if m["type"] == "deal_end")
        assert sum(p.money for p in players) == sum(deal_end["money"].values())
        assert sum(deal_end["money"].values()) + deal_end["pot"] == 0  # the first deal: the pot was empty
        for client in clients:
            for message in client.received:  # what the wire carried is what docs/schema says
                check("server", message)
            kinds = {m["type"] for m in client.received}
            assert {"hello", "welcome", "seated", "state", "turn", "event", "deal_end"} <= kinds
            deal_end = next(m for m in client.received if m["type"] == "deal_end")
            assert set(deal_end["money"]) == set(names)
        assert tap.checked >= 8
        # The person watching sees the bots at the felt, marked as bots.
        screen = await watcher.wait(lambda s: s.count("· bot") == 4 and all(n in s for n in names))
        # Bot accounts are marked in the store and in the club.
        assert all(server.store.account(n).role == "bot" for n in names)
        assert set(names) <= server.club.robots
        assert table.view_for("Alpha")["robots"] == names
        for client in clients:
            await client.close()
        await watcher.close()


async def test_garbage_is_refused_and_the_connection_stays_usable(tmp_path):
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await BotClient.connect("127.0.0.1", server.port, new_key(), lang="ru")
        hello = await client.expect("hello")
        assert hello["protocol"] == "sukno-bot/1" and hello["known"] is False
        client.send({"type": "tables"})  # before hello
        err = await client.expect("error")
        assert err["key"] == "bot.hello_first" and "hello" in err["text"]
        client.send({"type": "hello", "lang": "ru"})  # a new key without a name
        assert (await client.expect("error"))["key"] == "bot.need_name"
        client.send({"type": "hello", "name": "bot-Mitya"})  # the house's names are not for anyone
        err = await client.expect("error")
        assert err["key"] == "account.refused" and "занято" in err["text"]
        client.send({"type": "hello", "name": "Робот7", "lang": "ru"})
        welcome = await client.expect("welcome")
        assert welcome["name"] == "Робот7" and welcome["bot"] is True
        client.send_raw(b"{not json\n")
        err = await client.expect("error")
        assert err["key"] == "bot.bad_json" and "JSON" in err["text"]
        client.send_raw(b"[1, 2]\n")
        assert (await client.expect("error"))["key"] == "bot.not_object"
        client.send_raw(b'{"type": "fly"}\n')
        err = await client.expect("error")
        assert err["key"] == "bot.unknown_type" and "fly" in err["text"]
        client.send_raw(b'{"type": "sit", "table": "one"}\n')
        err = await client.expect("error")
        assert err["key"] == "bot.bad_field" and "целое число" in err["text"]
        client.send_raw(b"\xff\xfe" + b"x" * (MAX_LINE + 10) + b"\n")
        err = await client.expect("error")
        assert err["key"] == "bot.too_long" and str(MAX_LINE) in err["text"]
        client.send_raw(b'{"type": "say", "text": "\xff\xfe"}\n')
        err = await client.expect("error")
        assert err["key"] == "bot.bad_utf8" and "UTF-8" in err["text"]
        client.send({"type": "say", "text": "я" * 301})
        err = await client.expect("error")
        assert err["key"] == "bot.field_too_long" and "301" in err["text"] and "300" in err["text"]
        client.send({"type": "sit", "table": 1, "seat": -1})
        err = await client.expect("error")
        assert err["key"] == "table.no_seat" and "-1" in err["text"] and "0 до 3" in err["text"]
        client.send({"type": "say", "text": "привет \x1b[31mвсем"})
        assert (await client.expect("said"))["text"] == "привет всем"
        await until(lambda: any(e.event.kind == "say" for e in server.club.hall_since(0)), what="hall chat")
        said = [e.event.data["text"] for e in server.club.hall_since(0) if e.event.kind == "say"]
        assert said == ["привет всем"]  # sanitised as people's chat is
        # Still usable after all that: the table list comes.
        client.send({"type": "tables"})
        tables = await client.expect("tables")
        for message in client.received:
            check("server", message)
        assert tables["tables"][0]["game"] == "stukolka" and tables["tables"][0]["seats"] == [None] * 4
        client.send({"type": "sit", "table": 9})
        assert (await client.expect("error"))["key"] == "bot.no_table"
        await client.close()


async def test_a_person_key_is_not_a_bot_and_a_guest_cannot_be_one(tmp_path):
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        key = new_key()
        server.accounts.register(key.get_fingerprint("sha256"), "Anna")
        client = await BotClient.connect("127.0.0.1", server.port, key)
        assert (await client.hello())["key"] == "bot.person_key"
        await client.close()
        guest = await BotClient.connect("127.0.0.1", server.port, None)
        err = await guest.expect("error")
        assert err["key"] == "bot.guest"
        await guest.close()


async def test_out_of_turn_stale_ask_and_illegal_acts_get_the_refusals_people_get(tmp_path):
    config = make_config(tmp_path / "data", tables=[{**TABLES[0], "bots": "fill"}])
    async with running(config) as server:
        client = await bot(server.port, "Echo")
        client.send({"type": "sit", "table": 1, "seat": 0})
        assert (await client.expect("seated"))["seat"] == 0
        client.send({"type": "act", "table": 1, "ask": 1, "action": "knock"})  # no deal yet
        err = await client.expect("error")
        assert err["key"] == "table.no_deal" and err["ask"] == 1
        client.send({"type": "start", "table": 1})
        table = server.club.tables[1]
        await until(table.in_deal, what="the deal starts")
        game = table.game
        # Wait until it is someone else's turn (the house bots play at once: think 0).
        while True:
            turn = await client.expect("turn")
            if turn["legal"]:
                break
        client.send({"type": "act", "table": 1, "ask": turn["ask"] + 100, "action": turn["legal"][0]})
        err = await client.expect("error")
        assert err["key"] == "bot.stale_ask"
        client.send({"type": "act", "table": 1, "ask": turn["ask"], "action": "play Z♠"})
        err = await client.expect("error")
        assert err["key"] == "refuse.not_card"
        client.send({"type": "act", "table": 1, "ask": turn["ask"], "action": "fly"})
        err = await client.expect("error")
        assert err["key"] == "refuse.unknown_verb" and "fly" in err["text"]
        before = len(game.deals[-1].actions)
        client.send({"type": "act", "table": 1, "ask": turn["ask"], "action": turn["legal"][0]})
        await until(lambda: len(game.deals[-1].actions) > before or not game.in_deal, what="the act lands")
        await client.close()


async def test_out_of_turn_is_refused_by_the_engine(tmp_path):
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        clients = [await bot(server.port, n) for n in ("Foxtrot", "Golf", "Hotel", "India")]
        for i, c in enumerate(clients):
            c.send({"type": "sit", "table": 1, "seat": i})
            await c.expect("seated")
        for c in clients:
            c.send({"type": "start", "table": 1})
        table = server.club.tables[1]
        await until(table.in_deal, what="the deal starts")
        waiting = [c for i, c in enumerate(clients) if i not in table.game.to_act()][0]
        waiting.send({"type": "act", "table": 1, "ask": 0, "action": "pass"})
        err = await waiting.expect("error")
        assert err["key"] == "refuse.not_turn" and "not your turn" in err["text"]
        for c in clients:
            await c.close()


async def test_a_bot_that_drops_mid_deal_is_taken_over_and_gets_its_seat_back(tmp_path):
    config = make_config(tmp_path / "data", tables=[{**TABLES[0], "bots": "fill"}])
    async with running(config) as server:
        key = new_key()
        client = await bot(server.port, "Juliet", key=key)
        client.send({"type": "sit", "table": 1})
        await client.expect("seated")
        client.send({"type": "start", "table": 1})
        table = server.club.tables[1]
        await until(table.in_deal, what="the deal starts")
        await client.expect("turn")
        client.conn.abort()  # gone mid-deal, its turn pending
        await until(lambda: not server.club.is_online("Juliet"), what="Juliet offline")
        await until(lambda: "Juliet" in table.bots() or not table.in_deal(), what="a stand-in plays for her")
        await until(lambda: not table.in_deal(), timeout=30, what="the stand-in finishes the deal")
        assert table.seats[0] == "Juliet" and "Juliet" not in table.ready
        again = await bot(server.port, None, key=key)
        assert (await again.hello())["name"] == "Juliet"  # a known key needs no name
        state = await again.expect("state")  # straight back to its seat's view
        assert state["table"] == 1 and state["view"]["seat"] == 0
        assert "Juliet" not in table.bots()
        again.send({"type": "sync", "table": 1})
        assert (await again.expect("state"))["seq"] == table.last_seq
        await again.close()


async def test_a_flood_is_cut_and_the_bot_told(tmp_path, monkeypatch):
    monkeypatch.setattr(botproto, "MESSAGE_BURST", 5)
    monkeypatch.setattr(botproto, "MESSAGES_PER_SECOND", 1)
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await bot(server.port, "Kilo")
        client.send_raw(b"".join(json.dumps({"type": "tables"}).encode() + b"\n" for _ in range(40)))
        err = await client.expect("error")
        assert err["key"] == "bot.flood" and err["dropped"] == "tables message"
        assert "tables message" in err["text"] and "1 a second" in err["text"] and "5 at once" in err["text"]
        tables = [m for m in client.received if m["type"] == "tables"]
        assert len(tables) <= 5
        await client.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_bots_turn_clock_runs_out_as_a_persons_and_people_see_it_is_a_bot(tmp_path):
    config = make_config(tmp_path / "data", tables=[{**TABLES[0], "clock": 0.6, "bots": "fill"}])
    async with running(config) as server:
        client = await bot(server.port, "Lima")
        client.send({"type": "sit", "table": 1, "seat": 0})
        await client.expect("seated")
        client.send({"type": "start", "table": 1})
        turn = await client.expect("turn")
        assert turn["deadline_ms"] is not None and 0 < turn["deadline_ms"] <= 600  # the table's clock, told
        # Lima does not answer: at the clock's end the club makes the safe move for it and says so.
        timeout = await client.expect("event", where=lambda m: m["kind"] == "timeout")
        assert timeout["seat"] == 0 and timeout["data"]["name"] == "Lima"
        person = await connect(server.port, key=new_key(), cols=100, rows=30)
        await person.wait("book of names")
        person.line("Mike")
        await person.wait("Mike ·")
        person.line("who")
        await person.wait("Lima (bot)")
        await person.close()
        await client.close()
