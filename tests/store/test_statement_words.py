"""The balance statement says why money moved in the reader's words, never the ledger's English tags."""

from __future__ import annotations

import random
import re

from engine.table.club import Club
from tui.statement import reason_text

NAMES = ("Anna", "Boris", "Vera", "Gleb")
TAGS = re.compile(r"_|\b(pays|receives|settlement|tick)\b|\w+, \w+, \w+|play \S+:|deal:")


def test_every_kopilka_posting_is_told_in_words(open_again):
    store = open_again()
    for name in NAMES:
        store.create_account(name, grant=10_000)
    club = Club([{"game": "kopilka", "clock": 0}], store=store, now=0.0, seed=7)
    table = club.tables[1]
    for name in NAMES:
        table.sit(name)
    rng = random.Random(2)
    for _ in range(2):
        for name in NAMES:
            table.start(name, now=1.0)
        game = table.game
        while game.in_deal:
            seat = game.to_act()[0]
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text(), now=1.0)
    table.stand("Vera")
    moves = store.statement("Anna", 50)
    assert any("pays" in m.reason for m in moves)  # the ledger's own tags are there…
    told = {lang: [reason_text(m.reason, m.table_id, m.deal_no, lang) for m in moves] for lang in ("en", "ru")}
    for lang, lines in told.items():
        for line in lines:
            assert not TAGS.search(line), (lang, line)  # …and never shown
    assert "стол 1, сдача 1: взнос в копилку за партию (R6)" in told["ru"]
    assert "стол 1, сдача 2: плата в копилку за сдачу: не первым снёс карты или без взятки (R15)" in told["ru"]
    assert any(line.endswith("выплата копилки: игрок ушёл из-за стола (R16)") for line in told["ru"])
    assert "начальный взнос клуба" in told["ru"]
    assert "table 1, deal 1: deposit into the kitty for the partiya (R6)" in told["en"]
    store.close()
