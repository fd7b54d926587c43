"""Imagined Копилка deals for the search bot: decks whose dealt hands have the real lay-outs' shapes.

Why a game of its own: in Копилка a seat lays out its long suit face down (R7) —
the event says only how many cards, but that number follows from the seat's
hidden hand.  The generic repairs (``engine.bots.search.Shadow``) swap single
cards into place, which would change a hand's suit counts and so its lay-out.
So here:

- a fresh deck is *built* to the public events as far as they say
  (``_fresh_deck``): the stock's places in their drawing order (a draw answered
  by the drawer's card of the led suit drew that card), the seat's own dealt
  cards in its places (its row in its order), each other seat's played cards
  among its dealt ones, every hand of its lay-out's shape; unseen cards fill
  the rest at random;
- before a deck is replayed, a hand of the wrong shape is brought one card
  nearer the real one by a swap with the stock (``_check_deal``), which no
  lay-out reads;
- the other repairs prefer swaps that keep suits where they were: a card a
  seat played but does not hold comes in for a card of a suit it is shown void
  in later, else of its own suit; a seat that drew or passed while holding the
  led suit gives that card to the stock; the own hand's missing card is
  swapped with an extra one of its suit held elsewhere;
- another seat's hidden discard never takes a card the seat holds or handled;
- a deck whose repair repeats (it changed nothing) is given up at once, and a
  deck gets fewer rounds (``repairs``) but more fresh tries (``tries``).

What the seat saw is never moved: its own hand and every card a public event
shows must end where the real deal put them (``Shadow._run`` checks them all,
and tests/bots/test_search_bot.py compares every world's view with the real one).
"""

from __future__ import annotations

from collections import Counter

from engine.bots.search import TABLE_KINDS, Shadow, World, _deck_of
from engine.cards import Card
from engine.game import ADMIN, Action, Event, Game
from engine.games.kopilka import HAND, PLAYERS

DEALT = PLAYERS * HAND
"""Deck places 0..19 are the hands (one at a time from the eldest, §9.3), the rest the stock."""


def shapes(real: list[Event]) -> tuple[int, dict[int, int]] | None:
    """The deal's eldest and each seat's lay-out (seat → cards; a seat absent laid out nothing)."""
    dealer = next((e.seat for e in real if e.kind == "dealt"), None)
    if dealer is None:
        return None
    return (dealer + 1) % PLAYERS, {e.seat: int(e.data["cards"]) for e in real
                                    if e.kind == "lay_out" and e.seat is not None}


def shape_ok(hand: list[Card], laid: int | None) -> bool:
    """R7: a seat lays out its suit of 3+ cards (5 cards hold one at most), else nothing."""
    top = max(Counter(c.suit for c in hand).values(), default=0)
    return top == laid if laid is not None else top < 3


