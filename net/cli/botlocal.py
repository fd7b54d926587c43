"""``sukno bot --local GAME``: the club's side of ``sukno-bot/1`` over stdin/stdout, for local arenas.

The same ``BotSession`` as over SSH (net/modes/botsession.py), the same lines
(net/modes/botwire.py), but one bot speaking on this process's stdin and stdout
to a club of its own: one table of ``GAME`` whose other seats the house's bots
take (``bots = fill``), a throw-away store in a temporary folder, play on credit.  A program
under test can be run as ``sukno bot --local stukolka`` piped both ways, with
no server and no key.  No asyncio: a ``selectors`` loop waits for a line or the
table's next deadline, whichever comes first.
"""

from __future__ import annotations

import os
import selectors
import sys
import tempfile
import time
from typing import Any

from net.modes.botsession import BotSession
from net.modes.botwire import LineBuffer, encode


def run_local(args: Any) -> int:
    from engine.table.club import Club
    from engine.store.opening import open_store
    from net.ssh.identity import StoreAccounts

    out = sys.stdout.buffer
    stdin = sys.stdin.buffer.fileno()
    stopped: list[bool] = []

    def send(message: dict[str, Any]) -> None:
        out.write(encode(message))
        out.flush()

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(folder, new=True)
        # Practice money: a program under test plays as many deals as it asks for, so a losing run
        # plays on credit (R5's table option) instead of being refused its next deal.
        table: dict[str, Any] = {"game": args.local, "bots": "fill", "think": args.think, "clock": 0,
                                 "at_zero": "debt"}
        if args.seats:
            table["seats"] = args.seats
        club = Club([table], store=store, now=time.monotonic())
        session = BotSession(club, StoreAccounts(store, 10_000), fingerprint="SHA256:local-bot", lang=args.lang,
                             send=send, now=time.monotonic, close=lambda: stopped.append(True))
        session.hello()
        lines = LineBuffer()
        selector = selectors.DefaultSelector()
        selector.register(stdin, selectors.EVENT_READ)
        try:
            while not stopped:
                deadline = club.next_deadline()
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                if selector.select(wait):
                    data = os.read(stdin, 65536)
                    if not data:
                        break
                    for line in lines.feed(data):
                        session.line(line)
                        if stopped:
                            break
                club.tick(time.monotonic())
        finally:
            session.end()
            store.close()
    return 0
