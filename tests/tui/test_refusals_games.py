"""Refusals of Копилка, the French three-hander, Ukrainian pairs and Спекулянт reach the player by key.

Scripted deals (the worked-example records of ``tests/records`` and hand-built deck orders) drive
each game into refusals whose Russian text is checked word for word, with an ASCII-notation case
each.  A sweep then plays every registered game at random and, before every move, tries the
illegal actions of the verbs at hand (every card not playable, places, prices, names) and of the
verbs not at hand, from the seat to act and from a seat that waits: every refusal must carry a key
that both catalogues know, and its Russian text must have every blank filled.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

import pytest

from engine.cards import Card, deck, parse_card
from engine.game import Action, Game, GivenDecks, IllegalAction, ShuffledDecks
from engine.games import registry
from engine.games.french3 import French3
from engine.games.kopilka import Kopilka
from engine.games.speculator import SPECULATOR, Speculator
from engine.record import Record, RecordDeal, load_record, rebuild
from tui.i18n import en, ru
from tui.refusals import explain

RECORDS = Path(__file__).resolve().parent.parent / "records"
CONVERTED = ("kopilka.", "french3.", "ukr_pairs.", "speculator.")
"""Key prefixes of the games converted here: their English catalogue text is the engine's message."""


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def refusal(game: Game, seat: int | str, text: str) -> IllegalAction:
    """The refusal of ``text`` by ``seat`` (a number or a player's name)."""
    if isinstance(seat, str):
        seat = game.names.index(seat)
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, text)
    assert explain(err.value, "en") == err.value.message  # the English entry is the engine's text
    return err.value


def from_record(name: str, actions: int) -> Game:
    """The first deal of a worked example, rebuilt after its first ``actions`` actions."""
    record = load_record(RECORDS / f"{name}.json")
    first = record.deals[0]
    cut = Record(record.game, record.players, record.options, record.dealer, record.pot,
                 [RecordDeal(first.decks, list(first.actions[:actions]))])
    return rebuild(cut)


def act(game: Game, *lines: str) -> None:
    for line in lines:
        name, _, text = line.partition(":")
        game.apply(game.names.index(name.strip()), text.strip())


# --- Копилка ------------------------------------------------------------------------------


def test_kopilka_must_follow_and_the_void_players_choices_in_russian() -> None:
    """R10 and R9/R11 (A1: K♥ led, P0 has no heart): the choices are told in Russian verbs."""
    game = from_record("kopilka_A1", 0)
    act(game, "P1: play K♥")
    err = refusal(game, "P2", "pass")
    assert err.key == "kopilka.follow"
    assert explain(err, "ru") == "У вас есть ♥, нужно положить карту этой масти (R10)."
    assert explain(err, "ru", ascii=True) == "У вас есть H, нужно положить карту этой масти (R10)."
    act(game, "P2: play 7♥", "P3: play A♥")
    err = refusal(game, "P0", "play J♣")
    assert err.key == "kopilka.void"
    assert err.message == ("You have no hearts and a card of another suit cannot be played; "
                           "you may draw or pass (R9, R11).")
    assert explain(err, "ru") == "У вас нет ♥, а карта другой масти не сносится; можно: тянуть или пас (R9, R11)."


def test_kopilka_winner_leads_another_suit_and_cards_not_held() -> None:
    """R13 in Russian and ASCII; a card not in hand."""
    game = from_record("kopilka_A1", 0)
    act(game, "P1: play K♥", "P2: play 7♥", "P3: play A♥", "P0: draw", "P0: draw", "P0: play J♥")
    act(game, "P3: play 7♦", "P0: play Q♦", "P1: play 8♦", "P2: play 9♦")
    err = refusal(game, "P0", "play A♦")
    assert err.key == "kopilka.lead_other"
    assert explain(err, "ru") == (
        "Вы взяли последнюю взятку в масти ♦: взявший взятку обязан ходить с другой масти, "
        "пока она у него есть (R13)."
    )
    assert explain(err, "en", ascii=True) == (
        "You won the last trick, led in diamonds: lead another suit while you hold one (R13)."
    )
    missing = next(c for c in deck(32) if c not in game.hands[0])
    err = refusal(game, "P0", f"play {missing}")
    assert err.key == "kopilka.not_held" and err.message == f"You do not hold the {missing}."
    assert explain(err, "ru", ascii=True) == f"У вас нет {missing.text(ascii=True)}."


