"""Ignore lists are read and written off the event loop (issue 15, ``engine.table.social``'s ``fetch``/``later``).

A person's first ignore-list read (``Social._ignore_set``: made when a line is first filtered for him)
and every ``ignore``/``unignore`` called the store on the loop.  Here they wait at a gate while another
person's chat line still arrives; once the gate opens, the store holds what he typed, and what he
changed while his list was being read is kept on top of what the read found.
"""

from __future__ import annotations

import pytest
from gatedstore import gated_hall, gated_store
from sshclient import Client, connect, make_config, named, running, until

from tui.i18n import tr

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def test_ignore_and_unignore_are_written_while_the_hall_goes_on(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("set_ignore",))
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            boris = await named(server.port, "Boris")
            clients += [anna, cleo, boris]
            for typed, said, number in (("ignore Cleo", "social.ignored", 1), ("unignore Cleo", "social.unignored", 2)):
                store.gate.clear()
                boris.line(typed)
                await boris.wait(tr("en", said, name="Cleo")[:40], timeout=20)  # said at once, as before
                await until(lambda: store.hanging >= 1, timeout=20, what=f"{typed} waiting at the store")
                anna.line(f"say ping {number}")
                await cleo.wait(f"Anna says: ping {number}", timeout=20)
                assert store.hanging >= 1  # the chat did not wait for the store
                store.gate.set()
                want = ["Cleo"] if typed.startswith("ignore") else []
                await until(lambda: store.ignores("Boris") == want, timeout=20, what=f"{typed} kept")
            assert {thread for _arg, thread in store.named("set_ignore")} == {"sukno arrivals"}, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


async def test_a_guests_first_list_is_read_while_the_hall_goes_on(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("ignores",))
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            clients += [anna, cleo]
            anna.line("say hello all")
            await cleo.wait("Anna says: hello all", timeout=20)
            store.gate.clear()
            guest = await connect(server.port, key=None)
            clients.append(guest)
            await guest.wait("guest-", timeout=20)
            anna.line("say ping for the guest")  # filtered for him: his list is asked for
            await until(lambda: store.hanging >= 1, timeout=20, what="the guest's list waiting at the store")
            anna.line("say ping while his list is read")
            await cleo.wait("Anna says: ping while his list is read", timeout=20)
            await guest.wait("Anna says: ping while his list is read", timeout=20)  # nobody hidden meanwhile
            assert store.hanging >= 1
            store.gate.set()
            guest.line("ignore Cleo")  # a guest's list lasts his visit
            await guest.wait(tr("en", "social.ignored", name="Cleo")[:40], timeout=20)
            cleo.line("say a line the guest does not hear")
            await anna.wait("Cleo says: a line the guest does not hear", timeout=20)
            anna.line("say and one he hears")
            seen = await guest.wait("Anna says: and one he hears", timeout=20)
            assert "a line the guest does not hear" not in seen
            reads = store.named("ignores")
            assert reads and {thread for _arg, thread in reads} == {"sukno arrivals"}, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


async def test_a_stopped_server_leaves_no_store_writer_on_its_club(tmp_path) -> None:
    """``SuknoServer.stop`` stops its store thread; the club's ``social.later`` must not still point at it:
    a later server on the same club (a restart in-process, a test) would keep writing through the stopped
    one (on the loop, on the stopped server's store) instead of installing its own thread's writer."""
    store = gated_store(tmp_path, gated=("set_ignore",))  # the gate stays open: the calls are only noted
    config = make_config(tmp_path / "club")
    async with running(config, store=store) as first:
        club = first.club
        assert club.social.later is not None
    assert club.social.later is None and club.social.fetch is None
    async with running(config, store=store, club=club):
        club.social.ignore("Boris", "Cleo")  # no account: the store refuses, but the call is noted
        await until(lambda: bool(store.named("set_ignore")), timeout=20, what="the ignore written")
        assert [thread for _arg, thread in store.named("set_ignore")] == ["sukno arrivals"], store.calls


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_failed_read_of_his_ignore_list_is_told_and_read_again(tmp_path, lang, monkeypatch) -> None:
    """His list could not be read (on arrival, then at the first line filtered for him): it was taken
    for "he ignores nobody" for the whole visit, and the words of the people he ignores were shown to
    him, unsaid.  Now he is told, in his language; it is read again, and once read they are hidden."""
    import asyncio

    import engine.table.social
    from sshclient import new_key

    monkeypatch.setattr(engine.table.social, "IGNORE_RETRY", 0.5)
    key = new_key()
    async with gated_hall(tmp_path, (), ["Anna", "Cleo"]) as (store, server, clients):
        anna, cleo = clients
        store._store.create_account("Boris", key=key.get_fingerprint("sha256"), language=lang)
        store._store.set_ignore("Boris", "Cleo", True)
        store.refused.add("ignores")
        boris = await connect(server.port, key=key, lang="ru_RU.UTF-8" if lang == "ru" else "en_US.UTF-8")
        clients.append(boris)
        await boris.wait("Boris ·", timeout=20)
        cleo.line("say first")  # filtered for him: his list is asked for, and the store refuses
        await boris.wait(tr(lang, "social.ignores_unread")[:30], timeout=20)
        store.refused.clear()
        await asyncio.sleep(0.6)
        cleo.line("say second")  # the next line filtered for him reads it again
        await boris.wait(tr(lang, "social.ignores_read")[:30], timeout=20)
        cleo.line("say third, hidden from Boris")
        await anna.wait("third, hidden from Boris", timeout=20)
        anna.line("say fourth")
        seen = await boris.wait("fourth", timeout=20)
        assert "third, hidden" not in seen
        assert server.club.social.hides("Boris", "Cleo")
