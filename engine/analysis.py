"""After the game: every decision of a seat judged by the search bot, from that seat's information only.

A record holds every deck, so a judge that looked at it would know what no player could.  The
judge here is the search bot (``engine.bots.search``) seated in the player's place: it hears the
table's public events and its own seat's view, exactly as it would live, and at each decision the
player made it imagines deals that agree with what the seat knew, plays every legal action out in
them with the rule bots, and so estimates each action's money.  The best action is the one the search
bot would have played: the rule bot's choice, unless another beat it clearly (``engine.bots.margin``).
The loss of a decision is what the action chosen gave away against that best one, over the same
imagined deals (common random numbers, so the difference is not the noise of two samples).  Its size in kopecks, against the
table's stake, marks a mistake or a blunder.

Each deal's imagined deals start from the public state the deals before left (``public_start``:
money, the pot or kitty, the dealer, the sheets), not from the judge re-imagining those deals as the
live bot must: a decision depends on its own deal's hidden cards and that public state only.

A decision with one legal action is no decision.  Спекулянт's trades are not judged (its search
decides inside the windows differently), and neither is an action the search could imagine no world
for in its budget: they are counted as not judged.

Deterministic: the budget is a number of imagined deals per decision, not a time, and the seed fixes
the rest; the same record, seed and budget give the same figures.
"""

from __future__ import annotations

import math
import pickle
import random
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Sequence

from engine.bots.search import ACTIONS, MAX_CANDIDATES, SearchBot
from engine.cards import Card
from engine.game import Action, DealLog, DeckError, Game
from engine.holder import Holder
from engine.games import get_game
from engine.playback import ACTION, DEAL, Move, play
from engine.record import Record, record_moves

DEFAULT_BUDGET = 24
"""Imagined deals per decision when none is asked for."""
MISTAKE = 1 / 3
BLUNDER = 1.0
"""A decision is a mistake when it gave away at least this share of the table's stake, a blunder at
this many stakes (both over the same imagined deals, and only when the loss is clear of their noise)."""
CLEAR = 1.0
"""Standard errors by which the loss must stand above 0 to be marked at all."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat: what was played, what the search would have played, and the cost."""

    deal: int
    index: int  # the action's place in the deal (1-based, as ``sukno replay`` counts)
    seat: int
    name: str
    made: str
    best: str
    value_made: float  # the estimated money of the action made (kopecks, to the deal's end)
    value_best: float
    loss: float  # value_best − value_made over the measuring half of the imagined deals, at least 0
    raw_loss: float  # the same, not held at 0: the unbiased figure to average over many decisions
    error: float  # the loss's standard error over the imagined deals
    worlds: int
    mark: str  # "", "mistake" or "blunder"


@dataclass
class SeatReport:
    name: str
    seat: int
    decisions: int = 0
    judged: int = 0
    loss: float = 0.0
    raw_loss: float = 0.0
    mistakes: int = 0
    blunders: int = 0

    @property
    def mean_loss(self) -> float:
        return self.loss / self.judged if self.judged else 0.0


@dataclass
class Analysis:
    game: str
    budget: int
    seed: int
    stake: int
    mistake_at: float
    blunder_at: float
    decisions: list[Decision] = field(default_factory=list)
    seats: list[SeatReport] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "budget": self.budget, "seed": self.seed, "stake": self.stake,
            "mistake_at": self.mistake_at, "blunder_at": self.blunder_at,
            "seats": [{**asdict(s), "mean_loss": round(s.mean_loss, 3)} for s in self.seats],
            "decisions": [asdict(d) for d in self.decisions],
        }


