"""The text mode over real SSH (issue 17): a Стуколка deal played by reading sentences and answering prompts.

The clients parse no screen: they read lines, answer the "Your turn. You may …"
prompts with the first thing offered, and ask ``hand``/``trick``/``table``
mid-deal, whose answers are checked against the table itself.  Every byte they
got is checked for escape sequences (there must be none).
"""

from __future__ import annotations

import pytest
from sshclient import make_config, new_key, running, until
from textclient import connect_text, first_choice

from engine.cards import Card

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLES = [{"game": "stukolka", "think": 0, "clock": 0}]
WORDS = {
    "en": {"name": "What shall he write?", "deal_over": "The deal is over.", "turn": "Your turn.",
           "hand": "Your hand: ", "felt": ("On the felt: ", "No cards are on the felt"), "seat": "Seat 1: Anna (you)",
           "ready": "Type start when you are ready"},
    "ru": {"name": "Как вас записать?", "deal_over": "Сдача окончена.", "turn": "Ваш ход.",
           "hand": "У вас на руке: ", "felt": ("На сукне: ", "На сукне карт нет"), "seat": "Место 1: Anna (вы)",
           "ready": "Наберите start (начать), когда готовы"},
}


def is_prompt(line: str) -> bool:
    return first_choice(line) is not None


async def play_one_deal(server, client, lang: str, name: str) -> None:
    words = WORDS[lang]
    table = server.club.tables[1]
    await client.wait(words["name"])
    client.send(name)
    await client.wait(name)
    client.send("sit 1" if lang == "en" else "сесть 1")
    for _ in range(3):
        client.send("sit bot" if lang == "en" else "сесть бот")
    await client.wait(words["ready"])
    client.send("start" if lang == "en" else "начать")
    asked = False
    while True:
        line = await client.wait(lambda t: is_prompt(t) or words["deal_over"] in t, timeout=15)
        if words["deal_over"] in line:
            break
        choice = first_choice(line)
        assert choice
        if not asked and table.game is not None and table.game.phase == "play":
            asked = True
            await check_answers(client, table, name, words)
        client.send(choice)
    assert asked, "the deal reached play and the questions were asked"
    assert not table.in_deal() and table.game is not None and table.game.deals


async def check_answers(client, table, name: str, words: dict) -> None:
    """``hand``, ``trick`` and ``table`` mid-deal say what the table holds."""
    view = table.view_for(name)
    client.send("hand" if words is WORDS["en"] else "рука")
    line = await client.wait(words["hand"])
    mine = [c.text() for c in view["hands"][view["seat"]]]
    assert line == words["hand"] + ", ".join(mine) + "."
    client.send("trick" if words is WORDS["en"] else "взятка")
    line = await client.wait(lambda t: t.startswith(words["felt"]))
    for seat, card in view["trick"]:
        assert f"{view['names'][seat]} {Card.text(card)}" in line
    if not view["trick"]:
        assert line.startswith(words["felt"][1])
    client.send("table" if words is WORDS["en"] else "стол")
    line = await client.wait(words["seat"])
    assert "bot-" not in line
    for seat in range(2, 5):
        line = await client.wait(f" {seat}: ")
        assert view["names"][seat - 1] in line


@pytest.mark.parametrize("term, lang", [("dumb", "en"), (None, "ru"), ("dumb", "ru"), (None, "en")])
async def test_a_whole_deal_by_sentences_and_prompts(tmp_path, term, lang):
    """TERM dumb (a pty) and no pty at all (``ssh host text``), in English and in Russian."""
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        client = await connect_text(server.port, key=new_key(), term=term,
                                    lang="ru_RU.UTF-8" if lang == "ru" else "en_US.UTF-8",
                                    command=None if term else "text")
        await play_one_deal(server, client, lang, "Anna")
        assert b"\x1b" not in client.raw, "no escape sequence, ever"
        if term is None:
            assert b"\r" not in client.raw  # no pty: plain LF lines
        await client.close()
        await until(lambda: not server.sessions, what="the session ends")
        assert not server.club.is_online("Anna")
        assert server.club.tables[1].seats[0] == "Anna"  # leaving keeps the seat
