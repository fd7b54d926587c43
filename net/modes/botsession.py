"""The server's side of ``sukno-bot/1``, transport-free: one bot's conversation with the club.

``BotSession`` is the protocol itself, synchronous: it gets checked messages
(``net.modes.botwire``) and the time, and answers through ``send``; tables tell it
their events through their feeds (``net.modes.botfeed``), as they tell the TUI.
``net.modes.bot`` wires it to an SSH channel.

Decisions (why):

- A bot is a player with a key, like a person: the same name rules and
  grant, the same ``Table.sit``/``start``/``act`` (so the same refusals, turn
  clocks, grace and stand-in), the same door into the game (``view_for``: its
  own seat's view, never another seat's hidden card).  Its account has the
  role ``bot`` and the club marks it (``Club.robots``) on the felt and in the
  hall.  A person's key may not speak the bot protocol: a bot is always a bot.
- Refusals carry the engine's catalogue key and the text a person would read
  (``tui.refusals.explain``) in the bot's language.
- An ``act`` names the ask it answers, so an answer to a turn that is over is
  refused (``bot.stale_ask``) instead of landing on the next turn, and an
  accepted one is acknowledged (``ack``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from engine.game import IllegalAction
from engine.table.owner import sanitize
from engine.table.pending import InOrder
from engine.store.base import StoreError
from net.modes.botasks import Asks
from net.modes.botfeed import BotFeed
from net.modes.bothall import HallMessages
from net.modes.botwait import HallWait
from net.modes.botwire import CLIENT_TYPES, MAX_LINE, MAX_SERVER_LINE, PROTOCOL, TooLong, WireError, decode, \
    error_message, plain, say, tables_parts

if TYPE_CHECKING:
    from engine.table.club import Club
    from engine.table.face import TableLike

log = logging.getLogger("sukno.bots")


class _Failed:
    """A store job of the hello that failed (its error), or whose store did not answer in time."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


@dataclass(frozen=True, slots=True)
class _Known:
    """An account as read for a hello, with its ledger balance read in the same job (None: the welcome
    asks the club itself)."""

    account: Any
    balance: int | None


def _with_balance(store: Any, account: Any) -> _Known | None:
    """In the store's thread: the account (or None) and its balance, as ``Club.balance`` reads it."""
    if account is None:
        return None
    try:
        return _Known(account, store.balance(account.name))
    except StoreError:
        return _Known(account, None)  # the welcome asks the club itself, as before


def refusal_text(err: IllegalAction, lang: str) -> str:
    """What a person reads for this refusal (the TUI's catalogue), in ``lang``."""
    from tui.refusals import explain

    return explain(err, lang)


