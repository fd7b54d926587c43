"""The hall's command vocabulary: one class every place that understands typed lines uses.

The hall screen (``tui.screens.base.ClubScreen`` and its ``HallScreen``), the
text mode (``tui.text.club.TextClub``) and the App-less hall door
(``net.modes.hall.HallDoor``) must understand every club verb spelled the same
way and refuse in the same words, so they inherit these handlers rather than
each having its own.  Nothing here draws or needs Textual: the mode gives its
``tui.host.Host`` as ``club_app`` (the club, the player, his language and his
wishes: ``show_table``, ``show_hall``, ``watch_table``, ``set_lang``, ``exit``…) and the
screen's few outputs: ``say_line``, ``echo``, ``hint``; it may override the
hooks (``handle_here``, ``describe``, ``table_here``, ``legal``) as a table does.
"""

from __future__ import annotations

import logging
import time
import weakref
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text

from engine.game import Event, IllegalAction
from engine.games import registry
from tui import commands, fair, pending, ratings, refusals, social
from tui.social import named
from tui.admin_verb import AdminScreen, run_admin
from tui.analysis import lines_of_json
from tui.commands import BOT_WORDS, GAME_VERBS, HALL_VERBS, Command, UnknownCommand
from tui.i18n import LANGS, has, tr
from tui.limits import quote
from tui.ratings import short_mark
from tui.rulebook import brief, plain_lines
from tui.text.answers import ask
from tui.titles import game_title, stakes

if TYPE_CHECKING:
    from engine.table.club import Club
    from engine.table.face import TableLike
    from tui.host import Host


log = logging.getLogger("sukno.tui")

GAME_ONLY = frozenset(GAME_VERBS) - frozenset(HALL_VERBS)
HERE_MAX = 20
"""Names at most in ``look``'s "Here: …" (the others counted; ``who`` lists everyone)."""


def at_a_table(app: Host, name: str) -> bool:
    """Seated or watching somewhere: such a person is not standing in the hall."""
    return app.club.where(name) is not None or any(name in t.spectators for t in app.club.tables.values())


_MOTD_TOLD: weakref.WeakSet[Any] = weakref.WeakSet()
"""The arrivals told the message of the day: each is told it once, however often he comes to the hall."""
WHOLE_WORDS = ("all", "full", "все", "всё", "полностью", "целиком")
"""The last word of ``rules GAME all``: the whole rules, not the brief."""


