"""The Ukrainian pairs game (working id «Украинская парная», Game C).

Resolutions R25–R31 are the binding reading.

Game kind: 4 players in two partnerships sitting opposite (team A = seats 0
and 2, team B = seats 1 and 3, R25), 36 cards all dealt, imperfect
information, a points game whose money moves only when a match ends.

The twelve permanent trumps, high to low, are 6♣ J♣ J♠ J♥ J♦ A♣ K♣ Q♣ 10♣ 9♣
8♣ 7♣.  They are one suit for leading and following (R26): a jack belongs to
the trumps and never to its printed suit, so ♠ ♥ ♦ have eight cards each.
Hence ``suit_of`` below, which the follow rule and the trick winner both use.

A match: each team starts with the record ``T`` and writes points off it by
the split of the nine tricks (R27, R28); the first team at ≤ 0 wins and the
losers pay their remaining record × ``u`` each (R30).  A 9 : 0 ends the match
at once at 2·T·u a loser (R29).  The session then goes on with a new match.
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping, Sequence

from engine.cards import Card, Rank, Suit
from engine.game import ADMIN, Action, Event, Game, IllegalAction, Option, Viewer, card_action, refuse
from engine.holder import Holder
from engine.trick import RoundTricks, trick_winner, winning
from engine.view import RecordSheet

# Phases of a deal.
PLAY = "play"
DONE = "done"

TRUMP = "trump"  # the suit value of the twelve trumps (R26)
TRUMP_ORDER: tuple[Card, ...] = tuple(
    Card.of(r, s) for r, s in (
        (Rank.SIX, Suit.CLUBS), (Rank.JACK, Suit.CLUBS), (Rank.JACK, Suit.SPADES), (Rank.JACK, Suit.HEARTS),
        (Rank.JACK, Suit.DIAMONDS), (Rank.ACE, Suit.CLUBS), (Rank.KING, Suit.CLUBS), (Rank.QUEEN, Suit.CLUBS),
        (Rank.TEN, Suit.CLUBS), (Rank.NINE, Suit.CLUBS), (Rank.EIGHT, Suit.CLUBS), (Rank.SEVEN, Suit.CLUBS),
    )
)
_TRUMP_POWER = {card: len(TRUMP_ORDER) - i for i, card in enumerate(TRUMP_ORDER)}
TRUMP_TEXT = " > ".join(str(c) for c in TRUMP_ORDER)

TEAMS = ("A", "B")
HAND = 9

# Team tricks → points the winning team writes off; None = the match ends at once (R27–R29).
WRITE_OFF: dict[int, int | None] = {9: None, 8: 1, 7: 0, 6: 3, 5: 0}
NICKNAME = {8: "рожок", 6: "тринька"}  # named after the losing side's 1 or 3 tricks

def is_trump(card: Card) -> bool:
    """All jacks and all clubs (§4.3)."""
    return card in _TRUMP_POWER


def suit_of(card: Card) -> Hashable:
    """The suit a card leads and follows as: TRUMP for the twelve trumps, else its printed suit (R26)."""
    return TRUMP if card in _TRUMP_POWER else card.suit


def power(card: Card) -> int:
    """Rank within its suit of R26: the trump order for trumps, A > K > Q > 10 > … > 6 otherwise."""
    return _TRUMP_POWER.get(card, int(card.rank))


def team_of(seat: int) -> int:
    """0 = team A (seats 0, 2), 1 = team B (seats 1, 3) (R25)."""
    return seat % 2


OPTIONS = (
    Option("T", 12, "the record (запись) each partnership starts a match with (R30)", minimum=1),
    Option("u", 1, "money (kopecks) per point of record (R29, R30)", minimum=0),
)


# Where a card lies (``engine.holder``): hands 0–3, the tricks each took 4–7, the trick on the table.
TAKEN, TRICK = 4, 8
PLACE_NAMES = tuple(f"hand:{s}" for s in range(4)) + tuple(f"taken:{s}" for s in range(4)) + ("trick",)


class UkrPairs(RoundTricks, Game):
    """One session of Game C at a table: successive matches."""

    # Its state in slots, as ``Game`` keeps the session's: a class with slots anywhere has no inline
    # attribute values on 3.13, so a game with an instance dict under a slotted base reads slower.
    __slots__ = ("cards", "history", "last_trick", "leader", "match_no", "match_over", "match_winner", "phase",
                 "records", "settlement", "tricks", "turn")

    name = "ukr_pairs"
    title = {"ru": "Украинская парная", "en": "Ukrainian pairs"}
    options_spec = OPTIONS
    verbs = {"play": "card"}
    deck_size = 36  # §4.3
    stake_option = "u"  # money per point of record (R29, R30)
    stake_per_point = True
    min_players = 4
    max_players = 4

    def __init__(self, names: Sequence[str], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
                 pot: int = 0) -> None:
        super().__init__(names, options, dealer=dealer, pot=pot)
        self.match_no = 0
        self.match_over = False  # the last deal ended a match (a record's ``over``)
        self.match_winner: int | None = None  # a team
        self.settlement: list[int] = [0] * self.n
        self._new_match()
        self.phase = DONE
        self._clear_deal()

    def _new_match(self) -> None:
        """Both records back to T (§4.5)."""
        self.match_no += 1
        self.records = [self.options["T"]] * 2
        self.history: list[dict[str, Any]] = []  # one row per deal of this match

    TAKEN, TRICK = TAKEN, TRICK

    def _clear_deal(self) -> None:
        n = self.n
        self.cards = Holder(PLACE_NAMES)  # every card's one place: hands, taken, the trick
        self.last_trick: list[tuple[int, Card]] = []
        self.tricks = [0] * n
        self.turn: int | None = None
        self.leader: int | None = None

    def _start_deal(self) -> list[Event]:
        if self.match_over:
            self._new_match()
        self.match_over = False
        self.match_winner = None
        self.settlement = [0] * self.n
        self._clear_deal()
        cards = self._draw_deck()
        eldest = (self.dealer + 1) % self.n
        n = self.n  # one at a time from the eldest, 9 each (§4.4, §9.3)
        self.cards = Holder(PLACE_NAMES, {(eldest + k) % n: sorted(cards[k::n], key=_hand_order) for k in range(n)})
        self.phase = PLAY
        self.leader = self.turn = eldest
        return [Event("dealt", self.dealer, {"match": self.match_no, "deal": len(self.history) + 1})]

    # ------------------------------------------------------------------ protocol

    def _to_act(self) -> tuple[int, ...]:
        return (self.turn,) if self.phase == PLAY and self.turn is not None else ()

    def _legal(self, seat: int) -> list[Action]:
        return [card_action("play", c) for c in self._playable(seat)]

    def _playable(self, seat: int) -> list[Card]:
        """Follow the led suit (the 12 trumps are one suit, R26); if void, any card (§4.4)."""
        hand = self.cards.piles[seat]
        trick = self.cards.piles[TRICK]
        if not trick:
            return list(hand)
        led = suit_of(trick[0])
        follow = [c for c in hand if suit_of(c) == led]
        return follow or list(hand)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        return self._play_card(seat, action.args[0])

    def _trick_winner(self) -> int:
        return trick_winner(self.trick, TRUMP, suit_of, power)

    def _best_card(self) -> Card | None:
        won = winning(self.trick, TRUMP, suit_of, power)
        return None if won is None else won[1]

    # ------------------------------------------------------------------ scoring (R27–R30)

    def team_tricks(self) -> list[int]:
        return [self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]]

    def _score_deal(self) -> list[Event]:
        split = self.team_tricks()
        best = 0 if split[0] > split[1] else 1
        points = WRITE_OFF[split[best]]
        events: list[Event] = []
        if points is None:  # 9 : 0 (R29)
            events.append(Event("slam", None, {"team": TEAMS[best], "split": f"{split[best]}:{split[1 - best]}"}))
            events += self._end_match(best, 2 * self.options["T"])
        else:
            self.records[best] -= points  # R27, R28
            events.append(Event("deal_scored", None, {
                "split": f"{split[0]}:{split[1]}", "team": TEAMS[best], "written_off": points,
                "nickname": NICKNAME.get(split[best], ""), "A": self.records[0], "B": self.records[1],
            }))
            if self.records[best] <= 0:  # §4.5: the first team at ≤ 0 wins
                events += self._end_match(best, self.records[1 - best])
        self.history.append({
            "deal": len(self.history) + 1, "tricks": split, "winner": TEAMS[best],
            "written_off": points, "A": self.records[0], "B": self.records[1],
        })
        self.phase = DONE
        self.turn = None
        self._end_deal()
        return events

    def _end_match(self, team: int, points: int) -> list[Event]:
        """Each loser pays one winner ``points × u`` (R29, R30): partners opposite, so seat s pays s + 1."""
        amount = points * self.options["u"]
        for seat in range(self.n):
            if team_of(seat) != team and amount:
                self._transfer(seat, (seat + 1) % self.n, amount)
            self.settlement[seat] = amount if team_of(seat) == team else -amount
        self.match_over = True
        self.match_winner = team
        return [Event("match_won", None, {"team": TEAMS[team], "each": amount})]

    # ------------------------------------------------------------------ explanations

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> IllegalAction | None:
        if action.verb != "play" or not action.args or self.phase != PLAY:
            return None
        card = action.args[0]
        if card not in self.hands[seat]:
            return refuse("refuse.not_held", f"You do not hold {card}.", card=card)
        if not self.trick:
            return None
        led = suit_of(self.trick[0][1])
        if led == TRUMP:
            return refuse("ukr_pairs.follow_trump",
                          "A trump was led (all jacks and clubs are trumps, R26) and you hold a trump, "
                          "so you must play one.")
        suit = self.trick[0][1].suit
        symbol = suit.symbol
        if is_trump(card) and card.suit == suit:
            return refuse("ukr_pairs.jack_is_trump",
                          f"{card} is a trump, not a {symbol} (R26); you hold a {symbol}, so you must follow {symbol}.",
                          card=card, suit=suit)
        return refuse("ukr_pairs.follow", f"{symbol} was led and you hold a {symbol}, so you must follow suit.",
                      suit=suit)

    # ------------------------------------------------------------------ session

    def natural_end(self) -> bool:
        """A match has just ended: a record ends here."""
        return not self.in_deal and self.match_over

    @classmethod
    def score_view(cls, view: Mapping[str, Any]) -> RecordSheet | None:
        """What each partnership has left of its record and who is in it (R27–R30)."""
        records, teams = view.get("records"), view.get("teams")
        if not isinstance(records, Mapping):
            return None
        return RecordSheet(tuple(records.items()),
                           tuple((t, tuple(s)) for t, s in (teams or {}).items()) if isinstance(teams, Mapping) else ())

    def score(self) -> dict[str, Any]:
        """Remaining records per team, of the current match or the one just ended (§9.4)."""
        return {"A": self.records[0], "B": self.records[1]}

    # ------------------------------------------------------------------ views

    def places(self) -> dict[str, list[Card]]:
        if not self.deals:
            return {}
        return self.cards.places()

    def _status(self, seat: int) -> str:
        if seat == self.turn and self.phase == PLAY:
            return "to play"
        if self.match_over and not self.in_deal:
            return "won the match" if team_of(seat) == self.match_winner else "lost the match"
        return f"{self.tricks[seat]} tricks" if self.deals else ""

    def _view(self, viewer: Viewer) -> dict[str, Any]:
        n = self.n
        return {
            "phase": self.phase,
            "hands": [list(self.hands[s]) if viewer in (ADMIN, s) else None for s in range(n)],
            "hand_counts": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "best": self._best_card(),  # the card winning the trick so far, by Game C's own order
            "last_trick": [[s, c] for s, c in self.last_trick],
            "trump": Suit.CLUBS,  # and the four jacks: see "trump_order"
            "trump_order": TRUMP_TEXT,
            "tricks": list(self.tricks),
            "team_tricks": self.team_tricks(),
            "teams": {"A": [0, 2], "B": [1, 3]},
            "status": [self._status(s) for s in range(n)],
            "leader": self.leader,
            "match_no": self.match_no,
            "records": {"A": self.records[0], "B": self.records[1]},
            "T": self.options["T"],
            "history": [dict(row) for row in self.history],
            "match_over": self.match_over,
            "match_winner": TEAMS[self.match_winner] if self.match_winner is not None else None,
            "settlement": list(self.settlement),
        }


def _hand_order(card: Card) -> tuple[int, int]:
    """Trumps first, high to low, then the plain suits (display only)."""
    if is_trump(card):
        return (0, -power(card))
    return (1 + int(card.suit), -int(card.rank))


GAME = UkrPairs
