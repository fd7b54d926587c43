"""sukno-shuffle/1 (engine.shuffle): the protocol's test vectors, every deck size, cuts, verification."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.cards import deck, format_cards
from engine.games import registry
from engine.shuffle import (
    FairError,
    Sealed,
    Stream,
    check_cut,
    cut_string,
    deck_for,
    lot_for,
    parse_seed,
    seal_of,
    verify_deal,
)

# The test vectors of sukno-shuffle/1 (copied from the protocol's page; nothing reads it at run time).
SEED_0_31 = bytes(range(32))
SEAL_0_31 = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTORS = [
    (SEED_0_31, 36, "", 0,
     "10♣ A♠ 8♣ K♠ Q♠ 6♥ K♥ 7♥ 6♠ 7♦ 10♥ 8♥ K♣ 10♠ 9♦ 9♥ 8♦ 10♦ J♣ A♦ A♥ A♣ 7♠ J♥ 7♣ K♦ 9♣ J♦ J♠ 6♦ Q♦ 8♠ "
     "Q♣ 6♣ 9♠ Q♥"),
    (SEED_0_31, 32, "Anna:верба\nBoris:42", 1,
     "Q♠ K♠ A♦ J♥ 9♠ A♥ 10♦ K♣ Q♣ J♣ 8♣ Q♥ 8♠ 10♠ 7♦ J♦ 9♦ 10♥ 7♠ 9♣ A♠ J♠ 8♦ 9♥ K♦ Q♦ 8♥ A♣ 7♣ K♥ 7♥ 10♣"),
    (b"\xff" * 32, 52, "", 0,
     "5♣ 8♠ 7♠ 7♣ 8♥ J♥ 9♦ 8♣ K♠ 9♣ Q♣ 3♥ A♥ 7♦ 10♣ 2♣ A♦ 3♦ Q♠ 3♠ 4♣ J♦ K♣ 5♥ 9♠ K♦ 2♠ 2♦ 5♦ 10♦ J♣ 7♥ "
     "5♠ 2♥ J♠ A♠ 10♥ 6♥ K♥ 10♠ 9♥ 6♦ 3♣ 6♣ 4♥ Q♥ 8♦ 6♠ 4♦ A♣ Q♦ 4♠"),
    (b"\x5a" * 32, 48, "Vera:x", 0,
     "Q♠ 6♣ 10♦ Q♥ 4♣ 8♦ A♥ J♦ 5♠ Q♣ 6♠ 7♠ 7♣ 4♥ 5♦ 6♥ 10♣ A♦ J♠ 3♦ 9♥ 5♥ 7♥ A♠ 5♣ K♥ 9♦ K♦ Q♦ 3♣ 9♠ 8♣ "
     "8♥ 10♠ 6♦ 4♦ 8♠ 3♠ K♣ 7♦ 3♥ A♣ 4♠ 10♥ J♥ K♠ 9♣ J♣"),
]


def test_the_seal_vector() -> None:
    assert seal_of(SEED_0_31) == SEAL_0_31
    assert Sealed(SEED_0_31).seal == SEAL_0_31


@pytest.mark.parametrize("seed, size, cut, j, expected", VECTORS)
def test_the_deck_vectors(seed: bytes, size: int, cut: str, j: int, expected: str) -> None:
    assert format_cards(deck_for(seed, size, cut, j)) == expected


def test_the_vector_cut_is_assembled_in_typed_order_and_a_replaced_cut_keeps_its_place() -> None:
    sealed = Sealed(SEED_0_31)
    assert sealed.cut_text == ""
    assert sealed.cut("Anna", "first") is False
    assert sealed.cut("Boris", "42") is False
    assert sealed.cut("Anna", "верба") is True  # again: replaces, keeps the first place
    assert sealed.cut_text == "Anna:верба\nBoris:42" == cut_string([("Anna", "верба"), ("Boris", "42")])
    decks = sealed.decks(32)
    decks.next_deck()
    assert format_cards(decks.next_deck()) == VECTORS[1][4]  # j = 1: the first redeal


def test_uniform_rejects_words_at_or_above_the_limit() -> None:
    """m = 3: limit = floor(2^32 / 3) * 3 = 4294967295, so the word 0xFFFFFFFF is skipped, not taken mod 3."""
    class Words(Stream):
        def __init__(self, words: list[int]):
            super().__init__(b"")
            self.queue = list(words)

        def word(self) -> int:
            return self.queue.pop(0)

    stream = Words([0xFFFFFFFF, 7])
    assert stream.uniform(3) == 1 and stream.queue == []
    stream = Words([0xFFFFFFFE])
    assert stream.uniform(3) == 0xFFFFFFFE % 3


def test_the_stream_is_hmac_blocks_read_as_big_endian_words() -> None:
    import hmac

    key = b"k" * 32
    stream = Stream(key)
    words = [stream.word() for _ in range(16)]
    raw = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest() + \
        hmac.new(key, (1).to_bytes(8, "big"), hashlib.sha256).digest()
    assert words == [int.from_bytes(raw[i:i + 4], "big") for i in range(0, 64, 4)]


@pytest.mark.parametrize("game", sorted(registry()))
def test_random_seeds_and_cuts_give_a_permutation_of_every_game_deck_repeatably(game: str) -> None:
    size = registry()[game].deck_size
    rng = random.Random(f"shuffle-{game}")
    orders = set()
    for _ in range(60):
        seed = rng.randbytes(32)
        cut = cut_string([(f"P{k}", "".join(rng.choice("abcйцу 42:!") for _ in range(rng.randint(1, 64))))
                          for k in range(rng.randint(0, 4))])
        j = rng.randint(0, 3)
        cards = deck_for(seed, size, cut, j)
        assert sorted(cards) == sorted(deck(size)) and len(cards) == size
        assert cards == deck_for(seed, size, cut, j)  # deterministic
        assert cards != deck_for(seed, size, cut + "x", j)  # the cut matters
        assert cards != deck_for(seed, size, cut, j + 1)  # each redeal its own order
        orders.add(tuple(cards))
    assert len(orders) == 60


def test_the_first_dealer_lot_is_its_own_stream() -> None:
    """R3/R33's draw uses the label first-dealer, never a deck's j: same seed, another stream."""
    lot = lot_for(SEED_0_31, "Anna:x")
    cards = deck(52)
    lot.shuffle(cards)
    assert cards != deck_for(SEED_0_31, 52, "Anna:x", 0)
    again = lot_for(SEED_0_31, "Anna:x")
    other = deck(52)
    again.shuffle(other)
    assert cards == other and 0 <= lot.randrange(5) < 5


@pytest.mark.parametrize("text", ["", "x" * 65, "a\nb", "tab\there", "\x1b[31mred", "bell\x07"])
def test_a_bad_cut_is_refused(text: str) -> None:
    with pytest.raises(FairError):
        check_cut(text)
    sealed = Sealed(SEED_0_31)
    with pytest.raises(FairError):
        sealed.cut("Anna", text)
    assert sealed.cuts == {}


def test_good_cuts() -> None:
    assert check_cut("x" * 64) == "x" * 64
    assert check_cut("верба и 42!") == "верба и 42!"


@pytest.mark.parametrize("text", ["00", "zz" * 32, SEAL_0_31 + "00", ""])
def test_a_bad_seed_is_refused(text: str) -> None:
    with pytest.raises(FairError):
        parse_seed(text)


def test_verify_deal_names_what_is_wrong() -> None:
    sealed = Sealed(SEED_0_31, {"Anna": "верба", "Boris": "42"})
    decks = sealed.decks(32)
    orders = [decks.next_deck(), decks.next_deck()]
    fair = sealed.fair()
    assert verify_deal(3, fair, orders, 32).line() == f"deal 3: fair (seal {SEAL_0_31[:8]}…)"
    assert verify_deal(2, None, orders, 32).line() == "deal 2: not sealed"
    swapped = [list(orders[0]), list(orders[1])]
    swapped[1][4], swapped[1][5] = swapped[1][5], swapped[1][4]
    bad = verify_deal(3, fair, swapped, 32)
    assert not bad.ok and "deck 1 differs" in bad.line() and bad.line().startswith("deal 3:")
    wrong_seal = dict(fair, seal=seal_of(b"\x01" * 32))
    assert "seal mismatch" in verify_deal(1, wrong_seal, orders, 32).reason
    changed_cut = dict(fair, cut="Anna:верба\nBoris:43")
    assert "deck 0 differs" in verify_deal(1, changed_cut, orders, 32).reason


def test_a_repr_never_shows_the_seed() -> None:
    sealed = Sealed(SEED_0_31, {"Anna": "x"})
    assert SEED_0_31.hex() not in repr(sealed) and SEED_0_31.hex() not in repr(sealed.decks(36))


def test_the_fast_deck_is_the_stream_shuffle_also_when_a_word_is_rejected(monkeypatch) -> None:
    """deck_for makes a deck's blocks at once; with every limit lowered so words are rejected often,
    it must still read the stream word by word exactly as Stream.shuffle does."""
    import engine.shuffle as shuffle

    for size in (32, 36, 48, 52):
        seed = bytes([size]) * 32
        key = shuffle._key(seed, "Anna:x", "0")
        expected = deck(size)
        Stream(key).shuffle(expected)
        assert deck_for(seed, size, "Anna:x", 0) == expected
    monkeypatch.setattr(shuffle, "_LIMITS", [0] + [((1 << 31) // m) * m for m in range(1, 65)])

    class HalfStream(Stream):  # the same lowered limits: about half of all words rejected
        def uniform(self, m: int) -> int:
            limit = ((1 << 31) // m) * m
            while True:
                x = self.word()
                if x < limit:
                    return x % m

    for size in (32, 52):
        seed = bytes([size + 1]) * 32
        expected = deck(size)
        HalfStream(shuffle._key(seed, "", "2")).shuffle(expected)
        assert deck_for(seed, size, "", 2) == expected
