"""Taking a table over when its owner's lease ran out: the lease, the journal's read and its replay
are made in the replicas' reader thread (its own store connection); the loop only installs the
replayed table and starts owning it.  A long session's replay never holds the node's sessions."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol, Union

from engine.store.base import StoreError
from engine.table.keeper import Replayed, TableKeeper, replay
from engine.table.remote import make_owner
from engine.table.replica import Read, Replica
from net.cluster.wire import Message, NewOwner


class Node(Protocol):
    """What a takeover uses of ``net.cluster.node.Node``."""

    name: str
    ttl: float
    store: Any
    club: Any
    presence: Any
    follow: Any
    calls: Any
    owned: dict[Any, int]
    replicas: dict[Any, Any]
    takeovers: int
    _taking: set[Any]
    _unreplayable: set[Any]

    def _now(self) -> float: ...

    def _own(self, table_id: Any, epoch: int) -> None: ...

    def _send_quietly(self, message: Message) -> None: ...

    def poke(self) -> None: ...


log = logging.getLogger("sukno.cluster")

Taken = Union[tuple[int, Union[Replayed, Read, None]], str, None]
"""What the reader thread found: (the lease's epoch, the journal replayed — or, for a replica that can
be owned as it is, only what it has not read — or None between sessions), why the journal does not
replay (the lease given back), or None (another node holds the lease)."""


def take(node: Node, table_id: Any, holder: str | None, *, whole: bool = False) -> None:
    """On the loop: ask for ``table_id``'s lease and, in the reader's thread, what the replica has not
    read of its journal (the replica's own game is then owned as it is: no replay), or with ``whole``,
    or for a game on a live clock, the whole journal replayed."""
    if holder is not None and holder != node.name and node.presence is not None:
        node.presence.forget_node(holder)  # its sessions are gone with it (they come back to any node)
    if table_id in node.owned or table_id not in node.replicas or node.club is None:
        node._taking.discard(table_id)
        return
    now = node._now()
    replica: Replica = node.replicas[table_id]
    game = replica.table.game
    whole = whole or game is None or game.clocked

    def work(own: Any) -> Taken:
        epoch = own.acquire_lease(table_id, node.name, node.ttl)
        if epoch is None:
            return None
        try:
            if not whole:
                return epoch, replica.fetch(own, now=now)  # the replica itself is not changed here
            live = next((t for t in own.live_tables() if t.table_id == table_id), None)
            if live is None:
                return epoch, None
            return epoch, replay(live, own.journal(table_id), now)  # the clocks shifted as a restart does
        except StoreError as err:
            own.release_lease(table_id)
            return str(getattr(err, "message", err))

    node.follow.reads.run(work).add_done_callback(lambda done: _taken(node, table_id, done))


def _taken(node: Node, table_id: Any, done: asyncio.Future[Any]) -> None:
    """On the loop: own the table as the reader's thread found it (or say why not, once)."""
    if done.cancelled():
        node._taking.discard(table_id)
        return
    error = done.exception()
    if error is not None:
        node._taking.discard(table_id)
        log.warning("node %s: cannot take table %s over: %s", node.name, table_id, error)
        return
    found: Taken = done.result()
    if found is None:
        node._taking.discard(table_id)
        return
    if isinstance(found, str):
        node._taking.discard(table_id)
        if table_id not in node._unreplayable:  # tried again at each look at the leases: said once
            node._unreplayable.add(table_id)
            log.error("node %s: table %s taken but its journal does not replay: %s", node.name, table_id, found)
        return
    epoch, got = found
    if table_id in node.owned or table_id not in node.replicas or node.club is None:
        node._taking.discard(table_id)
        return  # it changed hands meanwhile: the lease is left to run out
    now = node._now()
    replayed: Replayed | None
    if isinstance(got, Read):
        replayed = _read_on(node.replicas[table_id], got, now)
        if replayed is None:  # the replica could not read on: the whole journal, replayed in the thread
            take(node, table_id, None, whole=True)
            return
    else:
        replayed = got
    node._taking.discard(table_id)
    node.store.hold_lease(table_id, node.name, epoch)  # taken on the reader's connection: the loop's writes under it
    table = node.club.tables[table_id]
    keeper = TableKeeper(node.store, table)
    if replayed is not None:
        keeper.install(replayed, tell=False)
    node._unreplayable.discard(table_id)
    del node.replicas[table_id]
    node.calls.silent.pop(table_id, None)
    make_owner(table).keeper = keeper
    node._own(table_id, epoch)
    node.takeovers += 1
    table.restart_clocks(now)  # a bot or a turn clock restarts from now
    for name in table.seated():
        if not node.club.is_robot(name) and not node.club.is_online(name):
            table.away(name, now)  # the grace runs; back on any node gives the seat back
    log.warning("node %s: took table %s over (epoch %d)", node.name, table_id, epoch)
    node._send_quietly(NewOwner(table_id, node.name))
    node.poke()


def _read_on(replica: Replica, read: Read, now: float) -> Replayed | None:
    """The replica's own game, read on to the journal's end (its people told what the dead owner
    told last), as the new owner's replayed journal; None if it cannot be owned as it is."""
    if read.live is None:
        return None
    if replica.apply(read, now) is None:
        return None
    return replica.as_replayed()
