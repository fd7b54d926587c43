"""Typed views: what any viewer of a table may see, as frozen values.

A game's ``view(viewer)`` stays a plain dict: it is what the bot protocol serialises (docs/schema)
and what the bots read.  ``build_view`` turns that dict — or a table's lobby dict, before any
game — into a ``View`` by one constructor, so the screens draw from named fields: the seats (with
a hand only where this viewer may see it, else a count), the trick with the card now winning it
(``best``, as the game judged it), the trump, the pot and its name, the balances, and a typed
score sheet the game declares (``Game.score_view``).  What is particular to one game stays in
``extra`` (read-only), for that game's own drawings.

``Snapshot`` (``Table.pull``; not the autopilot's ``engine.table.autoplay.Snapshot``) is everything a
table's screen draws at once: the view, the viewer's legal actions, the log lines not yet shown,
and the deadline the timer bar counts to.  Widgets get snapshots and
never a table (tests/engine/test_layering.py), so they cannot ask for more than a viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from engine.botnames import is_bot
from engine.cards import Card, Suit

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class SeatView:
    """One seat as this viewer sees it: ``hand`` is None where its cards are hidden from him."""

    seat: int
    name: str | None
    hand: tuple[Card, ...] | None
    count: int
    status: str
    tricks: int
    balance: int


@dataclass(frozen=True)
class TrickView:
    """The cards on the felt in the order played (a face-down card is None) and the one winning now."""

    cards: tuple[tuple[int, Card | None], ...] = ()
    best: Card | None = None

    def __bool__(self) -> bool:
        return bool(self.cards)


@dataclass(frozen=True)
class ScoreSheet:
    """A points game's score so far (the typed part of a view a game declares); money games have none."""


@dataclass(frozen=True)
class LineSheet(ScoreSheet):
    """Points above and below the line per seat (the French three-hander, R22–R23)."""

    above: tuple[int, ...]
    below: tuple[int, ...]


@dataclass(frozen=True)
class RecordSheet(ScoreSheet):
    """What each partnership has left of its record, and who plays in it (the pairs game, R27–R30)."""

    records: tuple[tuple[str, int], ...]
    teams: tuple[tuple[str, tuple[int, ...]], ...]

    def team_of(self, seat: int | None) -> str | None:
        return next((team for team, seats in self.teams if seat is not None and seat in seats), None)


@dataclass(frozen=True)
class SuitTally:
    """One player's tricks of one led suit on Копилка's sheet: how many, how many the A♠ won, their worth."""

    suit: Suit
    tricks: int
    doubled: int
    value: int


@dataclass(frozen=True)
class LaidRow:
    """A giver's row laid out face down (Копилка R7): a card where this viewer may see it, who took each place."""

    giver: int
    places: tuple[Card | None, ...]
    taken_by: tuple[int | None, ...]


@dataclass(frozen=True)
class PartiyaSheet(ScoreSheet):
    """Копилка's partiya sheet (§2.6–2.8) and what lies face down beside the trick (R7, R9).

    ``tallies`` per seat, only the suits he took a trick of (in the order of ``Suit``); ``won`` is W
    per seat so far; ``multiplier`` and ``suit_values`` are the table's options M and V (2 and 0 when
    a bare game view has none); ``laid`` the rows laid out now, ``taking_from`` whose row is being
    taken, ``stock_count`` the cards left to draw."""

    deal: int
    tallies: tuple[tuple[SuitTally, ...], ...]
    won: tuple[int, ...]
    multiplier: int
    suit_values: tuple[tuple[Suit, int], ...]
    laid: tuple[LaidRow, ...] = ()
    taking_from: int | None = None
    stock_count: int | None = None

    def tally(self, seat: int, suit: Suit) -> SuitTally | None:
        """His tricks of ``suit``, or None if he took none."""
        if not 0 <= seat < len(self.tallies):
            return None
        return next((t for t in self.tallies[seat] if t.suit == suit), None)

    def won_by(self, seat: int) -> int:
        return self.won[seat] if 0 <= seat < len(self.won) else 0

    def value_of(self, suit: Suit) -> int:
        return next((v for s, v in self.suit_values if s == suit), 0)


@dataclass(frozen=True)
class View:
    """A table as one viewer may see it; built by ``build_view`` from a game's view or the lobby's."""

    game: str
    table: int | None
    viewer: int
    seat: int | None
    phase: str
    dealer: int
    deal_no: int
    in_deal: bool
    over: bool
    to_act: tuple[int, ...]
    seats: tuple[SeatView, ...]
    trick: TrickView
    trump: Suit | None
    trump_card: Card | None
    pot: int
    ready: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()
    robots: tuple[str, ...] = ()
    """Accounts a program plays through the bot protocol (sukno-bot/1)."""
    stand_ins: tuple[str, ...] = ()
    """People a bot plays for now (away; ``bots`` less the house's own bot seats)."""
    away: tuple[str, ...] = ()
    """Who the club knows is gone or away (presence is the club's, so the screen's pull adds it)."""
    ratings: tuple[tuple[str, str], ...] = ()
    """(name, rating label) of the seated who are rated in this table's game (the club's, added by the pull)."""
    seal: str | None = None
    sheet: ScoreSheet | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)
    """The whole dict the game (or the lobby) gave, read-only: its own keys for its own drawings."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name or "" for s in self.seats)

    def rating_of(self, name: str) -> str:
        """The rating label shown beside ``name`` on the felt, or ``""``."""
        return next((label for who, label in self.ratings if who == name), "")

    @property
    def balances(self) -> tuple[int, ...]:
        return tuple(s.balance for s in self.seats)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The viewer's own cards (none for a watcher)."""
        if self.seat is None or not 0 <= self.seat < len(self.seats):
            return ()
        return self.seats[self.seat].hand or ()