KOPILKA_FOUR_HEARTS = {  # P1 gives four hearts; P2, P3, P0 take one each (R7)
    1: "7♥ 8♥ 9♥ 10♥ A♣",
    2: "A♠ 7♣ 8♦ 9♠ J♦",
    3: "K♠ 8♣ 9♦ J♣ Q♦",
    0: "Q♠ 9♣ 10♦ J♥ K♦",
}
KOPILKA_STOCK = "7♠ 8♠ 10♠ J♠ 10♣ Q♣ K♣ 7♦ A♦ Q♥ K♥ A♥"


def kopilka_exchange() -> Kopilka:
    dealt = {seat: cards(text) for seat, text in KOPILKA_FOUR_HEARTS.items()}
    order = [dealt[(1 + k) % 4][i] for i in range(5) for k in range(4)] + cards(KOPILKA_STOCK)
    game = Kopilka(["P0", "P1", "P2", "P3"], {"D": 0})
    game.start_deal(GivenDecks([order]))
    return game


def test_kopilka_exchange_refusals_in_russian() -> None:
    """R7, R8: take before anything else, only a laid-out place, then the discards."""
    game = kopilka_exchange()
    err = refusal(game, "P2", "play A♠")
    assert err.key == "kopilka.take_first"
    assert explain(err, "ru") == (
        "Сначала возьмите одну из карт, выложенных игроком P1 рубашкой вверх: «взять N», где N — одно из мест 1, 2, 3, 4 (R7)."
    )
    err = refusal(game, "P2", "take 5")
    assert err.key == "kopilka.no_place"
    assert explain(err, "ru") == "В ряду игрока P1 — 4 места; возьмите карту с одного из мест 1, 2, 3, 4."
    act(game, "P2: take 2")
    err = refusal(game, "P3", "take 2")
    assert err.key == "kopilka.place_taken"
    assert explain(err, "ru") == "С места 2 в ряду игрока P1 карту уже взяли; возьмите с одного из мест 1, 3, 4."
    act(game, "P3: take 1", "P0: take 4")
    err = refusal(game, "P2", "play A♠")
    assert err.key == "kopilka.discard_first"
    assert explain(err, "ru") == "Сначала снесите одну карту — за ту, что взяли (R8): наберите «снести» и карту."


# --- the French three-hander ----------------------------------------------------------------


def suit_run(suit: str, ranks: str = "A K Q J 10 9 8 7 6 5 4 3") -> list[Card]:
    return [parse_card(rank + suit) for rank in ranks.split()]


def french3(e: list[Card], m: list[Card], d: list[Card], widow: list[Card]) -> French3:
    """Deal 1 (trumps ♠), seat 0 dealing: E = seat 1, M = seat 2, D = seat 0; packets of 3 (R18)."""
    order = [c for r in range(4) for pile in (e, m, d, widow) for c in pile[3 * r:3 * r + 3]]
    game = French3(["C", "A", "B"])
    game.start_deal(GivenDecks([order]))
    return game


def test_french3_exchange_refusals_in_russian() -> None:
    """R19: cards not held, named twice, play before the exchange, the widow running out."""
    game = french3(suit_run("♥"), suit_run("♠"), suit_run("♦"), suit_run("♣"))
    err = refusal(game, 1, "buy A♠")
    assert err.key == "french3.discard_not_held"
    assert explain(err, "ru") == "У вас нет A♠; сносить можно только карты своей руки."
    assert explain(err, "ru", ascii=True) == "У вас нет AS; сносить можно только карты своей руки."
    err = refusal(game, 1, "buy A♥ A♥")
    assert err.key == "french3.named_twice" and explain(err, "ru") == "Вы назвали A♥ дважды."
    err = refusal(game, 1, "play A♥")
    assert err.key == "french3.exchange_first"
    assert explain(err, "ru") == (
        "Сначала прикупка: наберите «прикуп» и карты, которые сносите, или просто «прикуп» (R19)."
    )
    game.apply(1, "buy " + " ".join(str(c) for c in suit_run("♥")[4:]))  # E takes 8 of the 12
    err = refusal(game, 2, "buy 3♠ 4♠ 5♠ 6♠ 7♠")
    assert err.key == "french3.widow_left"
    assert explain(err, "ru") == "Во вдовушке осталось 4 карты, так что обменять можно не больше 4 карт (R19)."
    game.apply(2, "buy 3♠ 4♠ 5♠")
    err = refusal(game, 0, "buy 3♦ 4♦")
    assert err.key == "french3.widow_one" and err.message == (
        "The widow has only 1 card left, so you may exchange at most 1 (R19)."
    )
    assert explain(err, "ru") == "Во вдовушке осталась одна карта, так что обменять можно не больше одной (R19)."
    game.apply(0, "buy 3♦")
    assert game.phase == "play"


