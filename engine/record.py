"""The game record ``sukno-record/1``: load, replay, write.

A record is everything that determines a session: the players, the options,
the first dealer, the money already on the table, and per deal its deck
orders and every action in notation.  Replaying it through the rules gives
the same state as live play, which is what crash recovery, ``sukno replay``
and the worked-example tests rely on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Mapping

from engine.cards import CardError, parse_card
from engine.game import DeckError, Game, IllegalAction, OptionError
from engine.games import get_game
from engine.jsonstream import read_object
from engine.playback import ACTION, DEAL, Move, ReplayError, play, replay_all
from engine.shuffle import DealCheck, FairError, check_fair, verify_deal

FORMAT = "sukno-record/1"
MAX_NAME = 64
MAX_BYTES = 8 * 1024 * 1024
"""The largest record file read: a club's session of thousands of deals is a few megabytes, and a
record is read whole; past this it is refused before a byte of it is parsed."""
MAX_DEALS = 5000
"""The most deals one record may hold (a session's deals are recorded as they end, in parts)."""
"""Longest player name a record may carry (the club's own are at most 32)."""


class RecordError(ValueError):
    """A file that is not a well-formed ``sukno-record/1`` record."""


@dataclass
class RecordDeal:
    decks: list[list[Any]]  # deck orders as Cards
    actions: list[str]  # "Name: verb args"
    fair: dict[str, str] | None = None  # sukno-shuffle/1: protocol, seal, seed, cut (engine.shuffle)


@dataclass
class Record:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0
    pot: int = 0
    deals: list[RecordDeal] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "players": list(self.players),
            "dealer": self.dealer,
            "pot": self.pot,
            "deals": [_deal_json(deal) for deal in self.deals],
        }


def _deal_json(deal: RecordDeal) -> dict[str, Any]:
    out: dict[str, Any] = {"decks": [[str(c) for c in d] for d in deal.decks], "actions": list(deal.actions)}
    if deal.fair is not None:
        out["fair"] = dict(deal.fair)
    return out


def load_record(source: str | Path | Mapping[str, Any]) -> Record:
    """Read and check a record from a path, JSON text or parsed JSON; ``RecordError`` says what is wrong."""
    if isinstance(source, Mapping):
        data: Any = source
    else:
        text = str(source)
        try:
            if isinstance(source, Path) or not text.lstrip().startswith("{"):
                data = _read_file(Path(source))
            else:
                if len(text) > MAX_BYTES:
                    raise RecordError(f"{len(text):,} characters, more than a record may have ({MAX_BYTES:,}); "
                                      "not read")
                data = json.loads(text, object_hook=_DealReader())
        except json.JSONDecodeError as err:
            raise RecordError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
        except RecursionError:
            raise RecordError("not a record: its JSON is nested too deeply") from None
        except RecordError:
            raise
        except ValueError as err:  # a number of more digits than Python converts (int_max_str_digits)
            raise RecordError(f"not a record: {_short(err)}") from None
    return _check(data)


class _Read:
    """A deal already checked while the JSON was parsed (``_DealReader``)."""

    __slots__ = ("deal",)

    def __init__(self, deal: RecordDeal) -> None:
        self.deal = deal


ACTION_MEMO = 8192
"""Distinct action lines shared while reading: a game's lines repeat (names × verbs × cards), so a big
record keeps each once; past this many a line is kept as read, so a hostile record cannot grow the memo."""


class _DealReader:
    """The parser's ``object_hook``: each deal is checked as soon as its object is parsed, so its deck
    strings are let go at once and repeated action lines are kept once — a big record is never held as
    a whole parse tree (memory stays a small multiple of the file)."""

    def __init__(self) -> None:
        self.lines: dict[str, str] = {}

    def __call__(self, raw: dict[str, Any]) -> Any:
        if "decks" not in raw or not raw.keys() <= {"decks", "actions", "fair"}:
            return raw
        try:
            deal = _check_deal(0, raw)
        except RecordError:
            return raw  # checked again in its place, where the error can say which deal it is
        lines = self.lines
        for i, line in enumerate(deal.actions):
            kept = lines.get(line)
            if kept is not None:
                deal.actions[i] = kept
            elif len(lines) < ACTION_MEMO:
                lines[line] = line
        return _Read(deal)


