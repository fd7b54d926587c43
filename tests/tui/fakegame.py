"""A tiny trick game registered only inside tests, so the table and the TUI are
tested against the protocol before (and besides) the real games.

"Highcard": 2–4 players, 32 cards, 2 cards each.  Each player first ``knock``s
(the only legal action, like a forced Стуколка dealer), then two tricks are
played with no obligation to follow; the highest card of the led suit wins.
Everyone antes 2 into the pot at the deal; each trick pays half the pot at the
start of play to its winner (an odd kopeck stays in the pot).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Card
from engine.game import ADMIN, Action, Event, Game, Option


class Highcard(Game):
    name = "highcard"
    title = {"ru": "Старшая карта", "en": "High card"}
    options_spec = (Option("ante", 2, "ante per player", minimum=0),)
    verbs = {"play": "card", "knock": ""}
    deck_size = 32
    min_players = 2
    max_players = 4

    def _start_deal(self) -> list[Event]:
        cards = self._draw_deck()
        eldest = (self.dealer + 1) % self.n
        self.order = [(eldest + i) % self.n for i in range(self.n)]
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        for k in range(2 * self.n):
            self.hands[self.order[k % self.n]].append(cards[k])
        self.stock = cards[2 * self.n:]
        for seat in range(self.n):
            self._to_pot(seat, self.options["ante"])
        self.phase = "declare"
        self.knocked: list[int] = []
        self.turn = eldest
        self.trick: list[tuple[int, Card]] = []
        self.tricks = [0] * self.n
        self.share = 0
        return [Event("dealt", self.dealer)]

    def _to_act(self) -> tuple[int, ...]:
        return (self.turn,)

    def _legal(self, seat: int) -> list[Action]:
        if self.phase == "declare":
            return [Action("knock")]
        return [Action("play", (c,)) for c in self.hands[seat]]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.verb == "knock":
            self.knocked.append(seat)
            self.turn = (seat + 1) % self.n
            if len(self.knocked) == self.n:
                self.phase = "play"
                self.share = self.pot // 2
            return [Event("knock", seat)]
        card = action.args[0]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events = [Event("play", seat, {"card": card})]
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return events
        led = self.trick[0][1].suit
        winner = max((c.rank, s) for s, c in self.trick if c.suit == led)[1]
        self.tricks[winner] += 1
        self._to_pot(winner, -self.share)
        self.trick = []
        self.turn = winner
        events.append(Event("trick", winner, {"won": self.share}))
        if not self.hands[winner]:
            self._end_deal()
        return events

    def _view(self, viewer: int) -> dict[str, Any]:
        hands = [list(h) if viewer in (s, ADMIN) else None for s, h in enumerate(self.hands)]
        return {
            "phase": self.phase,
            "hands": hands,
            "hand_counts": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "trump": None,
            "tricks": list(self.tricks),
            "status": ["knocked" if s in self.knocked else "" for s in range(self.n)],
            "stock": list(self.stock) if viewer == ADMIN else None,
        }


@pytest.fixture
def fake_game(monkeypatch: pytest.MonkeyPatch) -> type[Game]:
    """Register Highcard for one test (after the real games are discovered)."""
    import engine.games as games

    games.registry()
    monkeypatch.setitem(games._REGISTRY, "highcard", Highcard)
    return Highcard
