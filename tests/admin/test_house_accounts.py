"""The house's accounts: accounts, account NAME rename|disable|enable|close|key-code, key add, through
``sukno admin`` (text and ``--json``) against a real server with its socket, and what the person sees."""

from __future__ import annotations

import asyncio
import json

from adminkit import admin_server, sukno_admin
from sshclient import connect, new_key, until
from standins import StandInClubApp

from engine.store.base import GRANTS


def _player(session):
    return StandInClubApp(session.server.club, session.name, lang=session.lang, ascii=session.ascii,
                          guest=session.guest, register=session.register, on_watch=session.on_watch)


async def arrive(port: int, name: str, key=None, **kw):
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait("newcomer")
    client.line(name)
    await client.wait(f"HALL {name}")
    return client


def said(client) -> str:
    return client.session.raw.decode("utf-8", "replace")


async def refused(port: int, key, words: str, **kw) -> str:
    """A connection shown the door with ``words`` and closed; all it was sent."""
    client = await connect(port, key=key, **kw)
    await asyncio.wait_for(client.session.closed.wait(), 10)
    assert words in said(client), said(client)[-300:]
    assert "HALL" not in client.text()
    return said(client)


async def admin_json(data, *words: str) -> tuple[int, dict]:
    status, out, _ = await sukno_admin(data, *words, "--json")
    return status, json.loads(out)


def audit(data) -> list[dict]:
    return [json.loads(line) for line in (data / "audit.log").read_text("utf-8").splitlines()]


async def test_accounts_lists_finds_by_pattern_and_is_bounded(config):
    async with admin_server(config, player_app=_player) as server:
        store = server.store
        for name in ("Anna", "Anton", "Boris"):
            store.create_account(name, key=f"SHA256:{name}", grant=500)
        store.touch("Anna", now=1_700_000_000.0)
        status, reply = await admin_json(config.data, "accounts")
        assert status == 0 and reply["data"]["total"] == 3 and reply["data"]["more"] == 0
        anna = reply["data"]["accounts"][0]
        assert anna["name"] == "Anna" and anna["balance"] == 500 and anna["keys"] == ["SHA256:Anna"]
        assert anna["state"] == "active" and anna["last_seen"] == 1_700_000_000.0 and anna["created"] > 0
        status, out, _ = await sukno_admin(config.data, "accounts", "AN*")  # a glob, case folded
        assert status == 0 and [line.split()[0] for line in out.splitlines()] == ["Anna", "Anton"]
        assert "active" in out and "500 kop" in out and "1 key(s)" in out and "seen 2023-11-14" in out
        _, reply = await admin_json(config.data, "accounts", "NT")  # a substring
        assert [a["name"] for a in reply["data"]["accounts"]] == ["Anton"]
        _, out, _ = await sukno_admin(config.data, "accounts", "zz")
        assert out.strip() == "no account matches 'zz'"
        for i in range(60):
            store.create_account(f"Player{i:02d}")
        status, out, _ = await sukno_admin(config.data, "accounts")
        assert status == 0 and out.strip().endswith("… and 13 more; narrow it with a pattern")
        assert len(out.strip().splitlines()) == 51
        status, out, err = await sukno_admin(config.data, "accounts", "x" * 65)
        assert status == 2 and "at most 64" in err
        status, reply = await admin_json(config.data, "account", "anton")
        assert status == 0 and reply["data"]["account"]["name"] == "Anton" and "key SHA256:Anton" in reply["text"]
        assert not any(e["command"][0] == "accounts" for e in audit(config.data))  # a listing is not logged


