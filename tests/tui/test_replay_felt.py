"""The replay on the felt (issue 21 item 1): a record stepped through on the live table's felt, 80x24.

``sukno replay FILE --screen`` is ``tui.replay_app.ReplayApp``; ``replay ID`` in the club pushes the same
``ReplayScreen``.  Every hand is face up, the trick lies on the felt, the money is written after each deal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from engine.record import load_record
from engine.store.sqlite import SqliteStore
from tui.app import ClubApp
from tui.i18n import money
from tui.replay_app import ReplayApp
from tui.screens.replay import ReplayScreen

RECORDS = Path(__file__).parents[1] / "records"


def signed(amount: int, lang: str = "en") -> str:
    return ("+" if amount > 0 else "") + money(amount, lang)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_stukolka_d1_steps_to_its_last_action_and_shows_the_right_money() -> None:
    record = load_record(RECORDS / "stukolka_D1.json")
    expected = json.loads((RECORDS / "stukolka_D1.expected.json").read_text())
    app = ReplayApp(record, "D1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = text(app)
        assert "Record D1 · Stukolka · deal 1/1 · move 0/17 · pot 30 k." in screen
        assert "trump" in screen and "9♥" in screen  # the felt: the turned-up trump
        for name, hand in zip(record.players, app.screen.frames[0].dealt):  # every hand face up
            assert f" {name} " + " ".join(c.text() for c in hand) in screen
        await pilot.press("end")
        screen = text(app)
        assert "move 17/17" in screen and f"pot {money(expected['pot'], 'en')}" in screen
        line = "After deal 1 of 1: " + " · ".join(f"{n} {signed(v)}" for n, v in expected["balances"].items())
        assert line in screen
        felt = "\n".join(rows(app)[1:11])
        for name, value in expected["balances"].items():  # and beside each seat on the felt
            assert f"{name}  {money(value, 'en')}" in felt
        assert "The deal is settled; the pot now holds 90 k." in screen  # the step's own story
        assert all(len(row) <= 80 for row in rows(app))
        await pilot.press("home")
        assert "move 0/17" in text(app)
        await pilot.press("n", "n")
        assert "move 2/17" in text(app)
        await pilot.press("p")
        assert "move 1/17" in text(app)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code in (0, None)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_trick_lies_on_the_felt_as_it_falls_and_the_step_is_told_below() -> None:
    record = load_record(RECORDS / "stukolka_D1.json")
    app = ReplayApp(record, "D1")
    async with app.run_test(size=(80, 24)) as pilot:
        frames = app.screen.frames
        played = next(i for i, f in enumerate(frames) if f.view.get("trick"))
        for _ in range(played):
            await pilot.press("right")
        seat, card = frames[played].view["trick"][-1]
        felt = "\n".join(rows(app)[1:11])
        assert card.text() in felt and "┌───┐" in felt  # drawn as a card box on the felt
        assert f"{record.players[seat]} plays {card.text()}." in "\n".join(rows(app)[11:])
        taken = next(i for i in range(played, len(frames)) if not frames[i].view.get("trick") and i > played)
        for _ in range(taken - played):
            await pilot.press("right")
        assert card.text() in "\n".join(rows(app)[1:11])  # a trick just taken stays whole on the felt


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_number_jumps_to_a_deal_and_bad_numbers_say_why() -> None:
    record = load_record(RECORDS / "french3_B2.json")  # ten deals: "1" waits for a second digit
    app = ReplayApp(record, "B2", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        assert "сдача 10/10" in text(app)
        await pilot.press("3")
        await pilot.pause()
        assert "сдача 3/10" in text(app) and "ход 0/" in text(app)
        await pilot.press("1")
        assert "К сдаче 1… (Enter)" in text(app)
        await pilot.press("0")
        assert "сдача 10/10 · ход 0/" in text(app)
        await pilot.press("1", "enter")
        assert "сдача 1/10 · ход 0/" in text(app)
        await pilot.press("1", "2")
        assert "Сдачи 12 нет; в этой записи их 10." in text(app) and "сдача 1/10" in text(app)
        assert all(len(row) <= 80 for row in rows(app))


@pytest.fixture
def kept(tmp_path):
    """A club with a store and one finished sealed Стуколка deal."""
    store = SqliteStore(tmp_path / "sukno.db")
    names = ("anna", "boris", "vera", "gleb")
    for name in names:
        store.create_account(name, grant=5000)
    club = Club([{"game": "stukolka"}], store=store, now=0.0)
    table = club.tables[1]
    for name in names:
        table.sit(name)
    for name in names:
        table.start(name, now=0.0)
    rng = random.Random(2)
    while table.in_deal():
        seat = table.game.to_act()[0]
        table.act(table.game.names[seat], rng.choice(table.game.legal_actions(seat)).text(), now=0.0)
    table.stand("anna")
    yield club, store
    store.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_replay_id_in_the_club_draws_the_felt_with_every_hand_and_the_seal(kept, lang: str) -> None:
    club, store = kept
    info = store.history("vera", 1)[0]
    record = store.get_record(info.id)
    fair = record.deals[0].fair
    assert fair is not None
    app = ClubApp(club, "vera", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"replay {info.id}" if lang == "en" else f"повтор {info.id}")
        assert isinstance(app.screen, ReplayScreen)
        screen = text(app)
        for name, hand in zip(record.players, app.screen.frames[0].dealt):  # not only vera's own
            assert " ".join(c.text() for c in hand) in screen
        assert fair["seal"][:16] in screen and fair["seed"][:16] in screen
        assert ("Sealed deal" if lang == "en" else "Сдача запечатана") in screen
        await pilot.press("end")
        last = app.screen.frames[-1]
        word = "After deal 1 of 1" if lang == "en" else "После сдачи 1 из 1"
        assert word in text(app)
        assert all(money(b, lang).lstrip("-") in text(app) for b in last.balances)
        assert all(len(row) <= 80 for row in rows(app))
        await pilot.press("escape")
        assert not isinstance(app.screen, ReplayScreen)


def test_replay_screen_refuses_a_record_the_rules_refuse_in_one_line(tmp_path, capsys) -> None:
    from net.cli.main import main

    data = json.loads((RECORDS / "stukolka_D1.json").read_text())
    data["deals"][0]["actions"][0] = data["deals"][0]["actions"][0].split(":")[0] + ": fly away"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path), "--screen"]) == 2
    err = capsys.readouterr().err
    assert "cannot be replayed" in err and "Traceback" not in err and len(err.splitlines()) == 1


async def test_an_analysed_replay_marks_each_judged_action_at_80x24() -> None:
    """``sukno replay FILE --screen --analyse``: at an action the search bot judged, its mark and its choice."""
    from engine.analysis import analyse

    record = load_record(RECORDS / "stukolka_D1.json")
    analysis = analyse(record, budget=16).to_json()
    marked = next(d for d in analysis["decisions"] if d["mark"])
    app = ReplayApp(record, "D1", analysis=analysis)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(marked["index"]):
            await pilot.press("n")
        screen = text(app)
        assert f"move {marked['index']}/17" in screen
        assert f"{marked['name']} played {marked['made']}; {marked['best']} was better by" in screen
        assert all(len(row) <= 80 for row in rows(app))
        await pilot.press("n")
        if (1, marked["index"] + 1) not in {(d["deal"], d["index"]) for d in analysis["decisions"]}:
            assert "was better by" not in text(app)