class Analyst(SearchBot):
    """The search bot in one seat of a finished game, asked for its estimates instead of its choice."""

    def __init__(self, game: str, seed: int | None = None, *, iterations: int = DEFAULT_BUDGET) -> None:
        super().__init__(game, seed, budget=None, iterations=iterations)
        self.rows: list[dict[Action, float]] = []
        """Each imagined deal of the last judgement: candidate → the seat's money to the deal's end."""
        self.ruled: Action | None = None

    def judge(self, view: Any, legal: Sequence[Action], made: Action) -> list[dict[Action, float]]:
        """Each candidate's result in every imagined deal of this decision (empty: none could be imagined);
        ``self.ruled`` is the rule bot's choice there, the anchor the search bot leaves only for a clear gain."""
        ruled = self.rules.choose(view, legal)  # keeps the rule bot's memory of the deal, as live
        self.ruled = ruled if ruled in legal else None
        if self.first_view is None or self.first_view["deal_no"] != view["deal_no"]:
            self.first_view = view
            self.deal_views = []
        self.deal_views.append(view)
        candidates = list(legal)
        if len(candidates) > MAX_CANDIDATES:  # the French buys: the made, the rule bot's and a sample
            others = [a for a in candidates if a not in (made, ruled)]
            keep = [made] + ([ruled] if ruled is not None and ruled != made else [])
            candidates = keep + self.rng.sample(others, max(0, MAX_CANDIDATES - len(keep)))
        self.rows = []
        self._search(view, candidates, made)  # the made action is the anchor: first in every imagined deal
        self.own.append(made)  # the seat's own history is what was played, not what the judge would have
        return [r for r in self.rows if made in r]

    def start_from(self, base: Game) -> None:
        """The session as every seat knew it at the next deal's start (``public_start``): imagined deals
        of that deal begin there, so the earlier deals' hidden cards need not be imagined again."""
        self.base, self.base_deal = base, base.deal_no + 1
        self.pot_fix = False  # the pot is the real one
        self.done.clear()

    def observe_own(self, made: Action) -> None:
        """A decision not judged: still the seat's own action, for the imagined deals after it."""
        self.own.append(made)

    def _playout(self, world: bytes, seat: int, action: Action, seed: int) -> float:
        value = super()._playout(world, seat, action, seed)
        if not self.rows or action in self.rows[-1]:  # the anchor again: the next imagined deal
            self.rows.append({})
        self.rows[-1][action] = value
        return value


def public_start(game: Game) -> Game:
    """A copy of ``game`` between deals holding only what every seat knows: money, the pot, the dealer,
    the score sheets and counters; no card and no deck of the deals before.

    Why: a decision depends on its own deal's hidden cards and on the public state the earlier deals
    left.  The search bot live must re-imagine every earlier deal to carry its own copy of the session
    over (it may not look at the table's), and that often fails; the judge of a finished game is given
    that public state instead, so every decision of a later deal can be judged."""
    if game.in_deal:
        raise ValueError("a deal is running: its start is not public yet")
    copy: Game = pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    if copy.deals:  # the engine reads only that there was a deal (the dealer passes on)
        last = copy.deals[-1]
        copy.deals = [DealLog(last.dealer, [], [], [0] * copy.n)]
    clear = getattr(copy, "_clear_deal", None)
    if callable(clear):
        clear()
    copy.deal_from(_NoDecks())  # the real deck source would deal the next deal's real cards
    cards = getattr(copy, "cards", None)
    if isinstance(cards, Holder):
        copy.cards = Holder(cards.names)  # type: ignore[attr-defined]
    if hasattr(copy, "deck"):
        copy.deck = []
    for name in _attributes(copy):  # a card of the deal before (Стуколка's trump ace): the next sets its own
        if isinstance(getattr(copy, name, None), Card):
            setattr(copy, name, None)
    return copy


class _NoDecks:
    """The deck source of a public copy: none (every imagined deal brings its own decks)."""

    def next_deck(self) -> list[Card]:
        raise DeckError("a public copy of a session has no decks")


def _attributes(game: Game) -> set[str]:
    names = set(getattr(game, "__dict__", {}))
    for cls in type(game).__mro__:
        slots = getattr(cls, "__slots__", ())
        names |= {slots} if isinstance(slots, str) else set(slots)
    return names


