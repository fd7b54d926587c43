"""The project's own ``sukno-bot/1`` client: ``sukno bot --connect HOST:PORT --key FILE …`` (docs/bot-protocol.md).

It plays through the protocol exactly as a third party's program would: an
SSH connection without a pty running the command ``bot``, JSON lines both
ways (``net.modes.botwire``).  The strategy is one of the engine's bots (random,
rule, search): it is handed the view the server sent, turned back into the
engine's values (``engine_view``), and the legal actions of the ``turn``.

Why the view is decoded rather than the engine's bots taught JSON: the same
bots then play in-process (arena, the table's own bots) and over the wire,
and the wire's notation is the record's, which the engine
parses anyway.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any, Callable

import asyncssh

from engine.cards import Card, CardError, Suit, parse_card
from engine.game import Action, Event
from engine.games import get_game
from net.modes.botwire import PROTOCOL, encode, server_message

log = logging.getLogger("sukno.botclient")

_SUITS = {s.symbol: s for s in Suit}


def _value(value: Any) -> Any:
    if isinstance(value, str):
        if value in _SUITS:
            return _SUITS[value]
        if 2 <= len(value) <= 3 and value[-1] in _SUITS:
            try:
                card = parse_card(value)
            except CardError:
                return value
            return card if card.text() == value else value
        return value
    if isinstance(value, list):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {(int(k) if k.isdigit() else k): _value(v) for k, v in value.items()}
    return value


def engine_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view from the wire with cards, suits and seat keys as the engine has them."""
    return _value(view)


def engine_actions(game: str, legal: list[str], patterns: dict[str, Any] | None = None) -> list[Action]:
    """The ``turn``'s legal actions as the engine's ``Action`` values; a pattern (``buy CARDS``) is
    spelt out as every choice it allows, in the engine's order (ascending cards, fewest first)."""
    from itertools import combinations

    cls = get_game(game)
    actions: list[Action] = []
    for text in legal:
        pattern = (patterns or {}).get(text)
        if pattern is None:
            actions.append(cls.parse_action(text))
            continue
        verb = text.split()[0]
        choice = next(iter(pattern.values()))
        cards = sorted(parse_card(c) for c in choice["cards"])
        for k in range(choice["min"], choice["max"] + 1):
            actions.extend(Action(verb, combo) for combo in combinations(cards, k))
    return cls.wire_actions(actions)


class _Lines(asyncssh.SSHClientSession[bytes]):
    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._buf = b""

    def data_received(self, data: bytes, datatype: Any) -> None:
        self._buf += data
        *lines, self._buf = self._buf.split(b"\n")
        for line in lines:
            self.queue.put_nowait(line)

    def connection_lost(self, exc: Exception | None) -> None:
        self.queue.put_nowait(None)


