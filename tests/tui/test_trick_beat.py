"""A taken trick stays whole on the felt until the next card lands; ``last`` tells it (issue 13, item 11)."""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from tui.app import ClubApp


def felt(app: ClubApp) -> str:
    return "\n".join(rows(app)[1:11])


@pytest.mark.parametrize(("lang", "last_word", "said"), [("en", "last", "The last trick:"),
                                                         ("ru", "последняя", "Прошлая взятка:")])
async def test_a_taken_stukolka_trick_stays_whole_until_the_next_card(lang, last_word, said):
    club = Club([{"game": "stukolka", "options": {"variant": "a"}, "clock": 0}], seed=9)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera", "gleb"):
            table.sit(name)
            club.enter(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        taken = None
        for _ in range(200):
            if not game.in_deal:
                break
            seat = game.to_act()[0]
            before = len(game.trick)
            action = next((a for a in game.legal_actions(seat) if a.verb != "pass"), game.legal_actions(seat)[0])
            if action.verb == "play" and before == len(game.trick):
                cards = [c for _, c in game.trick] + [action.args[0]]
            table.act(game.names[seat], action.text())
            await pilot.pause()
            if action.verb == "play" and not game.trick and len(cards) > 1:
                taken = cards
                break
        assert taken, "a trick was taken"
        shown = felt(app)
        for card in taken:
            assert card.text() in shown, (card, shown)  # the whole trick, the last card with it
        assert "╔═══╗" in shown  # the taker's card marked
        await type_line(pilot, last_word)
        line = next(r for r in rows(app) if said in r)
        assert all(c.text() in line for c in taken), line
        if game.in_deal:  # the next card clears it: none of the taken cards lies on the felt any more
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
            await pilot.pause()
            assert not [c for c in taken if c != game.trump_card and c.text() in felt(app)], felt(app)
        assert "Traceback" not in text(app)