async def test_rename_keeps_his_key_money_and_records_and_obeys_the_name_rules(config):
    key = new_key()
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        server.store.create_account("Boris", grant=5)
        social = server.club.social
        social.ignore("Boris", "Anna")
        # written off the loop: the rename must find it in the store, not race it there
        await until(lambda: server.store.ignores("Boris") == ["Anna"], what="Boris's ignore in the store")
        assert (await sukno_admin(config.data, "mute", "Anna", "rude"))[0] == 0
        before = server.store.balance("Anna")
        status, reply = await admin_json(config.data, "account", "anna", "rename", "Anya")
        assert status == 0 and reply["data"] == {"name": "Anya", "was": "Anna", "ended": 1}
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "The house has renamed your account to Anya; connect again." in said(anna)
        assert server.store.account("Anna") is None and server.store.balance("Anya") == before
        assert social.hides("Boris", "Anya") and social.muted("Anya").reason == "rude"  # they follow him
        assert not social.hides("Boris", "Anna") and social.muted("Anna") is None
        await until(lambda: server.store.ignores("Boris") == ["Anya"], what="Boris's list in the store")
        assert [m[0] for m in server.store.mutes()] == ["Anya"]
        again = await connect(server.port, key=key)
        await again.wait("HALL Anya")
        await again.close()
        for bad, why in (("B0ris", "reads as the account 'Boris'"), ("help", "reserved"), ("x", "2–16 letters"),
                         ("Boris", "reads as the account")):
            status, out, err = await sukno_admin(config.data, "account", "Anya", "rename", bad)
            assert status == 1 and why in err, (bad, err)
        assert server.store.account("Anya") is not None
        status, _, err = await sukno_admin(config.data, "account", "Nobody", "rename", "Somebody")
        assert status == 1 and "no account named 'Nobody'" in err
        status, _, err = await sukno_admin(config.data, "account", "Anya", "rename")
        assert status == 2 and "usage: account NAME" in err
        status, _, _ = await sukno_admin(config.data, "account", "Anya", "rename", "ANYA")  # other letters
        assert status == 0 and server.store.account("anya").name == "ANYA"
        assert server.store.ledger_sum() == 0
        acts = [(e["command"], e["ok"]) for e in audit(config.data) if e["command"][0] == "account"]
        assert (["account", "anna", "rename", "Anya"], True) in acts
        assert (["account", "Anya", "rename", "B0ris"], False) in acts


async def test_a_banned_account_renamed_is_still_banned(config):
    """R: a ban of his name is his new name's, in the store and on this node at once; his key is refused."""
    key = new_key()
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        status, _, _ = await sukno_admin(config.data, "ban", "Anna", "card", "counting")
        assert status == 0
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        status, reply = await admin_json(config.data, "account", "Anna", "rename", "Anya")
        assert status == 0 and reply["data"]["name"] == "Anya"
        assert [(b.kind, b.target) for b in server.admin.bans.bans] == [("name", "Anya")]  # here, not at a read
        assert [(b.kind, b.key, b.reason) for b in server.store.bans()] == [("name", "anya", "card counting")]
        status, out, _ = await sukno_admin(config.data, "bans")
        assert status == 0 and "Anya" in out and "Anna" not in out
        again = await connect(server.port, key=key)  # his key's account is Anya's: her ban shuts him out
        await asyncio.wait_for(again.session.closed.wait(), 10)
        assert "card counting" in said(again)
        status, _, err = await sukno_admin(config.data, "unban", "Anna")
        assert status == 1 and "'Anna' is not banned" in err  # the old name is nobody's ban now
        assert (await sukno_admin(config.data, "unban", "Anya"))[0] == 0
        back = await connect(server.port, key=key)
        await back.wait("HALL Anya")
        await back.close()


async def test_a_disabled_account_is_shown_out_refused_in_his_language_and_enabled_again(config):
    key = new_key()
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        boris = await arrive(server.port, "Boris")
        status, out, _ = await sukno_admin(config.data, "account", "Anna", "disable")
        assert status == 0 and out.strip() == "disabled Anna (1 session(s) ended)"
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "The house has disabled your account; ask the house why." in said(anna)
        assert not boris.session.closed.is_set()
        await until(lambda: not server.club.is_online("Anna"), what="Anna gone")
        await refused(server.port, key, "The house has disabled your account; ask the house why.")
        await refused(server.port, key, "Хозяин клуба отключил вашу учётную запись; спросите у него почему.",
                      lang="ru_RU.UTF-8")
        text_mode = await refused(server.port, key, "The house has disabled your account", pty=False,
                                  command="text")
        assert "HALL" not in text_mode
        _, reply = await admin_json(config.data, "accounts", "anna")
        assert reply["data"]["accounts"][0]["state"] == "disabled"
        status, reply = await admin_json(config.data, "account", "Anna", "enable")
        assert status == 0 and reply["text"] == "enabled Anna"
        assert reply["data"] == {"name": "Anna", "state": "active", "ended": 0, "free_at": None}
        back = await connect(server.port, key=key)
        await back.wait("HALL Anna")
        await back.close()
        await boris.close()
        acts = [e["command"] for e in audit(config.data) if e["command"][0] == "account"]
        assert acts == [["account", "Anna", "disable"], ["account", "Anna", "enable"]]


