"""A table of the club: seats, spectators, the session of deals, its chat and log.

Interface used by ``tui/`` and ``net/`` (keep these names):

- ``Table(table_id, game_name, options=None, seats=None, *, seed=None)``;
  attributes ``id``, ``game_name``, ``game_cls``, ``options`` (validated),
  ``seats`` (list of names or None), ``spectators`` (set of names),
  ``game`` (the current ``Game`` session or None), ``money`` (name → net
  kopecks at this table over all its sessions), ``pot`` (money on the table),
  ``sealed`` (the ``engine.shuffle.Sealed`` of the next deal between deals,
  of the current one during a deal: its seed is the house's secret until the
  deal ends).
- Provably fair deals (``engine.shuffle``, sukno-shuffle/1): every deal is
  sealed by a fresh 32-byte seed whose seal is told in the log (``fair_seal``)
  when the first player sits at the table and the moment each deal ends;
  ``cut(name, text)`` between the seal and the deal (``fair_cut``: who, not
  the text); the deal and its redeals come from the seed and the cut string;
  when the deal ends its ``DealLog.fair`` is set and the log tells the seed
  and the cut string (``fair_open``).  ``view_for`` shows ``seal`` and
  ``cut_by`` (names), never the seed.
- ``sit(name, seat=None) -> int``, ``stand(name)``, ``watch(name)``,
  ``unwatch(name)``, ``start(name)``, ``act(name, text, now=None)``,
  ``say(name, text)`` — each raises ``TableError`` (an ``IllegalAction``)
  with a one-line reason and then changes nothing.  ``sit``/``sit_bot``/
  ``stand``/``watch``/``unwatch`` are the club's: sessions, the
  admin and bots go through ``engine.table.club.Club.sit`` and its siblings, which
  hold the club's rules (one seat per person, guests never sit, a closing
  table refuses) before the table's own; tests/engine/test_one_door.py
  keeps every other module off them.
- ``view_for(name)``: a seated player's own seat view, everyone else the
  SPECTATOR view (no hidden card, ever).
- ``subscribe(callback) -> unsubscribe``: ``callback(events)`` after every
  change; ``log_since(seq)`` gives the narrated history with sequence numbers,
  so a subscriber may coalesce callbacks and read what it missed.
- ``journal``: the table's ``engine.table.journal.JournalPort``, handed each
  change (the game's ``engine.step.Step``) inside one ``transaction()``
  before any subscriber hears of it: ``NULL_JOURNAL`` without a store, an
  ``engine.table.keeper.TableKeeper`` (also ``keeper``, else None) when
  ``Club(store=…)`` sets one; a failed write shows nothing, rebuilds the table
  from its journal and raises ``TableError("store.failed")``.  When the journal
  cannot be read either (the store is away) the table is put back as its last
  commit left it and **suspended**: every change is refused
  (``store.suspended``), its players and watchers are told (``suspended``),
  and ``tick`` reads the journal again every ``SUSPEND_RETRY`` s until it
  reads, then play goes on (``resumed``): what is in memory is always what
  the journal says, and nothing is written on from a state it lacks.  The table is
  the one writer of its state: ``state()``/``load_state()`` are the settings
  a journal keeps (seats, ready, money, pot…), ``resume`` puts a replayed
  journal back.
- ``deadline()`` / ``tick(now)``: time always comes in as an argument
  (``start``/``act`` take an optional ``now`` too).  It is any monotonic time
  in seconds — ``time.monotonic()``, which is also asyncio's ``loop.time()``;
  a ``clocked`` game (Спекулянт: ``Game.clocked``) is put on that clock at its first
  ``now``.

- Bots, turn clocks and away players (``engine.table.autoplay``): ``settings``
  (``clock``, ``grace``, ``fill``, ``think``, ``takeover``, ``kind``) is a
  constructor argument kept in ``state()``; ``sit_bot(seat=None) -> name``,
  ``bots()``, ``away(name, now)``/``back(name, now)`` (the club calls them),
  ``timer_deadline()`` (what the bar shows).  ``deadline()``/``tick(now)``
  include bot moves, run-out turn clocks and ended graces, each made through
  ``_act``, the path of ``act`` itself, so it is journaled like a person's.

Decisions (why):

- A session of the game starts only when every seat is filled, so a table seat
  is the game's seat.  Seats are fixed while a session lasts; a seated player
  may stand only between deals, and that ends the session (money and the pot
  carry over to the next session, so nothing is created or lost).
- Each deal (the first and every next one) starts when every seated player has
  said ``start`` (alias ``next``): nobody is dealt into a hand while away.
- A player who disconnects keeps his seat for the table's grace (``away``);
  nothing here knows about sessions, the club tells the table.
- Events of the game are public by the protocol; table events (``sit``,
  ``say``…) carry the player's ``name`` in ``data``.  The log keeps, with each
  event, the names of the seats at that moment, so narration stays right after
  the seats change.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, ClassVar, ContextManager, Iterator, Mapping, Sequence

from engine.botnames import bot_name, is_bot
from engine.table.autoplay import MAX_MOVES_PER_TICK, Autopilot, Settings, Snapshot
from engine.feed import Callback, Feed, LogEntry
from engine.game import SPECTATOR, Action, Event, Game, IllegalAction
from engine.games import get_game
from engine.table.journal import NULL_JOURNAL, JournalPort
from engine.table.pending import Answer
from engine.shuffle import MAX_CUT, FairError, Sealed, SealedDecks, check_cut, new_seed, repeatable_seed
from engine.table.social import RAIL_KEEP, Seating, name_key
from engine.table.speech import Speech
from engine.store.base import NotEnoughMoney, StoreError
from engine.view import Snapshot as ScreenSnapshot
from engine.view import TableFacts, build_view

log = logging.getLogger("sukno.table")


MAX_CHAT = 300
"""Longest chat line kept (characters); longer lines are cut."""

SUSPEND_RETRY = 1.0
"""Seconds between reads of a suspended table's journal (the store was away): play resumes by itself."""


