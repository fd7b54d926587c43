"""What the house may do to the club, as plain functions (``sukno admin``).

``net.house.admin`` parses a command and calls these; they hold the rules of each
operation so that the socket, the console and the in-TUI ``admin`` verb all
behave alike, and tests need no network.  Every function raises
``AdminError`` with a one-line reason and then has changed nothing.

Decisions (why):

- ``open GAME k=v …`` takes the option names as the game's
  ``options_spec`` spells them; ``seats=N`` is the one extra word (the table's
  player count), and the table's own settings ``clock=``, ``grace=``,
  ``bots=fill`` (``engine.table.autoplay``).  Values are strings; the game's
  ``Option.coerce`` checks them.
- Closing a table never cuts a deal: ``close`` refuses mid-deal, and
  ``close --after-deal`` marks the table ``closing`` (no new deal starts) and
  closes it when the deal ends.  The seated stand up first, which ends the
  table's session, so its money is booked as every stand is.
- ``watch`` renders ``view(ADMIN)`` — every hidden card — as text; the caller
  logs it in the audit log because it is exactly what a cheat would want.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from engine.cards import Card, Suit
from engine.table.club import SETTING_WORDS, Club, table_settings
from engine.game import ADMIN, Event, IllegalAction, OptionError
from engine.games import registry
from engine.table.owner import Table
from engine.table.pending import Answer


class AdminError(Exception):
    """An admin command refused; ``str(err)`` says why (nothing was changed)."""


# -- durations ----------------------------------------------------------------------

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$", re.IGNORECASE)


def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``15m``, ``2h``, ``7d``, ``1w``."""
    match = _DURATION.match(text or "")
    if not match:
        raise AdminError(f"{text!r} is not a duration: use e.g. 90s, 15m, 2h, 7d")
    seconds = float(match.group(1)) * _UNITS[(match.group(2) or "s").lower()]
    if seconds <= 0:
        raise AdminError("a duration must be longer than zero")
    return seconds


def show_duration(seconds: float) -> str:
    """``2h``, ``1m 30s``, ``3d 4h``: the two largest units that are not zero."""
    left = max(0, int(round(seconds)))
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if left >= size:
            parts.append(f"{left // size}{unit}")
            left %= size
    return " ".join(parts[:2]) or "0s"


# -- tables -------------------------------------------------------------------------


def table_of(club: Club, word: str) -> Table:
    """The table numbered ``word``; refused with a reason otherwise."""
    if not word.isdigit():
        raise AdminError(f"{word!r} is not a table number")
    table = club.tables.get(int(word))
    if table is None:
        known = ", ".join(map(str, club.tables)) or "none"
        raise AdminError(f"there is no table {word} (tables: {known})")
    return table


def parse_options(words: list[str]) -> tuple[dict[str, str], int | None]:
    """``k=v`` words → (options, seats); ``seats`` is taken out of the options."""
    options: dict[str, str] = {}
    seats: int | None = None
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key or not value:
            raise AdminError(f"{word!r} is not an option: write name=value, e.g. a=30")
        if key == "seats":
            if not value.isdigit():
                raise AdminError(f"seats must be a whole number, not {value!r}")
            seats = int(value)
        else:
            options[key] = value
    return options, seats


def open_table(club: Club, game: str, words: list[str]) -> Table:
    """Open a table of ``game`` with the game's options given as ``k=v`` words."""
    games = registry()
    if game not in games:
        raise AdminError(f"there is no game {game!r}; games: {', '.join(sorted(games))}")
    private = [w for w in words if w.lower() in ("private", "приватный")]  # ``open GAME private``
    options, seats = parse_options([w for w in words if w not in private])
    if private:
        options["private"] = "yes"
    settings = table_settings({k: options.pop(k) for k in list(options) if k in SETTING_WORDS})
    try:
        return club.open_table(game, options, seats, settings=settings)
    except (OptionError, IllegalAction, ValueError) as err:
        raise AdminError(str(getattr(err, "message", None) or err)) from None


def seat_bot(club: Club, table: Table, seat_word: str) -> tuple[int, Answer[str]]:
    """Put a bot in seat ``seat_word`` (1-based); returns the 0-based seat and the bot's name (at a table
    another node owns: the ``Pending`` of its name)."""
    if not seat_word.isdigit() or not 1 <= int(seat_word) <= len(table.seats):
        raise AdminError(f"table {table.id} has seats 1–{len(table.seats)}, not {seat_word!r}")
    try:
        name = club.sit_bot(table.id, int(seat_word) - 1)
    except IllegalAction as err:
        raise AdminError(err.message if hasattr(err, "message") else str(err)) from None
    return int(seat_word) - 1, name


def close_table(club: Club, table: Table, after_deal: bool) -> bool:
    """Close ``table`` now (True) or, mid-deal with ``after_deal``, when its deal ends (False)."""
    if table.in_deal():
        if not after_deal:
            raise AdminError(f"a deal is being played at table {table.id}; use close {table.id} --after-deal")
        table.closing = True
        _close_when_dealt(club, table)
        return False
    _close_now(club, table)
    return True