async def test_a_disabled_player_keeps_his_seat_as_a_dropped_player_does(config):
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna")
        status, _, _ = await sukno_admin(config.data, "seat", "1", "1", "Anna")
        assert status == 0
        table = server.club.tables[1]
        assert table.seat_of("Anna") == 0
        await sukno_admin(config.data, "account", "Anna", "disable")
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        await until(lambda: "Anna" in table.auto.away, what="Anna away")
        assert table.seat_of("Anna") == 0  # the seat is kept for the grace, a stand-in plays meanwhile


async def test_close_holds_the_name_then_frees_it_and_the_ledger_still_sums_to_zero(config):
    key = new_key()
    config.name_hold_days = 0  # freed at the store thread's next round
    async with admin_server(config, player_app=_player) as server:
        anna = await arrive(server.port, "Anna", key=key)
        server.store.post([("Anna", -70), (GRANTS, 70)], reason="a test")
        social = server.club.social
        server.store.create_account("Boris")
        social.ignore("Boris", "Anna")
        assert (await sukno_admin(config.data, "mute", "Anna"))[0] == 0
        left = server.store.balance("Anna")
        status, reply = await admin_json(config.data, "account", "Anna", "close")
        assert status == 0 and reply["data"]["state"] == "closed" and reply["data"]["ended"] == 1
        assert "his name is free for newcomers from" in reply["text"]
        await asyncio.wait_for(anna.session.closed.wait(), 10)
        assert "Your account is closed; the club keeps its history." in said(anna)
        server.admin.store_reads.poke()  # the next round now, not in 2 s
        await until(lambda: server.store.account("Anna") is None, what="the name freed")
        await refused(server.port, key, "Your account is closed")
        freed = next(a for a in server.store.accounts() if a.name.startswith("closed:"))
        assert freed.balance == left and freed.state == "closed"
        newcomer = await arrive(server.port, "Anna")  # the name is free again, with a grant of his own
        assert not social.hides("Boris", "Anna") and social.muted("Anna") is None  # nothing of the old one
        assert server.store.balance("Anna") == config.grant
        assert server.store.ledger_sum() == 0
        server.store.check_ledger()
        await newcomer.close()


async def test_close_holds_the_name_for_the_waiting_period(config):
    async with admin_server(config, player_app=_player) as server:
        server.store.create_account("Anna", key="SHA256:anna", grant=10)
        status, reply = await admin_json(config.data, "account", "Anna", "close")
        assert status == 0 and reply["data"]["free_at"] > 29 * 86400 + 1_700_000_000
        client = await connect(server.port, key=new_key())
        await client.wait("newcomer")
        client.line("Anna")
        await client.wait("taken")
        await client.close()
        status, _, err = await sukno_admin(config.data, "account", "Anna", "key-code")
        assert status == 1 and "closed" in err
        status, _, err = await sukno_admin(config.data, "account", "Anna", "close")
        assert status == 1 and "Anna is closed already" in err  # the wait is not put off
        assert server.store.account("Anna").free_at == reply["data"]["free_at"]


