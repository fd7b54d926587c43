"""A Russian-speaking newcomer's money and the 80×24 screen over real SSH (asyncssh with a pty, read through
pyte): the bid capped by exact club money, the Копилка kitty when a player leaves, the hint row that keeps
the words to type whole, and the deal's result not pushed out of the log by the seal lines."""

from __future__ import annotations

import random
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pytest
from sshclient import connect, make_config, new_key, running, until

from engine.store.sqlite import SqliteStore
from engine.table.club import Club

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]  # a server, a pty

RU = "ru_RU.UTF-8"


def flat(screen: str) -> str:
    return " ".join(screen.split())


@asynccontextmanager
async def serving(tmp_path, table: dict[str, Any], seed: int) -> AsyncIterator[Any]:
    """A real server whose one table deals from repeatable seeds: every run meets the same cards."""
    config = make_config(tmp_path / "data", tables=[table])
    store = SqliteStore(tmp_path / "sukno.db")
    club = Club(config.tables, store=store, now=time.monotonic(), seed=seed)
    try:
        async with running(config, store=store, club=club) as server:
            yield server
    finally:
        store.close()


async def sit_down(client, table) -> None:
    """He types ``сесть 1`` and waits for his table's screen (its header) before anything happens there."""
    client.line("сесть 1")
    await client.wait(f"Стол {table.id} · ", timeout=20)
    await until(lambda: "Аня" in table.seats, what="Аня seated")


def seat_others(server, names: tuple[str, ...]) -> None:
    """People who are not connected take the other seats (their moves are made through the club)."""
    for name in names:
        server.store.create_account(name, grant=server.config.grant)
        server.club.tables[1].sit(name)


async def russian(server, name: str):
    """A Russian newcomer who gives his name and is in the hall."""
    client = await connect(server.port, key=new_key(), lang=RU)
    await client.wait("книгу имён", timeout=20)
    client.line(name)
    await client.wait(f"{name} ·", timeout=20)
    return client


async def test_a_bid_over_exact_club_money_is_refused_with_the_rule_and_the_most_he_may_bid(tmp_path):
    async with serving(tmp_path, {"game": "speculator", "options": {"s": 35, "W": 600, "Wmax": 1200},
                                  "clock": 0}, seed=3) as server:
        anna = await russian(server, "Аня")
        table = server.club.tables[1]
        await sit_down(anna, table)
        seat_others(server, ("Борис", "Вера"))
        for name in table.seated():
            table.start(name, now=time.monotonic())
        game = table.game
        while not (game.window_open and game.names[game.holder] != "Аня"):
            if game.phase == "reveal":
                table.act(game.names[game.revealer], "reveal", now=time.monotonic())
            else:
                seat = next(s for s in game.to_act() if any(a.verb == "ready" for a in game.legal_actions(s)))
                table.act(game.names[seat], "ready", now=time.monotonic())
        assert server.store.balance("Аня") == server.config.grant - 35  # 99 р. 65 к.
        anna.line("даю 1000000")
        screen = await anna.wait(lambda s: "Самое большее" in flat(s), timeout=20)
        assert ("На вашем счёте в клубе 99 р. 65 к.; ставка 10000 р. обещала бы деньги, которых у вас нет "
                "(R5, R64). Самое большее — даю 9965 (99 р. 65 к.).") in flat(screen), screen
        assert game.bids == {}
        anna.line("даю 9965")
        await anna.wait(lambda s: "Аня даёт 99 р. 65 к." in flat(s), timeout=20)
        assert game.bids == {0: 9965}
        await anna.close()


def play_deal(table, rng: random.Random, stop=lambda game, seat, legal: False) -> bool:
    """Everyone seated starts and the deal is played with random legal moves; True if ``stop`` held first."""
    for name in table.seated():
        table.start(name, now=time.monotonic())
    game = table.game
    while game.in_deal:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if stop(game, seat, legal):
            return True
        table.act(game.names[seat], rng.choice(legal).text(), now=time.monotonic())
    return False


