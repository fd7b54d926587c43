"""The house's reports, chat log and message of the day on a real server: players report and talk over SSH,
the house reads and closes through ``sukno admin`` (text and ``--json``) and is told of a report at once."""

from __future__ import annotations

import json

import pytest
from adminkit import admin_server, sukno_admin
from sshclient import Client, connect, new_key

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def register(port: int, name: str, key=None, **kw) -> Client:
    client = await connect(port, key=key or new_key(), **kw)
    await client.wait(lambda screen: "book of names" in screen or "книгу имён" in screen)
    client.line(name)
    await client.wait(f"{name} ·")
    return client


async def admin_json(data, *words: str) -> tuple[int, dict]:
    status, out, _ = await sukno_admin(data, *words, "--json")
    return status, json.loads(out)


async def eventually(data, words: tuple[str, ...], ready, what: str, tries: int = 200) -> dict:
    """``sukno admin WORDS --json`` until ``ready(reply)`` (the store's thread writes the log a moment later)."""
    import asyncio

    for _ in range(tries):
        _, reply = await admin_json(data, *words)
        if ready(reply):
            return reply
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what}: not reached; last reply {reply}")


async def test_a_report_reaches_the_house_with_what_was_seen_and_is_closed(config):
    vera_key = new_key()
    config.admin_keys = [vera_key.get_fingerprint("sha256")]
    async with admin_server(config) as server:
        vera = await register(server.port, "Vera", key=vera_key)
        anna = await register(server.port, "Anna", lang="ru_RU.UTF-8")
        boris = await register(server.port, "Boris")
        boris.line("say you play like a mule")
        await anna.wait("you play like a mule")
        anna.line("пожаловаться Boris грубит в зале")
        await anna.wait("Спасибо: дом получил вашу жалобу на Boris")
        await vera.wait("Report #1 from Anna about Boris: грубит в зале")  # the house online is told at once
        assert "грубит" not in boris.session.raw.decode("utf-8", "replace")
        reply = await eventually(config.data, ("reports",), lambda r: r["data"]["reports"], "the report kept")
        [report] = reply["data"]["reports"]
        assert (report["reporter"], report["target"], report["words"], report["state"]) == (
            "Anna", "Boris", "грубит в зале", "open")
        assert [(x["name"], x["place"], x["text"]) for x in report["seen"]] == [("Boris", "hall", "you play like a mule")]
        status, out, _ = await sukno_admin(config.data, "reports")
        assert status == 0 and f"#{report['id']} " in out and "Anna about Boris: грубит в зале" in out
        assert "hall               Boris: you play like a mule" in out
        status, closed = await admin_json(config.data, "report", str(report["id"]), "close")
        assert status == 0 and closed["data"] == {"report": report["id"], "closed": True}
        status, out, _ = await sukno_admin(config.data, "reports")
        assert status == 0 and out.strip() == "no open reports"
        _, every = await admin_json(config.data, "reports", "--all")
        [(state, by)] = [(r["state"], r["closed_by"]) for r in every["data"]["reports"]]
        assert state == "closed" and by.startswith("unix:")  # who closed it: the console's user
        status, _, err = await sukno_admin(config.data, "report", str(report["id"]), "close")
        assert status == 1 and f"there is no open report #{report['id']}" in err
        status, _, err = await sukno_admin(config.data, "report", "x", "close")
        assert status == 2 and "'x' is not a report number" in err
        for client in (vera, anna, boris):
            await client.close()
    entries = [json.loads(line) for line in (config.data / "audit.log").read_text("utf-8").splitlines()]
    assert [e["command"][:3] for e in entries if e["command"][0] == "report"] == [
        ["report", str(report["id"]), "close"]] * 2 + [["report", "x", "close"]]


async def test_the_chat_log_is_read_by_name_and_table_and_whispers_only_when_kept(config):
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.line("say good evening")
        anna.line("tell Boris a secret")
        await boris.wait("a secret")
        anna.line("sit 1")
        await anna.wait("Table 1")
        anna.line("say at the table")
        reply = await eventually(config.data, ("chatlog", "anna"), lambda r: len(r["data"]["lines"]) >= 2,
                                 "Anna's lines logged")
        assert [(x["place"], x["table"], x["text"]) for x in reply["data"]["lines"]] == [
            ("hall", None, "good evening"), ("table", 1, "at the table")]  # the whisper is not kept by default
        status, out, _ = await sukno_admin(config.data, "chatlog", "table", "1")
        assert status == 0 and "table 1" in out and "Anna: at the table" in out and "good evening" not in out
        status, out, _ = await sukno_admin(config.data, "chatlog", "Anna", "--since", "2999-01-01T00:00")
        assert status == 0 and "nothing said by Anna is in the chat log (the log keeps 14 days)" in out
        status, _, err = await sukno_admin(config.data, "chatlog", "Anna", "--since", "yesterday")
        assert status == 2 and "--since takes a time as ISO 8601" in err
        status, _, err = await sukno_admin(config.data, "chatlog")
        assert status == 2 and "usage: chatlog NAME|table N" in err
        await anna.close()
        await boris.close()
    entries = [json.loads(line) for line in (config.data / "audit.log").read_text("utf-8").splitlines()]
    assert ["chatlog", "anna"] in [e["command"][:2] for e in entries]  # reading someone's words is an act