class BotSession(HallMessages):
    """One bot's conversation with the club (see the module docstring)."""

    def __init__(self, club: Club, accounts: Any, *, fingerprint: str | None, lang: str,
                 send: Callable[[dict[str, Any]], None], now: Callable[[], float],
                 admit: Callable[[str], str | None] | None = None, close: Callable[[], None] | None = None,
                 off_loop: Callable[[Callable[[Any], Any]], Any] | None = None):
        self.club = club
        self._off_loop = off_loop
        """``SuknoServer.off_loop``: the hello's store calls made in the store's thread; None: here."""
        self.accounts = accounts
        self.fingerprint = fingerprint
        self.lang = lang if lang in ("ru", "en") else "en"
        self._send = send
        self.now = now
        self._admit = admit
        self._close = close
        self.name: str | None = None
        self.entered = False
        self.ended = False
        """The connection is gone (``end``): an answer that comes later (a hello's store job, a remote
        table's reply) is dropped, so nothing brings a bot that left into the club."""
        self.sent = 0
        self.feed = BotFeed(self.send, now)
        """The tables it follows: their events, its seat's state and turns."""
        self.hall: HallWait | None = None
        """Once welcomed: its ``table_started`` notices (``net.modes.botwait``)."""
        self.order = InOrder(self.handle)
        """The program's messages in order: one sent while a change waits for its answer waits too."""

    # -- out -----------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        self.sent += 1
        self._send(message)

    def error(self, key: str, text: str, **extra: Any) -> None:
        self.send(error_message(key, text, **extra))

    def hello(self, known: bool | None = None) -> None:
        """The server's first line; ``known``: whether its key has an account (read off the loop by
        ``serve_bot``), None: read here."""
        if known is None:
            known = self.fingerprint is not None and self.accounts.store.account_by_key(self.fingerprint) is not None
        self.send({"type": "hello", "protocol": PROTOCOL, "server": "sukno", "max_line": MAX_LINE,
                   "max_server_line": MAX_SERVER_LINE,
                   "known": known, "types": list(CLIENT_TYPES), "motd": str(getattr(self.club, "motd", ""))})

    def _ask(self, work: Callable[[Any], Any]) -> Any:
        """``work(store)`` in the store's thread (a ``Pending`` of its result, or of ``_Failed``), or here."""
        if self._off_loop is None:
            try:
                return work(self.accounts.store)
            except StoreError as err:
                return _Failed(err)
        from net.ssh.offloop import as_pending

        return as_pending(self._off_loop(work), "hello", _Failed)

    # -- in ------------------------------------------------------------------------------

    def line(self, raw: bytes | TooLong) -> None:
        """One line from the bot: checked, then handled; every problem is an ``error`` reply."""
        if isinstance(raw, TooLong):
            self.error("bot.too_long", say(self.lang, "bot.too_long", limit=MAX_LINE))
            return
        try:
            message = decode(raw)
        except WireError as err:
            self.error(err.key, err.text(self.lang))
            return
        self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        """One message; one sent while a change waits for another node's answer waits for it."""
        if self.ended:  # a message held for an answer that came after the end
            return
        if self.order.hold(message):
            if self.order.full:
                self.error("bot.busy", say(self.lang, "bot.busy"), reply=message["type"])
            return
        kind = message["type"]
        if kind != "hello" and self.name is None:
            self.error("bot.hello_first", say(self.lang, "bot.hello_first"), reply=kind)
            return
        try:
            getattr(self, "_on_" + kind)(message)
        except IllegalAction as err:  # a table's or the engine's refusal: the text a person reads
            self._refused(message, err)

    def _refused(self, message: dict[str, Any], err: IllegalAction) -> None:
        kind = message["type"]
        text = refusal_text(err, self.lang)
        if err.key == "table.seat_taken" and message.get("seat") is not None:  # seats from 0, as the bot names them
            text = say(self.lang, "bot.seat_taken", seat=message["seat"], table=message.get("table"))
        self.error(err.key or "refused", text, reply=kind, table=message.get("table"),
                   ask=message.get("ask") if kind == "act" else None)

    def _after(self, message: dict[str, Any], result: Any, done: Callable[[Any], None]) -> None:
        """``done(result)`` now, or once the table's owner (or the store's thread) answered;
        an answer after the connection's end is dropped (it would enter or seat a bot nobody runs)."""
        self.order.after(result, lambda value: None if self.ended else done(value),
                         lambda err: None if self.ended else self._refused(message, err))

    def _on_hello(self, message: dict[str, Any]) -> None:
        if message.get("lang") in ("ru", "en"):
            self.lang = message["lang"]
        if self.name is not None:
            self.error("bot.hello_again", say(self.lang, "bot.hello_again", name=self.name), reply="hello")
            return
        if self.fingerprint is None:
            self.error("bot.guest", say(self.lang, "bot.guest"), reply="hello")
            return
        fingerprint, lang = self.fingerprint, self.lang
        self._after(message, self._ask(lambda store: _with_balance(store, store.account_by_key(fingerprint))),
                    lambda account: self._hello_known(message, account))

    def _hello_known(self, message: dict[str, Any], account: _Known | _Failed | None) -> None:
        """The account of its key as the store's thread read it: a new one named, a known one welcomed."""
        if isinstance(account, _Failed):
            self.error("failed", say(self.lang, "bot.store"))
            return
        if account is not None:
            self._hello_as(account)
            return
        wanted = str(message.get("name") or "").strip()
        if not wanted:
            self.error("bot.need_name", say(self.lang, "bot.need_name"), reply="hello")
            return
        accounts, fingerprint, lang = self.accounts, self.fingerprint, self.lang
        problem = accounts.precheck(wanted, lang) if hasattr(accounts, "precheck") else None
        if problem:
            self.error("account.refused", problem, reply="hello")
            return

        def work(store: Any) -> Any:  # in the store's thread: the account made, marked a bot, read back
            if hasattr(accounts, "write"):
                refused = accounts.write(store, fingerprint, wanted, lang)
            else:
                refused = accounts.register(fingerprint, wanted, lang)
            if refused:
                return refused
            try:
                store.set_role(wanted, "bot")
            except Exception:  # the account exists; the mark is tried again on the next hello
                log.exception("cannot mark %s as a bot", wanted)
            return _with_balance(store, store.account_by_key(fingerprint))

        self._after(message, self._ask(work), lambda got: self._hello_named(wanted, got))

    def _hello_named(self, wanted: str, got: _Known | _Failed | str | None) -> None:
        if isinstance(got, _Failed):
            self.error("account.refused", self.accounts.store_failed(self.lang) if hasattr(
                self.accounts, "store_failed") else say(self.lang, "bot.store"), reply="hello")
            return
        if isinstance(got, str) or got is None:
            self.error("account.refused", got or say(self.lang, "bot.store"), reply="hello")
            return
        if hasattr(self.accounts, "named"):
            self.accounts.named(wanted)
        log.info("registered the bot %s", wanted)
        self._hello_as(got, new=True)

    def _hello_as(self, known: _Known, new: bool = False) -> None:
        """Its account, known or just made: a person's key is refused, a bot comes in."""
        account = known.account
        if not new and account.role != "bot":
            self.error("bot.person_key", say(self.lang, "bot.person_key", name=account.name), reply="hello")
            return
        name = account.name
        refusal = self._admit(name) if self._admit else None
        if refusal:
            self.error("full", refusal, reply="hello")
            if self._close:
                self._close()
            return
        self.name = self.feed.name = name
        self.club.robots.add(name)
        self.club.enter(name, now=self.now())
        self.entered = True
        self.hall = HallWait(self.club, name, self.send, lambda table_id: table_id in self.feed.following)
        balance = known.balance  # read with the account, off the loop
        if balance is None or getattr(self.club, "store", None) is not self.accounts.store:
            balance = self.club.balance(name)
        view = getattr(self.club, "ratings", None)
        ratings = {key: rating.shown for key, rating in sorted(view.of(name).items())} if view is not None else {}
        self.send({"type": "welcome", "name": name, "bot": True, "balance": balance, "lang": self.lang,
                   "ratings": ratings})
        table = self.club.where(name)
        if table is not None:  # back after a drop: the seat, the view, the turn if it is ours
            self.feed.follow(table)

    def _on_tables(self, message: dict[str, Any]) -> None:
        rows = []
        for row in self.club.summary():
            rows.append({"id": row["id"], "game": row["game"], "title": row["title"], "options": row["options"],
                         "seats": row["seats"], "in_deal": row["in_deal"], "pot": row["pot"],
                         "spectators": row["spectators"],
                         "bots": [n for n in row["seats"] if n and (n in self.club.robots or n.startswith("bot-"))]})
        for part, more in tables_parts(plain(rows)):
            self.send({"type": "tables", "tables": part, "more": more})

    def _table(self, message: dict[str, Any]) -> TableLike | None:
        table = self.club.tables.get(message["table"])
        if table is None:
            self.error("bot.no_table", say(self.lang, "bot.no_table", table=message["table"]),
                       reply=message["type"], table=message["table"])
        return table

    def _on_sit(self, message: dict[str, Any]) -> None:
        table = self._table(message)
        if table is None:
            return
        assert self.name is not None
        seat = table.seat_of(self.name)

        def seated(seat: int) -> None:
            if self.hall is not None:
                self.hall.seated()
            self.send({"type": "seated", "table": table.id, "seat": seat})
            self.feed.follow(table)

        wanted = message.get("seat")
        if seat is None and wanted is not None and not 0 <= wanted < len(table.seats):
            self.error("table.no_seat", say(self.lang, "bot.no_seat", seat=wanted, table=table.id,
                                            last=len(table.seats) - 1), reply="sit", table=table.id)
            return
        if seat is None:  # the club's rules (one seat per person, not a closing table): Club.sit
            self._after(message, self.club.sit(self.name, table.id, message.get("seat")), seated)
        else:
            seated(seat)

    def _on_start(self, message: dict[str, Any]) -> None:
        table = self._table(message)
        if table is not None:
            assert self.name is not None
            self._after(message, table.start(self.name, self.now()), lambda _events: None)

    def _on_stand(self, message: dict[str, Any]) -> None:
        table = self._table(message)
        if table is None:
            return
        assert self.name is not None

        def stood(_table: Any) -> None:
            self.feed.unfollow(table.id)
            self.send({"type": "stood", "table": table.id})

        self._after(message, self.club.stand(self.name, table.id), stood)

    def _on_leave(self, message: dict[str, Any]) -> None:
        """As a person's ``leave``: away from the table's messages, the seat kept (stand gives it up)."""
        table_id = message["table"]
        self.feed.unfollow(table_id)
        self.send({"type": "left", "table": table_id})

    def _on_say(self, message: dict[str, Any]) -> None:
        assert self.name is not None
        if message.get("table") is None:  # the hall hears it; the bot hears what the hall heard
            self.club.say(self.name, message["text"])
            self.send({"type": "said", "text": sanitize(message["text"])})
            return
        table = self._table(message)
        if table is not None:
            self._after(message, table.say(self.name, message["text"]), lambda _rail: None)

    def _on_report(self, message: dict[str, Any]) -> None:
        """As a person's ``report NAME words``: the house gets it with the lines of his the bot could see."""
        assert self.name is not None
        self.club.speech.mark(self.name)  # counted as a line, as a person's report is
        report = self.club.report(self.name, message["name"], message["text"])
        self.send({"type": "reported", "name": report.target})

    def _on_sync(self, message: dict[str, Any]) -> None:
        table = self._table(message)
        if table is None:
            return
        if table.id not in self.feed.following:
            self.error("bot.not_following", say(self.lang, "bot.not_following", table=table.id), reply="sync",
                       table=table.id)
            return
        if table.id in self.feed.asks:  # a new ask follows with the state (an act in flight is stale)
            self.feed.asks[table.id].end()
        self.feed.state(table)

    def _on_act(self, message: dict[str, Any]) -> None:
        table_id = message["table"]
        table = self._table(message)
        if table is None:
            return
        assert self.name is not None
        asks = self.feed.asks.setdefault(table_id, Asks())
        ask = message["ask"] if message.get("ask") is not None else asks.at_seq(message["seq"])
        if (message.get("ask") is None and ask == 0) or asks.is_stale(ask, self._parsed(table, message["action"]), table.legal_actions(self.name)):
            current = asks.current
            text = say(self.lang, "bot.stale_ask" if current is not None else "bot.stale_ask_none", ask=ask,
                       current=current)
            self.error("bot.stale_ask", text, reply="act", table=table_id, ask=message.get("ask"),
                       current=current)
            return

        def done(_events: Any) -> None:  # accepted: said so, then the seat's next ask if it has one
            asks.answered(ask)
            self.send({"type": "ack", "table": table_id, "ask": ask if ask > 0 else None, "seq": table.last_seq})
            if table_id in self.feed.following:
                self.feed.turn(table)

        # a refusal is the person's refusal (at a table another node owns: when its answer comes); while
        # a table here applies it, its events go out but the next turn waits for the ack
        self.feed.acting = table_id
        try:
            result = table.act(self.name, message["action"], self.now())
        finally:
            self.feed.acting = None
        self._after(message, result, done)

    @staticmethod
    def _parsed(table: TableLike, text: str) -> Any:
        game = table.game
        if game is None:
            return None
        try:
            return game.parse_action(text)
        except Exception:  # the table refuses it in words when it is handed on
            return None

    def _on_ping(self, message: dict[str, Any]) -> None:
        """Keep-alive: any line counts as input for the idle timeout; this one is answered at once."""
        self.send({"type": "pong", **({"data": message["data"]} if message.get("data") is not None else {})})

    def _on_quit(self, message: dict[str, Any]) -> None:
        self.send({"type": "bye", "text": say(self.lang, "bot.bye")})
        if self._close:
            self._close()

    # -- the end ----------------------------------------------------------------------------

    def end(self) -> None:
        """The connection is gone: stop following; the club hears he left (away, then a stand-in)."""
        self.ended = True
        self.feed.unfollow_all()
        if self.hall is not None:
            self.hall.end()
        if self.entered and self.name is not None:
            self.entered = False
            self.club.leave(self.name, now=self.now())
