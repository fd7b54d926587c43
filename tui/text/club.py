"""``TextClub``: one person's club in the text mode — lines in, sentences out, no App.

Why the screen's own verb handlers run here: the text mode must understand
every verb the screen does, spelled the same way, and refuse in the same
words.  So this class is a ``tui.verbs.HallVerbs`` (the club's dispatcher, the
hall's verbs and its description, as the hall screen and the hall door have
them) and a ``tui.screens.table.TableVerbs`` (the table screen's verbs), and this class gives them
the few things they ask a screen and an app for (``say_line``, ``error``, ``t``,
``table_here``, ``legal``; ``club``, ``player``, ``show_table``, ``show_hall``,
``watch``…).  None of them draws anything; what would be drawn is said instead.

What the text mode adds is said here: every new event of the table (or the
hall) as one sentence, in order (``tui.narrate``, the screen log's own
narration); the cards a player is given; a prompt when it becomes his turn
("Your turn. You may play 9♣ or 9♦ — you must follow clubs."), rung with a
bell if he likes; and the answers to ``hand``, ``trick``, ``table``…
(``tui.text.answers``).  The channel side (``net.modes.text``) calls ``news()``
when the table or the hall has changed and writes the lines.
"""

from __future__ import annotations

import re
import time
import weakref
from typing import Any, Awaitable, Callable

from rich.text import Text

from engine.cards import Card, Suit
from engine.feed import LogEntry
from engine.game import IllegalAction
from engine.table.face import TableLike
from engine.view import View
from tui import refusals
from tui.commands import ASK_VERBS, SETTING_VERBS, Command
from tui.i18n import LANGS, tr
from tui.narrate import _tidy, narrate
from tui.screens.table import TableVerbs
from tui.text import answers
from tui.text import spoken
from tui.text.cards import in_colour, in_short, in_symbols, in_words
from tui.text.prefs import Prefs
from tui.verbs import HallVerbs
from tui import pending, social

RESULTS = frozenset({
    "trick", "trick_won", "lead_failed", "remiz", "dealer_takes_pot", "win", "deal_over", "session_over",
    "game_settled", "match_won", "winner", "settlement", "deal_scored", "deal_end", "slam",
})
"""What ``brief on`` still tells of the table: who took a trick, who won, the money."""
CHAT = frozenset({"say"})
TURN_WORDS = frozenset({"turn", "turn?", "whose turn", "whose turn?", "ход?", "чей ход", "чей ход?"})
"""``turn``: the prompt again (whose turn, what may be done and why, the trumps and the led card)."""
AGAIN_WORDS = frozenset({"again", "repeat", "ещё", "еще", "ещё раз", "еще раз", "повтори", "повтор?"})
"""``again``: the last line said, again."""
FAIR_WORDS = frozenset({"fair", "seal", "seed", "честно", "печать", "зерно"})
"""``fair``: the full seal and seed of this table's last sealed deal (each deal tells only a short seal)."""
SEAL_SHORT = 8
LINE_MOST = 200
"""Characters of one line at most: a longer one is cut at its sentences (then its clauses) for speech."""
RING_TURN, RING_WHISPER, RING_START = 1, 2, 3
CLOCK_WARNINGS = (10, 5)
"""Seconds left when his turn's clock is said (and at half time)."""
ARRIVAL_LINES = 5
"""Events told again on arriving at a table (``log N`` tells more)."""
TOLD_KEEP = 2048
_TOLD: weakref.WeakKeyDictionary[TableLike, dict[tuple[int, str, bool], str]] = weakref.WeakKeyDictionary()


def told(table: TableLike, entry: LogEntry, lang: str, ascii: bool) -> str:
    """The sentence of a table's log entry, made once for everyone who hears it in this language."""
    cache = _TOLD.get(table)
    if cache is None:
        cache = _TOLD[table] = {}
    key = (entry.seq, lang, ascii)
    line = cache.get(key)
    if line is None:
        if len(cache) >= TOLD_KEEP:
            cache.clear()
        line = cache[key] = narrate(entry.event, entry.names, lang, ascii)
    return line


_SENTENCE_END = re.compile(r"(?<=\.) (?=[A-ZА-ЯЁ«\"(])")


