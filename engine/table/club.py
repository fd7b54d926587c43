"""The shared in-memory club: who is online, the tables, the hall chat.

Interface used by ``tui/`` and ``net/`` (keep these names):

- ``Club(tables_config=None, *, seed=None, store=None, now=None)``:
  ``tables_config`` is a list of ``{"game": id, "options": {...}, "seats": n,
  "at_zero": "refuse" | "debt"}`` (``at_zero``: what a table does with a
  player whose club balance cannot cover its stake; refuse by default); None
  opens one table per registered game with its defaults.  ``clock``,
  ``grace``, ``fill`` (and ``think``, ``takeover``, ``kind``) are the table's
  settings about time and bots (``engine.table.autoplay``); ``bots: "fill"`` is
  ``fill: true``.
- With a ``store`` every table keeps a journal (``engine.table.keeper``): the
  tables the store has live come back as they were (``now`` is the clock
  their timers restart from), and a config entry opens a new table only where
  no table with its number (its place in the list, from 1) was restored.
  ``restore_errors`` lists tables whose journal no longer replays (skipped).
  ``balance(name)`` is the club balance (the ledger's) with a store, else the
  sum of the player's money at the tables.  A config entry naming a game that is not
  registered is skipped and noted in ``club.skipped`` (games land one by one).
- ``open_table(game, options=None, seats=None) -> Table`` (seats: the game's
  minimum number of players by default); ``tables: dict[int, Table]``.
- ``enter(name, guest=False, now=None)`` / ``leave(name, now=None)``: sessions
  are counted, so a name with two sessions stays online until both leave; the
  last one leaving makes him *away* at his table (a stand-in bot, then the
  grace: ``engine.table.autoplay``), the first one back gives him his turns again.  ``tui.app.ClubApp``
  calls them itself on mount/unmount; ``net`` need not.  Leaving never unseats:
  a player who reconnects finds his seat.
- ``robots``: the names of bot accounts (role ``bot``: programs that play
  through ``sukno-bot/1``), shared with every table's view; ``is_robot(name)``.
- ``online() -> list[str]``, ``is_guest(name)``, ``where(name)`` (the table a
  name sits at), ``say(name, text)`` (hall chat, sanitised like table chat),
  ``hall_since(seq)`` (the hall's chat/arrivals with sequence numbers).
- The one door for seats: ``sit(name, table_id, seat=None) -> seat``,
  ``sit_bot(table_id, seat=None, by=name) -> bot name``, ``stand(name, table_id=None)``,
  ``watch(name, table_id)``, ``unwatch(name, table_id, every=False)``.  Every
  session kind (a player's App, the text mode, a watcher, the admin, a bot
  program) takes and leaves seats through them, so the club's rules hold for
  all: one seat per person, guests never sit, a table the house is closing
  (``closing``) or has closed refuses a seat.  Each refusal is a
  ``TableError`` with a catalogue key.  ``Table.sit``/``stand``/``watch`` are
  the table's own half (its seats and deals), called only from here and from
  the table itself (tests/engine/test_one_door.py keeps it so).  Each answers an
  ``engine.table.pending.Answer``: at a table another node owns (an ``engine.table.remote.RemoteTable``)
  a ``Pending`` at once (``stand``'s maps to the table): the owner's answer, or its refusal, comes later.
- ``subscribe(callback) -> unsubscribe``: ``callback(events)`` for hall events
  (``enter``, ``leave``, ``say``, ``table_open``, ``table_close``) and ``table`` events
  (``data["table"]`` changed: seats, spectators, a deal started or ended).
- ``social`` (``engine.table.social.Social``): ignore lists, mutes, away notes, private
  words (``tell``), link codes; ``set_away``/``set_back``; a table's ``seating``
  says who may watch and whether the players hear the rail after the deal.
- ``next_deadline() -> float | None`` and ``tick(now)``: net's runtime wakes
  tables at their deadlines; the engine never reads a clock.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from engine.ratings import RatingsView
from engine.game import Event
from engine.games import registry
from engine.table.keeper import TableKeeper
from engine.table.pending import Answer, Pending
from engine.table.social import AWAY_MAX, Seating, Social, SocialError, name_key
from engine.table.chatlog import Reports
from engine.table.speech import Speech
from engine.store.moderation import WORDS_MAX, Report
from engine.store.base import Store, StoreError, TableNumberTaken
from engine.feed import Callback, Feed, LogEntry
from engine.table.owner import Table, TableError, sanitize

_HALL_KINDS_FROM_TABLES = {"sit", "stand", "watch", "unwatch", "table_ready", "deal_start", "deal_over", "session_over"}


_SETTING_KEYS = ("clock", "grace", "fill", "think", "takeover", "kind", *Seating.KEYS)
SETTING_WORDS = (*_SETTING_KEYS, "bots")
"""The words of a table entry (or ``open … k=v``) that are table settings, not game options."""
NUMBER_TRIES = 16
"""How many numbers ``open_table`` tries when another node takes each first (the store's
unique table id decides; bounded, so a broken store cannot spin it)."""


def table_settings(entry: dict[str, Any]) -> dict[str, Any]:
    """A config entry's settings about time and bots (``engine.table.autoplay.Settings``)."""
    out = {k: entry[k] for k in _SETTING_KEYS if k in entry}
    if "bots" in entry:
        out["fill"] = entry["bots"] in ("fill", True, "yes")
    return out


