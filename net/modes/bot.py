"""A bot's connection to the club over SSH (docs/bot-protocol.md): ``sukno-bot/1`` on a channel.

``ssh -T -p PORT NAME@host bot`` (no pty) lands here from ``net.ssh.session``;
``serve_bot`` wires a ``net.modes.botsession.BotSession`` to the channel: bytes
in, lines out, the door's limits on both.  A bot that does not read what it is
sent is cut off (``bot.too_slow``) rather than let the club's memory grow; its
seat is kept, as for anyone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from engine.store.base import StoreError
from net.modes.botsession import BotSession
from net.modes.botwire import MAX_LINE, LineBuffer, TooLong, encode, say, type_of
from net.ssh.limits import TokenBucket
from net.ssh.mode import BotMode

if TYPE_CHECKING:
    from net.ssh.ports import SessionPort

__all__ = ["MESSAGES_PER_SECOND", "MESSAGE_BURST", "SLOW_READER", "BotLink", "BotSession", "serve_bot"]

log = logging.getLogger("sukno.bots")

MESSAGES_PER_SECOND = 50
MESSAGE_BURST = 200
"""A bot's messages: on average and at once (beyond: ``bot.flood``, the message is dropped)."""
SLOW_READER = 8
"""A bot with more than ``SLOW_READER`` × the spectators' ``buffer_limit`` unread is cut off."""


class BotLink:
    """A ``BotSession`` over one SSH channel: bytes in, lines out, the end."""

    def __init__(self, session: SessionPort):
        self.session = session
        server = session.server
        config = server.config
        self.lines = LineBuffer()
        self.bytes = TokenBucket(config.input_bytes_per_second, config.input_burst)
        self.bytes_per_second = config.input_bytes_per_second
        self.messages = TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST)
        self.slow = SLOW_READER * config.buffer_limit
        self.done = asyncio.get_running_loop().create_future()
        self.bot = BotSession(server.club, server.accounts, fingerprint=session.conn.fingerprint,
                              lang=session.lang, send=self.send, now=asyncio.get_running_loop().time,
                              admit=self._admit, close=self.close, off_loop=server.off_loop)

    def _admit(self, name: str) -> str | None:
        session = self.session
        session.name = name
        refusal = session.server.limits.admit_account(name) or session.server.gate(session)
        if refusal:
            session.name = None
        return refusal

    def send(self, message: dict[str, Any]) -> None:
        session = self.session
        if session.closed:
            return
        if session.buffered() > self.slow:
            log.warning("bot %s does not read; cut off", session.name)
            self.close()
            return
        session.send(encode(message))

    def feed(self, data: bytes) -> None:
        session = self.session
        for line in self.lines.feed(data):
            if session.closed or self.done.done():
                return
            size = MAX_LINE if isinstance(line, TooLong) else len(line)
            if not self.bytes.take(size) or not self.messages.take(1):
                dropped = type_of(line)
                self.bot.error("bot.flood", say(self.bot.lang, "bot.flood", dropped=dropped, rate=MESSAGES_PER_SECOND,
                                                burst=MESSAGE_BURST, bytes=self.bytes_per_second), dropped=dropped)
                continue
            session.last_input = asyncio.get_running_loop().time()
            try:
                self.bot.line(line)
            except StoreError as err:  # the store away: said once by its outage line, not per message
                log.debug("bot %s: a message failed: %s", session.name, err)
                self.bot.error("failed", say(self.bot.lang, "bot.store"))
            except Exception:  # a bug here must not end the club: the bot hears an error, the log says why
                log.exception("bot %s: a message failed", session.name)
                self.bot.error("failed", say(self.bot.lang, "bot.store"))

    def end(self, farewell: str | None = None) -> None:
        """The server closes (shutdown, idle) or the client went: say bye if we still can, then stop."""
        if farewell and not self.session.closed:
            self.send({"type": "bye", "text": farewell})
        self.close()

    def close(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def serve_bot(session: SessionPort) -> None:
    """A bot's whole connection: the door's checks, hello, messages until it ends."""
    server = session.server
    refusal = session.conn.refused or server.limits.admit_session(session)
    link = BotLink(session)
    try:
        if refusal:
            from net.modes.texts import text

            link.bot.error("full", text(session.lang, "full", what=refusal))
            return
        fingerprint = session.conn.fingerprint
        try:
            known = fingerprint is not None and \
                (await server.off_loop(lambda store: store.account_by_key(fingerprint))) is not None
        except StoreError as err:  # the bot hears why it is let go (no traceback in the log), as a full club's
            log.warning("bot from %s: its key could not be read: %s", session.conn.peer, err)
            link.bot.error("failed", say(session.lang, "bot.store"))
            return
        link.bot.hello(known)
        if session.conn.fingerprint is None:
            link.bot.error("bot.guest", say(session.lang, "bot.guest"))
            return
        if session.closed:  # gone while its key was read
            return
        # From here the bot reads its own bytes; what it sent before (its hello, sent the moment the
        # channel opened) was kept for it and is read first, after the server's own hello.
        session.hand_over(BotMode(link))
        early = session.take_early()
        if early:
            link.feed(early)
        await link.done
    finally:
        link.close()
        link.bot.end()
        session.finish(0)
