"""Issue 13 items 7 and 9: the "You may" line names every choice and says why a rule narrows it; buying.

Read off the screen at 80×24 (Textual Pilot), in English and in Russian.
"""

from __future__ import annotations

import pytest
from screen import rows, text, type_line

from engine.table.club import Club
from tui.app import ClubApp


def flat(app: ClubApp) -> str:
    return " ".join(text(app).split())


def hint_row(app: ClubApp) -> str:
    return next(row for row in reversed(rows(app)) if row.strip())


async def french3_exchange(pilot, club: Club) -> None:
    """Seed 232 (the table's repeatable sealed seeds): anna is the eldest, the first to buy; her lowest are 3♦ 4♣."""
    await type_line(pilot, "sit 1")
    table = club.tables[1]
    for name in ("boris", "vera"):
        table.sit(name)
        table.start(name)
    await type_line(pilot, "start")
    assert table.game.to_act() == (0,) and table.game.phase == "exchange"


@pytest.mark.parametrize("lang,hint,ask,kept", [
    ("en", "You may: buy 0 keeps all · buy + up to 12 cards to give (buy 3♦ 4♣)",
     "Which cards do you give? Type buy and up to 12 cards of your hand, e.g. buy 3♦ 4♣; buy 0 keeps your hand.",
     "You keep your hand: no card bought."),
    ("ru", "Можно: купить 0 — оставить всё · купить + до 12 карт на сброс (купить 3♦ 4♣)",
     "Какие карты отдаёте? Наберите купить и до 12 карт из руки, например купить 3♦ 4♣; купить 0 — оставить свои карты.",
     "Вы оставляете свои карты: ничего не прикуплено."),
])
async def test_the_three_handers_buy_names_the_cards_and_bare_buy_asks(lang, hint, ask, kept):
    club = Club([{"game": "french3", "clock": 0}], seed=232)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await french3_exchange(pilot, club)
        game = club.tables[1].game
        assert hint_row(app).strip() == hint
        await type_line(pilot, "buy" if lang == "en" else "купить")
        assert ask in flat(app)
        assert game.to_act() == (0,) and game.bought[0] is None  # nothing was bought
        await type_line(pilot, "buy 0" if lang == "en" else "купить 0")
        assert kept in flat(app)
        assert game.bought[0] == 0 and game.to_act() == (1,)


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_the_buyer_learns_which_cards_came_in_and_nobody_else_does():
    club = Club([{"game": "french3", "clock": 0}], seed=232)
    app = ClubApp(club, "anna")
    async with app.run_test(size=(80, 24)) as pilot:
        await french3_exchange(pilot, club)
        game = club.tables[1].game
        coming = list(game.widow[:2])
        await type_line(pilot, "buy 3d 4c")
        got = " ".join(c.text() for c in sorted(coming))
        line = next(row for row in rows(app) if row.startswith("You gave"))
        assert {"3♦", "4♣"} <= set(line.split()) and all(c.text() in line for c in coming), (line, got)
        public = " ".join(str(e.event.data) for e in club.tables[1].log_since(0))
        assert not any(str(c) in public for c in coming)  # the log tells a count, not the cards


async def to_follow(pilot, club: Club) -> None:
    """French three-hander, seed 232, everyone stands pat; play until anna follows with a narrowed choice."""
    table = club.tables[1]
    game = table.game
    for _ in range(200):
        seat = game.to_act()[0]
        if game.phase == "play" and seat == 0 and game.trick:
            legal = {a.args[0] for a in game.legal_actions(0)}
            if legal != set(game.hands[0]):
                break
        action = "buy" if game.phase == "exchange" else game.legal_actions(seat)[0].text()
        table.act(game.names[seat], action)
    await pilot.pause()


@pytest.mark.parametrize("lang,reason", [("en", "— you must follow {suit} (R20)"),
                                         ("ru", "— нужно ходить в масть {suit} (R20)")])
async def test_the_hint_says_why_the_cards_are_narrowed_before_any_refusal(lang, reason):
    club = Club([{"game": "french3", "clock": 0}], seed=232)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await french3_exchange(pilot, club)
        await to_follow(pilot, club)
        game = club.tables[1].game
        led = game.trick[0][1].suit
        legal = [a.args[0] for a in game.legal_actions(0)]
        row = hint_row(app)
        if any(c.suit == led for c in game.hands[0]):
            assert reason.format(suit=led.text()) in row, row
        else:
            assert "(R20)" in row, row
        assert all(c.text() in row for c in legal)


@pytest.mark.parametrize("lang,bid", [("en", "bid N — a price from 1 k."),
                                      ("ru", "даю N — цена от 1 к.")])
async def test_a_price_is_said_in_words(lang, bid):
    club = Club([{"game": "speculator", "clock": 0}], seed=3)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        for _ in range(30):
            if any(a.verb == "bid" for a in game.legal_actions(0)):
                break
            seat = game.to_act()[0]
            table.act(game.names[seat], "reveal" if game.phase == "reveal" else "ready")
        await pilot.pause()
        assert bid in hint_row(app)
        assert "N≥" not in text(app)


@pytest.mark.parametrize("lang,word,words", [
    ("en", "golets", "instead of knocking, take the golets, a blind spare hand"),
    ("en", "take", "take the face-down card at place N of the giver's row (R7)"),
    ("en", "buy", "buy 0 keeps your hand"),
    ("en", "sell", "offer the best card, which you hold, for sale"),
    ("ru", "голец", "вместо стука взять гольца, запасную закрытую руку"),
    ("ru", "взять", "возьмите закрытую карту с места N в ряду отдающего (R7)"),
    ("ru", "купить", "купить 0 оставляет ваши карты"),
    ("ru", "продаю", "выставить на продажу старшую карту"),
])
async def test_help_explains_the_games_own_words(fake_game, lang, word, words):
    club = Club([{"game": "highcard"}], seed=1)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"{'help' if lang == 'en' else 'помощь'} {word}")
        assert words in flat(app)