class Club:
    """Every table and everyone online, shared by all sessions of one process."""

    def __init__(
        self,
        tables_config: list[dict] | None = None,
        *,
        seed: int | None = None,
        store: Store | None = None,
        now: float | None = None,
    ):
        self.tables: dict[int, Table] = {}
        self.skipped: list[str] = []
        self.store = store
        self.restore_errors: list[str] = []
        self._kept_ids: set[int] = set()  # journaled tables that did not restore: their numbers stay theirs
        self._sessions: dict[str, int] = {}
        self.elsewhere: set[str] = set()
        self.watchers_elsewhere: dict[int, int] = {}
        """Watchers of each table on the other nodes of the club (``net.cluster.presence``): counted in listings."""
        """Names online on another node of the club (kept by ``net.cluster``): online for ``is_online``."""
        self.numbers_taken: Callable[[], list[int]] = lambda: []
        """Table numbers taken elsewhere (a node of several: every table any node ever leased), so a
        table opened here never takes another node's number."""
        self._guests: set[str] = set()
        self.feed = Feed()
        self.league_reset = "monday"
        """When the money league begins again (``[club] league_reset``)."""
        self.analyst: Any = None
        """Analyses of finished games, made off the loop (the server's ``net.ssh.analyst.Analyst``), or None."""
        self.ratings: RatingsView | None = None
        """The skill ratings as the sessions read them (kept by the server off the loop), or None."""
        self.robots: set[str] = set()
        """Accounts a program plays (role ``bot``, the bot protocol): marked as bots wherever people see them."""
        if store is not None:
            self.robots.update(a.name for a in store.accounts() if a.role == "bot")
        self.social = Social(store)
        self.speech = Speech(self.social)
        """The one gate every person's words pass (mute, chat limit), here and at each table."""
        self.reports = Reports(self.speech.log)
        """``report NAME words``: complaints for the house (``engine.table.chatlog``)."""
        self.motd = ""
        """The message of the day (``[server] motd``, ``admin motd``): shown once to each arrival."""
        self._seed = seed
        if tables_config is None:
            tables_config = [{"game": name} for name in registry()]
        games = registry()
        restored = self._restore(now) if store is not None else set()
        for number, entry in enumerate(tables_config, 1):
            game = str(entry.get("game", ""))
            if game not in games:
                self.skipped.append(game)
                continue
            if number in restored:
                continue
            self.open_table(game, entry.get("options"), entry.get("seats"),
                            allow_debt=entry.get("at_zero", "refuse") == "debt",
                            table_id=number if store is not None else None, settings=table_settings(entry))

    def _restore(self, now: float | None) -> set[int]:
        """Bring back every live table of the store; the numbers of those restored or skipped."""
        assert self.store is not None
        numbers: set[int] = set()
        for live in self.store.live_tables():
            table_id = live.table_id
            if not isinstance(table_id, int):
                continue
            numbers.add(table_id)
            header = live.header
            try:
                table = Table(table_id, header.game, header.options, len(header.extra["table"]["seats"]))
                keeper = TableKeeper(self.store, table)
                keeper.restore(live, now)
                table.restart_clocks(now)  # a bot or a turn clock restarts from now
            except (StoreError, TableError, KeyError, TypeError, ValueError) as err:
                self.restore_errors.append(f"table {table_id}: {getattr(err, 'message', err)}")
                self._kept_ids.add(table_id)
                continue
            table.keeper = keeper
            self._add(table)
        return numbers

    # -- tables ---------------------------------------------------------------------

    def open_table(
        self,
        game: str,
        options: dict | None = None,
        seats: int | None = None,
        *,
        allow_debt: bool = False,
        table_id: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Table:
        tried: set[int] = set()
        for _attempt in range(NUMBER_TRIES):
            if table_id is None or table_id in self.tables or table_id in self._kept_ids or table_id in tried:
                table_id = max([*self.tables, *self._kept_ids, *self.numbers_taken(), *tried], default=0) + 1
            seed = None if self._seed is None else self._seed + 1000 * table_id
            table = Table(table_id, game, options, seats, seed=seed, allow_debt=allow_debt, settings=settings)
            if self.store is None:
                break
            keeper = TableKeeper(self.store, table)
            try:
                keeper.open_new()  # the store's unique table id decides who has the number
            except TableNumberTaken:
                tried.add(table_id)  # another node opened it at the same moment: the next one
                continue
            table.keeper = keeper
            break
        else:
            raise StoreError(f"no free table number after {NUMBER_TRIES} tries: {sorted(tried)} were taken", 75)
        self._add(table)
        self._emit([Event("table_open", None, {"table": table_id, "game": game})])
        return table

    def adopt(self, live: Any, now: float | None = None, node: str = "elsewhere") -> Table:
        """A table another node of the club opened (``live``: its journal in the shared store): kept
        here too, as it stands, and the hall hears ``table_open`` with the node's name (never sent on).
        The caller makes it a replica (``net.cluster``).  ``StoreError``/``TableError`` if it does not
        replay."""
        header = live.header
        table = Table(live.table_id, header.game, header.options, len(header.extra["table"]["seats"]))
        TableKeeper(self.store, table).restore(live, now)  # type: ignore[arg-type]
        self._add(table)
        self._emit([Event("table_open", None, {"table": table.id, "game": header.game, "node": node})])
        return table

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        table.robots = self.robots
        self.tables = dict(sorted(self.tables.items()))
        table.speech = self.speech
        table.subscribe(partial(self._table_changed, table.id))

    def balance(self, name: str) -> int:
        """The club balance of ``name``: the ledger's with a store, else the money at the tables."""
        if self.store is not None and self.store.account(name) is not None:
            return self.store.balance(name)
        return sum(t.balance(name) for t in self.tables.values())

    def close_table(self, table_id: int) -> None:
        """Take an empty table out of the club (the admin's ``close``); the hall hears ``table_close``."""
        if self.tables.pop(table_id, None) is not None:
            if self.store is not None:
                self.store.close_table_journal(table_id)  # not restored after a restart
            self._emit([Event("table_close", None, {"table": table_id})])

    def table(self, table_id: int) -> Table:
        """The table by number; ``TableError`` with a reason otherwise."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("club.no_table", f"There is no table {table_id}.", table=table_id)
        return table

    def where(self, name: str) -> Table | None:
        for table in self.tables.values():
            if name in table.seats:
                return table
        return None

    # -- the one door for seats ---------------------------------------------

    def _open_for_seat(self, name: str, table_id: int) -> Table:
        """The table ``name`` may take a seat at, or the club's refusal (guest, closing, seated elsewhere)."""
        if self.is_guest(name):
            raise TableError("club.guest_sit", "Guests may watch and talk but not sit down to play.")
        table = self.table(table_id)
        if table.closing:
            raise TableError("club.table_closing", f"The house is closing table {table.id}; no one sits down there now.",
                             table=table.id)
        return table

    def sit(self, name: str, table_id: int, seat: int | None = None) -> Answer[int]:
        """``name`` takes a seat (0-based; the first free one by default) at ``table_id``; the seat.

        One seat per person: seated at another table is refused (``table.already_seated``,
        naming that table), as at this one (the table's own refusal)."""
        table = self._open_for_seat(name, table_id)
        elsewhere = self.where(name)
        if elsewhere is not None and elsewhere is not table:
            raise TableError("table.already_seated",
                             f"You already sit at table {elsewhere.id}; stand gives up that seat.", table=elsewhere.id)
        return table.sit(name, seat)

    def sit_bot(self, table_id: int, seat: int | None = None, *, by: str | None = None) -> Answer[str]:
        """A house bot takes a seat at ``table_id`` (the first free one by default); its name.

        ``by``: the player asking, who must sit at that table; None is the house (the admin, ``sukno play``)."""
        table = self.table(table_id)
        if by is not None and by not in table.seats:
            raise TableError("cmd.bot_need_seat", "Only someone seated at this table may seat a bot: sit down first.")
        if table.closing:
            raise TableError("club.table_closing", f"The house is closing table {table.id}; no one sits down there now.",
                             table=table.id)
        return table.sit_bot(seat)

    def stand(self, name: str, table_id: int | None = None) -> Answer[Table]:
        """``name`` gives up his seat (at ``table_id``, or wherever he sits); the table he left
        (at a table another node owns: a ``Pending`` of it)."""
        table = self.where(name) if table_id is None else self.table(table_id)
        if table is None or name not in table.seats:
            raise TableError("table.not_seated", "You do not sit at this table.")
        answer = table.stand(name)
        if isinstance(answer, Pending):  # a replica: the owner's answer comes later
            return answer.map(lambda _none: table)
        return table

    def watch(self, name: str, table_id: int) -> Table:
        """One more session of ``name`` watches ``table_id`` (a seated player just sees his seat)."""
        table = self.table(table_id)
        table.watch(name)
        return table

    def unwatch(self, name: str, table_id: int, every: bool = False) -> None:
        """One session of ``name`` (``every``: all of them) stops watching ``table_id``; a gone table is no error."""
        table = self.tables.get(table_id)
        if table is not None:
            table.unwatch(name, every=every)

    def _table_changed(self, table_id: int, events: list[Event]) -> None:
        if any(e.kind in _HALL_KINDS_FROM_TABLES for e in events):
            self.feed.notify([Event("table", None, {"table": table_id})])

    # -- people -----------------------------------------------------------------------

    def enter(self, name: str, guest: bool = False, now: float | None = None) -> None:
        first = self._sessions.get(name, 0) == 0
        self._sessions[name] = self._sessions.get(name, 0) + 1
        if guest:
            self._guests.add(name)
        if first:
            self._emit([Event("enter", None, {"name": name})])
            table = self.where(name)
            if table is not None and name not in self.social.away:
                table.back(name, now)

    def leave(self, name: str, now: float | None = None) -> None:
        count = self._sessions.get(name, 0)
        if count <= 0:
            return
        if count == 1:
            del self._sessions[name]
            self._guests.discard(name)
            self.social.away.pop(name, None)  # away is a note of the connected
            self.social.drop_inbox(name)
            for table_id in list(self.tables):
                self.unwatch(name, table_id, every=True)
            seated = self.where(name)
            if seated is not None:
                seated.away(name, now)
            self._emit([Event("leave", None, {"name": name})])
        else:
            self._sessions[name] = count - 1

    def online(self) -> list[str]:
        """Everyone online in the club: here, and on the other nodes (``elsewhere``)."""
        return sorted(set(self._sessions) | self.elsewhere, key=str.casefold)

    def hear(self, kind: str, name: str, node: str, text: str | None = None) -> None:
        """A hall event of another node of the club (``net.cluster.clubwide``): ``say`` (a line said
        there, checked there), ``enter`` or ``leave``; shown in this hall with the node's name, never
        sent on.  An arrival or a leaving of someone also online here is not news here."""
        if kind == "say" and text:
            self._emit([Event("say", None, {"name": name, "text": sanitize(text), "node": node})])
        elif kind in ("enter", "leave") and name not in self._sessions:
            self._emit([Event(kind, None, {"name": name, "node": node})])

    def watcher_count(self, table_id: int) -> int:
        """How many watch ``table_id``, here and on the other nodes of the club."""
        table = self.tables.get(table_id)
        return (len(table.spectators) if table is not None else 0) + self.watchers_elsewhere.get(table_id, 0)

    def set_watchers_elsewhere(self, counts: dict[int, int]) -> None:
        """The other nodes' watchers per table (read by ``net.cluster.presence``); the hall redraws a changed table."""
        changed = {t for t in set(counts) | set(self.watchers_elsewhere)
                   if counts.get(t, 0) != self.watchers_elsewhere.get(t, 0)}
        self.watchers_elsewhere = {t: n for t, n in counts.items() if n}
        if changed:
            self.feed.notify([Event("table", None, {"table": t}) for t in sorted(changed, key=str)])

    def forget_table(self, table_id: int) -> None:
        """A table another node closed (its owner closed the journal): out of this club too, and the
        hall hears ``table_close``; the store is not touched here."""
        if self.tables.pop(table_id, None) is not None:
            self._emit([Event("table_close", None, {"table": table_id, "node": "elsewhere"})])

    def is_online(self, name: str) -> bool:
        return name in self._sessions or name in self.elsewhere

    def is_guest(self, name: str) -> bool:
        return name in self._guests

    def is_robot(self, name: str) -> bool:
        """A bot: the house's (``bot-…``) or an account a program plays (``robots``)."""
        return name in self.robots or name.startswith("bot-")

    def say(self, name: str, text: str) -> None:
        clean = sanitize(text)
        if not clean:
            raise TableError("chat.empty", "Say what? Type say and your words.")
        self.speech.words(name)
        self._emit([Event("say", None, {"name": name, "text": clean})])
        self.speech.log.heard(name, "hall", clean)

    def online_name(self, name: str) -> str | None:
        """The spelling of an online name typed in any case, or None."""
        wanted = name_key(name)
        return next((n for n in self._sessions if name_key(n) == wanted), None)

    def watching(self, name: str) -> list[Table]:
        return [t for t in self.tables.values() if name in t.spectators]

    def tell(self, sender: str, target: str, text: str) -> str:
        """Private words to one online person; the target's spelling of his name (refusals: ``SocialError``)."""
        clean = sanitize(text)
        if not clean:
            raise SocialError("social.tell_what", "Tell what? Type tell, a name and your words.")
        to = self.online_name(target)
        if to is None:
            raise SocialError("social.not_here", f"{target} is not in the club now.", name=target)
        for table in self.watching(sender):  # a watcher cannot whisper to a player mid-deal
            if to in table.seats and table.in_deal():
                raise SocialError("social.no_tell_player", f"{to} is playing at table {table.id}, which you watch; "
                                  "tell him when the deal is over.", name=to, table=table.id)
        self.speech.words(sender)
        self.social.deliver(sender, to, clean)
        self.speech.log.heard(sender, "private", clean, to=to)
        return to

    def report(self, reporter: str, target: str, words: str) -> Report:
        """``report NAME words``: kept with the lines of his the reporter could see; the house is told.
        NAME is someone online, heard lately, or seated where the reporter sits or watches."""
        mine = [t for t in self.tables.values() if reporter in t.seats or reporter in t.spectators]
        wanted = name_key(target)
        seated = (n for t in mine for n in t.seats if n and name_key(n) == wanted)
        named = self.online_name(target) or self.speech.log.spoke(target) or next(seated, None)
        if named is None:
            raise SocialError("report.nobody", f"Nobody named {target} is here or was heard lately.", name=target)
        watched = [t.id for t in mine if reporter in t.spectators]
        clean = sanitize(words, WORDS_MAX)  # shown to the house: no escapes or control characters, bounded
        return self.reports.file(reporter, named, clean, [t.id for t in mine], watched)

    def set_away(self, name: str, note: str = "", now: float | None = None) -> None:
        """``away [text]``: a note beside the name; at a table the stand-in plays his turns."""
        self.social.away[name] = self.speech.note(name, sanitize(note, AWAY_MAX))
        table = self.where(name)
        if table is not None:
            table.away(name, now, kind="stepped_away")
        self._emit([Event("away", None, {"name": name, "text": self.social.away[name]})])

    def set_back(self, name: str, now: float | None = None) -> bool:
        """``back``: the note goes, his turns are his again; False if he was not away."""
        if name not in self.social.away:
            return False
        self.speech.mark(name)
        self.social.away.pop(name, None)
        table = self.where(name)
        if table is not None:
            table.back(name, now)
        self._emit([Event("back", None, {"name": name})])
        return True

    def is_away(self, name: str) -> bool:
        return name in self.social.away

    def watched_elsewhere(self, names: dict[int, set[str]]) -> None:
        """Who watches a table run here from another node: they may analyse its records too."""
        for table_id, watching in names.items():
            table = self.tables.get(table_id)
            if table is not None and table.owned_here:
                table.watched |= watching

    def back_where_online(self, now: float | None = None) -> list[str]:
        """Who is online is the one truth of who is away: a seated person marked away at a table run here
        while he is online on some node (his ``back`` lost with a paused node or a silent bus) gets his
        seat and turns back.  One who typed ``away`` himself stays away.  The names given back."""
        given: list[str] = []
        for table in list(self.tables.values()):
            if not table.owned_here:
                continue  # its owner judges
            for name in table.away_now():
                if self.is_online(name) and not self.is_away(name) and not self.is_robot(name):
                    table.back(name, now)
                    given.append(name)
        return given

    # -- events -----------------------------------------------------------------------

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Hear the hall's events (enter, leave, say, tables changing)."""
        return self.feed.subscribe(callback)

    @property
    def last_seq(self) -> int:
        return self.feed.last_seq

    def hall_since(self, seq: int = 0) -> list[LogEntry]:
        return self.feed.since(seq)

    def _emit(self, events: list[Event]) -> None:
        self.feed.publish(events)

    # -- time -------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        times = [t for t in (table.deadline() for table in self.tables.values()) if t is not None]
        return min(times) if times else None

    def tick(self, now: float) -> dict[int, list[Event]]:
        """Wake every table whose deadline has come; returns their events by table id."""
        out: dict[int, list[Event]] = {}
        for table_id, table in list(self.tables.items()):
            deadline = table.deadline()
            if deadline is not None and deadline <= now:
                events = table.tick(now)
                if events:
                    out[table_id] = events
        return out

    def summary(self) -> list[dict[str, Any]]:
        """One row per table for listings (game, options, seats, spectators, pot)."""
        return [
            {
                "id": t.id, "game": t.game_name, "title": t.title, "options": dict(t.options),
                "seats": list(t.seats), "spectators": self.watcher_count(t.id), "pot": t.pot,
                "in_deal": t.in_deal(),
            }
            for t in self.tables.values()
        ]