def _plain(value: Any) -> bool:
    """No deal object inside ``value`` (a table option is never a deal)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, _Read):
            return False
        if isinstance(item, Mapping):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return True


def _read_file(path: Path) -> Any:
    """The file's JSON, refused by its size before a byte is read, then read a window at a time and
    its deals one by one (``engine.jsonstream``): what is held at once is the record being built, one
    window and one deal, never the whole text or its whole parse tree."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_BYTES:
                raise RecordError(f"{path}: {size:,} bytes, more than a record may have ({MAX_BYTES:,}); not read")
            return read_object(_Bounded(file, path), "deals", _DealReader())
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a directory, not a record file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"{path}: cannot be read ({err})") from None


class _Bounded:
    """A file read at most ``MAX_BYTES`` far, whatever its size said (a pipe, a file still growing)."""

    def __init__(self, file: BinaryIO, path: Path) -> None:
        self.file, self.path, self.left = file, path, MAX_BYTES

    def read(self, size: int) -> bytes:
        chunk = self.file.read(min(size, self.left + 1))
        self.left -= len(chunk)
        if self.left < 0:
            raise RecordError(f"{self.path}: more than a record may have ({MAX_BYTES:,} bytes); not read")
        return chunk


def _short(err: BaseException) -> str:
    """An error's first line, cut (Python's own messages can quote what they refused)."""
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    return text[:200]


def _check(data: Any) -> Record:
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with format, game, players and deals")
    if data.get("format") != FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}; expected {FORMAT!r}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError("'game' must name a game, e.g. \"stukolka\"")
    try:
        get_game(game)
    except KeyError as err:
        raise RecordError(str(err.args[0])) from None
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(
            isinstance(p, str) and p.strip() and p == p.strip() and ":" not in p and p.isprintable()
            and len(p) <= MAX_NAME for p in players
        )
    ):
        raise RecordError(
            f"'players' must be a list of names (non-empty, at most {MAX_NAME} characters, without ':', "
            "control characters or spaces around them)")
    if len(set(players)) != len(players):
        raise RecordError("'players' has the same name twice")
    options = data.get("options", {})
    if not isinstance(options, Mapping) or not _plain(options):
        raise RecordError("'options' must be an object of table options")
    dealer = data.get("dealer", 0)
    pot = data.get("pot", 0)
    for key, value in (("dealer", dealer), ("pot", pot)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RecordError(f"'{key}' must be a whole number ≥ 0")
    deals_raw = data.get("deals")
    if not isinstance(deals_raw, list):
        raise RecordError("'deals' must be a list")
    if len(deals_raw) > MAX_DEALS:
        raise RecordError(f"{len(deals_raw):,} deals, more than a record may hold ({MAX_DEALS:,})")
    deals = []
    for i in range(len(deals_raw)):  # each deal's JSON let go once read: the parse and the record are never both whole
        deals.append(_check_deal(i + 1, deals_raw[i]))
        deals_raw[i] = None
    return Record(game, list(players), dict(options), dealer, pot, deals)


def _check_deal(number: int, raw: Any) -> RecordDeal:
    if isinstance(raw, _Read):
        return raw.deal
    if not isinstance(raw, Mapping):
        raise RecordError(f"deal {number} must be an object with 'decks' and 'actions'")
    decks_raw = raw.get("decks")
    if not isinstance(decks_raw, list) or not decks_raw or not all(isinstance(d, list) for d in decks_raw):
        raise RecordError(f"deal {number}: 'decks' must be a non-empty list of deck orders")
    decks = []
    for k, order in enumerate(decks_raw, 1):
        try:
            decks.append([parse_card(c) if isinstance(c, str) else _bad_card(c) for c in order])
        except CardError as err:
            raise RecordError(f"deal {number}, deck {k}: {err}") from None
    actions = raw.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f"deal {number}: 'actions' must be a list of lines 'Name: verb args'")
    fair = None
    if "fair" in raw:
        try:
            fair = check_fair(raw["fair"])
        except FairError as err:
            raise RecordError(f"deal {number}: {err}") from None
    return RecordDeal(decks, list(actions), fair)


def _bad_card(value: Any) -> Any:
    raise CardError(f"{value!r} is not a card (cards are written as text, e.g. \"Q♠\")")