async def test_a_player_who_gives_up_his_seat_mid_partiya_has_the_kitty_paid_out_to_the_kopeck(tmp_path):
    async with serving(tmp_path, {"game": "kopilka", "clock": 0}, seed=7) as server:
        anna = await russian(server, "Аня")
        table = server.club.tables[1]
        await sit_down(anna, table)
        seat_others(server, ("Борис", "Вера", "Глеб"))
        rng = random.Random(2)
        for _ in range(2):  # two deals of the partiya's four
            play_deal(table, rng)
        kitty = table.pot
        assert kitty >= 100
        table.stand("Вера")  # between deals: she gives up her seat, Аня stays and reads what follows
        said = f"копилка ({kitty // 100} р. {kitty % 100} к.) выплачивается сейчас (R16)"
        anna.line("журнал 12")
        await anna.wait("назад на", timeout=20)  # the log is scrolled back to its 12th newest line
        for _ in range(12):  # read on a page at a time (PgDn) until the sentence is on the screen, whole
            screen = anna.text()
            if said in flat(screen):
                break
            anna.type("\x1b[6~")
            await anna.wait(lambda now, before=screen: now != before, timeout=20)
        assert said in flat(screen), screen
        assert table.pot == 0 and table.carried_pot == 0
        balances = [server.store.balance(name) for name in ("Аня", "Борис", "Вера", "Глеб")]
        assert sum(balances) == 4 * server.config.grant, balances  # every kopeck of the kitty paid out
        await anna.close()


async def test_the_hint_row_at_80_by_24_keeps_the_words_to_type_whole(tmp_path):
    async with serving(tmp_path, {"game": "kopilka", "clock": 0}, seed=5) as server:
        anna = await russian(server, "Аня")
        table = server.club.tables[1]
        await sit_down(anna, table)
        seat_others(server, ("Борис", "Вера", "Глеб"))
        rng = random.Random(2)
        takes = lambda game, seat, legal: game.names[seat] == "Аня" and any(a.verb == "take" for a in legal)
        assert any(play_deal(table, rng, takes) for _ in range(8)), "Аня never takes in eight deals"
        game = table.game
        places = [a.args[0] for a in game.legal_actions(0) if a.verb == "take"]
        giver = game.names[game.view(0)["taking_from"]] if "taking_from" in game.view(0) else None
        screen = await anna.wait(lambda s: s.splitlines()[-1].strip().startswith("взять"), timeout=20)
        hint = screen.splitlines()[-1].strip()
        assert hint.startswith(f"взять {places[0]}–{places[-1]} — одну из {len(places)} закрытых карт игрока"), hint
        assert "…" not in hint and (giver is None or hint.endswith(giver)), hint
        await anna.close()


async def test_the_deals_result_is_the_last_line_of_the_log_after_the_seal_lines(tmp_path):
    async with serving(tmp_path, {"game": "stukolka", "clock": 0}, seed=4) as server:
        anna = await russian(server, "Аня")
        table = server.club.tables[1]
        await sit_down(anna, table)
        seat_others(server, ("Борис", "Вера", "Глеб"))
        play_deal(table, random.Random(2))
        balances = table.game.balances
        result = "Сдача окончена. " + ", ".join(
            f"{name}: {money_ru(balance)}" for name, balance in zip(table.game.names, balances))
        screen = await anna.wait(lambda s: "Сдача окончена." in s, timeout=20)
        log_rows = screen.splitlines()[screen.splitlines().index("─" * 80) + 1:-1]
        told = flat(" ".join(log_rows))
        assert told.endswith(result), screen  # the last line of the log: the seal lines come before it
        assert "Следующая сдача запечатана" in told and told.index("запечатана") < told.index(result), screen
        anna.line("журнал 3")  # the seed shown, the next seal, the result: the seed's line on top
        screen = await anna.wait(lambda s: "назад на" in s, timeout=20)
        assert "Печать вскрыта" in flat(screen), screen
        await anna.close()


def money_ru(amount: int) -> str:
    sign, amount = ("-" if amount < 0 else ""), abs(amount)
    rub, kop = divmod(amount, 100)
    return sign + " ".join(part for part in (f"{rub} р." if rub else "", f"{kop} к." if kop or not rub else "") if part)


async def test_who_gives_up_his_seat_mid_partiya_reads_where_the_kitty_went_in_the_hall(tmp_path):
    async with serving(tmp_path, {"game": "kopilka", "clock": 0}, seed=7) as server:
        anna = await russian(server, "Аня")
        table = server.club.tables[1]
        await sit_down(anna, table)
        seat_others(server, ("Борис", "Вера", "Глеб"))
        rng = random.Random(2)
        for _ in range(2):
            play_deal(table, rng)
        kitty = table.pot
        anna.line("встать")
        screen = await anna.wait(lambda s: "Вы встаёте из-за стола 1." in s and "Зал клуба" in s, timeout=20)
        said = f"копилка ({kitty // 100} р. {kitty % 100} к.) выплачивается сейчас (R16)"
        assert said in flat(screen), screen
        assert "Аня получает" in flat(screen) and "Игра окончена." in flat(screen), screen
        await anna.close()
