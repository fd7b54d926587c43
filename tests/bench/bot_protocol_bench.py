"""The bot protocol's round trip over real SSH (issue 19: turn → act → event ≤ 20 ms p99).

    python tests/bench/bot_protocol_bench.py              # 40 deals of Стуколка, 4 protocol bots
    python tests/bench/bot_protocol_bench.py --deals 200

A real server on a free port of 127.0.0.1 (a temporary data folder, the
store journaling every action as in production), four ``sukno-bot/1``
clients (asyncssh, no pty) playing the rule bots at one table with
``think`` 0 and no turn clock, all in this one process.  For every action a
client sends it notes two times: from the ``act`` sent to the first event of
its seat coming back (the server's part: parse, check, journal, publish,
send), and from the ``turn`` received to that event (the whole round trip,
the client's decision included).  Printed: p50 / p99 / max of each, in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

import asyncssh  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from net.modes import bot as botproto  # noqa: E402
from net.cli.botclient import BotClient, engine_actions, engine_view  # noqa: E402


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def player(client: BotClient, seat: int, deals: int, server_part: list[float], whole: list[float]) -> None:
    client.send({"type": "sit", "table": 1, "seat": seat})
    bot = None
    sent_at = turn_at = None
    done = 0
    while done < deals:
        message = await client.recv(60)
        if message is None:
            return
        kind = message["type"]
        if kind == "seated":
            client.send({"type": "start", "table": 1})
        elif kind == "turn":
            turn_at = time.perf_counter()
            view = engine_view(message["view"])
            bot = bot or make_bot(view["game"], "rule", seat)
            action = bot.choose(view, engine_actions(view["game"], message["legal"]))
            if action is not None:
                sent_at = time.perf_counter()
                client.send({"type": "act", "table": 1, "ask": message["ask"], "action": action.text()})
        elif kind == "event" and sent_at is not None and message.get("seat") == seat:
            now = time.perf_counter()
            server_part.append(now - sent_at)
            whole.append(now - turn_at)  # type: ignore[operator]
            sent_at = None
        elif kind == "deal_end":
            done += 1
            client.send({"type": "start", "table": 1})
        elif kind == "error":
            raise RuntimeError(message)


async def main(deals: int) -> None:
    from net.config import Config
    from net.ssh.server import SuknoServer

    with tempfile.TemporaryDirectory() as data:
        config = Config(port=0, data=Path(data), tables=[{"game": "stukolka", "think": 0, "clock": 0}])
        config.idle_timeout = 0
        # Four bots acting as fast as the table lets them send more than a club allows one bot
        # (50 messages and 4 KB a second): the limits are lifted here, the round trip is what is measured.
        config.input_bytes_per_second = 1 << 20
        botproto.MESSAGES_PER_SECOND = 100_000
        server = SuknoServer(config)
        await server.start()
        try:
            clients = []
            for i in range(4):
                client = await BotClient.connect("127.0.0.1", server.port, asyncssh.generate_private_key("ssh-ed25519"))
                await client.hello(f"Bench{i}")
                clients.append(client)
            server_part: list[float] = []
            whole: list[float] = []
            started = time.perf_counter()
            await asyncio.gather(*(player(c, i, deals, server_part, whole) for i, c in enumerate(clients)))
            took = time.perf_counter() - started
            print(f"{deals} deals of Стуколка, 4 protocol bots over SSH, {len(server_part)} actions in {took:.1f} s")
            for label, values in (("act → event", server_part), ("turn → act → event", whole)):
                print(f"  {label:<20} p50 {quantile(values, 0.5) * 1e3:6.2f} ms   p99 {quantile(values, 0.99) * 1e3:6.2f} ms"
                      f"   max {max(values) * 1e3:6.2f} ms")
            for client in clients:
                await client.close()
        finally:
            await server.stop(message=None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    asyncio.run(main(parser.parse_args().deals))