def _close_when_dealt(club: Club, table: Table) -> None:
    unsubscribe: Callable[[], None] | None = None

    def check(_events: list[Event]) -> None:
        if not table.in_deal() and table.id in club.tables and club.tables[table.id] is table:
            if unsubscribe is not None:
                unsubscribe()
            _close_now(club, table)

    unsubscribe = table.subscribe(check)


def _close_now(club: Club, table: Table) -> None:
    for name in table.seated():
        club.stand(name, table.id)
    for name in sorted(table.spectators):
        club.unwatch(name, table.id, every=True)
    club.close_table(table.id)


def seat_player(club: Club, table: Table, seat_word: str, name: str) -> Answer[int]:
    """Put ``name`` in seat ``seat_word`` (1-based); returns the 0-based seat (at a table another node
    owns: its ``Pending``)."""
    if not seat_word.isdigit() or not 1 <= int(seat_word) <= len(table.seats):
        raise AdminError(f"table {table.id} has seats 1–{len(table.seats)}, not {seat_word!r}")
    elsewhere = club.where(name)
    if elsewhere is not None:  # said in the admin's words; the club refuses it too (Club.sit)
        raise AdminError(f"{name} already sits at table {elsewhere.id}")
    try:
        return club.sit(name, table.id, int(seat_word) - 1)
    except IllegalAction as err:
        raise AdminError(err.message if hasattr(err, "message") else str(err)) from None


def tables_rows(club: Club) -> list[dict[str, Any]]:
    rows = club.summary()
    for row in rows:
        table = club.tables[row["id"]]
        row["closing"] = bool(getattr(table, "closing", False))
        row["deal_no"] = len(table.game.deals) if table.game is not None else 0
        row["pots"] = pot_history(table)
        row["suspended"] = bool(getattr(table, "suspended", False))  # waiting for its journal to read again
        snap = table.snapshot() if table.in_deal() else None
        row["to_act"] = [snap.names[s] for s in snap.to_act] if snap is not None else []
        row["ready"] = sorted(getattr(table, "ready", ()))
        row["away"] = sorted(getattr(table.auto, "away", {})) if hasattr(table, "auto") else []
    return rows


POT_POINTS = 40
"""The newest points of a table's pot history a listing carries."""


def pot_history(table: Table) -> list[int]:
    """The pot at the session's start and after each finished deal (its last ``POT_POINTS``).

    What the pot gains is what the seats lose: the pot after a deal is the
    session's first pot less the money every deal so far moved to the seats.
    """
    game = table.game
    if game is None:
        return []
    finished = game.deals[:-1] if table.in_deal() else game.deals
    pots = [game.start_pot]
    for log in finished:
        pots.append(pots[-1] - sum(log.money))
    return pots[-POT_POINTS:]


def tables_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no tables are open"
    lines = ["  # game        seats                          watching  pot     state"]
    for row in rows:
        seats = ", ".join(n or "·" for n in row["seats"])
        state = "playing deal %d" % row["deal_no"] if row["in_deal"] else "waiting"
        if row["closing"]:
            state += ", closing"
        lines.append(f"{row['id']:>3} {row['game']:<11} {seats:<30} {row['spectators']:>8}  {row['pot']:<6}  {state}")
    return "\n".join(lines)


# -- the admin's view ---------------------------------------------------------------


def _show(value: Any) -> str:
    if isinstance(value, Card):
        return value.text()
    if isinstance(value, Suit):
        return value.name.lower()
    if isinstance(value, (list, tuple)):
        return " ".join(_show(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items())
    return str(value)


def admin_view(table: Table) -> tuple[str, dict[str, Any]]:
    """Everything at ``table``, hidden cards included: (text, JSON-able data)."""
    if table.game is None or not table.in_deal():
        text = f"table {table.id} ({table.game_name}): no deal is being played; seats: " + ", ".join(
            n or "·" for n in table.seats
        )
        return text, {"table": table.id, "in_deal": False, "seats": list(table.seats), "rail": []}
    view = table.game.view(ADMIN)
    names = view.get("names", table.names())
    hands = view.get("hands") or [None] * len(names)
    lines = [f"table {table.id} ({table.game_name}) · deal {view.get('deal_no', '?')} · "
             f"phase {view.get('phase', '?')} · pot {view.get('pot', 0)} · to act: "
             + ", ".join(names[s] for s in view.get("to_act", []) if 0 <= s < len(names))]
    for seat, name in enumerate(names):
        hand = hands[seat] if seat < len(hands) else None
        lines.append(f"  {seat + 1}. {name:<16} {_show(hand) if hand is not None else '?'}")
    for key in ("trump", "trump_card", "trick", "stock"):
        if view.get(key) not in (None, [], ""):
            lines.append(f"  {key}: {_show(view[key])}")
    data = {"table": table.id, "in_deal": True, "names": list(names),
            "hands": [[c.text() for c in h] if h is not None else None for h in hands],
            "phase": view.get("phase"), "pot": view.get("pot"), "deal_no": view.get("deal_no")}
    rail = [f"  rail: {e.event.data.get('name')}: {e.event.data.get('text')}" for e in table.rail.since(0)
            if e.event.data.get("name")][-20:]
    lines += rail
    data["rail"] = [[e.event.data.get("name"), e.event.data.get("text")] for e in table.rail.since(0)][-20:]
    return "\n".join(lines), data
