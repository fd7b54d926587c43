"""Provably fair deals: the protocol ``sukno-shuffle/1`` (commit–reveal with the players' cut).

Why: a deal drawn from a secret the house committed to (its *seal*,
``SHA-256(seed)``) before the players cut can be checked by anyone once the
seed is shown, and one honest cut makes it unpredictable to the house.  It
does not hide the cards from the house, which still deals them.

The algorithm, exactly (a different but "equivalent" one is another protocol)::

    seal   = hex(SHA-256(seed))
    key_j  = HMAC-SHA256(seed, b"sukno-shuffle/1" 0x00 utf8(cut) 0x00 ascii(decimal j))
             j = 0 for the deal's deck, 1, 2, … for its redeals
    stream = HMAC-SHA256(key_j, uint64_be(0)) || HMAC-SHA256(key_j, uint64_be(1)) || …
    uniform(m): next 4 bytes as uint32_be x; limit = floor(2^32 / m) * m;
                x < limit → x mod m, else 4 more bytes (no modulo bias)
    deck   = canonical deck; for i = n-1 down to 1: swap deck[i], deck[uniform(i + 1)]

The result is top first.  The canonical deck is ``engine.cards.deck(n)``:
suits ♠ ♣ ♦ ♥, ranks ascending from the deck's lowest to the ace.

The cut string is ``""`` with no cut, else ``NAME:TEXT`` per cut in the order
first typed (a replaced cut keeps its place), joined by ``\\n``.

sukno's own addition (not a deck of the protocol): the first dealer of a
table by lot (R3; R33 for Стуколка) is drawn from the first deal's seed and
cut with the label ``first-dealer`` in place of ``j``
(``HMAC-SHA256(seed, b"sukno-shuffle/1" 0x00 cut 0x00 b"first-dealer")``),
a message no decimal ``j`` can equal, so the draw is as checkable as the deal.

Pure: stdlib ``hashlib``/``hmac``/``secrets`` only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any, Mapping, MutableSequence, Sequence, TypeVar

from engine.cards import Card, deck

PROTOCOL = "sukno-shuffle/1"
SEED_BYTES = 32
MAX_CUT = 64
"""The longest cut a player may type (characters)."""

_PREFIX = PROTOCOL.encode("ascii") + b"\x00"
_WORDS = struct.Struct(">8I")
T = TypeVar("T")


class FairError(ValueError):
    """A seed, seal, cut or deck size the protocol does not accept; ``str(err)`` says why."""


# --- the stream and the shuffle -------------------------------------------------------------


class Stream:
    """The byte stream of one key as 4-byte words, and ``uniform`` without modulo bias."""

    __slots__ = ("_key", "_counter", "_words", "_pos")

    def __init__(self, key: bytes):
        self._key = key
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def word(self) -> int:
        """The next 4 bytes of the stream as a big-endian uint32 (a block holds eight)."""
        if self._pos == len(self._words):
            block = hmac.digest(self._key, self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
            self._words = _WORDS.unpack(block)
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def uniform(self, m: int) -> int:
        """A number 0 ≤ x < m; words at or above ``floor(2^32 / m) * m`` are skipped."""
        if not 1 <= m <= 1 << 32:
            raise ValueError(f"uniform(m) needs 1 ≤ m ≤ 2^32, not {m}")
        limit = (1 << 32) // m * m
        while True:
            x = self.word()
            if x < limit:
                return x % m

    # the two methods a draw by lot needs (``Game.draw_first_dealer`` takes any such object)
    def randrange(self, m: int) -> int:
        return self.uniform(m)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates from the end: for i = n-1 down to 1, swap items[i] with items[uniform(i + 1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]


def seal_of(seed: bytes) -> str:
    """``hex(SHA-256(seed))``: what the house shows before the deal."""
    return hashlib.sha256(seed).hexdigest()


def _key(seed: bytes, cut: str, label: str) -> bytes:
    return hmac.digest(seed, _PREFIX + cut.encode("utf-8") + b"\x00" + label.encode("ascii"), "sha256")


def deck_for(seed: bytes, size: int, cut: str = "", j: int = 0) -> list[Card]:
    """Deck order ``j`` (0: the deal's, 1, 2…: its redeals) of a sealed deal, top first."""
    if isinstance(j, bool) or not isinstance(j, int) or j < 0:
        raise FairError(f"the redeal number j is a whole number ≥ 0, not {j!r}")
    cards = deck(size)
    _fast_shuffle(_key(seed, cut, str(j)), cards)
    return cards


_LIMITS = [0] + [(1 << 32) // m * m for m in range(1, 65)]
"""``floor(2^32 / m) * m`` for the m a deck of up to 64 cards asks ``uniform`` for."""


def _fast_shuffle(key: bytes, cards: list[Card]) -> None:
    """``Stream(key).shuffle(cards)`` exactly, with the blocks a deck needs made at once (a deal < 1 ms).

    A deck of n cards reads n-1 words unless a word is rejected (chance < n / 2^32
    per word); the stream then goes on block by block as ``Stream.word`` does.
    """
    n = len(cards)
    if n > len(_LIMITS) - 1:
        Stream(key).shuffle(cards)
        return
    blocks = (n + 6) // 8
    words = list(struct.unpack(f">{8 * blocks}I",
                               b"".join(hmac.digest(key, c.to_bytes(8, "big"), "sha256") for c in range(blocks))))
    pos = 0
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = _LIMITS[m]
        while True:
            if pos == len(words):
                words += _WORDS.unpack(hmac.digest(key, blocks.to_bytes(8, "big"), "sha256"))
                blocks += 1
            x = words[pos]
            pos += 1
            if x < limit:
                break
        k = x % m
        cards[i], cards[k] = cards[k], cards[i]


def lot_for(seed: bytes, cut: str = "") -> Stream:
    """The stream the first dealer is drawn from (R3/R33; see the module docstring)."""
    return Stream(_key(seed, cut, "first-dealer"))


def new_seed() -> bytes:
    """A fresh seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def repeatable_seed(base: int, k: int) -> bytes:
    """The ``k``-th seed of a table given ``seed=base`` (tests and benches that must repeat a game).

    A live club passes no base and every deal gets ``new_seed()``.
    """
    return hashlib.sha256(f"sukno-repeatable-seed\x00{int(base)}\x00{int(k)}".encode("ascii")).digest()


# --- checking what people type ---------------------------------------------------------------


def parse_seed(text: str) -> bytes:
    """A seed written as 64 hex digits; ``FairError`` otherwise."""
    word = str(text).strip().lower()
    if len(word) != 2 * SEED_BYTES or any(ch not in "0123456789abcdef" for ch in word):
        raise FairError(f"a seed is {2 * SEED_BYTES} hex digits (32 bytes), not {str(text)[:80]!r}")
    return bytes.fromhex(word)


def check_cut(text: str) -> str:
    """A cut's text: 1–64 printable characters (no control characters, no line breaks)."""
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_CUT:
        raise FairError(f"a cut is 1–{MAX_CUT} characters")
    if not text.isprintable():
        raise FairError("a cut holds printable characters only")
    return text


def cut_string(cuts: Sequence[tuple[str, str]] | Mapping[str, str]) -> str:
    """``NAME:TEXT`` per cut in the order given, joined by ``\\n`` (``""`` with no cut)."""
    pairs = cuts.items() if isinstance(cuts, Mapping) else cuts
    return "\n".join(f"{name}:{text}" for name, text in pairs)


# --- a sealed deal at a table ----------------------------------------------------------------


@dataclass
class Sealed:
    """One deal's seed and the cuts typed against its seal (the seed is the house's secret).

    ``cuts`` keeps the order first typed; a player's second cut replaces his
    text in place (a dict keeps a key's first position on reassignment).
    """

    seed: bytes
    cuts: dict[str, str] = field(default_factory=dict)

    @property
    def seal(self) -> str:
        return seal_of(self.seed)

    def cut(self, name: str, text: str) -> bool:
        """Record ``name``'s cut; True when it replaced his earlier one."""
        again = name in self.cuts
        self.cuts[name] = check_cut(text)
        return again

    @property
    def cut_text(self) -> str:
        return cut_string(self.cuts)

    def decks(self, size: int, drawn: int = 0) -> SealedDecks:
        """The deal's deck source; ``drawn``: deck orders already dealt (a restored deal)."""
        return SealedDecks(self.seed, size, self.cut_text, drawn)

    def lot(self) -> Stream:
        return lot_for(self.seed, self.cut_text)

    def fair(self) -> dict[str, str]:
        """What the record keeps of the deal once it ended (``fair`` beside ``decks``)."""
        return {"protocol": PROTOCOL, "seal": self.seal, "seed": self.seed.hex(), "cut": self.cut_text}

    def secret_json(self) -> dict[str, Any]:
        """For the table's journal only: the seed stays secret until the deal ends."""
        return {"seed": self.seed.hex(), "cuts": [[n, t] for n, t in self.cuts.items()]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sealed:
        return cls(parse_seed(str(data["seed"])), {str(n): str(t) for n, t in data.get("cuts", [])})

    def __repr__(self) -> str:  # never the seed: a repr may reach a log
        return f"Sealed(seal={self.seal[:16]}…, cuts={list(self.cuts)})"


class SealedDecks:
    """A ``DeckSource``: deck 0 of a sealed deal, then its redeals 1, 2, …"""

    def __init__(self, seed: bytes, size: int, cut: str = "", drawn: int = 0):
        self._seed = seed
        self._size = size
        self._cut = cut
        self.drawn = drawn

    def next_deck(self) -> list[Card]:
        cards = deck_for(self._seed, self._size, self._cut, self.drawn)
        self.drawn += 1
        return cards

    def __repr__(self) -> str:
        return f"SealedDecks(size={self._size}, drawn={self.drawn})"


# --- verifying a record ---------------------------------------------------------------------


@dataclass(frozen=True)
class DealCheck:
    """The verdict on one deal of a record: ``status`` is fair, not sealed or unfair.

    An unfair deal says why: ``deck`` is None for a seal that is not the
    seed's SHA-256, else the j of the first deck order that differs and
    ``at`` the first card (1-based) where it does.
    """

    deal: int
    status: str
    seal: str = ""
    deck: int | None = None
    at: int = 0
    note: str = ""  # an unfair verdict the record as a whole gives (a seal taken away, a deal copied)

    @property
    def ok(self) -> bool:
        return self.status != "unfair"

    @property
    def reason(self) -> str:
        if self.status != "unfair":
            return ""
        if self.note:
            return self.note
        if self.deck is None:
            return "seal mismatch (SHA-256 of the seed is not the seal)"
        return f"deck {self.deck} differs (first at card {self.at})"

    def line(self) -> str:
        """``deal 3: fair (seal 630dcd29…)`` (the form ``verify`` prints)."""
        if self.status == "fair":
            return f"deal {self.deal}: fair (seal {self.seal[:8]}…)"
        if self.status == "not sealed":
            return f"deal {self.deal}: not sealed"
        return f"deal {self.deal}: NOT fair: {self.reason}"


def check_fair(fair: Mapping[str, Any]) -> dict[str, str]:
    """A record's ``fair`` object, checked for form (``FairError`` says what is wrong)."""
    if not isinstance(fair, Mapping):
        raise FairError("'fair' must be an object with protocol, seal, seed and cut")
    if fair.get("protocol") != PROTOCOL:
        raise FairError(f"unknown fairness protocol {fair.get('protocol')!r}; expected {PROTOCOL!r}")
    out: dict[str, str] = {"protocol": PROTOCOL}
    for key in ("seal", "seed", "cut"):
        if not isinstance(fair.get(key), str):
            raise FairError(f"'fair' needs '{key}' as a string")
        out[key] = fair[key]
    seal = out["seal"].lower()
    if len(seal) != 64 or any(ch not in "0123456789abcdef" for ch in seal):
        raise FairError("'fair.seal' is 64 hex digits")
    parse_seed(out["seed"])
    return out


def verify_deal(number: int, fair: Mapping[str, Any] | None, decks: Sequence[Sequence[Card]], size: int) -> DealCheck:
    """Check one deal: ``seal == SHA-256(seed)`` and every ``decks[j]`` is the algorithm's deck j."""
    if fair is None:
        return DealCheck(number, "not sealed")
    seed = parse_seed(fair["seed"])
    seal = str(fair["seal"]).lower()
    if seal_of(seed) != seal:
        return DealCheck(number, "unfair", seal)
    for j, order in enumerate(decks):
        expected = deck_for(seed, size, str(fair["cut"]), j)
        if list(order) != expected:
            at = next((k for k, (a, b) in enumerate(zip(order, expected)) if a != b), min(len(order), len(expected)))
            return DealCheck(number, "unfair", seal, j, at + 1)
    return DealCheck(number, "fair", seal)


__all__ = [
    "MAX_CUT", "PROTOCOL", "DealCheck", "FairError", "Sealed", "SealedDecks", "Stream", "check_cut", "check_fair",
    "cut_string", "deck_for", "lot_for", "new_seed", "parse_seed", "repeatable_seed", "seal_of", "verify_deal",
]