class TableError(IllegalAction):
    """A table operation refused now; ``key``/``params`` name the catalogue text."""

    def __init__(self, key: str, message: str, **params: Any):
        super().__init__(message, key=key, params=params)


_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]")


MAX_MARKS = 2
"""Combining marks kept on one character (a Zalgo line of hundreds of marks draws over everyone's screen)."""


def sanitize(text: str, limit: int = MAX_CHAT) -> str:
    """Chat text safe to draw in anyone's terminal: no escapes, no control characters, at most
    ``MAX_MARKS`` combining marks on a character (the rest dropped), capped."""
    text = _ESCAPES.sub("", str(text))
    kept = []
    marks = MAX_MARKS  # none before the first character
    for ch in text:
        cat = unicodedata.category(ch)
        if cat.startswith("M"):
            if marks < MAX_MARKS:
                kept.append(ch)
                marks += 1
            continue
        marks = 0
        if ch in "\t\n\r" or cat.startswith("Z"):
            kept.append(" ")
        elif not cat.startswith("C"):
            kept.append(ch)
        else:
            marks = MAX_MARKS
    clean = " ".join("".join(kept).split())
    return clean[:limit]


def _no_view(seat: int) -> dict[str, Any]:
    return {}


def _no_legal(seat: int) -> list[Action]:
    return []