def spoken_pieces(line: str, most: int = LINE_MOST) -> list[str]:
    """A long line as several: at its sentences, then at its clauses (``; ``, ``, ``), so no line runs
    for a minute of speech; a line without such a place is left whole (the terminal wraps it)."""
    if len(line) <= most:
        return [line]
    for mark in (". ", "; ", ", "):
        # a sentence ends at a full stop before a capital, not at money's own dots («1 р. 25 к.»)
        parts = _SENTENCE_END.split(line) if mark == ". " else line.split(mark)
        if len(parts) < 2:
            continue
        pieces: list[str] = []
        current = ""
        for i, part in enumerate(parts):
            part = part + (mark.rstrip() if i < len(parts) - 1 and mark != ". " else "")
            if current and len(current) + 1 + len(part) > most:
                pieces.append(current)
                current = part
            else:
                current = f"{current} {part}" if current else part
        pieces.append(current)
        if len(pieces) > 1:
            return [p for piece in pieces for p in spoken_pieces(piece, most)]
    return [line]


_FELT_TRUMP: weakref.WeakKeyDictionary[TableLike, tuple[int, Any]] = weakref.WeakKeyDictionary()


def felt_trump(table: TableLike) -> Any:
    """The trump the public felt shows now (a ``Suit`` or None), read once per change of the table."""
    kept = _FELT_TRUMP.get(table)
    if kept is not None and kept[0] == table.last_seq:
        return kept[1]
    trump = table.view_for(None).get("trump") if table.in_deal() else None
    _FELT_TRUMP[table] = (table.last_seq, trump)
    return trump