def build_view(raw: Mapping[str, Any], sheet: Callable[[Mapping[str, Any]], ScoreSheet | None] | None = None,
               **changes: Any) -> View:
    """The one constructor of ``View``: from a game's ``view()`` dict or a table's lobby dict.

    Lenient about missing keys (a lobby has no trick, a test's view may have only what it checks);
    ``sheet`` is the game's ``score_view``; ``changes`` overwrite keys of ``raw`` first (``away``).
    """
    if changes:
        raw = {**raw, **changes}
    names = list(raw.get("names") or [])
    n = len(names)
    hands = _padded(raw.get("hands"), n, None)
    counts = _padded(raw.get("hand_counts"), n, 0)
    status = _padded(raw.get("status"), n, "")
    tricks = _padded(raw.get("tricks"), n, 0)
    balances = _padded(raw.get("balances"), n, 0)
    seats = tuple(
        SeatView(seat=i, name=names[i] or None, hand=tuple(hands[i]) if hands[i] is not None else None,
                 count=_int(counts[i]), status=str(status[i] or ""), tricks=_int(tricks[i]),
                 balance=_int(balances[i]))
        for i in range(n)
    )
    best = raw.get("best")
    trick = TrickView(cards=tuple((int(s), c if isinstance(c, Card) else None) for s, c in raw.get("trick") or ()),
                      best=best if isinstance(best, Card) else None)
    trump, card, seal, seat = raw.get("trump"), raw.get("trump_card"), raw.get("seal"), raw.get("seat")
    return View(
        game=str(raw.get("game") or ""), table=raw.get("table"), viewer=_int(raw.get("viewer", -1)),
        seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
        phase=str(raw.get("phase") or ""), dealer=_int(raw.get("dealer")), deal_no=_int(raw.get("deal_no")),
        in_deal=bool(raw.get("in_deal")), over=bool(raw.get("over")),
        to_act=tuple(int(s) for s in raw.get("to_act") or ()), seats=seats, trick=trick,
        trump=trump if isinstance(trump, Suit) else None, trump_card=card if isinstance(card, Card) else None,
        pot=_int(raw.get("pot")), ready=_names(raw.get("ready")), bots=_names(raw.get("bots")),
        robots=_names(raw.get("robots")), stand_ins=tuple(n for n in _names(raw.get("bots")) if not is_bot(n)),
        away=_names(raw.get("away")),
        ratings=tuple((str(n), str(r)) for n, r in (raw.get("ratings") or ())),
        seal=seal if isinstance(seal, str) and seal else None,
        sheet=sheet(raw) if sheet is not None else None,
        extra=MappingProxyType(dict(raw)),
    )


@dataclass(frozen=True)
class TableFacts:
    """What a screen says of the table itself, not of a deal: its number, game, variant and pot's name."""

    id: int
    title: Mapping[str, str]
    variant: str
    pot_name: str
    seats: int
    free: int

    def title_in(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or ""


@dataclass(frozen=True)
class Snapshot:
    """One pull of a table for one viewer: all a table screen draws, in one consistent moment."""

    view: View
    legal: tuple[Any, ...]
    """The viewer's legal actions now (engine ``Action`` values)."""
    log: tuple[Any, ...]
    """The table's log entries after the number asked for (``engine.feed.LogEntry``)."""
    rail: tuple[Any, ...]
    """The watchers' rail after the number asked for (empty for a seated player)."""
    deadline: float | None
    """When the turn clock runs out (the timer bar), None: no clock running."""
    facts: TableFacts
    judge: Callable[[Any], Any] = field(compare=False, repr=False, default=lambda action: None)
    """Why an action would be refused for this viewer now (``Game.why_not``): the hint's reasons."""
    verbs: Mapping[str, str] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)
    """The game's verbs and their argument kinds (``Game.verbs``)."""

    @property
    def game_name(self) -> str:
        return self.view.game

    def why_not(self, name: str, action: Any) -> Any:
        """As ``Table.why_not`` for the viewer this snapshot was taken for (``tui.hints`` asks either)."""
        return self.judge(action)


def _padded(values: Any, n: int, fill: Any) -> list[Any]:
    out = list(values or [])[:n]
    return out + [fill] * (n - len(out))


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _names(values: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in values or ())


__all__ = ["LaidRow", "LineSheet", "PartiyaSheet", "RecordSheet", "ScoreSheet", "SuitTally", "SeatView", "Snapshot", "TableFacts", "TrickView", "View",
           "build_view", "view_of"]