def _paired(rows: list[dict[Action, float]], a: Action, b: Action) -> list[float]:
    return [r[a] - r[b] for r in rows if a in r and b in r]


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def analyse(record: Record, *, seats: Sequence[int] | None = None, budget: int = DEFAULT_BUDGET,
            seed: int = 1) -> Analysis:
    """Every decision of ``seats`` (all by default) in ``record``, judged from each seat's information."""
    cls = get_game(record.game)
    game: Game = cls(record.players, record.options, dealer=record.dealer, pot=record.pot)
    stake = max(1, cls.stake(game.options))
    chosen = list(range(game.n)) if seats is None else sorted(set(seats))
    rng = random.Random(seed)
    judges = {s: Analyst(record.game, rng.randrange(2**31), iterations=budget) for s in chosen}
    out = Analysis(record.game, budget, seed, stake, MISTAKE * stake, BLUNDER * stake)
    out.seats = [SeatReport(record.players[s], s) for s in chosen]
    by_seat = {r.seat: r for r in out.seats}
    position = {"deal": 0, "index": 0}

    def moves() -> Iterator[Move]:
        for move in record_moves(record, game):
            if move.kind == DEAL:
                if not game.in_deal and record.game in ACTIONS:  # a game the judge can imagine deals of
                    base = public_start(game)
                    for judge in judges.values():
                        judge.start_from(base)
                position["deal"] += 1
                position["index"] = 0
            elif move.kind == ACTION:
                position["index"] += 1
                if move.seat in judges and game.in_deal:
                    _judge(move)
            yield move

    def _judge(move: Move) -> None:
        seat = int(move.seat)  # type: ignore[arg-type]
        legal = list(game.legal_actions(seat))
        made = cls.parse_action(move.text)
        report = by_seat[seat]
        judge = judges[seat]
        if len(legal) < 2 or made not in legal:
            judge.observe_own(made)
            return
        report.decisions += 1
        if game.clocked:  # Спекулянт: not judged (see the module's docstring)
            judge.observe_own(made)
            return
        rows = judge.judge(game.view(seat), legal, made)
        if not rows:
            return
        # The best is what the search bot would have played, chosen on half the imagined deals: the
        # rule bot's choice unless another beat it clearly there (engine.bots.margin); it is measured
        # on the other half, for the best of a dozen noisy means is better than it is on its own deals.
        picking, measuring = rows[::2], rows[1::2] or rows
        means = {a: _mean_se([r[a] for r in rows if a in r])[0] for a in {a for r in rows for a in r}}
        anchor = judge.ruled if judge.ruled is not None and all(judge.ruled in r for r in picking) else made
        best = judge.margin.choose(picking, anchor, sorted({a for r in picking for a in r}, key=lambda a: a.text()))
        diffs = _paired(measuring, best, made)
        raw, error = _mean_se(diffs) if best != made and diffs else (0.0, 0.0)
        loss = max(0.0, raw)
        clear = loss - CLEAR * error > 0
        mark = "blunder" if clear and loss >= out.blunder_at else "mistake" if clear and loss >= out.mistake_at else ""
        report.judged += 1
        report.loss += loss
        report.raw_loss += raw
        report.mistakes += mark == "mistake"
        report.blunders += mark == "blunder"
        out.decisions.append(Decision(position["deal"], position["index"], seat, record.players[seat], made.text(),
                                      best.text(), round(means[made], 3), round(means[best], 3), round(loss, 3),
                                      round(raw, 3),
                                      round(error, 3) if math.isfinite(error) else -1.0, len(rows), mark))

    for step in play(game, moves()):
        for judge in judges.values():
            judge.observe(step.events)
    return out


__all__ = ["Analysis", "Decision", "SeatReport", "analyse", "public_start", "DEFAULT_BUDGET", "MISTAKE", "BLUNDER"]
