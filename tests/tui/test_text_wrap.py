"""Lines cut at the terminal's width: at spaces, never inside a card's name or a sum of money."""

from __future__ import annotations

import pytest

from engine.cards import deck
from tui.text.cards import card_words, in_colour, in_short, in_symbols
from tui.text.wrap import wrap


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_card_name_is_cut_at_any_width(lang: str) -> None:
    for card in deck(52):
        said = card_words(card, lang)
        line = f"Boris and Vera and Gleb are still thinking; {said} is on the felt and the pot is large."
        for width in range(20, len(line)):
            pieces = wrap(line, width)
            assert " ".join(pieces) == line
            assert any(said in piece for piece in pieces), (width, pieces)
            assert all(len(p) <= width or " " not in p.replace(said, "") for p in pieces), (width, pieces)


@pytest.mark.parametrize("line, width, cut", [
    ("На кону 1 р. 20 к., ведёт Борис с тузом, а Вера пасует.", 12,
     ["На кону", "1 р. 20 к.,", "ведёт Борис", "с тузом, а", "Вера пасует."]),
    ("the pot holds 1 ruble 20 kopecks and boris leads.", 20,
     ["the pot holds", "1 ruble 20 kopecks", "and boris leads."]),
    ("Short line.", 40, ["Short line."]),
    ("Supercalifragilisticexpialidocious words", 12, ["Supercalifragilisticexpialidocious", "words"]),
])
def test_sums_stay_whole_and_a_long_word_is_left_to_the_terminal(line: str, width: int, cut: list[str]) -> None:
    assert wrap(line, width) == cut


def test_colour_codes_take_no_columns_and_short_cards_stay_whole() -> None:
    line = in_colour(in_symbols("Ваша рука: Д♥, К♠, 10♦, Т♣, 7♥, В♦, 9♠, 8♣.", "ru"))
    pieces = wrap(line, 20)
    assert [p.replace("\x1b[31m", "").replace("\x1b[39m", "") for p in pieces] == \
        ["Ваша рука: Д♥, К♠,", "10♦, Т♣, 7♥, В♦, 9♠,", "8♣."]
    assert wrap(in_short("Your hand: Q♥, K♠, 10♦, A♣.", "en"), 12) == ["Your hand:", "QH, KS, 10D,", "AC."]