async def test_key_code_lets_a_new_key_in_without_the_old_one(config):
    """The house makes a one-time code; the player types it from his new key at the real door."""
    async with admin_server(config) as server:
        server.store.create_account("Anna", key=new_key().get_fingerprint("sha256"), grant=10)
        status, reply = await admin_json(config.data, "key", "add", "anna")
        assert status == 0 and reply["data"]["name"] == "Anna"
        code = reply["data"]["code"]
        assert f"key link {code}" in reply["text"]
        assert code not in (config.data / "audit.log").read_text("utf-8")  # said, never kept
        fresh = new_key()
        client = await connect(server.port, key=fresh)
        await client.wait("book of names")
        client.line(f"key link {code}")
        await client.wait("Anna ·")
        assert fresh.get_fingerprint("sha256") in server.store.account("Anna").keys
        assert len(server.store.account("Anna").keys) == 2
        await client.close()
        status, out, _ = await sukno_admin(config.data, "account", "Anna", "key-code")
        assert status == 0 and "one-time code for Anna" in out
        status, reply = await admin_json(config.data, "account", "anna", "key-code")
        assert status == 0 and reply["data"]["name"] == "Anna" and reply["data"]["expires_in"] == 600
        status, _, err = await sukno_admin(config.data, "key", "add", "Anna", "SHA256:abc")
        assert status == 2 and "never takes a key" in err
        status, _, err = await sukno_admin(config.data, "key", "add", "Nobody")
        assert status == 1 and "no account named 'Nobody'" in err


async def test_a_disabled_bot_account_is_refused_at_its_hello_in_its_language(config):
    """The bot protocol asks the same gate: a disabled bot's hello gets an error, in the language it asked."""
    from net.cli.botclient import BotClient

    key = new_key()
    async with admin_server(config) as server:
        bot = await BotClient.connect("127.0.0.1", server.port, key, lang="en")
        welcome = await bot.hello("Robot7", "en")
        assert welcome["type"] == "welcome" and welcome["bot"] is True
        status, out, _ = await sukno_admin(config.data, "account", "Robot7", "disable")
        assert status == 0 and "1 session(s) ended" in out
        await until(lambda: not server.club.is_online("Robot7"), what="the bot gone")
        await bot.close()
        for lang, words in (("en", "The house has disabled your account"),
                            ("ru", "Хозяин клуба отключил вашу учётную запись")):
            again = await BotClient.connect("127.0.0.1", server.port, key, lang=lang)
            refusal = await again.hello(None, lang)
            assert refusal["type"] == "error" and refusal["key"] == "full" and words in refusal["text"], refusal
            await again.close()
        assert not server.club.is_online("Robot7")


def test_completion_of_the_account_verbs():
    from net.house.console import complete

    assert complete("account An", names=["Anna", "Boris"]) == ("account Anna ", [])
    assert complete("account Anna di") == ("account Anna disable ", [])
    assert complete("account Anna ") == ("account Anna ", ["close", "disable", "enable", "key-code", "rename"])
    assert complete("key a") == ("key add ", [])
    assert complete("accou")[1] == ["account", "accounts"]


async def test_the_console_lists_and_disables_at_80_by_24(config):
    """What the house types in ``sukno admin``'s console and the lines it reads back."""
    from net.house.admin import socket_path
    from net.house.console import AdminConsole, Link

    async with admin_server(config) as server:
        server.store.create_account("Anna", key="SHA256:anna", grant=700)
        app = AdminConsole(Link(socket_path(config.data)), every=0.1)
        async with app.run_test(size=(80, 24)) as pilot:
            async def type_line(line: str, shown: str) -> str:
                app.query_one("#cmd").value = line
                await pilot.press("enter")
                for _ in range(300):
                    lines = [strip.text for strip in app.query_one("#out").lines]
                    if any(shown in row for row in lines):
                        return "\n".join(lines)
                    await pilot.pause(0.02)
                raise AssertionError(f"{shown!r} not shown after {line!r}: {lines}")

            said_lines = await type_line("accounts an", "Anna")
            assert any(row.startswith("Anna") and "active" in row and "700 kop" in row
                       for row in said_lines.splitlines())
            await type_line("account Anna disable", "disabled Anna")
            await type_line("account Anna rename help", "That name is reserved")
            await type_line("accounts", "disabled")
            await type_line("account Anna enable", "enabled Anna")
            await type_line("account Anna key-code", "a one-time code for Anna")
            await type_line("account Anna rename Anya", "renamed Anna to Anya")
            await type_line("account Anya close", "closed Anya; his name is free for newcomers from")
            await type_line("account Anya", "closed")
        assert server.store.account("Anya").state == "closed"