@pytest.mark.parametrize("lang,listed", [("en", "Speculator: reveal, sell, bid, accept, ready."),
                                         ("ru", "Спекулянт: вскрыть, продаю, даю, принять, готов.")])
async def test_the_tables_help_lists_this_games_verbs_only(lang, listed):
    club = Club([{"game": "speculator", "clock": 0}], seed=1)
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        await type_line(pilot, "help")
        screen = flat(app)
        assert listed in screen
        for other in ("knock", "golets", "discard", "стук", "голец", "снести"):
            assert other not in screen.split(listed.split(":")[0] + ":")[-1]


@pytest.mark.parametrize("lang,partner,records,order", [
    ("en", "Your partner is vera, opposite you: team A (anna and vera) against team B (boris and gleb).",
     "to 0: A 12 · B 12 (you A)", "Trumps, high to low: 6♣ J♣ J♠ J♥ J♦ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣"),
    ("ru", "Ваш партнёр — vera, напротив вас: команда A (anna и vera) против команды B (boris и gleb).",
     "до 0: A 12 · B 12 (вы A)", "Козыри, от старшего: 6♣ J♣ J♠ J♥ J♦ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣"),
])
async def test_the_pairs_game_says_who_your_partner_is_and_what_the_score_means(lang, partner, records, order):
    club = Club([{"game": "ukr_pairs", "clock": 0}], seed=2)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera", "gleb"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        await pilot.pause()
        screen = flat(app)
        assert partner in screen
        assert records in screen
        for _ in range(40):  # to anna's turn with a trick led: she follows (the cards listed) or leads (any card)
            if game.to_act() == (0,) and game.trick:
                break
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        row = hint_row(app)
        legal = [a.args[0] for a in game.legal_actions(0)]
        if set(legal) == set(game.hands[0]):
            assert ("play any card" if lang == "en" else "ход любой картой") in row, row
        else:
            assert "…" not in row and all(c.text() in row for c in legal), row
        await type_line(pilot, "rules ukr_pairs" if lang == "en" else "правила ukr_pairs")
        assert order in " ".join(app.screen.log_view.plain().split())  # longer than the table's log rows at 80×24
        await type_line(pilot, "leave")
        await type_line(pilot, "rules ukr_pairs" if lang == "en" else "правила ukr_pairs")
        assert order in flat(app)  # the hall shows it whole


@pytest.mark.parametrize("lang,why", [("en", "— you lead: a lead cannot pass or draw"),
                                      ("ru", "— вы ходите первым: первый ход не пасует и не тянет")])
async def test_a_barred_verb_is_explained_in_the_hint(lang, why):
    """Копилка: the one who leads may play any card but not pass or draw (the hint says so before a refusal)."""
    club = Club([{"game": "kopilka", "clock": 0}], seed=1)
    table = club.tables[1]
    app = ClubApp(club, "anna", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "sit 1")
        for name in ("boris", "vera", "gleb"):
            table.sit(name)
            table.start(name)
        await type_line(pilot, "start")
        game = table.game
        for _ in range(200):
            if game.phase == "play" and game.to_act() == (0,) and not game.trick:
                break
            seat = game.to_act()[0]
            table.act(game.names[seat], game.legal_actions(seat)[0].text())
        await pilot.pause()
        assert game.phase == "play" and not game.trick
        assert hint_row(app).rstrip().endswith(why), hint_row(app)


async def test_the_forced_dealer_is_told_why_he_cannot_pass():
    """Стуколка: one player knocks, the rest pass; the dealer's hint says he must play (R39)."""
    club = Club([{"game": "stukolka", "clock": 0}], seed=4)
    table = club.tables[1]
    names = ["anna", "boris", "vera", "gleb"]
    for name in names:
        table.sit(name)
        table.start(name)
    game = table.game
    dealer = game.names[game.dealer]
    knocked = False
    for _ in range(10):
        seat = game.to_act()[0]
        if game.names[seat] == dealer:
            break
        verb = "pass" if knocked else "knock"
        knocked = True
        table.act(game.names[seat], verb)
    app = ClubApp(club, dealer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert game.to_act() == (game.dealer,)
        assert all(a.verb != "pass" for a in game.legal_actions(game.dealer))
        assert hint_row(app).rstrip().endswith("— one player is in: the dealer must play (R39)")


@pytest.mark.parametrize("game_name", ["french3", "kopilka", "speculator", "stukolka", "ukr_pairs"])
def test_every_hint_fits_the_hint_row_at_80_columns(game_name):
    """Random deals: the whole "You may" line, reason included, in both languages, is at most 78 cells."""
    import random

    from tui.hints import prompt

    rng = random.Random(1)
    for seed in range(6):
        club = Club([{"game": game_name, "clock": 0}], seed=seed)
        table = club.tables[1]
        names = [f"p{i}" for i in range(len(table.seats))]
        for name in names:
            table.sit(name)
            table.start(name)
        game = table.game
        for _ in range(200):
            if not game.in_deal:
                break
            seat = rng.choice(game.to_act())
            legal = game.legal_actions(seat)
            if not legal:
                break
            for lang in ("en", "ru"):
                line = prompt(table, names[seat], table.view_for(names[seat]), legal, lang, False)
                assert len(line) <= 78, line
            table.act(names[seat], rng.choice(legal).text())