def record_moves(record: Record, game: Game) -> Iterator[Move]:
    """The record's deals and actions as moves of ``engine.playback`` (``game`` plays them).

    Labels: ``("deal", d)``, ``("action", d, k, line)``; a line that names
    nobody of the record, or a deal that starts while ``game`` still plays
    the one before, raises ``ReplayError`` with a ``RecordError``.
    """
    seats = {name: i for i, name in enumerate(record.players)}
    for d, deal in enumerate(record.deals, 1):
        if game.in_deal:  # checked when the loop asks for this deal: the one before has been played by then
            raise ReplayError(("unfinished", d), RecordError(f"deal {d} starts while deal {d - 1} is unfinished"))
        yield Move(DEAL, decks=tuple(deal.decks), where=("deal", d))
        for k, line in enumerate(deal.actions, 1):
            name, colon, text = line.partition(":")
            if not colon or name.strip() not in seats:
                raise ReplayError(("action", d, k, line), RecordError(
                    f"expected 'Name: action' with a name from players, got {line!r}"))
            yield Move(ACTION, seat=seats[name.strip()], text=text.strip(), where=("action", d, k, line))


def replay(record: Record) -> tuple[int, dict[str, Any]]:
    """Play a record through the rules: (exit status, the §9.4 output object)."""
    cls = get_game(record.game)
    try:
        game = cls(record.players, record.options, dealer=record.dealer, pot=record.pot)
    except OptionError as err:
        return 2, {"ok": False, "error": str(err)}
    total = 0
    deals_out: list[dict[str, Any]] = []
    events: list[Any] = []

    def close_deal() -> None:
        deals_out.append({"money": dict(zip(record.players, game.deals[len(deals_out)].money)),
                          "events": [e.text(record.players) for e in events]})

    try:
        for step in play(game, record_moves(record, game)):
            if step.kind == DEAL:
                if game.deal_no > 1:
                    close_deal()
                events = []
            else:
                total += 1
            events += step.events
    except ReplayError as err:
        return 2, _failure(err)
    if game.deals:
        close_deal()
    out: dict[str, Any] = {
        "ok": True,
        "actions": total,
        "over": game.natural_end(),
        "balances": dict(zip(record.players, game.result())),
        "pot": game.pot,
    }
    score = game.score()
    if score is not None:
        out["score"] = score
    out["deals"] = deals_out
    return 0, out


def _failure(err: ReplayError) -> dict[str, Any]:
    """The §9.4 output of a record that stops replaying at ``err``."""
    where, cause = err.where, err.cause
    if where[0] == "unfinished":
        return {"ok": False, "deal": where[1], "error": str(cause)}
    if where[0] == "deal":
        return {"ok": False, "deal": where[1], "action": 0, "error": f"deal {where[1]}: {cause}"}
    _, d, k, line = where
    failure = {"ok": False, "deal": d, "action": k, "line": line}
    if isinstance(cause, (RecordError, IllegalAction, DeckError)):
        return failure | {"error": str(cause)}
    return failure | {"error": f"cannot be read: {_short(cause)}"}  # e.g. a bid of 4,400 digits


def record_of(game: Game, start_dealer: int | None = None) -> Record:
    """The record of a live session, to save, export or replay."""
    first = game.deals[0].dealer if game.deals else game.dealer
    return Record(
        game=game.name,
        players=list(game.names),
        options=dict(game.options),
        dealer=first if start_dealer is None else start_dealer,
        pot=game.start_pot,
        deals=[
            RecordDeal(
                [list(d) for d in log.decks],
                [f"{game.names[seat]}: {action.text()}" for seat, action in log.actions],
                dict(log.fair) if log.fair else None,
            )
            for log in game.deals
        ],
    )


def rebuild(record: Record) -> Game:
    """A live ``Game`` in the state the record leaves it (crash recovery); raises on a bad record."""
    cls = get_game(record.game)
    game = cls(record.players, record.options, dealer=record.dealer, pot=record.pot)
    return replay_all(game, record_moves(record, game))


def verify(record: Record) -> list[DealCheck]:
    """``sukno verify``: each deal's verdict (engine.shuffle), up to the first that is not fair.

    A record any of whose deals is sealed claims the club's seals for all of them: a deal there without
    its seal had it taken away, and a seal met twice is a deal copied — neither is fair."""
    size = get_game(record.game).deck_size
    claims = any(deal.fair for deal in record.deals)
    seen: dict[str, int] = {}
    out: list[DealCheck] = []
    for number, deal in enumerate(record.deals, 1):
        check = verify_deal(number, deal.fair, deal.decks, size)
        if claims and check.status == "not sealed":
            check = DealCheck(number, "unfair", note="not sealed, in a record whose other deals are")
        elif check.ok and check.seal in seen:
            check = DealCheck(number, "unfair", check.seal, note=f"the seal of deal {seen[check.seal]} again: a copied deal")
        elif check.ok and check.seal:
            seen[check.seal] = number
        out.append(check)
        if not check.ok:
            break
    return out