async def test_motd_is_set_by_the_house_and_shown_to_each_arrival_as_typed(config):
    config.motd = "Tournament at 20:00"
    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        await anna.wait("Notice of the house: Tournament at 20:00")
        status, out, _ = await sukno_admin(config.data, "motd")
        assert status == 0 and out.strip() == "message of the day: Tournament at 20:00"
        status, reply = await admin_json(config.data, "motd", "[red]x[/]", "cancelled")
        assert status == 0 and reply["data"] == {"motd": "[red]x[/] cancelled"}
        boris = await register(server.port, "Boris", lang="ru_RU.UTF-8")
        await boris.wait("Объявление дома: [red]x[/] cancelled")
        status, _, _ = await sukno_admin(config.data, "motd", "--clear")
        assert status == 0 and server.club.motd == ""
        status, _, err = await sukno_admin(config.data, "motd", "   ")
        assert status == 2 and "usage: motd" in err
        await anna.close()
        await boris.close()
    entries = [json.loads(line) for line in (config.data / "audit.log").read_text("utf-8").splitlines()]
    assert [e["command"] for e in entries if e["command"][0] == "motd"][:2] == [["motd"], ["motd", "[red]x[/]", "cancelled"]]


def test_the_console_completes_the_house_verbs_on_words():
    from net.house.console import complete

    assert complete("rep")[1] == ["report", "reports"]
    assert complete("reports ") == ("reports --all ", [])
    assert complete("report 3 ") == ("report 3 close ", [])
    assert complete("chatlog ", names=["Anna"], tables=[1])[1] == ["Anna", "table"]
    assert complete("chatlog table ", tables=[1, 12])[1] == ["1", "12"]
    assert complete("chatlog Anna --s", names=["Anna"]) == ("chatlog Anna --since ", [])
    assert complete("motd --c") == ("motd --clear ", [])


async def test_the_console_lists_reports_and_a_watcher_may_report_a_player(config):
    """A watcher of table 1 reports a player for what he said there; the console shows it."""
    from test_console import enter, out_lines, settle

    from net.house.admin import socket_path
    from net.house.console import AdminConsole, Link

    async with admin_server(config) as server:
        anna = await register(server.port, "Anna")
        boris = await register(server.port, "Boris")
        anna.line("sit 1")
        await anna.wait("Table 1")
        boris.line("watch 1")
        await until_watching(server, "Boris")
        anna.line("say watchers are rats")
        await boris.wait("watchers are rats")
        boris.line("report Anna insults the watchers")
        await boris.wait("the house has your report about Anna")
        app = AdminConsole(Link(socket_path(config.data)), every=0.1)
        async with app.run_test(size=(120, 30)) as pilot:
            await enter(pilot, "reports")
            await settle(pilot, lambda: "Boris about Anna: insults the watchers" in out_lines(app), "report shown")
            assert "table 1            Anna: watchers are rats" in out_lines(app)
        await anna.close()
        await boris.close()


async def until_watching(server, name: str) -> None:
    from sshclient import until

    await until(lambda: any(name in t.spectators for t in server.club.tables.values()), what=f"{name} watching")


async def test_the_house_motd_is_kept_in_the_store_across_a_restart(config):
    from sshclient import until

    config.motd = "from the config"
    async with admin_server(config) as server:
        status, out, _ = await sukno_admin(config.data, "motd", "Closed on Monday")
        assert status == 0 and "every node, kept across restarts" in out
    async with admin_server(config) as server:  # the same data folder: its store kept the house's words
        await until(lambda: server.club.motd == "Closed on Monday", what="the kept motd read")
        anna = await register(server.port, "Anna")
        await anna.wait("Notice of the house: Closed on Monday")
        assert "from the config" not in anna.session.raw.decode("utf-8", "replace")
        await anna.close()
