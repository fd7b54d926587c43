"""Issue 13 item 4: a stand-in for an away player makes only the game's safe moves, in every game.

anna sits with bots, the deal starts, her session leaves; her stand-in plays the rest of the deal.
Every move it makes is recorded with what was legal then: it passes whenever passing is legal,
stands pat (``buy`` alone), and never bids, sells, accepts, knocks, takes the golets or goes dark
by choice (a move it was forced to, the only legal one, is no choice).
"""

from __future__ import annotations

import pytest

from engine.bots import RULE_BOTS
from engine.table.club import Club
from engine.game import Action

SPENDING = {"bid", "sell", "accept", "knock", "golets", "dark", "razrez"}
"""Verbs that put a player's money at risk by choice (RULES.md §2 and §6)."""


def stand_in_moves(game_name: str, seed: int) -> list[tuple[Action, list[Action]]]:
    club = Club([{"game": game_name, "think": 0, "clock": 0, "takeover": 5}], seed=seed)
    table = club.tables[1]
    club.enter("anna", now=0.0)
    table.sit("anna")
    while not table.full():
        table.sit_bot()
    table.start("anna", now=0.0)
    assert table.in_deal()
    moves: list[tuple[Action, list[Action]]] = []
    seat = table.seat_of("anna")
    real = table.auto.next_move

    def spy(tbl, now):
        move = real(tbl, now)
        if move is not None and move[0] == "bot" and move[1][0] == "anna":
            moves.append((move[1][1], list(tbl.legal(seat))))
        return move

    table.auto.next_move = spy  # type: ignore[method-assign]
    club.leave("anna", now=0.0)  # her last session goes: away, a stand-in takes over after 5 s
    now = 10.0
    deals = len(table.game.deals)
    for _ in range(3000):
        if not table.in_deal() or len(table.game.deals) != deals:
            break
        deadline = club.next_deadline()
        now = max(now, deadline if deadline is not None else now + 1.0)
        club.tick(now)
    assert not table.in_deal() or len(table.game.deals) != deals, "the stand-in never finished the deal"
    return moves


@pytest.mark.parametrize("game_name", sorted(RULE_BOTS))
def test_a_stand_in_never_spends_an_away_players_money(game_name):
    seen: list[tuple[Action, list[Action]]] = []
    for seed in range(12):
        seen += stand_in_moves(game_name, seed)
    assert seen, "the stand-in never had to move"
    for action, legal in seen:
        forced = len(legal) == 1
        if Action("pass") in legal:
            assert action == Action("pass"), (action, legal)
        if action.verb in SPENDING:
            assert forced, f"the stand-in chose {action} among {legal}"
        if action.verb == "buy":
            assert action.args == () or forced, f"the stand-in bought {action}"