def test_french3_follow_and_trump_in_russian_and_ascii() -> None:
    """§3.5 and R20: follow suit first; void, a trump (here ♠) must be played."""
    m = suit_run("♠", "K Q J 10 9 3") + suit_run("♦", "A K Q J 10 9")
    d = suit_run("♠", "A 8 7 6 5 4") + suit_run("♦", "8 7 6 5 4 3")
    game = french3(suit_run("♥"), m, d, suit_run("♣"))
    for seat in (1, 2, 0):
        game.apply(seat, "buy")
    game.apply(1, "play A♥")
    err = refusal(game, 2, "play A♦")
    assert err.key == "french3.trump"
    assert explain(err, "ru") == "У вас нет ♥, но есть козыри: нужно положить козырь ♠ (R20)."
    assert explain(err, "ru", ascii=True) == "У вас нет H, но есть козыри: нужно положить козырь S (R20)."
    game = from_record("french3_B1", 4)  # A led A♠; B holds spades
    err = refusal(game, "B", "play A♥")
    assert err.key == "french3.follow"
    assert explain(err, "ru") == "Ход в ♠, а у вас есть ♠: нужно ходить в масть (R20)."
    err = refusal(game, "B", "play 5♠")
    assert err.key == "refuse.not_held" and explain(err, "ru", ascii=True) == "У вас нет 5S."


# --- Ukrainian pairs ------------------------------------------------------------------------


def test_ukr_pairs_trump_lead_and_jacks_in_russian() -> None:
    """R26: a jack led is a trump lead; a jack never follows its printed suit."""
    game = from_record("ukr_pairs_C1", 9)  # P1 led J♠
    act(game, "P2: play 9♦")
    err = refusal(game, "P3", "play 9♠")
    assert err.key == "ukr_pairs.follow_trump"
    assert explain(err, "ru") == (
        "Ход с козыря (козыри — все валеты и все трефы, старшая — шестёрка треф, R26), "
        "а у вас есть козырь: кладите козырь."
    )
    game = from_record("ukr_pairs_C2", 11)  # a heart was led; P1 holds J♥ and hearts
    err = refusal(game, "P1", "play J♥")
    assert err.key == "ukr_pairs.jack_is_trump"
    assert explain(err, "ru") == "J♥ — козырь, а не ♥ (R26); у вас есть ♥, нужно ходить в масть ♥."
    assert explain(err, "ru", ascii=True) == "JH — козырь, а не H (R26); у вас есть H, нужно ходить в масть H."


def test_ukr_pairs_follow_suit_and_not_held_in_russian() -> None:
    """§4.4 on a plain suit; a card not in hand goes by the common key."""
    game = from_record("ukr_pairs_C2", 1)  # P2 led A♠
    err = refusal(game, "P3", "play 7♦")
    assert err.key == "ukr_pairs.follow"
    assert explain(err, "ru") == "Ход в ♠, а у вас есть ♠: нужно ходить в масть."
    assert explain(err, "en", ascii=True) == "S was led and you hold a S, so you must follow suit."
    err = refusal(game, "P3", "play A♣")
    assert err.key == "refuse.not_held" and explain(err, "ru") == "У вас нет A♣."


# --- Спекулянт ----------------------------------------------------------------------------------