class Table:
    """One table of the club (see the module docstring for the contract)."""

    owned_here: ClassVar[bool] = True
    """This node runs the table (a ``RemoteTable``: another node does, and judges who is away)."""

    def __init__(
        self,
        table_id: int,
        game_name: str,
        options: dict[str, Any] | None = None,
        seats: int | None = None,
        *,
        seed: int | None = None,
        allow_debt: bool = False,
        settings: dict[str, Any] | None = None,
    ):
        self.id = table_id
        settings = dict(settings or {})
        rules = {k: settings.pop(k) for k in Seating.KEYS if k in settings}
        try:
            self.seating = Seating.make(rules)
            self.auto = Autopilot(Settings.make(settings))
        except ValueError as err:
            raise TableError("table.bad_setting", str(err), reason=str(err)) from None
        self.allow_debt = bool(allow_debt)
        self.journal: JournalPort = NULL_JOURNAL
        """Where every change is written before anyone sees it (``engine.table.journal``); the club sets a keeper."""
        self.game_name = game_name
        self.game_cls: type[Game] = get_game(game_name)
        self.options: dict[str, Any] = self.game_cls.make_options(options)
        low, high = self.game_cls.player_range(self.options)
        count = low if seats is None else int(seats)
        if not low <= count <= high:
            raise TableError(
                "table.bad_seats", f"{self.game_cls.title['en']} is played by {low}–{high} players, not {count}",
                low=low, high=high, count=count,
            )
        self.seats: list[str | None] = [None] * count
        self.spectators: set[str] = set()
        self.watched: set[str] = set()
        """Who watched since the last record was kept (here or on another node): they may analyse it."""
        self._watching: dict[str, int] = {}  # sessions of each spectator: two of one account count once
        self.ready: set[str] = set()
        self.by_ear: set[str] = set()
        """Those of ``ready`` who said so from the text mode: a session that starts with one of them
        gets the game's ``by_ear_options`` (a longer Спекулянт window)."""
        self.game: Game | None = None
        self.money: dict[str, int] = {}
        self.carried_pot = 0
        self.closing = False  # set by the house (close --after-deal, shutdown): no new deal starts
        self._seed = seed  # tests and benches: repeatable seeds (engine.shuffle.repeatable_seed); None: secrets
        self.sealed: Sealed | None = None
        self._seals = 0  # seals drawn at this table (the repeatable seeds are numbered by it)
        self.first_drawn = False  # R3/R33: the table's first dealer has been drawn
        self._decks: SealedDecks | None = None  # the current deal's, while it is dealt from ``sealed``
        self._fair_told: list[Event] = []
        self._dealer = 0
        self.feed = Feed()
        self.robots: set[str] = set()
        """Bot accounts (the club's ``robots``, shared): the view lists those seated here as ``robots``."""
        self.rail = Feed(keep=RAIL_KEEP)
        """The watchers' own talk during a deal: never in ``feed`` while the deal lasts."""
        self._rail_deal: list[tuple[str, str]] = []
        self.speech: Speech | None = None
        """Set by the club: the one gate a person's words pass (``engine.table.speech``)."""
        self.suspended = False
        """The store could not be read after a failed write: nothing is written until the journal reads."""
        self._retry_at = 0.0  # when ``tick`` next reads a suspended table's journal (the table's clock)

    # -- who is here ----------------------------------------------------------------

    @property
    def keeper(self) -> JournalPort | None:
        """The stored table's port (an ``engine.table.keeper.TableKeeper``), None without a store."""
        return None if self.journal is NULL_JOURNAL else self.journal

    @keeper.setter
    def keeper(self, keeper: JournalPort | None) -> None:
        self.journal = NULL_JOURNAL if keeper is None else keeper

    def _check_funds(self, name: str) -> None:
        """R5: the table's zero rule for ``name``, as the journal's store sees his club balance."""
        try:
            self.journal.check_funds(name)
        except NotEnoughMoney as err:
            raise TableError(err.key, err.message, **err.params) from None

    @property
    def title(self) -> dict[str, str]:
        return dict(self.game_cls.title)

    def names(self) -> list[str]:
        """Seat names for narration ("" for an empty seat)."""
        return [n or "" for n in self.seats]

    @property
    def verbs(self) -> Mapping[str, str]:
        """The game's verbs and their argument kinds (``Game.verbs``)."""
        return self.game_cls.verbs

    def seat_of(self, name: str) -> int | None:
        return self.seats.index(name) if name in self.seats else None

    def seated(self) -> list[str]:
        return [n for n in self.seats if n]

    def full(self) -> bool:
        return all(self.seats)

    def in_deal(self) -> bool:
        return self.game is not None and self.game.in_deal

    @property
    def pot(self) -> int:
        """Money lying on the table (pot or kitty)."""
        return self.game.pot if self.game is not None else self.carried_pot

    def sit(self, name: str, seat: int | None = None) -> Answer[int]:
        """Take a seat (the first free one by default); returns the seat number.

        The club's (``Club.sit`` checks the club's rules first): nobody else calls it."""
        if name in self.seats:
            raise TableError("table.already_seated", f"You already sit at table {self.id}; stand gives up that seat.",
                             table=self.id)
        if self.game is not None:
            if None not in self.seats:  # full is the reason that matters, in a deal or between deals
                raise TableError("table.full", f"Table {self.id} is full; watch {self.id} lets you watch it.",
                                 table=self.id)
            raise TableError("table.session_running", "A game is in progress at this table; wait for its end.")
        if not is_bot(name):
            self.check_sit(name)
            self._bot_makes_room(seat)
        if seat is None:
            free = [i for i, n in enumerate(self.seats) if n is None]
            if not free:
                raise TableError("table.full", f"Table {self.id} is full; watch {self.id} lets you watch it.",
                                 table=self.id)
            seat = free[0]
        if not 0 <= seat < len(self.seats):
            raise TableError("table.no_seat", f"There is no seat {seat + 1} here.", seat=seat + 1)
        if self.seats[seat] is not None:
            raise TableError("table.seat_taken", f"Seat {seat + 1} is taken.", seat=seat + 1)
        self._check_funds(name)
        with self._saving() as told:
            if not self.seated() and not is_bot(name):
                self.seating.host = name  # the first to sit at an empty table sets its rules
            self.seats[seat] = name
            self.spectators.discard(name)
            self._watching.pop(name, None)
            self.money.setdefault(name, 0)
            told += [Event("sit", seat, {"name": name})] + (self._seal_next() if self.sealed is None else [])
        self.auto.forget(name)
        self._emit(told)
        if self.full() and any(not is_bot(n) for n in self.ready) \
                and all(n in self.ready or is_bot(n) for n in self.seated()):
            with self._saving() as started:  # said start before the last seat was taken: it need not wait again
                started += self._start_deal(None)
            self._emit(started, None)
        return seat

    def sit_bot(self, seat: int | None = None) -> Answer[str]:
        """Seat a bot (the first free seat by default); returns its name (``engine.table.autoplay``)."""
        name = bot_name(self.seats)
        self.sit(name, seat)
        return name

    def bots(self) -> list[str]:
        """The names a bot plays for now: bot seats and away players with a stand-in."""
        return [n for n in self.seated() if is_bot(n)] + [n for n in self.auto.stand_ins(None) if n in self.seats]

    def _bot_makes_room(self, seat: int | None) -> None:
        """A person wants a seat a bot holds (or the table is full only with bots): the bot stands."""
        if seat is None and None not in self.seats:
            bots = [n for n in self.seats if n is not None and is_bot(n)]
            if bots:
                self.stand(bots[-1])
        elif seat is not None and 0 <= seat < len(self.seats):
            holder = self.seats[seat]
            if holder is not None and is_bot(holder):
                self.stand(holder)

    def stand(self, name: str) -> Answer[None]:
        """Leave one's seat; refused during a deal. Ends the session (money carries over).
        A ``RemoteTable``'s answer comes later: its ``Pending``."""
        self._stand(name, [])
        return None

    def _stand(self, name: str, before: list[Event]) -> None:
        """``stand``, with ``before`` told ahead in the same commit (his grace ran out: ``gone``)."""
        seat = self.seat_of(name)
        if seat is None:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if self.in_deal():
            raise TableError("table.in_deal", "You cannot stand up in the middle of a deal.")
        told_names = tuple(self.game.names) if self.game is not None else None
        with self._saving() as told:
            told += before + (self._end_session() if self.game is not None else [])
            self.seats[seat] = None
            self.ready.discard(name)
            self.by_ear.discard(name)
            people = [n for n in self.seated() if not is_bot(n)]
            if self.seating.host == name:
                self.seating.host = people[0] if people else None
            if not people:
                self.seating.invited.clear()
            told.append(Event("stand", seat, {"name": name}))
        self.auto.forget(name)
        # The session's last words (Копилка's payout to each seat, R16) are told with its names: his seat
        # is empty by now, and «получает 10 к.» would say whose money it is to nobody.
        self._emit(told, names=told_names)
        if not is_bot(name) and self.seated() and all(is_bot(n) for n in self.seated()):
            for bot in self.seated():  # bots do not keep a table nobody plays at
                self.stand(bot)

    # -- who may sit and watch (engine.table.social.Seating) ---------------------------------

    def may_watch(self, name: str) -> str | None:
        """None if ``name`` may watch, else the catalogue key of the refusal."""
        rules = self.seating
        if name in self.seats or rules.invited_key(name):
            return None
        if rules.watchers == "none":
            return "table.no_watchers"
        if rules.private or rules.watchers == "friends":
            return "table.invite_only"
        return None

    def check_watch(self, name: str) -> None:
        key = self.may_watch(name)
        if key == "table.no_watchers":
            raise TableError(key, f"Table {self.id} takes no watchers.", table=self.id)
        if key:
            raise TableError(key, f"Table {self.id} is private: only those invited may watch or sit.",
                             table=self.id)

    def check_sit(self, name: str) -> None:
        rules = self.seating
        people = [n for n in self.seated() if not is_bot(n)]
        if rules.private and people and not rules.invited_key(name):
            raise TableError("table.invite_only", f"Table {self.id} is private: only those invited may watch or sit.",
                             table=self.id)

    def set_rule(self, name: str, key: str, value: Any) -> Answer[None]:
        """``table private`` and friends: only the table's host (the first to sit), between deals."""
        if name not in self.seats:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if self.seating.host is not None and name != self.seating.host:
            raise TableError("table.not_host", f"Only {self.seating.host}, who sat here first, sets this table's rules.",
                             host=self.seating.host)
        try:
            Seating().set(key, value)  # checked before anything is written
        except ValueError as err:
            raise TableError("table.bad_setting", str(err), reason=str(err)) from None
        with self._saving() as told:
            self.seating.set(key, value)
            value = getattr(self.seating, key)
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            told.append(Event("rule", None, {"name": name, "rule": key, "value": shown}))
        self._emit(told)
        return None

    def invite(self, name: str, guest: str) -> Answer[None]:
        """A seated player lets ``guest`` sit or watch at a private table (or one for friends only)."""
        if name not in self.seats:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if name_key(guest) == name_key(name):
            raise TableError("table.invite_self", "You sit here already.")
        with self._saving() as told:
            self.seating.invited.add(guest)
            told.append(Event("invite", None, {"name": name, "guest": guest}))
        self._emit(told)
        return None

    def watch(self, name: str) -> None:
        """One more session of ``name`` watches; the first one makes him a spectator."""
        if name in self.seats:
            return
        if name not in self.spectators:
            self.check_watch(name)
        self._watching[name] = self._watching.get(name, 0) + 1
        self.watched.add(name)
        if name in self.spectators:
            return
        self.spectators.add(name)
        self._emit([Event("watch", None, {"name": name})])

    def unwatch(self, name: str, every: bool = False) -> None:
        """One session of ``name`` stops watching (``every``: all of them); he goes with the last."""
        if name not in self.spectators:
            return
        left = 0 if every else self._watching.get(name, 1) - 1
        if left > 0:
            self._watching[name] = left
            return
        self._watching.pop(name, None)
        self.spectators.discard(name)
        self._emit([Event("unwatch", None, {"name": name})])

    def say(self, name: str, text: str) -> Answer[bool]:
        """Chat at the table; a watcher's words during a deal go to the rail (True), never to the players."""
        clean = sanitize(text)
        if not clean:
            raise TableError("chat.empty", "Say what? Type say and your words.")
        if self.speech is not None:
            self.speech.words(name)
        if name not in self.seats and self.in_deal():
            self.rail.publish([Event("rail", None, {"name": name, "text": clean})])
            if self.seating.rail == "after" and len(self._rail_deal) < RAIL_KEEP:
                self._rail_deal.append((name, clean))
            self.feed.notify([Event("rail", None, {})])  # watchers redraw; nothing of it is in the log
            self._heard(name, "rail", clean)
            return True
        self._emit([Event("say", None, {"name": name, "text": clean})])
        self._heard(name, "table", clean)
        return False

    def _heard(self, name: str, place: str, text: str) -> None:
        """Words said here, for the house's chat log (``engine.table.chatlog``)."""
        if self.speech is not None:
            self.speech.log.heard(name, place, text, table=self.id if isinstance(self.id, int) else None)

    # -- deals ----------------------------------------------------------------------

    def can_start(self) -> bool:
        return self.full() and not self.in_deal()

    def start(self, name: str, now: float | None = None, by_ear: bool = False) -> Answer[list[Event]]:
        """Say one is ready; the deal starts when every seat is filled and everyone is ready.  ``by_ear``:
        he said so from the text mode (a session starting now gives him time to hear a window out)."""
        if name not in self.seats:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if self.in_deal():
            raise TableError("table.in_deal_start", "A deal is being played now.")
        if self.closing:
            raise TableError("table.closing", "The house is closing this table; no new deal starts.")
        if not is_bot(name):  # R5: a table at_zero="refuse" deals in only who can pay its stake
            self._check_start_funds(name)  # from his club balance now, not only when he sat down
        if self.auto.settings.fill and self.game is None:
            while not self.full():
                self.sit_bot()
        with self._saving() as told:
            self.ready.add(name)
            (self.by_ear.add if by_ear else self.by_ear.discard)(name)
            told.append(Event("table_ready", self.seat_of(name), {"name": name}))
            if self.full() and all(n in self.ready or is_bot(n) for n in self.seated()):
                told += self._start_deal(now)
        self._emit(told, now)
        return told

    def _check_start_funds(self, name: str) -> None:
        """R5 before a deal: who cannot pay the stake is not dealt in.  The table is not left waiting
        in silence: everyone is told why no deal comes and the way on (he stands up, or the house
        grants money), and he is told the same in his refusal."""
        try:
            self.journal.check_funds(name)
        except NotEnoughMoney as err:
            balance, stake = int(err.params.get("balance", 0)), int(err.params.get("needed", 0))
            with self._saving() as told:  # journaled as all that is told, so every node's players hear it
                told.append(Event("cannot_pay", self.seat_of(name), {"name": name, "stake": stake, "funds": balance}))
            self._emit(told)
            raise TableError("money.cannot_start", f"Your club balance is {balance} kopecks and the next deal's "
                             f"stake is {stake}; this table does not allow debt (R5). Type stand to free your "
                             "seat, or ask the house to grant money.",
                             have_money=balance, stake_money=stake) from None

    # -- sealed deals (engine.shuffle) ------------------------------------------------

    def cut(self, name: str, text: str) -> Answer[bool]:
        """``cut TEXT``: a seated player's cut of the next deal (again: replaces his own); True if replaced."""
        seat = self.seat_of(name)
        if seat is None:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if self.in_deal():
            raise TableError("fair.cut_in_deal", "This deal is dealt already; cut the next one when it ends.")
        try:
            clean = check_cut(str(text).strip())
        except FairError:
            raise TableError("fair.cut_bad", f"A cut is 1–{MAX_CUT} printable characters, e.g. cut верба 42.",
                             limit=MAX_CUT) from None
        if self.speech is not None:
            clean = self.speech.cut(name, clean)
        with self._saving() as told:
            told += self._seal_next() if self.sealed is None else []
            assert self.sealed is not None
            again = self.sealed.cut(name, clean)
            told.append(Event("fair_recut" if again else "fair_cut", seat, {"name": name}))
        self._emit(told)
        return again

    def _seal_next(self) -> list[Event]:
        """Seal the next deal: a fresh seed, its seal told now, before anyone cuts or is dealt."""
        seed = new_seed() if self._seed is None else repeatable_seed(self._seed, self._seals)
        self._seals += 1
        self.sealed = Sealed(seed)
        return [Event("fair_seal", None, {"seal": self.sealed.seal})]

    def _settle_fair(self) -> None:
        """The deal dealt from ``sealed`` has ended: its record gets ``fair``, the log the seed, the next deal a seal.

        Called before the keeper writes the change that ended the deal, so the
        record saved with it carries ``fair``; idempotent.
        """
        game, sealed = self.game, self.sealed
        if game is None or game.in_deal or not game.deals or game.deals[-1].fair is not None:
            return
        if sealed is None or self._decks is None:
            return
        fair = sealed.fair()
        game.deals[-1].fair = fair
        self.journal.revealed(game.deal_no, fair)
        self._decks = None
        self._fair_told = [Event("fair_open", None, {"seal": fair["seal"], "seed": fair["seed"],
                                                     "cut": fair["cut"]})] + self._seal_next()

    def _start_deal(self, now: float | None) -> list[Event]:
        by_ear = bool(self.by_ear & set(self.seated()))
        self.ready.clear()
        self.by_ear.clear()
        drawn = self._seal_next() if self.sealed is None else []
        sealed = self.sealed
        assert sealed is not None
        if self.game is None:
            if not self.first_drawn:
                # R3 (R33 for Стуколка): the table's first dealer by lot, drawn from the first deal's sealed
                # seed and cut string with the label "first-dealer" (engine.shuffle.lot_for), never a deck's j:
                # recorded with the deal's fair and checkable once its seed is shown.
                self._dealer, lot = self.game_cls.draw_first_dealer(len(self.seats), sealed.lot())
                drawn += lot
                self.first_drawn = True
            options = self.game_cls.by_ear_options(self.options) if by_ear else self.options
            self.game = self.game_cls(self.names(), options, dealer=self._dealer, pot=self.carried_pot)
            self.journal.session_started(self.game)
        self._clock(now)
        self._decks = sealed.decks(self.game_cls.deck_size)
        step = self.game.deal_step(self._decks)
        self._settle_fair()
        self.journal.dealt(step, now)
        return drawn + list(step.events) + self._after_action()

    def _after_action(self) -> list[Event]:
        """Book a finished deal (its seed shown, the next deal sealed) and a finished session."""
        game = self.game
        if game is None or game.in_deal:
            return []
        self._settle_fair()
        deal = game.deals[-1]
        money = {game.names[i]: deal.money[i] for i in range(game.n)}
        events = [Event("deal_over", None, {"money": money, "pot": game.pot})] + self._fair_told
        self._fair_told = []
        if self._rail_deal:  # the rail's words, told to the players now that the deal is over
            events.append(Event("rail_summary", None, {"lines": [list(x) for x in self._rail_deal]}))
            self._rail_deal = []
        if game.is_over():
            events += self._end_session()
        return events

    def _end_session(self) -> list[Event]:
        game = self.game
        assert game is not None
        closing = game.close_step()  # money the game must not leave on the table (Копилка's kitty, R16)
        told: list[Event] = []
        if closing is not None:
            self.journal.ticked(closing, None)
            told = list(closing.events)
        for i, who in enumerate(game.names):
            self.money[who] = self.money.get(who, 0) + game.balances[i]
        self.carried_pot = game.pot
        self._dealer = game._next_dealer() if game.deals else game.dealer
        self.game = None
        self._decks = None
        self.journal.session_over(game)
        return told + [Event("session_over", None, {"balances": dict(zip(game.names, game.balances))})]

    def balance(self, name: str) -> int:
        """Net money of ``name`` at this table, the running session included."""
        total = self.money.get(name, 0)
        if self.game is not None and name in self.game.names:
            total += self.game.balances[self.game.names.index(name)]
        return total

    def act(self, name: str, text: str, now: float | None = None) -> Answer[list[Event]]:
        """Perform a game action typed by ``name``; raises ``IllegalAction`` with the reason."""
        return self._act(name, text, now)

    def _act(self, name: str, text: str | Action, now: float | None, before: list[Event] | None = None) -> list[Event]:
        """The one path of every game action (a person's, a bot's, a run-out clock's): journaled, then shown.

        ``before``: table events told just ahead of the action's own ("X's time ran out").
        """
        seat = self.seat_of(name)
        if seat is None:
            raise TableError("table.not_seated", "You do not sit at this table.")
        if self.game is None or not self.game.in_deal:
            raise TableError("table.no_deal", "No deal is being played; type start when you are ready.")
        with self._saving() as pending:
            self._clock(now)
            ticked = self.game.tick_step(now) if now is not None else None
            if ticked is not None:
                self._settle_fair()
                self.journal.ticked(ticked, now)
                pending += list(ticked.events) + self._after_action()
        if pending:
            self._emit(pending, now)
            if self.game is None or not self.game.in_deal:
                raise TableError("table.no_deal", "No deal is being played; type start when you are ready.")
        self._check_promises(seat, text)
        with self._saving() as events:
            step = self.game.apply_step(seat, text)
            self._settle_fair()
            self.journal.applied(step, now)
            events += list(before or []) + list(step.events) + self._after_action()
        self._emit(events, now)
        return events

    def _check_promises(self, seat: int, text: str | Action) -> None:
        """R5 at a table that forbids debt: no action may promise money its payer does not have
        (Спекулянт's bid, R64, and the buyer's side when the holder accepts it)."""
        game = self.game
        if self.allow_debt or game is None:
            return
        promised = game.promises(seat, text)
        if not promised:
            return
        action = game.parse_action(text) if isinstance(text, str) else text
        if game.why_not(seat, action) is not None:
            return  # the rules' own reason comes first
        for payer, amount in promised.items():
            who = game.names[payer]
            have = self.journal.funds(who)
            if have is None or amount <= have:
                continue
            if payer == seat:
                raise TableError("money.bid_over", f"You have {have} kopecks in the club; a bid of {amount} would "
                                 f"promise money you do not have (R5, R64). Bid at most {max(have, 0)}.",
                                 price_money=amount, have_money=have, most=max(have, 0),
                                 most_money=max(have, 0))
            raise TableError("money.buyer_short", f"{who} has {have} kopecks in the club and cannot pay the "
                             f"{amount} of the bid (R5, R64); accept another bid or let the window close.",
                             name=who, price_money=amount, have_money=have)

    def _clock(self, now: float | None) -> None:
        """Put a game that runs on a live clock (Спекулянт's windows) on the table's time."""
        game = self.game
        if now is not None and game is not None and game.clocked and not game.live_clock:
            game.start_clock(now)

    def legal_actions(self, name: str) -> list:
        seat = self.seat_of(name)
        if seat is None or self.game is None:
            return []
        return self.game.legal_actions(seat)

    def why_not(self, name: str, action: Action) -> IllegalAction | None:
        """``Game.why_not`` for a seated player: the reason a rule bars ``action`` now, or None."""
        seat = self.seat_of(name)
        if seat is None or self.game is None:
            return None
        return self.game.why_not(seat, action)

    def deadline(self) -> float | None:
        """When ``tick`` is next needed: the game's own timer, a bot's move, a turn clock, a grace.
        A suspended table: its next read (a ``RemoteTable`` has none: its owner runs them)."""
        if self.suspended:
            return self._retry_at
        own = self.game.deadline() if self.game is not None and self.game.in_deal else None
        times = [own, self.auto.deadline(self.snapshot())]
        known = [t for t in times if t is not None]
        return min(known) if known else None

    def timer_deadline(self) -> float | None:
        """The end of the time shown as a bar: the game's window, or a person's turn clock."""
        own = self.game.deadline() if self.game is not None and self.game.in_deal else None
        times = [own, self.auto.timer(self.snapshot())]
        known = [t for t in times if t is not None]
        return min(known) if known else None

    def away(self, name: str, now: float | None, kind: str = "away") -> None:
        """``name``'s last session left (or he typed ``away``, kind ``stepped_away``): he keeps his seat
        for the grace, a stand-in plays meanwhile."""
        seat = self.seat_of(name)
        if seat is None or is_bot(name) or name in self.auto.away:
            return
        if not self.suspended:  # suspended, the journal is not written: his readiness stays as it says
            with self._saving():  # what he is told is relayed over the bus, as back is: not journaled
                self.ready.discard(name)
                self.by_ear.discard(name)
        self.auto.went_away(name, now)
        self._emit([Event(kind, seat, {"name": name})], now)

    def back(self, name: str, now: float | None = None) -> None:
        """``name`` is online again: his seat and his turns are his."""
        if name not in self.auto.away:
            return
        self.auto.forget(name)
        seat = self.seat_of(name)
        if seat is not None:
            self._emit([Event("back", seat, {"name": name})], now)

    def snapshot(self) -> Snapshot:
        """What the autopilot reads of the table now (``engine.table.autoplay.Snapshot``): it never holds the table."""
        game = self.game
        if game is None or not game.in_deal:
            names = tuple(game.names) if game is not None else tuple(self.names())
            return Snapshot(self.id, self.game_name, self._seed, tuple(self.seats), False, None, (), names, None,
                            _no_view, _no_legal)
        turn = self._turn()
        assert turn is not None
        return Snapshot(self.id, self.game_name, self._seed, tuple(self.seats), True, turn, turn[3],
                        tuple(game.names), turn[4], game.view, game.legal_actions)

    def _turn(self) -> tuple | None:
        """What identifies the turn in play (``Snapshot.turn``): a new one restarts the autopilot's timers."""
        game = self.game
        if game is None or not game.in_deal:
            return None
        return (id(game), len(game.deals), len(game.deals[-1].actions), tuple(game.to_act()), game.deadline())

    def change_role(self, kind: type[Table]) -> None:
        """This table is now owned here (``Table``) or by another node (``engine.table.remote.RemoteTable``):
        the same state under the other kind, in place, so every screen and session holding it keeps it."""
        if not issubclass(kind, Table):
            raise TypeError(f"a table cannot become a {kind.__name__}")
        self.__class__ = kind

    def restart_clocks(self, now: float | None) -> None:
        """A restored table: a bot's move or a turn clock counts from ``now``, and so do the grace and the
        stand-in of one away since a time this table never knew (a replica's mirror, now taken over)."""
        self.auto.note(self._turn(), now)
        for name in self.away_now():
            if self.auto.away.get(name) is None:
                self.auto.went_away(name, now)

    def _autoplay(self, now: float) -> list[Event]:
        """Make what ``engine.table.autoplay`` says is due: bot moves, run-out clocks, a grace's end."""
        out: list[Event] = []
        for _ in range(MAX_MOVES_PER_TICK):
            self.auto.note(self._turn(), now)
            move = self.auto.next_move(self.snapshot(), now)
            if move is None:
                break
            kind, arg = move
            try:
                if kind == "gone":
                    seq = self.last_seq
                    self._stand(arg, [Event("gone", self.seat_of(arg), {"name": arg})])
                    out += [e.event for e in self.log_since(seq)]
                    continue
                name, action = arg
                if kind == "clock":
                    before = [Event("timeout", self.seat_of(name),
                                    {"name": name, "action": [action.verb, *action.args]})]
                else:
                    before = self.auto.told(name)
                out += self._act(name, action, now, before)
            except IllegalAction as err:
                log.log(logging.DEBUG if str(getattr(err, "key", "")).startswith("store.") else logging.WARNING,
                        "table %s: %s could not be made: %s", self.id, kind, err)
                if kind != "gone" and not str(getattr(err, "key", "")).startswith("store."):
                    # (a store that refused is no illegal move: the next tick tries it again)
                    self.auto.give_up(self.seat_of(arg[0]))  # not again until the turn changes
                break
        return out

    def tick(self, now: float) -> list[Event]:
        if self.suspended:
            if now < self._retry_at:
                return []
            self._retry_at = now + SUSPEND_RETRY
            if not self._read_journal_again():
                return []
            self.restart_clocks(now)  # a bot or a turn clock counts from now, not from before the outage
        if not self.in_deal():
            return self._autoplay(now)
        assert self.game is not None
        try:
            with self._saving() as events:
                self._clock(now)
                step = self.game.tick_step(now)
                if step is not None:
                    self._settle_fair()
                    self.journal.ticked(step, now)
                    events += list(step.events) + self._after_action()
        except TableError:
            return []  # not saved, so not shown; the next tick tries again
        if events:
            self._emit(events, now)
        return events + self._autoplay(now)

    # -- what a journal keeps --------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table's own settings and state outside the game (JSON), for its journal."""
        return {
            "seats": list(self.seats), "ready": sorted(self.ready), "by_ear": sorted(self.by_ear),
            "money": dict(self.money),
            "carried_pot": self.carried_pot, "dealer": self._dealer, "seed": self._seed,
            "seals": self._seals, "first_drawn": self.first_drawn,
            # the seed of the next (or current) deal: the journal keeps it secret until the deal ends
            "sealed": self.sealed.secret_json() if self.sealed is not None else None,
            "allow_debt": self.allow_debt, "settings": self.auto.settings.to_json(),
            "seating": self.seating.to_json(),
        }

    def load_state(self, state: dict[str, Any]) -> None:
        """Put back what ``state()`` gave (seats must fit this table)."""
        seats = list(state.get("seats", self.seats))
        if len(seats) != len(self.seats):
            raise ValueError(f"table {self.id} has {len(self.seats)} seats, the journal {len(seats)}")
        self.seats = [str(n) if n else None for n in seats]
        self.ready = {str(n) for n in state.get("ready", [])}
        self.by_ear = {str(n) for n in state.get("by_ear", [])} & self.ready
        self.money = {str(k): int(v) for k, v in state.get("money", {}).items()}
        self.carried_pot = int(state.get("carried_pot", 0))
        self._dealer = int(state.get("dealer", 0))
        self._seed = state.get("seed")
        self._seals = int(state.get("seals", 0))
        self.first_drawn = bool(state.get("first_drawn", state.get("seeds")))  # "seeds": journals before sealing
        self.sealed = Sealed.from_json(state["sealed"]) if state.get("sealed") else None
        self.allow_debt = bool(state.get("allow_debt", self.allow_debt))
        if "settings" in state:
            self.auto.settings = Settings.make(state["settings"])
        if isinstance(state.get("seating"), dict):
            self.seating.load(state["seating"])

    def resume(self, state: dict[str, Any], game: Game | None, told: Sequence[Event] = ()) -> None:
        """Go on as a journal left the table: its state, the session replayed (``engine.table.keeper``).

        A deal in play goes on dealing from its sealed seed (a redeal after the
        restart is the seed's next deck); ``told`` (the events of that deal so
        far) goes back into the log, so a player back at his seat reads the story.
        """
        self.load_state(state)
        self.game = game
        self._decks = None
        if game is not None and game.in_deal and self.sealed is not None:
            self._decks = self.sealed.decks(self.game_cls.deck_size, drawn=len(game.deals[-1].decks))
            game.deal_from(self._decks)
        self._emit(list(told))

    def _saving(self) -> ContextManager[list[Event]]:
        """One operation's writes in one commit; a failed commit shows nothing and rebuilds the table.
        It gives the list of what the operation will show: journaled with the commit (``told``), so a
        replica tells just that; the caller shows it once the block is done.

        Without a store nothing is written and nothing can fail: no guard (it is on every action's path)."""
        return nullcontext([]) if self.journal is NULL_JOURNAL else self._committing()

    @contextmanager
    def _committing(self) -> Iterator[list[Event]]:
        journal = self.journal
        if self.suspended:
            raise TableError("store.suspended", "This table waits for the club's books, which it cannot reach; "
                             "nothing can be played until it can. Play resumes by itself.")
        try:
            with journal.transaction():
                told: list[Event] = []
                yield told
                if told:
                    journal.told(told)
        except StoreError as err:
            try:
                journal.rebuild()
                log.error("table %s: not saved, so not shown: %s", self.id, err)
            except StoreError as unread:
                self._suspend(unread, err)
            except Exception:
                log.exception("table %s: cannot be rebuilt from its journal", self.id)
                self._suspend(err)
            if journal.gone:  # the database file vanished: trying again will not help
                raise TableError("store.gone", "The club's book is gone from the disk; nothing can be written "
                                 "until the house restarts the club. That did not happen.") from None
            raise TableError(
                "store.failed", "The club could not write that down, so it did not happen; try again."
            ) from None

    def _suspend(self, err: Exception, lost: Exception | None = None) -> None:
        """The journal could not be read after a failed write: refuse every change until it can, and say
        so (one line: the write ``lost`` and why the journal cannot be read)."""
        if self.suspended:
            return
        self.suspended = True
        self._retry_at = 0.0  # the next tick tries at once, then every SUSPEND_RETRY s
        log.error("table %s: %ssuspended until its journal can be read: %s", self.id,
                  "" if lost is None else "a write was not saved, so not shown; ", getattr(err, "message", err))
        self._emit([Event("suspended", None, {"table": self.id})])

    def _read_journal_again(self) -> bool:
        """A suspended table: read its journal; True (and play goes on) once it reads."""
        try:
            self.journal.rebuild()
        except StoreError as err:
            log.debug("table %s: its journal still cannot be read: %s", self.id, err)
            return False
        except Exception:
            log.exception("table %s: cannot be rebuilt from its journal", self.id)
            return False
        self.suspended = False
        log.warning("table %s: its journal reads again; play resumes", self.id)
        self._emit([Event("resumed", None, {"table": self.id})])
        return True

    # -- what may be seen -----------------------------------------------------------

    def view_for(self, name: str | None) -> dict[str, Any]:
        """The view of ``name``: his seat's if seated, otherwise the public (SPECTATOR) one."""
        if self.game is None:
            return self._lobby_view(self.seat_of(name) if name else None)
        seat = self.seat_of(name) if name else None
        view = self.game.view(SPECTATOR if seat is None else seat)
        view["seat"] = seat
        view["ready"] = self._ready_names()
        view["table"] = self.id
        view["bots"] = self.bots()
        view["robots"] = self._robots()
        view.update(self._seal_view())
        return view

    def pull(self, name: str | None, since: int = 0, rail_since: int = 0,
             away: Sequence[str] = (), ratings: Sequence[tuple[str, str]] = ()) -> ScreenSnapshot:
        """All a screen draws for ``name`` at once (``engine.view``): the typed view, his legal actions,
        the log after ``since`` (and the watchers' rail after ``rail_since``, if he is not seated), the
        turn clock's deadline.  ``away``: who the club knows is gone (presence is not the table's);
        ``ratings``: the seated players' rating labels (the club's, beside their names on the felt)."""
        raw = self.view_for(name)
        view = build_view(raw, self.game_cls.score_view, away=list(away), ratings=list(ratings))
        return ScreenSnapshot(
            view=view, legal=tuple(self.legal_actions(name)) if name else (),
            log=tuple(self.log_since(since)), rail=tuple(self.rail.since(rail_since)) if view.seat is None else (),
            deadline=self.timer_deadline(),
            facts=TableFacts(id=self.id, title=self.title, variant=self.game_cls.variant_label(self.options),
                             pot_name=self.game_cls.pot_name, seats=len(self.seats), free=self.seats.count(None)),
            judge=(lambda action: self.why_not(name, action)) if name else (lambda action: None),
            verbs=self.game_cls.verbs,
        )

    def _robots(self) -> list[str]:
        return [n for n in self.seated() if n in self.robots]

    def _seal_view(self) -> dict[str, Any]:
        """The seal of the next (or current) deal and who cut it; never the seed."""
        sealed = self.sealed
        return {"seal": sealed.seal if sealed is not None else None,
                "cut_by": list(sealed.cuts) if sealed is not None else []}

    def _ready_names(self) -> list[str]:
        """Who is ready for the next deal: those who said so, and the bots (always ready between deals)."""
        if self.in_deal():
            return sorted(self.ready)
        return sorted(self.ready | {n for n in self.seated() if is_bot(n)})

    def _lobby_view(self, seat: int | None) -> dict[str, Any]:
        n = len(self.seats)
        return {
            "game": self.game_name, "options": dict(self.options), "names": self.names(),
            "phase": "waiting", "viewer": SPECTATOR, "dealer": self._dealer, "deal_no": 0,
            "in_deal": False, "to_act": [], "balances": [self.balance(x) if x else 0 for x in self.seats],
            "pot": self.carried_pot, "over": False, "hands": [None] * n, "hand_counts": [0] * n,
            "trick": [], "trump": None, "tricks": [0] * n, "status": [""] * n,
            "seat": seat, "ready": self._ready_names(), "table": self.id,
            "bots": self.bots(), "robots": self._robots(), **self._seal_view(),
        }

    # -- events -----------------------------------------------------------------------

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(events)`` after every change; returns the unsubscribe function."""
        return self.feed.subscribe(callback)

    @property
    def last_seq(self) -> int:
        return self.feed.last_seq

    def log_since(self, seq: int = 0) -> list[LogEntry]:
        """Log entries after ``seq`` (0: all that are kept)."""
        return self.feed.since(seq)

    def hear_rail(self, name: str, text: str) -> None:
        """A watcher's words on the rail, said at another node's copy of this table (``net.cluster``):
        this copy's watchers read them too (never the players, as ``say``)."""
        clean = sanitize(text)
        if clean:
            self.rail.publish([Event("rail", None, {"name": name, "text": clean})])
            self.feed.notify([Event("rail", None, {})])

    def away_now(self) -> list[str]:
        """Seated people who are away (gone, or stepped away): their grace runs, a stand-in may play."""
        return [n for n in self.auto.away if n in self.seats]

    def mirror(self, events: list[Event], now: float | None = None, *, tell: bool = True) -> None:
        """The owner's news that is not in the journal, told here (``tell=False``: the owner's state as it
        stands, for a replica just made; the screens only redraw).  A ``RemoteTable`` first follows who
        is away and whom a stand-in plays for (``engine.table.remote``)."""
        if tell:
            self._emit(events, now)
        else:
            self.feed.notify([Event("table", None, {"table": self.id})])  # screens redraw the felt

    def tell(self, events: list[Event], now: float | None = None) -> None:
        """Tell the subscribers what the table did not make here: a replica's news from the journal
        (``engine.table.replica``), an owner's relayed chat (``net.cluster``)."""
        self._emit(events, now)

    def _emit(self, events: list[Event], now: float | None = None, names: tuple[str, ...] | None = None) -> None:
        if not events:
            return
        self.auto.note(self._turn(), now)
        if names is None:
            names = tuple(self.game.names if self.game is not None else self.names())
        self.feed.publish(events, names)
