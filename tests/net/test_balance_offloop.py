"""A hall door's balance is read off the event loop (issue 15, ``net.modes.balances``).

A seated player who comes back (a new connection: his table's screen) and then leaves the table
gets a hall door whose header shows his balance; money may have moved since his arrival, so it is
read again, and every other door reads its own again after any seat taken or left.  Those reads
(``Club.balance``: the account, then the ledger) were made on the loop; now one ``Store.balances`` read.  Here they wait at a gate
while another person's chat line still arrives (another player sits at his table meanwhile:
money may move, his arrival's read holds no more); once it opens, his header shows his balance.
"""

from __future__ import annotations

import pytest
from gatedstore import gated_hall, gated_store, held_while_chat
from sshclient import Client, connect, make_config, named, new_key, running, until

from tui.i18n import money

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


async def test_a_returning_players_balance_is_read_while_the_hall_goes_on(tmp_path) -> None:
    store = gated_store(tmp_path, gated=("balances",))
    key = new_key()
    clients: list[Client] = []
    try:
        async with running(make_config(tmp_path / "club"), store=store) as server:
            anna = await named(server.port, "Anna")
            cleo = await named(server.port, "Cleo")
            dima = await named(server.port, "Dima")
            boris = await named(server.port, "Boris", key)
            clients += [anna, cleo, dima]
            boris.line("sit 1")
            await boris.wait("Table 1 · ", timeout=20)
            await boris.close()
            await until(lambda: not server.club.is_online("Boris"), timeout=20, what="Boris gone")
            boris = await connect(server.port, key=key)  # back to his seat: his table's screen
            clients.append(boris)
            await boris.wait("Table 1 · ", timeout=20)
            await until(lambda: server.club.is_online("Boris"), timeout=20, what="Boris back")

            anna.line("sit 1")  # money may move: his balance as read on arrival holds no more
            await anna.wait("Table 1 · ", timeout=20)
            store.gate.clear()
            store.calls.clear()
            boris.line("leave")  # to the hall: his door's header asks for his balance
            await boris.wait("You have a seat at table 1", timeout=20)
            await until(lambda: any("'Boris'" in arg for arg, _thread in store.named("balances")), timeout=20,
                        what="his balance asked of the store")
            await until(lambda: store.hanging >= 1, timeout=20, what="the balance waiting at the store")
            cleo.line("say ping while balances are read")
            await dima.wait("Cleo says: ping while balances are read", timeout=20)
            assert store.hanging >= 1  # the chat did not wait for the store
            store.gate.set()
            want = f"Boris · {money(store._store.balance('Boris'), 'en')} ·"
            await boris.wait(want, timeout=20)
            reads = store.named("balances")  # every door's name in one read (arg: the list's text)
            assert any("'Boris'" in arg for arg, _thread in reads)
            assert {thread for _arg, thread in reads} == {"sukno arrivals"}, store.calls
    finally:
        store.gate.set()
        for client in clients:
            await client.close()


@pytest.mark.parametrize("where", ["hall", "table"])
async def test_a_typed_balance_and_history_are_read_while_the_club_goes_on(tmp_path, where) -> None:
    """``balance`` and ``history`` typed in the hall (his hall door) or at his table (his App): the
    statement, the history and the chart were read on the loop; now in the store's thread."""
    async with gated_hall(tmp_path, ("statement", "history"), ("Anna", "Cleo", "Boris")) as (store, _server, people):
        anna, cleo, boris = people
        if where == "table":
            boris.line("sit 1")
            await boris.wait("Table 1 · ", timeout=20)
        for typed, call, said in (("balance", "statement", "Your club balance: "),
                                  ("history", "history", "You have no finished games")):
            store.calls.clear()
            await held_while_chat(store, boris, typed, (anna, "Anna", cleo), f"while {typed} is read")
            await boris.wait(said, timeout=20)
            assert {thread for _arg, thread in store.named(call)} == {"sukno arrivals"}, store.calls


async def test_a_door_asking_again_while_its_balance_is_read_is_kept_once_and_forgotten_when_gone(tmp_path) -> None:
    """Money moving again and again while a balance read waits at the store: each move made the door ask
    again, and ``BalanceReads`` kept every ask (the same door told N times, the list growing for as long
    as the store hangs); a door that closed meanwhile stayed in it.  Now one ask per door, none once gone."""
    async with gated_hall(tmp_path, ("balances",), ("Anna", "Boris")) as (store, server, people):
        _anna, boris = people
        door = next(s for s in server.sessions if s.name == "Boris").door
        reads = server.balances
        store.gate.clear()
        door.news(True)  # money moved: his door asks, and the read waits at the gate
        await until(lambda: store.hanging >= 1, timeout=20, what="a balance read waiting at the store")
        for _ in range(5):  # it moves again while that read waits: each time the door asks again
            door.news(True)
        assert len(reads.wanted.get("Boris", ())) == 1, reads.wanted
        await boris.close()
        await until(lambda: not server.club.is_online("Boris"), timeout=20, what="Boris's door closed")
        assert "Boris" not in reads.wanted, reads.wanted  # nobody is left to tell
        store.gate.set()
