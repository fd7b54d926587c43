"""Bots decide from their seat's view only: hidden cards change nothing, and nothing else gets in.

At every decision of every rule bot in many deals, three bots of the same seed,
kept in lockstep, are shown:

1. the seat's own view ``game.view(seat)``;
2. the ADMIN view made to look like a seat's: ``viewer`` set to the seat, the
   other seats' hands set to None, and every key the seat's view lacks or
   shows as None (stock, widow, burned cards, a shlejf the seat did not see…)
   dropped — so whatever hidden card is left in nested keys (Копилка's laid
   out rows, french3's discards) is still there to tempt it;
3. the same with the other seats' hands left in.

All three must choose the same action.  (The third proves a bot never reads
another seat's hand even when it is there; Спекулянт's piles, hidden from
their owner too, are then in every "hands" entry.)
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

import pytest

from engine.bots import Bot, BotError, make_bot
from engine.bots.ukr_pairs import UkrPairsBot
from engine.bots.arena import Arena
from engine.game import ADMIN, SPECTATOR, Action, Game, ShuffledDecks
from engine.games import get_game

DEALS = 60

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("stukolka", 5, {"variant": "a"}),
    ("stukolka", 5, {"variant": "b"}),
    ("stukolka", 5, {"variant": "v", "dark": True, "razrez": True}),
    ("stukolka", 4, {"variant": "g"}),
    ("kopilka", 4, {}),
    ("french3", 3, {}),
    ("ukr_pairs", 4, {}),
    ("speculator", 4, {"W": 5, "Wmax": 10}),
]


def seat_like_admin_view(game: Game, seat: int, other_hands: bool) -> dict[str, Any]:
    """The ADMIN view shaped as seat ``seat``'s (module docstring, 2 and 3)."""
    admin, own = game.view(ADMIN), game.view(seat)
    view = {key: value for key, value in admin.items()
            if key in own and not (own[key] is None and value is not None)}
    view["viewer"] = seat
    hands = list(admin["hands"]) if other_hands else [None] * game.n
    hands[seat] = own["hands"][seat]
    view["hands"] = hands
    return view


class Triplet:
    """Three bots of one seed answering the three views; they must agree."""

    def __init__(self, game: Game, name: str, seed: int, factory: Callable[[], Bot] | None = None):
        self.game = game
        self.bots = [factory() if factory else make_bot(name, "rule", seed) for _ in range(3)]
        self.decisions = 0
        self.hidden_shown = 0

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action | None:
        seat = view["viewer"]
        assert view == self.game.view(seat)
        stripped = seat_like_admin_view(self.game, seat, other_hands=False)
        full = seat_like_admin_view(self.game, seat, other_hands=True)
        self.hidden_shown += full != view
        answers = [bot.choose(v, legal) for bot, v in zip(self.bots, (view, stripped, full))]
        assert answers[0] == answers[1] == answers[2], (seat, view["phase"], answers)
        self.decisions += 1
        return answers[0]


@pytest.mark.parametrize("name,players,options", CONFIGS,
                         ids=[f"{c[0]}-{''.join(str(v) for v in c[2].values())}" for c in CONFIGS])
def test_hidden_cards_change_no_decision(name: str, players: int, options: dict[str, Any]) -> None:
    cls = get_game(name)
    rng = random.Random(name + str(options))
    game = cls([f"P{i}" for i in range(players)], options)
    seats = [Triplet(game, name, rng.randrange(1 << 30)) for _ in range(players)]
    bots: list[Any] = list(seats)
    bots[rng.randrange(players)] = make_bot(name, "random", 1)  # someone unpredictable at the table
    arena = Arena(game, bots, rng=random.Random(1))
    decks = ShuffledDecks(cls.deck_size, rng.randrange(1 << 60))
    for _ in range(DEALS):
        if not game.can_start_deal():
            break
        arena.play_deal(decks)
    decisions = sum(t.decisions for t in seats)
    assert decisions > 100
    # The test means something only if the richer views did show hidden cards.
    assert sum(t.hidden_shown for t in seats) > decisions // 2


def test_a_bot_is_never_given_a_game() -> None:
    game = get_game("ukr_pairs")(["A", "B", "C", "D"])
    game.start_deal(ShuffledDecks(36, 5))
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)
    bot = make_bot("ukr_pairs")
    with pytest.raises(BotError):
        bot.choose(game, legal)  # type: ignore[arg-type]
    with pytest.raises(BotError):
        bot.choose(game.view(SPECTATOR), legal)  # public view: no seat to play
    with pytest.raises(BotError):
        bot.choose(game.view(ADMIN), legal)  # the admin view is nobody's seat
    with pytest.raises(BotError):
        make_bot("french3").choose(game.view(seat), legal)  # another game's view
    with pytest.raises(BotError):
        bot.choose(game.view((seat + 1) % 4), [])  # not its turn: nothing legal
    assert bot.choose(game.view(seat), legal) in legal


class Peeker(UkrPairsBot):
    """A cheat: plays its lowest legal card when it can see an opponent's hand."""

    def _choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if view["hands"][(view["viewer"] + 1) % 4] is not None:
            return legal[-1]
        return super()._choose(view, legal)


def test_the_check_catches_a_bot_that_peeks() -> None:
    game = get_game("ukr_pairs")(["A", "B", "C", "D"])
    triplets = [Triplet(game, "ukr_pairs", 0, lambda: Peeker("ukr_pairs")) for _ in range(4)]
    arena = Arena(game, triplets)  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        for deal in range(5):
            arena.play_deal(ShuffledDecks(36, deal))
