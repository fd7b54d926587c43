"""A bot in the hall, told when a game starts for it (``table_started``), as lichess tells a bot ``gameStart``.

Two cases, both read from the hall's ``table`` events (a seat taken or given up, a player ready, a deal
begun), so a bot needs no polling of ``tables``:

- it has said ``wait`` (for one game or any) and has no seat: a table of that game is *gathering* — no
  session running, a free seat, and someone who is not a house bot has said ``start`` there;
- it sits at a table whose messages it does not follow (it said ``leave``): a deal has begun there, and
  its turn clock runs whether it plays or not.

Each is told once: a gathering table again only after it stopped gathering, its own table once a deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.botnames import is_bot
from net.modes.botwire import plain

if TYPE_CHECKING:
    from engine.game import Event
    from engine.table.club import Club
    from engine.table.face import TableLike

ANY_GAME = ""
"""``wanted`` for a bot that waits for any game."""


def gathering(table: TableLike) -> bool:
    """A table a bot could sit down at and play soon: between sessions, a seat free, someone ready."""
    return (table.game is None and not table.closing and None in table.seats
            and any(not is_bot(name) for name in table.ready))


class HallWait:
    """What one welcomed bot hears of the hall: ``table_started`` notices (see the module docstring)."""

    def __init__(self, club: Club, name: str, send: Callable[[dict[str, Any]], None],
                 following: Callable[[int], bool]) -> None:
        self.club = club
        self.name = name
        self.send = send
        self.following = following
        self.wanted: str | None = None
        """The game waited for (``ANY_GAME``: any), None: not waiting."""
        self.told: set[int] = set()
        """Gathering tables told of, until each stops gathering."""
        self.told_deal: tuple[int, int] | None = None
        """(table, deal number) of the last deal told of at the bot's own table."""
        self._unsubscribe = club.subscribe(self._hall_changed)

    def wait(self, game: str | None) -> None:
        """Wait for ``game`` (None: any): said so, then every table gathering for it now, then as they come."""
        self.wanted = game or ANY_GAME
        self.told.clear()
        self.send({"type": "waiting", "game": game})
        for table in list(self.club.tables.values()):
            self._check(table)

    def seated(self) -> None:
        """The bot took a seat: it waits no more (``wait`` again after ``stand``)."""
        self.wanted = None
        self.told.clear()

    def end(self) -> None:
        self._unsubscribe()
        self.wanted = None

    def _hall_changed(self, events: list[Event]) -> None:
        for event in events:
            if event.kind in ("table", "table_open", "table_close"):
                table_id = event.data.get("table")
                table = self.club.tables.get(table_id) if isinstance(table_id, int) else None
                if table is None:
                    self.told.discard(table_id)
                else:
                    self._check(table)

    def _check(self, table: TableLike) -> None:
        seat = table.seat_of(self.name)
        if seat is not None:
            self._own_table(table, seat)
            return
        if self.wanted is None or self.club.where(self.name) is not None:
            return
        if not gathering(table) or (self.wanted and table.game_name != self.wanted):
            self.told.discard(table.id)
            return
        if table.id not in self.told:
            self.told.add(table.id)
            self.send(self._notice(table))

    def _own_table(self, table: TableLike, seat: int) -> None:
        game = table.game
        if game is None or not game.in_deal or self.following(table.id):
            return
        deal = (table.id, game.deal_no)
        if deal != self.told_deal:
            self.told_deal = deal
            self.send({**self._notice(table), "seat": seat, "deal": game.deal_no})

    @staticmethod
    def _notice(table: TableLike) -> dict[str, Any]:
        return {"type": "table_started", "table": table.id, "game": table.game_name,
                "options": plain(dict(table.options)), "seats": list(table.seats),
                "free": [i for i, name in enumerate(table.seats) if name is None]}