class HallVerbs:
    """The club's verbs and the hall's (see the module docstring); the mode gives its ``Host`` as
    ``club_app`` (``tui.host``) and the outputs."""

    @property
    def club_app(self) -> Host:
        raise NotImplementedError

    def say_line(self, text: str | Text, style: str = "") -> None:
        raise NotImplementedError

    def echo(self, line: str) -> None:
        raise NotImplementedError

    def hint(self, text: str) -> None:
        raise NotImplementedError

    def t(self, key: str, **params: Any) -> str:
        return tr(self.club_app.lang, key, **params)

    @property
    def me(self) -> str:
        """His name: the club's verbs run for a named person (a new key chooses one first)."""
        return named(self.club_app)

    # -- a typed line -------------------------------------------------------------

    def run_line(self, line: str, echo: bool = True) -> None:
        """Run one typed line; never lets an exception reach the screen.  While a change of this
        person's waits for another node's answer, the line waits too (``tui.pending``: in order)."""
        if echo:
            self.echo(line)
        if pending.hold(self, line):
            return
        try:
            command = commands.parse(line)
        except UnknownCommand as err:
            if err.suggest:
                self.error(self.t("cmd.unknown", word=quote(err.word), suggest=" / ".join(err.suggest)))
            else:
                self.error(self.t("cmd.unknown_plain", word=quote(err.word)))
            return
        if command is None:
            return
        try:
            if not self.handle_here(command):
                self.handle_club(command)
        except IllegalAction as err:
            self.error(self.explain(err))
        except Exception:  # a bug must not end the session with a traceback on screen
            log.exception("command %r failed", line)
            self.error(self.t("cmd.failed"))

    def explain(self, err: IllegalAction) -> str:
        return refusals.explain(err, self.club_app.lang, self.club_app.ascii)

    def error(self, text: str) -> None:
        self.say_line(text, style="red")

    # -- to override ------------------------------------------------------------------

    def handle_here(self, command: Command) -> bool:
        """Verbs that belong to this screen; True when handled."""
        return False

    def describe(self) -> None:
        """``look``: describe where the player stands."""

    def table_here(self) -> TableLike | None:
        return None

    def game_verbs(self) -> list[str]:
        return []

    def legal(self) -> list:
        return []

    # -- the club's verbs -------------------------------------------------------------

    def scrollback(self) -> Any:
        """A screen's own log (``show_last``), or None: the text mode and the doors keep none."""
        log_view = getattr(self, "log_view", None)
        return log_view if hasattr(log_view, "show_last") else None

    def handle_club(self, command: Command) -> None:
        app = self.club_app
        verb, args = command.verb, command.args
        if social.handle(self, command):
            return
        if verb == "look":
            self.describe()
        elif verb == "tables":
            for row in table_lines(app.club, app.lang, app.ascii):
                self.say_line(row)
        elif verb == "who":
            self.say_line(who_line(app))
        elif verb == "say":
            if not command.rest:
                self.error(self.t("cmd.say_what"))
                return
            table = self.table_here()
            if table is None:
                app.club.say(self.me, command.rest)
            else:
                def said(rail: bool) -> None:
                    if rail:  # a watcher between deals: the players did not hear it
                        self.say_line(self.t("social.rail_only"), style="dim")

                pending.after(self, table.say(self.me, command.rest), said)
        elif verb in ("sit", "watch"):
            self.sit_or_watch(command)
        elif verb == "stand":
            table = self.table_here() or app.club.where(self.me)
            if table is None or app.player not in table.seats:
                self.error(self.t("table.not_seated"))
                return
            def stood(_table: TableLike) -> None:
                getattr(self, "tell_last_news", lambda: None)()  # a screen's log; the text mode hears it anyway
                self.say_line(self.t("cmd.stood", id=table.id))
                getattr(app, "back_to_hall", app.show_hall)()

            pending.after(self, app.club.stand(self.me, table.id), stood)
        elif verb == "leave":
            if self.table_here() is None:
                self.error(self.t("cmd.already_hall"))
            else:
                getattr(app, "back_to_hall", app.show_hall)()
        elif verb == "help":
            self.show_help(args[0] if args else "")
        elif verb == "rules":
            self.show_rules(command.rest)
        elif verb == "lang":
            value = (args[0] if args else "").lower()
            if value not in LANGS:
                self.error(self.t("lang.bad", value=value))
                return
            app.set_lang(value)
            self.say_line(self.t("lang.set"))
        elif verb == "quit":
            app.exit()
        elif verb == "admin":
            if isinstance(self, AdminScreen):  # every mode that runs these verbs can wait in a worker
                run_admin(self, command.rest)
            else:
                self.error(self.t("cmd.failed"))
        elif verb in ("balance", "history"):
            from tui.history import account_lines  # loads the replay screen: Textual, which verbs never need

            def show(lines: Any) -> None:
                if isinstance(lines, str):  # the store failed: a catalogue key
                    self.error(self.t(lines))
                    return
                for line in lines:
                    self.say_line(line)

            pending.after(self, account_lines(app, verb), show)
        elif verb == "log" and self.scrollback() is not None:
            count = int(args[0]) if args and args[0].isdigit() else 10
            self.scrollback().show_last(min(count, 1000) + 1)  # the screen's own log (+1: this line's echo)
        elif verb in commands.ASK_VERBS:  # the text mode's questions, answered in the log (tui.text.answers)
            for line in ask(verb, args, self.table_here(), app.player, app.lang, app.ascii, app.clock(),
                            app.club.is_online):
                self.say_line(line)
        elif verb in commands.SETTING_VERBS:  # bell, mode, brief, cards (tui.text.prefs)
            changed, answer = app.prefs.apply(verb, args, app.lang, text_mode=False)
            self.say_line(answer)
            if changed and verb == "mode" and app.prefs.mode == "text" and app.on_mode is not None:
                app.on_mode("text")
        elif verb == "cut":
            pending.after(self, fair.cut(app, self.table_here() or app.club.where(self.me), command.rest),
                          self.say_line)
        elif verb == "verify":
            for verdict in fair.verify_lines(app, command.rest):
                self.say_line(verdict)
        elif verb in ("top", "rating", "league"):
            self.show_ratings(verb, command.rest)
        elif verb == "analyse":
            self.show_analysis(args[0] if args else "")
        elif verb == "replay":
            from tui.history import replay_screen

            screen = replay_screen(app, args[0] if args else "")
            if isinstance(screen, str):
                self.error(screen)
            else:
                app.push_screen(screen)
        else:
            self.error(self.t("cmd.not_at_table"))

    def _seat_asked(self, args: tuple[str, ...]) -> int | None | Literal[False]:
        """The seat a ``sit N [seat]`` line asks for (0-based), None for any free one; False, said why, for a non-number."""
        if len(args) < 2:
            return None
        if not args[1].isdigit():
            self.error(self.t("cmd.bad_seat", value=args[1]))
            return False
        return int(args[1]) - 1

    def sit_or_watch(self, command: Command) -> None:
        app = self.club_app
        verb, args = command.verb, command.args
        if not args:
            self.error(self.t("cmd.need_table", verb=command.word))
            return
        if verb == "sit" and (args[0].lower() in BOT_WORDS or (len(args) > 1 and args[1].lower() in BOT_WORDS)):
            self.sit_bot(args)
            return
        if not args[0].isdigit():
            self.error(self.t("cmd.bad_number", value=args[0]))
            return
        table = app.club.table(int(args[0]))
        if verb == "watch":
            app.watch_table(table.id)
            return
        if app.guest:  # the club refuses too (Club.sit); said here before parsing the seat
            self.error(self.t("cmd.guest_sit"))
            return
        if app.player not in table.seats:
            seat = self._seat_asked(args)
            if seat is False:
                return

            def sat(seat: int) -> None:
                self.say_line(self.t("cmd.sat", id=table.id, seat=seat + 1))
                app.show_table(table.id)

            # the club's rules: one seat, no guest, not closing
            pending.after(self, app.club.sit(self.me, table.id, seat), sat)
            return
        app.show_table(table.id)

    def sit_bot(self, args: tuple[str, ...]) -> None:
        """``sit bot [seat]`` at one's table, or ``sit N bot [seat]``: a bot takes a free seat."""
        app = self.club_app
        if args[0].isdigit():
            table: TableLike | None = app.club.table(int(args[0]))
            args = args[1:]
        else:
            table = self.table_here() or app.club.where(self.me)
        if table is None or app.player not in table.seats:
            self.error(self.t("cmd.bot_need_seat"))
            return
        seat = self._seat_asked(args)
        if seat is False:
            return

        def seated(name: str) -> None:
            if self.table_here() is not table:  # at that table its log tells it already: once
                self.say_line(self.t("cmd.bot_sat", name=name, id=table.id, seat=(table.seat_of(name) or 0) + 1))

        pending.after(self, app.club.sit_bot(table.id, seat, by=app.player), seated)

    def show_help(self, topic: str) -> None:
        """``help [topic]``: a topic, or one game verb in the game's own words (``help golets``);
        at a table, bare ``help`` lists that game's verbs only."""
        word = topic.lower()
        topic = commands.HELP_ALIASES.get(word, word)
        table = self.table_here()
        verb = commands.ALIASES.get(word)
        if not topic and table is not None:
            lang = self.club_app.lang
            verbs = [commands.verb_word(v, lang) for v in table.game_cls.verbs]
            self.say_line(self.t("help.game", game=table.title.get(lang) or table.game_name,
                                 verbs=", ".join(verbs), example=verbs[0] if verbs else ""))
            return
        if not topic:
            topic = "hall"
        if topic not in commands.HELP_TOPICS and verb is not None and has(self.club_app.lang, f"help.verb.{verb}"):
            self.say_line(self.t(f"help.verb.{verb}"))
            return
        if topic not in commands.HELP_TOPICS:
            self.error(self.t("cmd.no_help", topic=topic, topics=self.t("help.topics")))
            return
        self.say_line(self.t(f"help.{topic}"))

    def show_ratings(self, verb: str, rest: str) -> None:
        """``top GAME``, ``rating [NAME]``, ``league [GAME]`` (``tui.ratings``); the table's game by default."""
        app = self.club_app
        table = self.table_here()
        word = rest.strip() or (table.game_name if table is not None and verb != "rating" else "")
        if verb == "top":
            lines: Any = ratings.top_lines(app.club, word, app.lang)
        elif verb == "rating":
            lines = ratings.rating_lines(app.club, word or self.me, app.lang)
        else:
            lines = ratings.league(app.club, word, app.lang, time.time(), getattr(app, "store_read", None))

        def show(got: Any) -> None:
            if isinstance(got, str):  # the store failed: a catalogue key
                self.error(self.t(got))
                return
            for line in got:
                self.say_line(line)

        pending.after(self, lines, show)

    def show_analysis(self, word: str) -> None:
        """``analyse ID`` (``анализ``): the search bot's judgement of every decision of a game one played."""
        app = self.club_app
        analyst = getattr(app.club, "analyst", None)
        if not word.isdigit() or not 0 < int(word) < 2**63:
            self.error(self.t("analysis.need_id"))
            return
        if analyst is None or app.guest:
            self.error(self.t("analysis.unavailable"))
            return
        self.say_line(self.t("analysis.started", id=int(word)), style="dim")

        def show(got: Any) -> None:
            if isinstance(got, str):  # why not, as a catalogue key
                self.error(self.t(got, id=int(word)))
                return
            for line in got:
                self.say_line(line)

        pending.after(self, analyst.ask(app.player, int(word), app.lang, lines_of_json), show)

    def show_rules(self, words: str) -> None:
        """``rules GAME``: the rules in brief, then how to hear them whole; ``rules GAME all``: the whole
        text, line by line.  Both read docs/rules (``tui.rulebook``), the text the bot protocol sends."""
        lang = self.club_app.lang
        games = sorted({t.game_name for t in self.club_app.club.tables.values()})
        words = " ".join(words.split())
        head, _, last = words.rpartition(" ")
        whole = (last or words).casefold() in WHOLE_WORDS
        if whole:
            words = head if last else ""
        table = self.table_here()
        if not words and table is not None:
            words = table.game_name
        if not words:
            self.say_line(self.t("rules.list", games=", ".join(games)))
            return
        game = game_by_words(words)
        short = brief(game, lang)
        if short is None and not has(lang, f"rules.{game.lower()}"):
            self.error(self.t("cmd.no_rules", game=words, games=", ".join(games)))
            return
        if short is None:  # a game without a file of rules (the test game): its line of the catalogue
            self.say_line(self.t(f"rules.{game.lower()}"))
            return
        if whole:
            for line in plain_lines(game, lang) or []:
                self.say_line(line)
            return
        self.say_line(short)
        title = getattr(registry().get(game), "title", {}).get(lang, game).lower()
        self.say_line(self.t("rules.whole", game=title))

    # -- the hall's own -----------------------------------------------------------------

    def tell_motd(self, arrival: object) -> None:
        """The house's message of the day, once for each ``arrival`` (a session, or an App on its own);
        plain text in the catalogue's line, never markup."""
        motd = str(getattr(self.club_app.club, "motd", "") or "")
        if not motd or arrival in _MOTD_TOLD:
            return
        _MOTD_TOLD.add(arrival)
        self.say_line(self.t("motd.line", text=motd))

    def describe_hall(self) -> None:
        """``look`` in the hall: the room, who stands in it, each table, one's own seat."""
        app = self.club_app
        count = len(app.club.tables)
        self.say_line(self.t("hall.describe_one" if count == 1 else "hall.describe", count=count))
        busy = {n for t in app.club.tables.values() for n in (*t.seats, *t.spectators) if n}  # at_a_table's, once
        others = [n for n in app.club.online() if n != app.player and n not in busy]
        shown = ", ".join(social.who_note(app.club, n, app.lang) for n in others[:HERE_MAX])
        if len(others) > HERE_MAX:  # 500 names were 45 rows drawn for each newcomer: ``who`` lists them all
            self.say_line(self.t("hall.people_more", names=shown, more=len(others) - HERE_MAX))
        else:
            self.say_line(self.t("hall.people", names=shown) if others else self.t("hall.alone"))
        for table in app.club.tables.values():
            names = ", ".join(table.seated())
            game = game_title(table, app.lang)
            free = table.seats.count(None)
            if not names:
                key = "hall.table_empty"
            elif table.in_deal():
                key = "hall.table_playing"
            else:
                key = "hall.table_full" if not free else "hall.table_some"
            deal = table.game.deal_no if table.game is not None else 0
            self.say_line(self.t(key, id=table.id, game=game, names=names, free=free, deal=deal,
                                seated=len(table.seated())))
        mine = app.club.where(self.me)
        if mine is not None:
            self.say_line(self.t("hall.you_sit", id=mine.id))
        if app.guest:
            self.say_line(self.t("hall.guest_note"), style="yellow")

    def hall_event(self, event: Event) -> str:
        data = event.data
        if event.kind in ("enter", "leave"):
            if data.get("name") == self.club_app.player:
                return ""
            return self.t(f"hall.{event.kind}", name=data.get("name", ""))
        if event.kind == "say":
            if self.club_app.club.social.hides(self.club_app.player, data.get("name")):
                return ""  # ignored
            return self.t("hall.say", name=data.get("name", ""), text=data.get("text", ""))
        if event.kind in ("away", "back"):
            if data.get("name") == self.club_app.player:
                return ""
            note = data.get("text", "")
            return self.t("hall.away_note" if note else f"hall.{event.kind}", name=data.get("name", ""), text=note)
        if event.kind == "table_open":
            return self.t("hall.table_open", table=data.get("table"), game=data.get("game"))
        return ""

    def refuse_game_verbs(self, command: Command) -> bool:
        """In the hall, game verbs and ``start`` mean nothing: say so (True when said)."""
        if command.verb == "start" or command.verb in GAME_ONLY:
            self.error(self.t("cmd.not_at_table"))
            return True
        return False


