"""The steps of a finished record, as one person may see them (no Textual here).

``frames(record, viewer)`` plays a ``sukno-record/1`` through the rules and
keeps, after the deal and after each action, what ``viewer`` saw then: his own
hand only (a player of the record) or no hand at all (anyone else) while the
deal is played, and every hand as it was dealt once the deal is over — a
finished deal hides nothing any more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.game import ADMIN, SPECTATOR, Event, Game
from engine.games import get_game
from engine.playback import ReplayError, play
from engine.record import Record, RecordDeal, record_moves
from engine.step import DEAL
from tui.i18n import money, tr


@dataclass
class Frame:
    """One step: deal ``deal`` of ``deals``, after ``step`` of its ``steps`` actions (0: just dealt)."""

    deal: int
    deals: int
    step: int
    steps: int
    events: list[Event]  # of this deal so far
    hands: list[list[Card] | None]  # what the viewer sees (None: hidden)
    counts: list[int]
    pot: int
    balances: list[int]
    over: bool  # the deal is over here: every hand is shown as dealt
    last: str = ""  # the action of this step, as the record has it
    dealt: list[list[Card]] = field(default_factory=list)
    view: dict = field(default_factory=dict)  # the whole table then (every hand: the game is over), for the felt
    first: int = 0  # events[first:] are this step's own
    fair: dict | None = None  # the deal's seal and seed (engine.shuffle), when it was sealed


def viewer_seat(record: Record, name: str | None) -> int | None:
    return record.players.index(name) if name in record.players else None


def frames(record: Record, viewer: str | None) -> list[Frame]:
    """Every step of the record for ``viewer``; ``RecordError``/``IllegalAction`` if it does not replay."""
    cls = get_game(record.game)
    game = cls(record.players, record.options, dealer=record.dealer, pot=record.pot)
    seat = viewer_seat(record, viewer)
    out: list[Frame] = []
    events: list[Event] = []
    dealt: list[list[Card]] = []
    deal: RecordDeal | None = None
    try:
        for step in play(game, record_moves(record, game)):  # the one replay loop (engine.playback)
            first = len(events)
            if step.kind == DEAL:
                deal = record.deals[game.deal_no - 1]
                events, first, step_no, line = list(step.events), 0, 0, ""
                dealt = [list(h or []) for h in game.view(ADMIN)["hands"]]
            else:
                assert deal is not None
                events += step.events
                step_no = len(game.deals[-1].actions)
                line = deal.actions[step_no - 1]
            out.append(_frame(game, seat, game.deal_no, len(record.deals), step_no, len(deal.actions), events, dealt,
                              line, first))
            out[-1].fair = deal.fair
    except ReplayError as err:
        raise err.cause from None
    return out


def _frame(game: Game, seat: int | None, deal: int, deals: int, step: int, steps: int, events: list[Event],
           dealt: list[list[Card]], last: str, first: int) -> Frame:
    view = game.view(SPECTATOR if seat is None else seat)
    over = not game.in_deal
    hands: list[list[Card] | None]
    if over:
        hands = [list(h) for h in dealt]
    else:
        hands = [list(h) if h is not None else None for h in view["hands"]]
    return Frame(
        deal=deal, deals=deals, step=step, steps=steps, events=list(events), hands=hands,
        counts=list(view.get("hand_counts", [])), pot=int(view.get("pot", 0)),
        balances=list(game.balances), over=over, last=last, dealt=dealt, view=game.view(ADMIN), first=first,
    )


def money_line(record: Record, frame: Frame, lang: str) -> str:
    """``After deal 2 of 5: Anna +30 k. · …`` at a deal's end, else the money as it stands."""
    listed = " · ".join(f"{name} {signed(amount, lang)}" for name, amount in zip(record.players, frame.balances))
    key = "replay.money_after" if frame.over else "replay.money_now"
    return tr(lang, key, deal=frame.deal, deals=frame.deals, money=listed)


def signed(amount: int, lang: str) -> str:
    return ("+" if amount > 0 else "") + money(amount, lang)