NAMES4 = ["Anna", "Boris", "Vera", "Gleb"]


def speculator(piles: dict[int, str], *, live: bool = False, **options: int) -> Speculator:
    """Four players, seat 0 dealing; ``piles`` gives seats their cards in reveal order, others get the lowest."""
    wanted = {seat: cards(text) for seat, text in piles.items()}
    used = {c for pile in wanted.values() for c in pile}
    spare = [c for c in deck(36) if c not in used and c != SPECULATOR]
    full = {seat: wanted.get(seat) or [spare.pop(0) for _ in range(3)] for seat in range(4)}
    dealt = [full[(1 + i) % 4][i // 4] for i in range(12)]
    game = Speculator(NAMES4, {"s": 5, **options})
    if live:
        game.start_clock(100.0)
    game.start_deal(GivenDecks([dealt + [c for c in deck(36) if c not in dealt]]))
    return game


def test_speculator_turn_and_window_refusals_in_russian() -> None:
    """R61 (reveal in turn), R64 (no trading outside a window), §6.5 (no reveal in an open window)."""
    game = speculator({})
    err = refusal(game, "Vera", "reveal")
    assert err.key == "speculator.not_your_reveal"
    assert explain(err, "ru") == "Сейчас карту вскрывает Boris, а не вы (R61)."
    err = refusal(game, "Vera", "bid 5")
    assert err.key == "speculator.no_window"
    assert explain(err, "ru") == (
        "Торга сейчас нет: торгуются после вскрытия карты, пока окно торга открыто (R64). "
        "Теперь следующую карту вскрывает Boris."
    )
    game = speculator({}, live=True)
    act(game, "Boris: reveal")
    err = refusal(game, "Vera", "reveal")
    assert err.key == "speculator.window_open"
    assert explain(err, "ru") == (
        "Идёт торг: пока сделка ещё возможна, карту не вскрывают (R64). "
        "Торг закроется, когда выйдет время или все скажут «готов»."
    )
    act(game, "Vera: ready")
    err = refusal(game, "Vera", "ready")
    assert err.key == "speculator.ready_already"
    assert explain(err, "ru") == "Вы уже сказали «готов»; торг закроется, когда все будут готовы или выйдет время."


def test_speculator_trading_refusals_in_russian_and_ascii() -> None:
    """R63 (only the best card, not one's own), prices ≥ minPrice, accepting a standing bid."""
    game = speculator({1: "A♦ 7♥ Q♣", 2: "9♠ J♣ 6♣"}, minPrice=2)
    act(game, "Boris: reveal")
    err = refusal(game, "Boris", "bid 5")
    assert err.key == "speculator.own_card"
    assert explain(err, "ru") == "Старшая карта A♦ и так ваша; ставку за собственную карту не делают (R63)."
    assert explain(err, "ru", ascii=True) == "Старшая карта AD и так ваша; ставку за собственную карту не делают (R63)."
    err = refusal(game, "Vera", "bid 1")
    assert err.key == "speculator.min_price"
    assert explain(err, "ru") == "Цена — целое число копеек, не меньше 2 к. (minPrice)."
    err = refusal(game, "Boris", "accept Vera")
    assert err.key == "speculator.no_bids"
    assert explain(err, "ru") == "За вашу карту A♦ ещё никто не сделал ставку: принимать нечего."
    act(game, "Vera: reveal")  # 9♠ is dead under A♦
    err = refusal(game, "Vera", "sell 3")
    assert err.key == "speculator.not_holder"
    assert explain(err, "ru") == (
        "Продавать («продаю») и принимать ставки можно только за нынешнюю старшую карту (R63): "
        "это A♦, она у игрока Boris. Ваши открытые карты никакой роли не играют."
    )
    act(game, "Gleb: bid 3")
    err = refusal(game, "Boris", "accept Vera")
    assert err.key == "speculator.no_such_bid"
    assert explain(err, "ru") == "У игрока Vera нет ставки; ставки сейчас: Gleb 3."
    err = refusal(game, "Boris", "accept Zoya")
    assert err.key == "speculator.no_player" and explain(err, "ru") == "За этим столом нет игрока 'Zoya'."


# --- the sweep: every refusal of every game has its key in both catalogues --------------------


def attempts(game: Game, seat: int, rng: random.Random) -> list[Action]:
    """Actions to try for ``seat``: every argument of the verbs at hand, and the verbs not at hand."""
    at_hand = {a.verb for a in game.legal_actions(seat)}
    every_card = deck(52)  # cards outside the game's deck too
    hand: Sequence[Card] = list(getattr(game, "hands", [every_card] * game.n)[seat] or every_card)
    out: list[Action] = []
    for verb, kind in game.verbs.items():
        if kind == "":
            out.append(Action(verb))
        elif kind == "card":
            out += [Action(verb, (c,)) for c in every_card] if verb in at_hand else [Action(verb, (every_card[0],))]
        elif kind in ("cards", "cards|shlejf"):
            out += [Action(verb), Action(verb, (hand[0], hand[0]))]
            out += [Action(verb, (c,)) for c in every_card]
            out += [Action(verb, tuple(sorted(rng.sample(hand, min(k, len(hand)))))) for k in range(2, 6)]
            if kind == "cards|shlejf":
                out.append(Action(verb, ("shlejf",)))
        elif kind in ("int", "int?"):
            out += [Action(verb, (p,)) for p in (0, 1, 2, 3, 4, 5, 6, 99)]
            if kind == "int?":
                out.append(Action(verb))
        elif kind == "name":
            out += [Action(verb, (name,)) for name in [*game.names, "Nobody"]]
    return out


def random_options(cls: type[Game], rng: random.Random) -> dict:
    options = {}
    for option in cls.options_spec:
        if option.choices:
            options[option.name] = rng.choice(option.choices)
        elif option.kind is bool:
            options[option.name] = rng.random() < 0.5
    if any(o.name == "minPrice" for o in cls.options_spec):
        options["minPrice"] = rng.randint(1, 3)
    return options


def is_legal(game: Game, seat: int, action: Action) -> bool:
    """What ``Game.apply`` checks before it refuses (so that a legal attempt is never applied here)."""
    return seat in game.to_act() and game._allows(seat, game._normalize(action))


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("game_name", sorted(registry()))
def test_every_refusal_of_random_play_has_a_key_in_both_catalogues(game_name: str) -> None:
    cls = registry()[game_name]
    keys: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        options = cls.make_options(random_options(cls, rng))
        low, high = cls.player_range(options)
        game = cls([f"P{i}" for i in range(rng.randint(low, high))], options)
        if isinstance(game, Speculator) and seed % 2:
            game.start_clock(0.0)  # live: reveals are refused while a window is open (§6.5)
        decks = ShuffledDecks(cls.deck_size, seed)
        for _ in range(3):
            if not game.can_start_deal():
                break
            game.start_deal(decks)
            for _ in range(400):
                if game.deal_over():
                    break
                to_act = game.to_act()
                seat = rng.choice(to_act)
                tries = [(seat, a) for a in attempts(game, seat, rng)]
                waiting = [s for s in range(game.n) if s not in to_act]
                if waiting:
                    tries += [(rng.choice(waiting), a) for a in game.legal_actions(seat)[:3]]
                for who, action in tries:
                    if is_legal(game, who, action):
                        continue
                    with pytest.raises(IllegalAction) as caught:
                        game.apply(who, action)
                    err = caught.value
                    assert err.key in en.MESSAGES and err.key in ru.MESSAGES, (game_name, action.text(), err.message)
                    told = explain(err, "ru")
                    assert "{" not in told and told != err.message, (err.key, told)
                    if err.key.startswith(CONVERTED):
                        assert explain(err, "en") == err.message, err.key
                        assert not set("♠♣♦♥") & set(explain(err, "ru", ascii=True)), err.key
                    keys.add(err.key)
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                if isinstance(game, Speculator) and game.live_clock:
                    game.tick(game.clock + rng.choice((0.0, 0.0, 20.0)))
    assert any(not key.startswith("refuse.") for key in keys), keys  # the game's own rules were refused
    if f"{game_name}." in CONVERTED:  # and every one of its catalogue entries is a refusal it still makes
        assert {k for k in en.MESSAGES if k.startswith(f"{game_name}.")} <= keys
