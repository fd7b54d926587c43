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
from engine.game import ADMIN, SPECTATOR, Event, GivenDecks
from engine.games import get_game
from engine.record import Record


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


def viewer_seat(record: Record, name: str | None) -> int | None:
    return record.players.index(name) if name in record.players else None


def frames(record: Record, viewer: str | None) -> list[Frame]:
    """Every step of the record for ``viewer``; ``RecordError``/``IllegalAction`` if it does not replay."""
    cls = get_game(record.game)
    game = cls(record.players, record.options, dealer=record.dealer, pot=record.pot)
    seat = viewer_seat(record, viewer)
    out: list[Frame] = []
    for number, deal in enumerate(record.deals, 1):
        events = list(game.start_deal(GivenDecks(deal.decks)))
        dealt = [list(h or []) for h in game.view(ADMIN)["hands"]]
        out.append(_frame(game, seat, number, len(record.deals), 0, len(deal.actions), events, dealt, ""))
        for step, line in enumerate(deal.actions, 1):
            name, _, text = line.partition(":")
            events += game.apply(record.players.index(name.strip()), text.strip())
            out.append(_frame(game, seat, number, len(record.deals), step, len(deal.actions), events, dealt, line))
    return out


def _frame(game, seat, deal, deals, step, steps, events, dealt, last) -> Frame:
    view = game.view(SPECTATOR if seat is None else seat)
    over = not game.in_deal
    hands = [list(h) for h in dealt] if over else [list(h) if h is not None else None for h in view["hands"]]
    return Frame(
        deal=deal, deals=deals, step=step, steps=steps, events=list(events), hands=hands,
        counts=list(view.get("hand_counts", [])), pot=int(view.get("pot", 0)),
        balances=list(game.balances), over=over, last=last, dealt=dealt,
    )