class BotClient:
    """One bot's connection: send messages, read them (every one kept in ``received``)."""

    RATE, BURST = 40, 100
    """Messages a second on average, and at once: under the club's limit (50 and 200), so a client
    that plays as fast as the table lets it is never dropped for flooding; more wait their turn."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: Any, lines: _Lines):
        from net.ssh.limits import TokenBucket

        self.conn, self.chan, self._lines = conn, chan, lines
        self.received: list[dict[str, Any]] = []
        self.closed = False
        self.pending: list[dict[str, Any]] = []
        self._bucket = TokenBucket(self.RATE, self.BURST)
        self._held: list[bytes] = []

    @classmethod
    async def connect(cls, host: str, port: int, key: asyncssh.SSHKey | str | Path | None,
                      lang: str = "en") -> "BotClient":
        options: dict[str, Any] = dict(known_hosts=None, username="bot", agent_path=None)
        if key is None:
            options.update(client_keys=None, password="")
        else:
            options["client_keys"] = [key if isinstance(key, asyncssh.SSHKey) else asyncssh.read_private_key(str(key))]
        conn = await asyncssh.connect(host, port, **options)
        lines = _Lines()
        chan, _session = await conn.create_session(lambda: lines, "bot", env={"LANG": f"{lang}_US.UTF-8"},
                                                   encoding=None)
        return cls(conn, chan, lines)

    def send(self, message: dict[str, Any]) -> None:
        """Sent now, or in order once the client's own rate allows it."""
        self._held.append(encode(message))
        if len(self._held) == 1:
            self._drain()

    def _drain(self) -> None:
        while self._held and self._bucket.take(1):
            if not self.chan.is_closing():
                self.chan.write(self._held[0])
            self._held.pop(0)
        if self._held:
            asyncio.get_running_loop().call_later(1 / self.RATE, self._drain)

    def send_raw(self, data: bytes) -> None:
        self.chan.write(data)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message (None: the connection ended)."""
        if self.pending:
            return self.pending.pop(0)
        line = await asyncio.wait_for(self._lines.queue.get(), timeout)
        if line is None:
            self.closed = True
            return None
        message = server_message(line)
        self.received.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 10.0,
                     where: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """Read until a message of ``kind`` ("a|b": either) that ``where`` accepts comes; the others read meanwhile stay queued."""
        deadline = time.monotonic() + timeout
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind!r} in {timeout}s; last: {self.received[-5:]}")
                message = await self.recv(left)
                if message is None:
                    raise AssertionError(f"the connection ended before a {kind!r}; last: {self.received[-5:]}")
                if message["type"] in kind.split("|") and (where is None or where(message)):
                    return message
                skipped.append(message)
        finally:
            self.pending[:0] = skipped

    async def hello(self, name: str | None = None, lang: str = "en") -> dict[str, Any]:
        first = await self.expect("hello")
        if first.get("protocol") != PROTOCOL:
            raise ValueError(f"the server speaks {first.get('protocol')!r}, not {PROTOCOL}")
        self.send({"type": "hello", "name": name, "lang": lang} if name else {"type": "hello", "lang": lang})
        return await self.expect("welcome|error")

    async def close(self) -> None:
        self.conn.close()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        except asyncio.TimeoutError:
            pass


EARLY_EVENTS = 200
"""Events kept for a bot not made yet, at most (a deal's few before the first view; bounded all the same)."""


class Player:
    """Plays one table through a ``BotClient`` with an engine bot as its strategy."""

    def __init__(self, client: BotClient, table: int, strategy: str = "rule", seed: int | None = None,
                 budget: float = 0.5, iterations: int | None = None):
        self.client, self.table, self.kind, self.seed, self.budget = client, table, strategy, seed, budget
        self.iterations = iterations
        self.bot: Any = None
        self.early: list[Event] = []
        """Events read before the first view made the bot (a deal's start can come first): it hears them then."""
        self.deals = 0
        self.money = 0
        self.acted = 0
        self.errors: list[dict[str, Any]] = []
        self.name = ""
        self.in_flight: int | None = None
        """The ask of the act sent and not yet acknowledged or refused: one at a time."""
        self.last_turn: dict[str, Any] | None = None
        self.waiting: dict[str, Any] | None = None
        """The newest turn read while an act was in flight (answered if that act is refused)."""

    def _hear(self, events: list[Event]) -> None:
        if events and callable(getattr(self.bot, "observe", None)):
            self.bot.observe(events)

    def _make_bot(self, game: str) -> Any:
        from engine.bots import make_bot

        if self.kind == "search":
            from engine.bots.search import SearchBot

            if self.iterations:
                return SearchBot(game, self.seed, budget=None, iterations=self.iterations)
            return SearchBot(game, self.seed, budget=self.budget)
        return make_bot(game, "random" if self.kind == "random" else "rule", self.seed)  # rules, rule

    async def play(self, deals: int | None = None, seat: int | None = None, timeout: float = 120.0) -> int:
        """Sit, say start before every deal, answer every turn; after ``deals`` deals stop (None: never)."""
        client = self.client
        client.send({"type": "sit", "table": self.table, **({"seat": seat} if seat is not None else {})})
        while True:
            message = await client.recv(timeout)
            if message is None:
                return self.deals
            kind = message["type"]
            if kind == "seated":
                client.send({"type": "start", "table": self.table})
            elif kind == "state" or kind == "turn":
                view = message["view"]
                if self.bot is None:
                    self.bot = self._make_bot(view["game"])
                    self.name = view["names"][view["seat"]] if view.get("seat") is not None else ""
                    self._hear(self.early)
                    self.early = []
                if kind == "turn" and self.in_flight is None:
                    self._answer(message)
                elif kind == "turn":
                    self.waiting = message
            elif kind == "event":
                event = Event(message["kind"], message.get("seat"), _value(message.get("data") or {}))
                if self.bot is None:
                    self.early = self.early[-(EARLY_EVENTS - 1):] + [event]
                else:
                    self._hear([event])
                if message.get("kind") == "session_over":
                    client.send({"type": "start", "table": self.table})
            elif kind == "deal_end":
                self.deals += 1
                self.money += int(message["money"].get(self.name, 0))
                if deals is not None and self.deals >= deals:
                    return self.deals
                client.send({"type": "start", "table": self.table})
            elif kind == "ack":  # turns read meanwhile that came before the act landed are over
                waiting, self.in_flight, self.waiting = self.waiting, None, None
                if waiting is not None and waiting["seq"] >= message["seq"]:
                    self._answer(waiting)
            elif kind == "error":
                self.errors.append(message)
                log.info("refused: %s", message.get("text"))
                if message.get("reply") == "sit":
                    return self.deals
                if str(message.get("dropped", "")).startswith("act"):  # never read: that turn is still open
                    self.in_flight, waiting, self.waiting = None, self.waiting or self.last_turn, None
                    if waiting is not None:
                        self._answer(waiting)
                elif message.get("reply") == "act":
                    self.in_flight, waiting, self.waiting = None, self.waiting, None
                    if waiting is not None and waiting["ask"] > (message.get("ask") or 0):
                        self._answer(waiting)
            elif kind == "bye":
                return self.deals

    def _answer(self, turn: dict[str, Any]) -> None:
        view = engine_view(turn["view"])
        legal = engine_actions(view["game"], turn["legal"], turn.get("patterns"))
        action = self.bot.choose(view, legal)
        if action is None:  # Спекулянт's window: nothing to add, the window's clock closes it
            return
        self.acted += 1
        self.in_flight, self.last_turn = turn["ask"], turn
        self.client.send({"type": "act", "table": self.table, "ask": turn["ask"], "action": action.text()})


def parse_target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--connect wants HOST:PORT, not {text!r}")
    return host, int(port)


async def run(args: Any) -> int:
    """``sukno bot``: connect, say hello, play table N until told to stop (or ``--deals``)."""
    host, port = parse_target(args.connect)
    client = await BotClient.connect(host, port, args.key, lang=args.lang)
    try:
        welcome = await client.hello(args.name, args.lang)
        if welcome["type"] == "error":
            print(welcome["text"])
            return 1
        player = Player(client, args.table, args.strategy, args.seed, args.budget, args.iterations)
        deals = await player.play(args.deals, timeout=args.timeout)
        print(json.dumps({"name": welcome["name"], "deals": deals, "money": player.money,
                          "actions": player.acted, "refused": len(player.errors),
                          "searched": getattr(player.bot, "searched", None)}, ensure_ascii=False))
        return 0
    finally:
        await client.close()
