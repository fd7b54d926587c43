"""What the tables a bot follows tell it: their events, its seat's state, and its turns as asks.

A turn is offered once per decision of the seat, and again only when what the seat may do changes
(``net.modes.botasks``); while the bot's own act is applied here its events go out, but the next
turn waits for the act's ``ack``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from net.modes.botasks import Asks, decision_of, legal_for, offered
from net.modes.botwire import event_message, plain

if TYPE_CHECKING:
    from engine.table.face import TableLike


class BotFeed:
    """The tables one bot follows, and the asks of its seat at each."""

    def __init__(self, send: Callable[[dict[str, Any]], None], now: Callable[[], float]) -> None:
        self.send = send
        self.now = now
        self.name: str | None = None
        """The bot's name once it is welcomed: the seat whose view and turns are sent."""
        self.following: dict[int, Callable[[], None]] = {}  # table id → unsubscribe
        self.seq: dict[int, int] = {}  # table id → last event seq sent
        self.asks: dict[int, Asks] = {}  # table id → the seat's asks there
        self._next_ask = 0
        self.acting: int | None = None
        """The table applying this bot's act just now (its turn is offered after the ack)."""

    def follow(self, table: TableLike) -> None:
        if table.id not in self.following:
            self.following[table.id] = table.subscribe(lambda events: self._table_changed(table))
        self.state(table)

    def unfollow(self, table_id: int) -> None:
        unsubscribe = self.following.pop(table_id, None)
        if unsubscribe is not None:
            unsubscribe()
        self.seq.pop(table_id, None)
        self.asks.pop(table_id, None)

    def unfollow_all(self) -> None:
        for table_id in list(self.following):
            self.unfollow(table_id)

    def state(self, table: TableLike) -> None:
        """The seat's own view, as the TUI gets it, then its turn if it has one."""
        self.seq[table.id] = table.last_seq
        self.send({"type": "state", "table": table.id, "seq": table.last_seq,
                   "view": self._view(table)})
        self.turn(table)

    def _view(self, table: TableLike) -> dict[str, Any]:
        """The seat's view for the wire: the table's clock readings become seconds left, as a bot
        cannot know the server's clock (Спекулянт's window ``deadline`` → ``seconds_left``)."""
        view = plain(table.view_for(self.name))
        if "deadline" in view:
            deadline = view.pop("deadline")
            view["seconds_left"] = None if deadline is None else max(0.0, round(deadline - self.now(), 1))
        view.pop("clock", None)
        return view

    def _table_changed(self, table: TableLike) -> None:
        if table.id not in self.following:
            return
        for entry in table.log_since(self.seq.get(table.id, 0)):
            self.seq[table.id] = entry.seq
            self.send(event_message(table.id, entry.seq, entry.event))
            if entry.event.kind == "deal_over":
                self.send({"type": "deal_end", "table": table.id, "seq": entry.seq,
                           "money": plain(entry.event.data.get("money", {})),
                           "pot": entry.event.data.get("pot", 0)})
        if self.acting != table.id:
            self.turn(table)

    def turn(self, table: TableLike) -> None:
        """A new ``ask`` when the seat has a new decision, or what it may do in one changed."""
        assert self.name is not None
        asks = self.asks.setdefault(table.id, Asks())
        legal = legal_for(table, self.name)
        game = table.game
        if not legal or game is None:
            asks.end()
            return
        shown, patterns = offered(legal)
        if not asks.needs(decision_of(game), shown):
            return
        self._next_ask += 1
        asks.issue(self._next_ask, legal, shown, table.last_seq)
        deadline = table.timer_deadline()
        left = None if deadline is None else max(0, int((deadline - self.now()) * 1000))
        turn = {"type": "turn", "table": table.id, "ask": self._next_ask, "seq": table.last_seq,
                "legal": list(shown), "deadline_ms": left, "view": self._view(table)}
        if patterns:
            turn["patterns"] = patterns
        self.send(turn)