class TextClub(TableVerbs, HallVerbs):
    """One person's club as lines of text (see the module docstring)."""

    by_ear = True  # a session he starts gives him time to hear a trade window out (Table.start)

    def __init__(
        self,
        club: Any,
        name: str | None,
        *,
        write: Callable[[str], None],
        lang: str = "en",
        ascii: bool = False,
        guest: bool = False,
        prefs: Prefs | None = None,
        register: Callable[[str], Any] | None = None,
        admin: Callable[[str], Awaitable[Any]] | None = None,
        spawn: Callable[[Awaitable[Any]], None] | None = None,
        bell: Callable[[], None] | None = None,
        on_quit: Callable[[], None] | None = None,
        on_mode: Callable[[str], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
        keys: Any = None,
        store_read: Callable[[Callable[[Any], Any], str], Any] | None = None,
    ) -> None:
        self.club = club
        self.player = name
        self.write = write
        self.arrival: object = self
        """Who is told the message of the day once (the session, when net runs this club)."""
        self.lang = lang if lang in LANGS else "en"
        self.ascii = ascii
        self.guest = guest
        self.prefs = prefs or Prefs()
        self.register = register
        self.admin = admin
        self.spawn = spawn
        self.ring = bell
        self.on_quit = on_quit
        self.on_mode = on_mode
        self.clock = clock
        self.keys = keys  # ``key add|link|list|remove`` (net.ssh.keyring)
        self.store_read = store_read  # ``(work, op)``: work(store) in net's store thread, a Pending (None: now)
        self._inbox_seq = 0
        self._inbox_off: Callable[[], None] | None = None
        self._rail_seq = 0
        self.here: int | None = None  # the table this person is at (seated or watching)
        self.entered = False
        self.stopped = False
        """``stop`` ran (the session ended): an answer that comes later is dropped (``tui.pending.after``)."""
        self._seq = 0
        self._hall_seq = 0
        self._prompt = ""
        self._my_turn = False
        self._last_said = ""
        self._trump_told: Any = None
        self._turn_clock: tuple[float, float] | None = None  # (when his turn began, its deadline)
        self._warned: set[int] = set()
        self._trump_in_event = False
        self._hand: frozenset[Card] = frozenset()
        self._unsubscribe: Callable[[], None] | None = None
        self._hall_off: Callable[[], None] | None = None
        self.wake: Callable[[], None] = lambda: None
        self.told_since: float | None = None
        """When the table first told of a change not yet said (``time.monotonic()``): the move→screen figure."""
        """Set by the channel: something changed, call ``news()`` soon (coalesced)."""

    # -- what the borrowed handlers ask of a screen and of an app ---------------------------

    @property
    def club_app(self) -> TextClub:
        return self

    @property
    def table(self) -> TableLike | None:
        return self.club.tables.get(self.here) if self.here is not None else None

    def t(self, key: str, **params: Any) -> str:
        return tr(self.lang, key, **params)

    def say_line(self, text: str | Text, style: str = "", whole: bool = False) -> None:
        """One line said (cut at its sentences when long, unless ``whole``: a prompt is one thing to hear)."""
        line = text.plain if isinstance(text, Text) else str(text)
        for part in line.splitlines() or [""]:
            part = _tidy(part).replace(" · ", ", ")  # "… 30 k.." as the log tidies it; a dot speech drops
            if self.prefs.words:
                part = in_words(part, self.lang)
            elif self.prefs.short:
                part = in_short(part, self.lang)
            else:
                part = in_symbols(part, self.lang)
                if self.prefs.colour:
                    part = in_colour(part)
            for piece in [part] if whole else spoken_pieces(part):
                self._last_said = piece
                self.write(piece)

    def error(self, text: str) -> None:
        self.say_line(text)

    hint = error

    def echo(self, line: str) -> None:
        """The screen echoes a typed line into its log; here the terminal has shown it already."""

    def table_here(self) -> TableLike | None:
        return self.table

    def legal(self) -> list:
        table = self.table
        return table.legal_actions(self.player) if table is not None and self.player else []

    def game_verbs(self) -> list[str]:
        table = self.table
        return list(table.game_cls.verbs) if table is not None else []

    def run_worker(self, work: Awaitable[Any], group: str = "") -> None:
        if self.spawn is not None:
            self.spawn(work)

    def answered(self) -> None:
        """A change sent to another node was answered (``tui.pending``): its lines go out now."""
        self.wake()

    def push_screen(self, screen: Any) -> None:
        self.error(self.t("text.no_screen"))

    def exit(self) -> None:
        if self.on_quit is not None:
            self.on_quit()

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self._prompt = ""

    def explain(self, err: IllegalAction) -> str:
        reason = refusals.explain(err, self.lang, self.ascii)
        legal = self.legal()
        if legal and not err.key.startswith("table.") and not any(w in reason.lower() for w in ("you may", "можно")):
            reason += " " + self.t("text.you_may", actions=answers.action_phrase(legal, self.lang, self.ascii))
        return reason

    # -- moving around ------------------------------------------------------------------------

    def start(self) -> None:
        """Greet; a new key first chooses a name."""
        if self.player is None:
            self.say_line(self.t("welcome.title"))
            self.say_line(self.t("welcome.ask"))
            self.say_line(self.t("welcome.link"))
            return
        self.enter_club()

    def enter_club(self) -> None:
        assert self.player is not None
        self.club.enter(self.player, self.guest, now=self.clock())
        self.entered = True
        self._hall_seq = self.club.last_seq
        self._hall_off = self.club.subscribe(lambda events: self.wake())
        inbox = self.club.social.inbox(self.player)
        self._inbox_seq = inbox.last_seq
        self._inbox_off = inbox.subscribe(lambda events: self.wake())
        self.say_line(self.t("text.welcome", name=self.player))
        self.tell_motd(self.arrival)
        seated = self.club.where(self.player)
        if seated is not None:
            self.show_table(seated.id)
        else:
            self.describe()

    def stop(self) -> None:
        """The session ends: stop listening, stop watching, leave the club (the seat is kept)."""
        self.stopped = True
        self._leave_table()
        if self._hall_off is not None:
            self._hall_off()
            self._hall_off = None
        if self._inbox_off is not None:
            self._inbox_off()
            self._inbox_off = None
        if self.entered and self.player is not None:
            self.entered = False
            self.club.leave(self.player, now=self.clock())

    def _table_changed(self) -> None:
        if self.told_since is None:
            self.told_since = time.monotonic()
        self.wake()

    def show_table(self, table_id: int) -> None:
        if self.here != table_id:
            self._leave_table()
        table = self.club.table(table_id)
        self.here = table_id
        self._unsubscribe = table.subscribe(lambda events: self._table_changed())
        self._seq = max(0, table.last_seq - ARRIVAL_LINES)
        self._rail_seq = max(0, table.rail.last_seq - ARRIVAL_LINES)
        self._prompt = ""
        self._hand = frozenset(answers.my_hand(answers.view_at(table, self.player)))
        key = "text.at_table" if self.player in table.seats else "text.watching"
        self.say_line(self.t(key, id=table.id))
        self.news()
        self.describe()

    def show_hall(self) -> None:
        if self.here is None:
            return
        self._leave_table()
        self._hall_seq = self.club.last_seq
        self.say_line(self.t("cmd.left_table"))

    def watch_table(self, table_id: int) -> None:
        self.club.watch(self.player or "", table_id)  # a seated player just sees his seat; refused at a private table
        self.show_table(table_id)

    def _leave_table(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        table = self.table
        if table is not None and self.player in table.spectators:
            self.club.unwatch(self.player, table.id)
        self.here = None
        self._prompt = ""
        self._my_turn = False
        self._hand = frozenset()

    def describe(self) -> None:
        """``look``: the hall in the screen's own words, or the table as sentences."""
        table = self.table
        if table is None:
            self.describe_hall()
            return
        for line in answers.ask("table", (), table, self.player, self.lang, self.ascii, self.clock(),
                                self.club.is_online):
            self.say_line(line)
        view = answers.view_at(table, self.player)
        if view.trick:
            self.say_line(answers.trick_text(view, self.lang, self.ascii))
        self.say_line(answers.pot_text(table, view, self.lang, self.ascii))
        if view.seat is not None and answers.my_hand(view):
            self.say_line(answers.hand_text(view, self.lang, self.ascii))
        prompt = self._prompt_now(table, view)
        if prompt:
            self.say_line(prompt, whole=True)
        elif view.seat is None:
            self.say_line(self.t("text.hint_watching"))

    # -- typed lines ------------------------------------------------------------------------------

    def line(self, text: str) -> None:
        """One line typed by the person."""
        if self.player is None:
            self._choose_name(text.strip())
            return
        said = " ".join(text.lower().split())
        if said in AGAIN_WORDS:
            self.write(self._last_said or self.t("text.again_none"))
            return
        if said in TURN_WORDS:
            self.news()
            self.say_turn()
            return
        if said in FAIR_WORDS:
            self.say_fair()
            return
        table = self.table
        if table is not None and self.player in table.seats:
            hand = answers.my_hand(answers.view_at(table, self.player))
            text = spoken.understand(text, hand, self.legal())
        self.run_line(text)
        self.news()

    def say_turn(self) -> None:
        """``turn``: the prompt, or whose turn it is and why nothing is asked of this person."""
        table = self.table
        if table is None:
            self.say_line(self.t("cmd.not_at_table"))
            return
        view = answers.view_at(table, self.player)
        prompt = self._prompt_now(table, view)
        if not prompt or (self.player in table.seats and table.in_deal() and not self.legal()):
            prompt = answers.whose_turn(table, view, self.lang, self.ascii) or prompt
        self.say_line(prompt or self.t("text.turn_nobody"), whole=True)

    def say_fair(self) -> None:
        """``fair``: the last seal of this table and, once opened, its seed and cuts, in full."""
        table = self.table
        if table is None:
            self.say_line(self.t("cmd.not_at_table"))
            return
        last = [e for e in table.log_since(0) if e.event.kind in ("fair_seal", "fair_open")]
        if not last:
            self.say_line(self.t("text.fair_none"))
            return
        seal = last[-1].event.data.get("seal")
        for entry in last:
            if entry.event.data.get("seal") == seal:
                self.say_line(told(table, entry, self.lang, self.ascii))

    def _choose_name(self, name: str) -> None:
        if not name:
            return
        code = social.link_words(name)
        if code is not None:  # ``key link CODE``: this new key joins an account
            if pending.busy(self):
                return
            linked = self.keys.link(code) if self.keys is not None else None
            pending.after(self, linked, self._link_answer)
            return
        if pending.busy(self):  # his name is being written (off the loop): a second line does nothing
            return
        problem = self.register(name) if self.register is not None else self.t("cmd.guest_sit")
        pending.after(self, problem, lambda answer: self._name_answer(name, answer))

    def _link_answer(self, linked: str | None) -> None:
        """The key ring's answer (at once, or from the store's thread): his account's name, or why not."""
        refusal = social.link_refusal(linked)
        if refusal is not None:
            self.say_line(self.t(refusal))
            return
        assert linked is not None
        self.player = linked
        self.enter_club()

    def _name_answer(self, name: str, problem: str | None) -> None:
        """The book's answer to his name (at once, or from the store's thread: ``tui.pending.after``)."""
        if problem:
            self.say_line(problem)
            self.say_line(self.t("welcome.ask"))
            return
        self.player = name
        self.enter_club()

    def handle_here(self, command: Command) -> bool:
        """The text mode's own verbs first, then those of the table or the hall (the screen's)."""
        verb = command.verb
        if verb in ASK_VERBS and not (verb == "table" and command.args):  # ``table private``: a rule
            if verb == "log" and self.table is None:
                count = int(command.args[0]) if command.args and command.args[0].isdigit() else 10
                lines = [self._hall_line(e.event) for e in self.club.hall_since(0)]
                lines = [x for x in lines if x][-max(1, min(count, answers.LOG_MAX)):]
                for line in lines or [self.t("text.log_none")]:
                    self.say_line(line)
                return True
            for line in answers.ask(verb, command.args, self.table, self.player, self.lang, self.ascii,
                                    self.clock(), self.club.is_online):
                self.say_line(line)
            return True
        if verb in SETTING_VERBS:
            self._setting(command)
            return True
        if verb == "tables":
            for line in answers.tables_texts(self.club, self.lang):
                self.say_line(line)
            return True
        if verb == "help" and not command.args:
            self.say_line(self.t("text.help"))
            self.show_help("")
            return True
        if verb == "replay":
            from tui.text.replay import replay_lines

            for line in replay_lines(self, command.args[0] if command.args else ""):
                self.say_line(line)
            return True
        if self.table is not None:
            return bool(self.table_verbs(command))
        return bool(self.refuse_game_verbs(command))

    def _setting(self, command: Command) -> None:
        changed, answer = self.prefs.apply(command.verb, command.args, self.lang, text_mode=True)
        self.say_line(answer)
        if changed and command.verb == "mode" and self.prefs.mode == "screen" and self.on_mode is not None:
            if not self.on_mode("screen"):
                self.say_line(self.t("pref.mode_later"))
        if changed and command.verb == "brief":
            self._prompt = ""

    # -- what happened ------------------------------------------------------------------------------

    def news(self) -> None:
        """Tell what happened since the last call: events, cards received, the prompt."""
        if not self.entered:
            return
        self._inbox()
        table = self.table
        if table is None:
            for entry in self.club.hall_since(self._hall_seq):
                self._hall_seq = entry.seq
                line = self._hall_line(entry.event)
                if line:
                    self.say_line(line)
            return
        for entry in table.log_since(self._seq):
            self._seq = entry.seq
            self._tell(table, entry)
        self._tell_felt(table)
        if self.player not in table.seats:  # the rail: watchers only
            for entry in table.rail.since(self._rail_seq):
                self._rail_seq = entry.seq
                railed = social.rail_line(entry.event, self.lang, self._hides)
                if railed:
                    self.say_line(railed)
            return  # a watcher: no hand, no turn (and no view to build for each of hundreds)
        view = answers.view_at(table, self.player)
        hand = frozenset(answers.my_hand(view))
        new = [c for c in answers.my_hand(view) if c not in self._hand]
        if new and view.seat is not None:
            if self._hand:
                self.say_line(self.t("text.got", listed=answers.cards_text(new, self.ascii),
                                     held=answers.cards_text(answers.my_hand(view), self.ascii)))
            else:
                self.say_line(answers.hand_text(view, self.lang, self.ascii))
        self._hand = hand
        prompt = self._prompt_now(table, view)
        turn = bool(prompt) and bool(self.legal())
        if self.prefs.brief and not turn and table.in_deal():
            prompt = ""  # brief: only his own turns
        if turn and not self._my_turn:  # his clock's half time is counted from here
            deadline = table.timer_deadline()
            self._turn_clock, self._warned = ((self.clock(), deadline) if deadline is not None else None), set()
        if prompt and prompt != self._prompt:
            if turn and not self._my_turn and self.ring is not None and self.prefs.bell_on(True):
                self._ring(RING_TURN)
            self.say_line(prompt, whole=True)
        self._prompt = prompt
        self._my_turn = turn

    def _prompt_now(self, table: TableLike, view: View | None = None) -> str:
        view = view if view is not None else answers.view_at(table, self.player)
        return answers.prompt_text(table, view, self.legal(), self.lang, self.ascii)

    def _hides(self, speaker: str) -> bool:
        return bool(self.club.social.hides(self.player, speaker))

    def _inbox(self) -> None:
        """Private words and invitations, said at once; a tell from someone else rings."""
        if self.player is None:
            return
        rung = False
        for entry in self.club.social.inbox(self.player).since(self._inbox_seq):
            self._inbox_seq = entry.seq
            line = social.inbox_line(entry.event, self.player, self.lang)
            if line:
                self.say_line(line)
            if not rung and entry.event.data.get("from") != self.player and self.ring is not None \
                    and self.prefs.bell_on(True):
                rung = True
                self._ring(RING_WHISPER)

    def _tell(self, table: TableLike, entry: LogEntry) -> None:
        event = entry.event
        if event.kind == "deal_start":
            self._trump_told, self._trump_in_event = None, False
        elif "trump" in event.data or event.kind == "trump_turned":
            self._trump_in_event = True  # its sentence names the trump (tui.narrate's facts)
        seated = self.player in table.seats
        chat = social.chat_line(event, entry.names, self.lang, self.player, seated, self._hides)
        if chat is None:
            return
        if chat:
            self.say_line(self.t("text.chat", line=chat))
            return
        if event.kind == "deal_start" and event.data.get("deal") == 1 and seated and self.ring is not None \
                and self.prefs.bell_on(True):
            self._ring(RING_START)  # his table starts
        if event.kind in CHAT:
            self.say_line(self.t("text.chat", line=told(table, entry, self.lang, self.ascii)))
            return
        if self.prefs.brief and event.kind not in RESULTS and not self._about_me(event):
            return
        if event.kind in ("fair_seal", "fair_open") and isinstance(event.data.get("seal"), str):
            short = event.data["seal"][:SEAL_SHORT]  # the hex read aloud is long: the whole on ``fair``
            self.say_line(self.t("text.sealed" if event.kind == "fair_seal" else "text.seal_opened", short=short))
            return
        line = told(table, entry, self.lang, self.ascii)
        if line:
            self.say_line(line)

    def _ring(self, times: int) -> None:
        """Bells heard apart: one for his turn (and his clock), two for a whisper, three for his table's start."""
        for _ in range(times):
            if self.ring is not None:
                self.ring()

    def clock_check(self) -> None:
        """Called each second by the channel: the run-out clock of his turn, said at half time, 10 s and 5 s
        (``CLOCK_WARNINGS``), rung if his bell is on; nothing when it is not his turn or no clock runs."""
        table = self.table
        deadline = table.timer_deadline() if table is not None and self._my_turn else None
        if deadline is None:
            self._turn_clock, self._warned = None, set()
            return
        now = self.clock()
        if self._turn_clock is None or self._turn_clock[1] != deadline:
            self._turn_clock, self._warned = (now, deadline), set()
        total = deadline - self._turn_clock[0]
        left = deadline - now
        marks = sorted({int(total // 2), *CLOCK_WARNINGS}, reverse=True)
        due = [m for m in marks if 0 < m < total and left <= m and m not in self._warned]
        if not due:
            return
        self._warned.update(m for m in marks if m >= min(due))
        if self.ring is not None and self.prefs.bell_on(True):
            self.ring()
        self.say_line(self.t("text.clock_warning", seconds=max(1, int(round(left)))))

    def _tell_felt(self, table: TableLike) -> None:
        """A trump the felt shows that no event named (Спекулянт's diamonds, a game's rule): said once a deal."""
        trump = felt_trump(table)
        if trump == self._trump_told:
            return
        self._trump_told = trump
        if isinstance(trump, Suit) and not self._trump_in_event:
            self.say_line(self.t("text.turn_trump", suit=trump.text(self.ascii)))
        self._trump_in_event = False

    def _about_me(self, event: Any) -> bool:
        """Brief still tells what the club did for this person (his run-out clock)."""
        return event.kind == "timeout" and event.data.get("name") == self.player

    def _hall_line(self, event: Any) -> str:
        line = self.hall_event(event)
        if line and event.kind == "say":
            return self.t("text.chat", line=line)
        return line

    def notice(self, message: str) -> None:
        """A line from the house (``admin say``)."""
        self.say_line(self.t("text.notice", line=message))
