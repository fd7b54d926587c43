"""``sukno play`` (local, against bots) deals sealed too: the seal before the deal, the seed after it."""

from __future__ import annotations

from engine.shuffle import deck_for
from net.cli.play import setup


def test_a_local_game_is_sealed_and_opened_like_a_club_table() -> None:
    game = setup("stukolka", bots=3, name="anna", clock=0.0, think=0.0)
    table = game.table
    seals = [e.event for e in table.log_since(0) if e.event.kind == "fair_seal"]
    assert len(seals) == 1 and seals[0].data["seal"] == table.sealed.seal
    table.cut("anna", "дома")
    seed = table.sealed.seed
    table.start("anna", now=0.0)
    assert table.game.deals[0].decks[0] == deck_for(seed, 52, "anna:дома", 0)
    assert not any(seed.hex() in repr(e.event) for e in table.log_since(0))
    now = 0.0
    while table.in_deal() and now < 10_000:
        if table.game.to_act() and table.game.names[table.game.to_act()[0]] == "anna":
            seat = table.game.to_act()[0]
            table.act("anna", table.game.legal_actions(seat)[0].text(), now=now)
            continue
        now = max(now, game.club.next_deadline() or now + 1)
        game.club.tick(now)
    opened = [e.event for e in table.log_since(0) if e.event.kind == "fair_open"]
    assert opened and opened[0].data["seed"] == seed.hex() and opened[0].data["cut"] == "anna:дома"
