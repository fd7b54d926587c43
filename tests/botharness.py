"""Bots speaking ``sukno-bot/1`` to a club in this process: no SSH, a clock of our own.

Every message goes through the wire's encoding both ways (``net.modes.botwire``),
so what is checked here is what a client would read.  Used by the schema
agreement test and the bot benchmarks.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from engine.table.club import Club
from net.cli.botclient import engine_actions, engine_view
from net.modes.bot import BotSession
from net.modes.botwire import decode, encode
from net.ssh.identity import StoreAccounts


class Wire:
    """One bot's connection: its BotSession and the lines it has not read yet."""

    def __init__(self, club: Club, accounts: StoreAccounts, fingerprint: str, clock: Callable[[], float],
                 on_send: Callable[[str, dict[str, Any]], None] | None = None):
        self.inbox: list[dict[str, Any]] = []
        self.on_send = on_send
        self.session = BotSession(club, accounts, fingerprint=fingerprint, lang="en", send=self._receive,
                                  now=clock)

    def _receive(self, message: dict[str, Any]) -> None:
        decoded = json.loads(encode(message))
        if self.on_send:
            self.on_send("server", decoded)
        self.inbox.append(decoded)

    def send(self, message: dict[str, Any]) -> None:
        if self.on_send:
            self.on_send("client", message)
        self.session.line(encode(message)[:-1])

    def take(self) -> list[dict[str, Any]]:
        out, self.inbox = self.inbox, []
        return out


def club_with_store(path, tables: list[dict[str, Any]]) -> tuple[Club, StoreAccounts]:
    from engine.store.opening import open_store

    store = open_store(path, new=True)
    return Club(tables, store=store, now=0.0), StoreAccounts(store, 10_000)


def play_deals(club: Club, accounts: StoreAccounts, bots: list[Any], deals: int, table: int = 1,
               on_send: Callable[[str, dict[str, Any]], None] | None = None) -> list[Wire]:
    """Seat ``bots`` (engine bots, one per seat) as protocol clients and play ``deals`` deals."""
    now = [0.0]
    wires = [Wire(club, accounts, f"SHA256:harness{i}", lambda: now[0], on_send) for i in range(len(bots))]
    for i, wire in enumerate(wires):
        wire.session.hello()
        wire.send({"type": "hello", "name": f"Wire{i}"})
        wire.send({"type": "sit", "table": table, "seat": i})
        wire.send({"type": "start", "table": table})
    ended = 0
    idle = 0
    while ended < deals:
        moved = False
        for i, wire in enumerate(wires):
            batch = wire.take()
            last_turn = max((j for j, m in enumerate(batch) if m["type"] == "turn"), default=-1)
            for j, message in enumerate(batch):
                moved = True
                if message["type"] == "turn" and j == last_turn:  # an earlier one is over already
                    view = engine_view(message["view"])
                    legal = engine_actions(view["game"], message["legal"], message.get("patterns"))
                    action = bots[i].choose(view, legal)
                    if action is not None:
                        wire.send({"type": "act", "table": table, "ask": message["ask"], "action": action.text()})
                elif message["type"] == "deal_end":
                    if i == 0:
                        ended += 1
                    if ended < deals:
                        wire.send({"type": "start", "table": table})
                elif message["type"] == "error":
                    raise AssertionError(f"refused: {message}")
        if not moved:
            idle += 1
            assert idle < 10_000, "nothing moves"
            deadline = club.next_deadline()
            now[0] = max(now[0] + 1.0, deadline or 0.0)
            club.tick(now[0])
        else:
            idle = 0
    return wires
