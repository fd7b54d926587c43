"""The house's news across nodes: what every node of the club must know at once.

A player's report is made on the node he is connected to; the admins may be online on another.  So
the node that keeps it tells every other node over the bus (``net.cluster.wire.ReportFiled``, once
the store has numbered it), and each tells its own admins online (``net.house.moderation``), as the
node where it was made does.  A rename (``Renamed``) is told too: each node's book of names takes the
new name and lets the old one go at once (a newcomer there is refused the new name before the store
is asked, and may take the old one), and the ignore lists in its memory follow him.  A notice is a hint: a node that was not listening misses the word,
never the report (``admin reports`` reads the store).  Every message is posted, never waited for.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from engine.store.moderation import WORDS_MAX, Report
from engine.table.owner import sanitize
from net.cluster.node import BUS_CHANNEL
from net.cluster.notices import MAX_PAYLOAD, NoticeError, undo_all
from net.cluster.wire import HOUSE_MESSAGES, BusError, Message, Renamed, ReportFiled, decode, encode

log = logging.getLogger("sukno.cluster")

class HouseRelay:
    """This node's reports told to the other nodes; theirs told to this node's admins online."""

    def __init__(self, house: Any, notices: Any, node: str) -> None:
        self.house = house
        self.notices = notices
        self.node = node
        self._off: Callable[[], None] | None = None

    def start(self) -> None:
        listeners = self.house.club.reports.listeners
        listeners.append(self._filed_here)

        def unlisten() -> None:
            if self._filed_here in listeners:
                listeners.remove(self._filed_here)

        self._off = undo_all([unlisten, self.notices.on(BUS_CHANNEL, self._notice)])

    def stop(self) -> None:
        if self._off is not None:
            self._off()
            self._off = None

    def _filed_here(self, report: Report) -> None:
        self.send(ReportFiled(self.node, max(0, report.id), report.reporter[:64], report.target[:64],
                              report.words[:WORDS_MAX]))

    def renamed_here(self, old: str, new: str) -> None:
        """The house renamed ``old`` to ``new`` on this node (the store has it): the others hear of it."""
        self.send(Renamed(self.node, old[:64], new[:64]))

    def send(self, message: Message) -> None:
        """Posted to the notices' sending thread; a message that cannot go is logged, never raised."""
        text = encode(message)
        if len(text.encode()) > MAX_PAYLOAD:
            log.warning("node %s: a %s notice is too long for the bus; not sent", self.node, message.t)
            return
        try:
            self.notices.post(BUS_CHANNEL, text, lambda why: self._unsent(message, why))
        except NoticeError as err:
            self._unsent(message, str(err))

    def _unsent(self, message: Message, why: str) -> None:
        log.warning("node %s: the other nodes were not told of a %s: %s", self.node, message.t, why)

    def _notice(self, payload: str) -> None:
        """On the loop: another node's house message (a table's message is the node's, not ours)."""
        try:
            message = decode(payload)
        except BusError:
            return  # the node's own reader logs a bad notice once
        if not isinstance(message, HOUSE_MESSAGES) or message.node == self.node:
            return
        if isinstance(message, ReportFiled):
            from net.house.moderation import tell_admins

            words = sanitize(message.words, WORDS_MAX)  # shown as text: no escapes, however it came
            tell_admins(self.house, Report(0.0, sanitize(message.reporter, 64), sanitize(message.target, 64), words,
                                           id=message.id))
        elif isinstance(message, Renamed):
            self._renamed_elsewhere(message.old, message.new)

    def _renamed_elsewhere(self, old: str, new: str) -> None:
        """As the renaming node did in memory: the book of names and the lists that ignore him follow."""
        accounts: Any = getattr(self.house.server, "accounts", None)
        if hasattr(accounts, "forget"):
            accounts.forget(old)
            accounts.named(new)
        self.house.club.social.renamed(old, new)
        log.info("node %s: %s was renamed %s on another node", self.node, old, new)
