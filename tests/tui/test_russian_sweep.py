"""A Russian session says nothing in English (issue 13, item 15).

Every screen of the club is rendered in a Russian session (Pilot, 80×24): the hall and its answers,
every game's table through random play with the questions a player asks, the watchers' shared
screen, and Ctrl+C. Any word of the English catalogue that is not also written in the Russian one
(commands like ``start`` are, on purpose) is a leak. Names, cards and numbers are allowed.
"""

from __future__ import annotations

import random
import re

import pytest
from screen import text, type_line

from engine.table.club import Club
from engine.games import registry
from tui.app import ClubApp
from tui.i18n import en
from tui.spectator import SpectatorApp

WORD = re.compile(r"[A-Za-z]{3,}")


def words(texts) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", t))}


ENGLISH = words(en.MESSAGES.values())
# Latin words a Russian screen may show on purpose: English command spellings the Russian help lists
# next to the Russian ones, key names, help topics, technical words (ssh-keygen, minPrice).
ALLOWED = {
    "admin", "balance", "buy", "cards", "ctrl", "discard", "end", "enter", "esc", "golets", "hall", "help",
    "history", "home", "keygen", "knock", "lang", "leave", "look", "minprice", "next", "pass", "pgdn", "pgup",
    "play", "quit", "replay", "rules", "russian", "say", "sit", "ssh", "stand", "start", "tab", "table",
    "tables", "watch", "who",
    "top", "rating", "league",  # the ratings verbs (лучшие, рейтинг, лига) as the Russian help names them
    "kitty",  # the help topic (помощь копилка) as help topics are listed
    "open", "stukolka", "variant", "v", "b", "g", "dark", "yes", "razrez", "seats",  # the house's open command, quoted
    "verify", "sukno",  # the verify command (проверить) and the program's name in `sukno verify FILE` (help fair)
}
PEOPLE = ["anna", "boris", "vera", "gleb", "dasha", "egor", "zhenya", "ilya", "kostya", "lida"]


def leaks(screen: str, names: list[str]) -> set[str]:
    """English words on the screen, leaving out names, game ids (``правила stukolka``) and the lines typed."""
    screen = "\n".join(row for row in screen.split("\n") if not row.startswith("> "))
    for name in sorted(names + [f"bot-{n}" for n in ("Mitya", "Vanya", "Sonya")] + list(registry()), key=len,
                       reverse=True):
        screen = screen.replace(name, " ")
    units = {"s"} if re.search(r"\d s\b", screen) else set()  # seconds written the English way
    return ({w.lower() for w in WORD.findall(screen)} & ENGLISH - ALLOWED) | units


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_the_hall_in_russian():
    club = Club([{"game": g} for g in sorted(registry())], seed=2)
    club.tables[1].sit("boris")
    app = ClubApp(club, "anna", lang="ru")
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        for line in ["осмотреться", "столы", "кто", "помощь", "помощь стол", "помощь карты", "счёт", "история",
                     "правила"] + [f"правила {g}" for g in sorted(registry())] + ["абракадабра", "сесть 99"]:
            await type_line(pilot, line)
            seen.append(text(app))
        await pilot.press("ctrl+c")
        await pilot.pause()
        seen.append(text(app))
    assert "Ctrl+C не выводит из клуба" in seen[-1]
    found = set().union(*(leaks(s, PEOPLE) for s in seen))
    assert not found, found


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("game_name", sorted(registry()))
async def test_every_game_in_russian(game_name):
    cls = registry()[game_name]
    rng = random.Random(5)
    club = Club([{"game": game_name, "seats": cls.max_players, "clock": 30}], seed=7)
    table = club.tables[1]
    now = [50.0]
    app = ClubApp(club, "anna", lang="ru", clock=lambda: now[0])
    names = ["anna"] + PEOPLE[1:cls.max_players]
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "сесть 1")
        for name in names[1:]:
            table.sit(name)
            club.enter(name)
            table.start(name, now=now[0])
        await type_line(pilot, "начать")
        game = table.game
        table.away("boris", now[0])  # a stand-in: told in Russian too
        now[0] += 31  # the first turn's clock runs out: "the club makes the move", in Russian
        for _ in range(50):
            deadline = club.next_deadline()
            if deadline is None or deadline > now[0]:
                break
            club.tick(now[0])
        await pilot.pause()
        seen.append(text(app))
        assert any(w in seen[-1] for w in ("ход делает клуб", "за столом; пока")), (game_name, seen[-1])
        asks = ["осмотреться", "стол", "рука", "взятка", "последняя", "кон", "очки", "время", "помощь", "стук 7"]
        for step in range(80):
            if game is None or not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            action = rng.choice(game.legal_actions(seat))
            if seat == 0 and step % 3 == 0:
                await type_line(pilot, "абв")  # a refusal
            table.act(game.names[seat], action.text(), now=now[0])
            await pilot.pause()
            seen.append(text(app))
            if step % 7 == 0:
                await type_line(pilot, asks[(step // 7) % len(asks)])
                seen.append(text(app))
        await type_line(pilot, "журнал 30")
        seen.append(text(app))
    found = set().union(*(leaks(s, names) for s in seen))
    assert not found, (game_name, found)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("game_name", sorted(registry()))
async def test_the_watchers_screen_in_russian(game_name):
    cls = registry()[game_name]
    club = Club([{"game": game_name, "seats": cls.max_players}], seed=3)
    table = club.tables[1]
    names = PEOPLE[:cls.max_players]
    for name in names:
        table.sit(name)
        club.enter(name)
        table.start(name)
    app = SpectatorApp(club, 1, lang="ru")
    rng = random.Random(1)
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(30):
            game = table.game
            if game is None or not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            table.act(game.names[seat], rng.choice(game.legal_actions(seat)).text())
            await pilot.pause()
            seen.append(text(app))
    found = set().union(*(leaks(s, names) for s in seen))
    assert not found, (game_name, found)
