"""A setting (``bell on``, ``mode``…) is kept in the store off the event loop (issue 15).

``prefs.save`` called ``store.set_setting`` on the loop: a slow store stalled every session of the
node.  Now the screen says the new setting at once and the store's thread writes it; if the write
fails he is told so, in his language, on the screen he has (the setting holds for this visit).
"""

from __future__ import annotations

import pytest
from gatedstore import gated_store
from sshclient import Client, connect, make_config, new_key, running, until

from tui.i18n import tr

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

LANGS = {"en": "en_US.UTF-8", "ru": "ru_RU.UTF-8"}
ASKS = {"en": "book of names", "ru": "книгу имён"}


async def named(port: int, name: str, lang: str = "en", command: str | None = None) -> Client:
    client = await connect(port, key=new_key(), lang=LANGS[lang], command=command)
    await client.wait(ASKS[lang], timeout=20)
    client.line(name)
    await client.wait(name, timeout=20)
    return client


async def test_a_setting_is_said_at_once_and_written_while_the_hall_goes_on(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("set_setting",))
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            boris = await named(server.port, "Boris")
            clients += [anna, cleo, boris]
            await until(lambda: server.club.is_online("Boris"), timeout=20, what="Boris in")
            store.gate.clear()
            boris.line("bell on")
            await boris.wait(tr("en", "pref.bell_on"), timeout=20)  # said at once, the write still waiting
            await until(lambda: store.hanging >= 1, timeout=20, what="the setting waiting at the store")
            anna.line("say ping while the bell is written")
            await cleo.wait("Anna says: ping while the bell is written", timeout=20)
            assert store.hanging >= 1 and store.settings("Boris").get("bell") != "on"
            store.gate.set()
            await until(lambda: store.settings("Boris").get("bell") == "on", timeout=20, what="the bell kept")
            assert [thread for _arg, thread in store.named("set_setting")] == ["sukno arrivals"]
            assert tr("en", "pref.not_kept", verb="bell") not in boris.text()
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


@pytest.mark.parametrize("lang,command", [("en", None), ("ru", None), ("en", "text")])
async def test_a_setting_the_store_refuses_is_told_to_him(tmp_path, lang, command) -> None:
    store = gated_store(tmp_path)
    async with running(make_config(tmp_path / "club"), store=store) as server:
        boris = await named(server.port, "Boris", lang, command)
        try:
            await until(lambda: server.club.is_online("Boris"), timeout=20, what="Boris in")
            store.refused.add("set_setting")
            boris.line("brief on" if lang == "en" else "кратко вкл")
            await boris.wait(tr(lang, "pref.brief_on"), timeout=20)
            said = tr(lang, "pref.not_kept", verb="brief" if lang == "en" else "кратко")
            await boris.wait(said.split(":")[0], timeout=20)
            assert store.settings("Boris").get("brief") != "on"
            assert [thread for _arg, thread in store.named("set_setting")] == ["sukno arrivals"]
        finally:
            await boris.close()