class KopilkaShadow(Shadow):
    """Imagined Копилка deals (module docstring)."""

    own_cards_kept = True
    repairs = 60
    tries = 16
    last_swap: tuple[Card, Card] | None = None
    own_placed: set[Card] = set()  # the own cards a fresh deck guessed as dealt (kept there by the repairs)

    def _check_deal(self, deck: list[Card], real: list[Event]) -> None:
        """Every dealt hand of the real lay-out's shape, else one swap towards it (then a restart)."""
        found = shapes(real)
        if found is None:
            return
        eldest, laid = found
        hands = {(eldest + k) % PLAYERS: [deck[i] for i in range(k, DEALT, PLAYERS)] for k in range(PLAYERS)}
        seats = [s for s in range(PLAYERS) if not shape_ok(hands[s], laid.get(s))]
        if not seats:
            return
        seat = self.rng.choice(seats)
        hand, want = hands[seat], laid.get(seat)
        mine = self.plays.get(seat, set())
        stock = [c for c in deck[DEALT:] if c not in self.pinned_now or c in mine]
        keep = mine | (self.dealt_known() | self.own_placed if seat == self.seat else self.known)
        out, into = self._reshape(hand, want, keep, stock)
        if not out and seat in self.drew:  # it holds only cards it plays later: it drew some of them
            out, into = self._reshape(hand, want, set(self.known), stock)
        if out and not into:  # the stock has none to give: another seat's, whose shape is seen to next
            others = [c for c in deck[:DEALT] if c not in hand and c not in self.pinned_now]
            into = self._reshape(hand, want, keep, others)[1]
        if out and into:
            self._swap(deck, self.rng.choice(self._fresh(out)), self.rng.choice(self._fresh(into)))
        raise ValueError("a lay-out this deck cannot have")

    def _reshape(self, hand: list[Card], want: int | None, keep: set[Card],
                 pool: list[Card]) -> tuple[list[Card], list[Card]]:
        """The cards of ``hand`` that may go and those of ``pool`` that may come to bring its shape one
        card nearer ``want`` (cards laid out; None: no suit of three)."""
        counts = Counter(c.suit for c in hand)
        longest = max(counts.values())
        suit = self.rng.choice([s for s in counts if counts[s] == longest])
        if want is None or longest > want:  # too long a suit: one of it out for a card of a short suit
            return ([c for c in hand if c.suit == suit and c not in keep],
                    [c for c in pool if c.suit != suit and counts[c.suit] < 2])
        # Too short: a card of the thinnest other suit out for one of the suit.
        out = [c for c in hand if c.suit != suit and c not in keep]
        if out:
            thin = min(counts[c.suit] for c in out)
            out = [c for c in out if counts[c.suit] == thin]
        return out, [c for c in pool if c.suit == suit]

    def _fresh_deck(self, history: list[Event], hand: list[Card] | None, pinned: set[Card]) -> list[Card]:
        """A deck built to the public events as far as they say (the repairs do the rest):

        - the stock's places in the order they were drawn: a draw answered by the drawer's card of the
          led suit drew that card; any other draw a card of another suit;
        - the own dealt cards (``dealt_known``) in the own places, the own row in its order;
        - each other seat's played cards (not drawn) among its dealt ones, its hand of its lay-out's
          shape; cards nobody has seen fill the rest at random."""
        real = [e for e in history if e.kind not in TABLE_KINDS]
        self._real = real
        found = shapes(real)
        deck: list[Card | None] = [None] * self.cls.deck_size
        if found is None:
            cards = list(_deck_of(self.cls))
            self.rng.shuffle(cards)
            return cards
        eldest, laid = found
        fixed, avoid = self._draws(real)
        for place, card in fixed.items():
            deck[place] = card
        used = set(fixed.values())
        pool = [c for c in _deck_of(self.cls) if c not in pinned]
        self.rng.shuffle(pool)
        seats = {(eldest + k) % PLAYERS: list(range(k, DEALT, PLAYERS)) for k in range(PLAYERS)}
        plays: dict[int, list[Card]] = {}
        for event in real:
            played = event.data.get("card") if event.kind in ("play", "lead") else None
            if isinstance(played, Card) and event.seat is not None and played not in used:
                plays.setdefault(event.seat, []).append(played)
        own = self._own_dealt(pool, used, laid.get(self.seat), deck)
        used.update(own)
        took = self._took(real)
        for card, _ in took.values():
            if card in pool:
                pool.remove(card)
        for seat, places in seats.items():
            cards = own if seat == self.seat else self._dealt_hand(plays.get(seat, []), laid.get(seat), pool, used,
                                                                  took.get(seat))
            order = list(places)
            for place, card in zip(order, cards):
                deck[place] = card
            used.update(cards)
        rest = [c for c in _deck_of(self.cls) if c not in used]
        self.rng.shuffle(rest)
        for place in range(len(deck)):
            if deck[place] is None:
                bad = avoid.get(place)
                pick = next((c for c in rest if c.suit != bad), rest[0])
                rest.remove(pick)
                deck[place] = pick
        if len(set(deck)) != len(deck):  # cannot happen; a shuffle is still a deck the repairs can start from
            deck = list(_deck_of(self.cls))
            self.rng.shuffle(deck)
        return deck  # type: ignore[return-value]

    def _draws(self, real: list[Event]) -> tuple[dict[int, Card], dict[int, object]]:
        """The stock's places a draw shows (place → card) and those that held no card of the led suit."""
        fixed: dict[int, Card] = {}
        avoid: dict[int, object] = {}
        self.refills: dict[int, list[int]] = {}  # giver → the stock's places it drew at its refill
        place, led = DEALT, None
        for i, event in enumerate(real):
            if event.kind == "lead":
                led = event.data["card"].suit
            elif event.kind in ("trick", "lead_failed"):
                led = None
            elif event.kind == "refill":
                drew = int(event.data.get("drew", 0))
                if event.seat is not None:
                    self.refills[event.seat] = list(range(place, place + drew))
                place += drew
            elif event.kind == "draw" and place < self.cls.deck_size:
                answer = next((e for e in real[i + 1:] if e.seat == event.seat or e.kind in ("trick", "lead_failed")),
                              None)
                card = answer.data.get("card") if answer is not None and answer.kind == "play" else None
                if isinstance(card, Card) and card.suit == led:
                    fixed[place] = card
                else:
                    avoid[place] = led
                place += 1
        return fixed, avoid

    def _own_dealt(self, pool: list[Card], used: set[Card], want: int | None, deck: list[Card | None]) -> list[Card]:
        """The own five as dealt, as far as known: the row's cards in their order among them.

        A giver whose first decision came after the exchange (no row left to see) holds then what it
        kept and what it drew at its refill: three of those five go to the stock's places it drew,
        the rest to its own, with the row's suit taken away by the others."""
        known = sorted(self.dealt_known() - used)
        self.own_placed = set()
        view = self.first_view
        drawn = self.refills.get(self.seat, [])
        if view is not None and view["phase"] != "take" and want is not None and drawn and not known:
            seen = [c for c in view["hands"][self.seat] or [] if c not in used]
            untaken = want - len(drawn)
            counts = Counter(c.suit for c in seen)
            suits = [s for s in {c.suit for c in _deck_of(self.cls)} if counts[s] >= untaken]
            if suits and len(seen) == HAND:
                suit = self.rng.choice(sorted(suits, key=str))
                same = [c for c in seen if c.suit == suit]
                self.rng.shuffle(same)
                kept = same[:untaken] + [c for c in seen if c.suit != suit][:HAND - want]
                if len(kept) == HAND - len(drawn):
                    rest = [c for c in seen if c not in kept]
                    self.rng.shuffle(rest)
                    for place, card in zip(drawn, rest):
                        deck[place] = card
                        used.add(card)
                    taken = [self._pop(pool, used, suit) for _ in range(len(drawn))]
                    hand = kept + [c for c in taken if c is not None]
                    self.own_placed = set(kept)
                    self.rng.shuffle(hand)
                    return self._take(hand, pool, used, HAND)
        row = view["layouts"][self.seat] if view is not None and view["phase"] == "take" else None
        if row is None:
            return self._take(known, pool, used, HAND)
        suit, places = row["suit"], row["places"]
        others = [c for c in known if c not in places]
        laid = [c if c is not None else self._pop(pool, used, suit) for c in places]
        hand = others + [c for c in laid if c is not None]
        self.rng.shuffle(hand)
        rows = iter([c for c in laid if c is not None])  # the row's order is the dealt order of its suit
        hand = [next(rows) if c.suit == suit and c in laid else c for c in hand]
        return self._take(hand, pool, used, HAND)

    def _took(self, real: list[Event]) -> dict[int, tuple[Card, int]]:
        """Giver → (the card the seat took from its row, the place): the one card a take decision's view
        gained by the next view (a giver's own refill in between makes it unknown)."""
        views = [v for v in self.deal_views if v["deal_no"] == self.deal_no]
        names = list(views[0]["names"]) if views else []
        places = [int(e.data["place"]) for e in real if e.kind == "take" and e.seat == self.seat]
        takes = iter(zip([e.data["from"] for e in real if e.kind == "take" and e.seat == self.seat], places))
        took: dict[int, tuple[Card, int]] = {}
        for before, after in zip(views, views[1:]):
            if before["phase"] != "take" or before["taking_from"] is None:
                continue
            step = next(takes, None)
            gained = set(after["hands"][self.seat] or []) - set(before["hands"][self.seat] or [])
            if step is not None and len(gained) == 1 and step[0] == names[before["taking_from"]]:
                took[before["taking_from"]] = (gained.pop(), step[1])
        return took

    def _dealt_hand(self, plays: list[Card], want: int | None, pool: list[Card], used: set[Card],
                    took: tuple[Card, int] | None = None) -> list[Card]:
        """Five cards for another seat: its first played cards, of its lay-out's shape; ``took``: the
        card the seat took from its row and the place, so the row's suit and that place are known."""
        if took is not None and want is not None and took[0] not in used:
            hand = self._shaped_hand([c for c in plays if c != took[0]], want, pool, used, took[0].suit, took[0])
            row = [c for c in hand if c.suit == took[0].suit]
            if took[0] in row and took[1] - 1 < len(row):  # the taken card at its place in the row's order
                row.remove(took[0])
                row.insert(took[1] - 1, took[0])
                it = iter(row)
                hand = [next(it) if c.suit == took[0].suit else c for c in hand]
            return hand
        return self._shaped_hand(plays, want, pool, used)

    def _shaped_hand(self, plays: list[Card], want: int | None, pool: list[Card], used: set[Card],
                     suit: object = None, first: Card | None = None) -> list[Card]:
        """Five cards: ``first`` and the first played cards, of the lay-out's shape (of ``suit``)."""
        plays = ([first] if first is not None else []) + [c for c in plays if c not in used]
        counts = Counter(c.suit for c in plays)
        if want is None:
            hand: list[Card] = []
            for card in plays:
                if len(hand) < HAND and sum(c.suit == card.suit for c in hand) < 2:
                    hand.append(card)
            for card in list(pool):
                if len(hand) >= HAND:
                    break
                if card not in used and card not in hand and sum(c.suit == card.suit for c in hand) < 2:
                    hand.append(card)
            return self._take(hand, pool, used, HAND)
        if suit is None:
            suits = list({c.suit for c in _deck_of(self.cls)})
            self.rng.shuffle(suits)
            supply = Counter(c.suit for c in pool if c not in used)
            suit = max(suits, key=lambda s: (min(counts[s], want) + supply[s] >= want, -abs(counts[s] - 1)))
        hand = [c for c in plays if c.suit == suit][:want]
        hand += [c for c in plays if c.suit != suit][:HAND - want]
        while sum(c.suit == suit for c in hand) < want:
            popped = self._pop(pool, used | set(hand), suit)
            if popped is None:
                break
            hand.append(popped)
        for card in pool:
            if sum(c.suit != suit for c in hand) >= HAND - want or len(hand) >= HAND:
                break
            if card not in used and card not in hand and card.suit != suit:
                hand.append(card)
        self.rng.shuffle(hand)
        return self._take(hand, pool, used, HAND)

    def _pop(self, pool: list[Card], used: set[Card], suit: object) -> Card | None:
        card = next((c for c in pool if c.suit == suit and c not in used), None)
        if card is not None:
            pool.remove(card)
        return card

    def _take(self, cards: list[Card], pool: list[Card], used: set[Card], n: int) -> list[Card]:
        """``cards`` (at most ``n``), taken out of ``pool``."""
        cards = [c for c in cards if c not in used][:n]
        for card in cards:
            if card in pool:
                pool.remove(card)
        return cards

    def dealt_known(self) -> set[Card]:
        """The own cards known to be dealt: the hand at the deal's first decision (with the own row
        then on the table) when that came before any exchange reached it, or with no exchange at all."""
        view = self.first_view
        if view is None or view["deal_no"] != self.deal_no:
            return set()  # the seat had no decision in the deal imagined: no first sight of it
        hand = set(view["hands"][self.seat] or [])
        row = view["layouts"][self.seat]
        if view["phase"] == "take":
            return hand | {c for c in (row["places"] if row else []) if c is not None}
        if view["phase"] == "play" and not any(e.kind == "lay_out" for e in self._real):
            return hand
        return set()

    def _replay(self, base: bytes, deck: list[Card], spare: list[list[Card]], history: list[Event],
                own: list[Action], hand: list[Card] | None, pinned: set[Card]) -> World:
        """As ``Shadow._replay``, with what the repairs here read (``_learn``)."""
        self._learn(history, pinned)
        return super()._replay(base, deck, spare, history, own, hand, pinned)

    def advance(self, world: World, history: list[Event], own: list[Action], hand: list[Card] | None,
                pinned: set[Card]) -> World | None:
        self._learn(history, pinned)
        return super().advance(world, history, own, hand, pinned)

    def _learn(self, history: list[Event], pinned: set[Card]) -> None:
        """The public events' facts the repairs read: who played which cards, who drew."""
        real = [e for e in history if e.kind not in TABLE_KINDS]
        self.pinned_now = pinned
        self._real = real
        self.drew = {e.seat for e in real if e.kind == "draw"}
        self.plays: dict[int, set[Card]] = {}
        for event in real:
            if event.kind in ("play", "lead") and event.seat is not None and isinstance(event.data.get("card"), Card):
                self.plays.setdefault(event.seat, set()).add(event.data["card"])

    def _repair_hand(self, deck: list[Card], missing: list[Card], extra: list[Card]) -> None:
        """A missing card for an extra one of its suit where there is one (shapes stay), else any."""
        def owner(card: Card) -> int:  # a hand's places, or the stock's
            place = deck.index(card)
            return place % PLAYERS if place < DEALT else PLAYERS

        pairs = [(m, e) for m in missing for e in extra if owner(m) != owner(e)]  # the same hand's: a reorder
        pairs = [p for p in pairs if p[0].suit == p[1].suit] or pairs or [(missing[0], e) for e in extra]
        self._swap(deck, *self.rng.choice(pairs))

    def _swap(self, deck: list[Card], a: Card, b: Card) -> None:
        """As ``Shadow._swap``; the same swap twice running changed nothing: this deck is given up."""
        if self.last_swap == (a, b) or self.last_swap == (b, a):
            self.last_swap = None
            raise ValueError("a repair that changes nothing")
        self.last_swap = (a, b)
        super()._swap(deck, a, b)

    def _voids(self, seat: int, game: Game) -> set[object]:
        """The suits ``seat`` is shown void in from now on (it draws or passes when they are led)."""
        void: set[object] = set()
        led = None
        for event in self._real[self.at_now:]:
            if event.kind == "lead":
                led = event.data["card"].suit
            elif event.kind in ("draw", "pass") and event.seat == seat and led is not None:
                void.add(led)
        return void

    def _repair_illegal(self, game: Game, deck: list[Card], seat: int, action: Action, pinned: set[Card],
                        future: dict[int, set[Card]]) -> None:
        held = list(game.view(ADMIN)["hands"][seat] or [])
        cards = [c for c in action.args if isinstance(c, Card)]
        keep = set(future.get(seat, set())) | set(cards) | (self.known if seat == self.seat else set())
        for card in cards:
            if card not in held:  # swap it in, for a card it must not hold later, else one of its suit
                free = [c for c in held if c not in keep]
                void = self._voids(seat, game)
                gone = [c for c in free if c.suit in void]
                same = [c for c in free if c.suit == card.suit]
                if gone or same or free:
                    self._swap(deck, card, self.rng.choice(self._fresh(gone or same or free)))
                return
        # It held the led suit yet drew or passed (or the like): that card out, for one still in the stock.
        offending = [a.args[0] for a in game.legal_actions(seat)
                     if a.args and isinstance(a.args[0], Card) and a.args[0] not in keep]
        if not offending:  # only cards it plays later: it drew them later, so they go to the stock
            keep -= future.get(seat, set())
            offending = [a.args[0] for a in game.legal_actions(seat)
                         if a.args and isinstance(a.args[0], Card) and a.args[0] not in keep]
        suits = {c.suit for c in offending}
        ahead = self._draws_ahead(seat)  # the stock's top cards it draws in this trick: not those
        stock = [c for c in game.view(ADMIN).get("stock", [])[ahead:] if c not in pinned and c.suit not in suits]
        if offending and stock:
            self._swap(deck, self.rng.choice(self._fresh(offending)), self.rng.choice(self._fresh(stock)))
        super()._repair_illegal(game, deck, seat, action, pinned, future)

    def _draws_ahead(self, seat: int) -> int:
        """The draws ``seat`` makes from the event being replayed on, before it does anything else."""
        count = 0
        for event in self._real[self.at_now:]:
            if event.seat == seat and event.kind == "draw":
                count += 1
            elif event.seat == seat or event.kind in ("trick", "lead_failed"):
                break
        return count

    def _fresh(self, cards: list[Card]) -> list[Card]:
        """``cards`` but those the last swap moved (else the next swap may just undo it), if any remain."""
        moved = set(self.last_swap or ())
        return [c for c in cards if c not in moved] or cards