# -- texts shared by the hall and the tables ------------------------------------------

def table_lines(club: Club, lang: str, ascii: bool) -> list[Text]:
    """The ``tables`` list, as the hall screen, the hall door's board and the text mode show it."""
    if not club.tables:
        return [Text(tr(lang, "tables.none"))]
    lines = [Text(tr(lang, "tables.head"), style="bold")]
    for table in club.tables.values():
        seats = len(table.seats)
        taken = len(table.seated())
        dots = ("*" * taken + "." * (seats - taken)) if ascii else ("●" * taken + "○" * (seats - taken))
        if taken == seats:
            dots = tr(lang, "tables.full")
        line = Text(f" {table.id:>2}  {game_title(table, lang)[:26]:<26}  {stakes(table, lang):<9}  ")
        line.append(f"{taken}/{seats}  {dots:<9}", style="green" if taken < seats else "")
        line.append(f"  {club.watcher_count(table.id)}")  # here and on the club's other nodes
        lines.append(line)
    return lines


def who_line(app: Host) -> str:
    names = []
    for name in app.club.online():
        table = app.club.where(name)
        shown = tr(app.lang, "who.bot", name=name) if name in getattr(app.club, "robots", ()) else name
        mark = short_mark(app.club, name)
        shown = f"{shown} [{mark}]" if mark else shown
        shown = social.who_note(app.club, shown, app.lang) if shown == name else shown
        if table is not None:
            names.append(tr(app.lang, "who.seat", name=shown, id=table.id))
        elif app.club.is_guest(name):
            names.append(tr(app.lang, "who.guest", name=shown))
        else:
            names.append(shown)
    return tr(app.lang, "who.list", count=len(names), names=", ".join(names))


def game_by_words(typed: str) -> str:
    """A game named as a person says it, in either language: ``стуколка``, ``французская``, ``спекулянта``
    (its title, a word of its title, or the start of one); else the name as typed."""
    word = typed.casefold().strip()
    if not word:
        return typed
    found = set()
    for name, cls in registry().items():
        titles = [t.casefold() for t in getattr(cls, "title", {}).values()] + [name]
        if word in titles:
            return name
        if any(w.startswith(word[:max(4, len(word) - 2)]) for t in titles for w in t.split()) and len(word) >= 4:
            found.add(name)
    return found.pop() if len(found) == 1 else typed
