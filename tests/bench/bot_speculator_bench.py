"""Refused acts of the club's own bot client in Спекулянт's trade windows, over real SSH.

    python tests/bench/bot_speculator_bench.py                # 500 deals, 4 clients
    python tests/bench/bot_speculator_bench.py --deals 50

A real server on a free port of 127.0.0.1 (a temporary data folder, the club's
default limits: 50 messages a second, 200 at once), four ``sukno bot
--strategy rules`` players (``net.cli.botclient.Player``) at one Спекулянт
table, no turn clock, every trade window closed by its players' ``ready`` or
its own time.  Every player answers its ``turn`` at once, one act in flight at a time
(``--eager``: every turn read, even while an act is in flight).  Printed: deals, acts sent, acks, refusals by key, and the refused share.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import asyncssh  # noqa: E402

from net.cli.botclient import BotClient, Player  # noqa: E402


class Eager(Player):
    """Answers every turn the moment it is read, one act after another without waiting for the ack."""

    def _answer(self, turn):  # type: ignore[no-untyped-def]
        super()._answer(turn)
        self.in_flight = None


async def main(deals: int, players: int, window: int, eager: bool) -> None:
    from net.config import Config
    from net.ssh.server import SuknoServer

    with tempfile.TemporaryDirectory() as data:
        table = {"game": "speculator", "think": 0, "clock": 0, "seats": players,
                 "options": {"W": window, "Wmax": 4 * window}}
        config = Config(port=0, data=Path(data), tables=[table])
        config.idle_timeout = 0
        server = SuknoServer(config)
        await server.start()
        try:
            clients, bots = [], []
            for i in range(players):
                client = await BotClient.connect("127.0.0.1", server.port,
                                                 asyncssh.generate_private_key("ssh-ed25519"))
                await client.hello(f"Spec{i}")
                clients.append(client)
                bots.append((Eager if eager else Player)(client, 1, "rules", seed=i))
            started = time.perf_counter()

            async def progress() -> None:  # a line every 25 deals, so a run cut short still says something
                shown = 0
                while True:
                    await asyncio.sleep(1)
                    done = min(b.deals for b in bots)
                    if done >= shown + 25:
                        shown = done
                        acts = sum(b.acted for b in bots)
                        bad = sum(len(b.errors) for b in bots)
                        print(f"  … {done} deals, {acts} acts, {bad} refused, {time.perf_counter() - started:.0f} s",
                              flush=True)

            reporter = asyncio.ensure_future(progress())
            await asyncio.gather(*(b.play(deals, seat=i, timeout=300) for i, b in enumerate(bots)))
            reporter.cancel()
            took = time.perf_counter() - started
            acts = sum(b.acted for b in bots)
            refused = collections.Counter(e["key"] for b in bots for e in b.errors)
            acks = sum(1 for c in clients for m in c.received if m["type"] == "ack")
            turns = sum(1 for c in clients for m in c.received if m["type"] == "turn")
            share = 100 * sum(refused.values()) / max(1, acts)
            print(f"{min(b.deals for b in bots)} deals of Спекулянт, {players} clients (--strategy rules{', eager' if eager else ''}) over SSH "
                  f"in {took:.1f} s; W {window} s")
            print(f"  turns {turns}, acts {acts}, acks {acks}, refused {sum(refused.values())} ({share:.2f} %)")
            for key, count in refused.most_common():
                print(f"    {key}: {count}")
            for client in clients:
                await client.close()
        finally:
            await server.stop(message=None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--eager", action="store_true", help="answer every turn at once, never wait for an ack")
    parser.add_argument("--window", type=int, default=2, help="the table's W in seconds (Wmax = 4 W)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main(args.deals, args.players, args.window, args.eager))
