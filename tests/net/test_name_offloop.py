"""A new key's name is written in the book off the event loop (issue 15), in every door a new key meets.

``Accounts.register``'s store calls (is the key bound, make the account) were made on the loop: on
PostgreSQL a round trip each, a hung database forever, and every session of the node waited.  Now the
session's ``register`` answers with an ``engine.table.pending.Pending`` that the store's thread settles.
Each test holds ``create_account`` at a gate: while it waits, another person's chat line arrives (on
the code before, the loop itself waited at the gate and the line came only after it), a second Enter
makes no second account, and once the gate opens the newcomer is in the hall.  A refusing store gives
the same clear line as before, in English and in Russian.
"""

from __future__ import annotations

import pytest
from gatedstore import gated_store
from sshclient import Client, connect, make_config, named, new_key, running, until

from net.cli.botclient import BotClient
from net.ssh.identity import TEXTS
from net.ssh.steps import club_app as _club_app

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


# How each door looks: its connect's command, what it shows asking for a name and once in the hall.
DOORS = {
    "door": (None, "book of names", "Boris ·"),
    "app": (None, "book of names", "Boris ·"),
    "text": ("text", "book of names", "Boris, you are in the club"),
}


@pytest.mark.parametrize("door", sorted(DOORS))
async def test_a_new_name_is_written_while_the_hall_goes_on(tmp_path, door) -> None:
    store = gated_store(tmp_path, gated=("create_account",))
    command, asks, inside = DOORS[door]
    extra = {"player_app": _club_app} if door == "app" else {}
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store, **extra) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            clients += [anna, cleo]
            store.gate.clear()
            boris = await connect(server.port, key=new_key(), command=command)
            clients.append(boris)
            await boris.wait(asks, timeout=20)
            boris.line("Boris")
            await until(lambda: store.hanging >= 1, timeout=20, what="Boris's name waiting at the store")
            boris.line("Boris")  # Enter again while the first waits: ignored, never a second account
            anna.line("say ping while Boris is written down")
            await cleo.wait("Anna says: ping while Boris is written down", timeout=20)
            assert store.hanging >= 1 and not store.gate.is_set()  # the chat did not wait for the store

            store.gate.set()
            seen = await boris.wait(inside, timeout=20)
            await until(lambda: server.club.is_online("Boris"), timeout=20, what="Boris in the club")
            made = store.named("create_account")
            assert [arg for arg, _thread in made].count("Boris") == 1, made  # one account, one call
            assert {thread for _arg, thread in made} == {"sukno arrivals"}, made  # none on the loop
            assert "already" not in seen and "taken" not in seen, seen
            assert store.account("Boris") is not None
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


ASKS = {"en": "book of names", "ru": "книгу имён"}


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_store_that_refuses_a_name_says_so_and_asks_again(tmp_path, lang) -> None:
    store = gated_store(tmp_path)
    async with running(make_config(tmp_path / "club"), store=store) as server:
        boris = await connect(server.port, key=new_key(), lang=f"{lang}_RU.UTF-8" if lang == "ru" else "en_US.UTF-8")
        try:
            await boris.wait(ASKS[lang], timeout=20)
            store.refused.add("create_account")
            boris.line("Boris")
            await boris.wait(TEXTS[lang]["store"], timeout=20)
            assert store.account("Boris") is None
            assert [thread for _arg, thread in store.named("create_account")] == ["sukno arrivals"]
            store.refused.clear()
            boris.line("Boris")  # the store is back: the same name now works
            await boris.wait("Boris ·", timeout=20)
            assert store.account("Boris") is not None
        finally:
            await boris.close()


async def test_a_bots_hello_reads_and_names_off_the_loop(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("account_by_key", "create_account", "balance"))
    clients: list[Client] = []
    bot = None
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            clients += [anna, cleo]
            bot = await BotClient.connect("127.0.0.1", server.port, new_key())
            await bot.expect("hello", timeout=20)
            store.gate.clear()
            bot.send({"type": "hello", "name": "robo-Vasya", "lang": "en"})
            bot.send({"type": "tables"})  # sent before the hello is answered: it waits for it, in order
            await until(lambda: store.hanging >= 1, timeout=20, what="the bot's hello waiting at the store")
            anna.line("say ping while the bot is read")
            await cleo.wait("Anna says: ping while the bot is read", timeout=20)
            assert store.hanging >= 1
            store.gate.set()
            welcome = await bot.expect("welcome|error", timeout=20)
            assert welcome["type"] == "welcome" and welcome["name"] == "robo-Vasya", welcome
            tables = await bot.expect("tables|error", timeout=20)
            assert tables["type"] == "tables", tables  # held, then answered after the welcome
            threads = {thread for _arg, thread in store.named("account_by_key") + store.named("create_account")}
            assert threads == {"sukno arrivals"}, store.calls
            assert [thread for arg, thread in store.named("balance") if arg == "robo-Vasya"] == ["sukno arrivals"]
            assert welcome["balance"] == store._store.balance("robo-Vasya")
            assert store.account("robo-Vasya").role == "bot"
    finally:
        store.gate.set()
        if bot is not None:
            await bot.close()
        for client in clients:
            await client.close()


async def test_a_store_that_cannot_read_a_bots_key_tells_the_bot(tmp_path) -> None:
    """The first read (is its key known?) refused: the bot hears the store's error and is let go, no
    traceback; on the code before the StoreError left ``serve_bot`` and the bot heard nothing."""
    store = gated_store(tmp_path)
    bot = None
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            store.refused.add("account_by_key")
            bot = await BotClient.connect("127.0.0.1", server.port, new_key())
            said = await bot.expect("hello|error", timeout=20)
            assert said["type"] == "error" and said["key"] == "failed", said
    finally:
        if bot is not None:
            await bot.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_name_still_being_written_when_the_wait_ends_is_not_told_as_failed(tmp_path, lang, monkeypatch) -> None:
    """The store's thread has begun writing his name when ``STORE_WAIT`` runs out: the name will be in the
    book, so "could not write your name down" (what he was told before) is untrue.  He hears that it is
    still being written, in his language, and is in the hall once it is."""
    import net.ssh.offloop
    from tui.i18n import tr

    monkeypatch.setattr(net.ssh.offloop, "STORE_WAIT", 0.5)
    store = gated_store(tmp_path, gated=("create_account",))
    async with running(make_config(tmp_path / "club"), store=store) as server:
        boris = await connect(server.port, key=new_key(), lang=f"{lang}_RU.UTF-8" if lang == "ru" else "en_US.UTF-8")
        try:
            await boris.wait(ASKS[lang], timeout=20)
            store.gate.clear()
            boris.line("Boris")
            await until(lambda: store.hanging >= 1, timeout=20, what="Boris's name being written")
            await boris.wait(tr(lang, "store.still")[:30], timeout=20)
            assert TEXTS[lang]["store"][:30] not in boris.text()
            store.gate.set()
            await boris.wait("Boris ·", timeout=20)
            assert TEXTS[lang]["store"][:30] not in boris.text()
            assert store.account("Boris") is not None
        finally:
            store.gate.set()
            await boris.close()
