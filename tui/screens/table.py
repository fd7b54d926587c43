"""At a table: the felt, your hand, the story of the deal, and the game's verbs.

A seated player acts through ``Table.act``; anyone else here only watches
(the public view).  The screen learns of changes from the app, which gets a
coalesced ``TableChanged`` message from the table's subscription.
"""

from __future__ import annotations

from functools import partial

from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding

from engine.cards import Card
from engine.game import Action, Event, IllegalAction
from engine.table.face import TableLike
from engine.view import RecordSheet, View
from tui import commands, pending
from tui.commands import GAME_VERBS, HALL_VERBS, Command
from tui.host import TableLines
from tui.i18n import money
from tui.pull import puller
from tui.ratings import label_in
from tui.screens.base import ClubScreen
from tui.titles import game_title
from tui.widgets.cmdline import CommandLine
from tui.widgets.hand import Hand
from tui.widgets.log import EventLog
from tui.widgets.tableview import TableView


GAME_ONLY = frozenset(GAME_VERBS) - frozenset(HALL_VERBS)


class TableVerbs:
    """A table's command vocabulary: the table screen and the text mode (``tui.text.club.TextClub``) both
    inherit it (no widgets here: the host is a ``tui.host.TableLines``; a screen that lets him pick cards
    forgets them in ``forget_chosen``)."""

    by_ear = False
    """The text mode's: his ``start`` asks for a session he can follow by ear (``Table.start``)."""

    def forget_chosen(self) -> None:
        """The cards he picked on the felt are spent by the move he sent (the text mode picks none)."""

    def action_sheet(self) -> bool:
        """``score``: a screen shows the score sheet (True); the text mode has none (``score`` stays sentences)."""
        return False

    def table_verbs(self: TableLines, command: Command) -> bool:
        """The table's own verbs (start, the game's verbs, a card typed alone); True when handled."""
        app, table = self.club_app, self.table
        if table is None:
            return False  # not at a table: the hall's verbs answer
        command = commands.for_game(command, table.game_cls.verbs)
        verb = command.verb
        if verb == "score" and self.action_sheet():
            return True
        if verb == "look" and not any(a.verb == "look" for a in self.legal()):
            return False
        if verb == "ready" and "ready" not in table.game_cls.verbs:
            verb = "start"  # "ready" means ready to deal where the game has no verb of that name
        player = app.player
        if verb == "start":
            if player is None or player not in table.seats:
                self.error(self.t("cmd.spectator_no_act"))
                return True

            def started(events: list[Event]) -> None:
                if not any(e.kind == "deal_start" for e in events):
                    self.say_line(self.t("cmd.ready"))

            pending.after(self, table.start(player, now=app.clock(), by_ear=self.by_ear), started)
            return True
        if command.card is None and verb not in table.game_cls.verbs:
            if verb in GAME_ONLY:  # another game's verb: this table is a table, say what its game knows
                known = ", ".join(commands.verb_word(v, app.lang) for v in table.game_cls.verbs)
                self.error(self.t("refuse.unknown_verb", verb=command.word, verbs=known))
                return True
            return False
        if player is None or player not in table.seats:
            self.error(self.t("cmd.spectator_no_act"))
            return True
        if command.card is not None:  # a card typed alone: the one legal action with it (discard 8♠ …)
            verb = next((a.verb for a in self.legal() if a.args == (command.card,)), verb)
            command = Command(verb, command.args, command.rest, command.word, command.card)
        if verb == "buy":
            bought = buy_command(self, command)
            if bought is None:
                return True
            command = bought
        before = my_cards(self)
        self.forget_chosen()
        sent = command

        def acted(_events: object) -> None:
            if verb == "buy":
                tell_bought(self, before, sent)
            elif verb in ("take", "draw", "discard"):
                tell_own(self, before, verb)

        pending.after(self, table.act(player, commands.action_text(command), now=app.clock()), acted)
        return True


class TableScreen(TableVerbs, ClubScreen):
    """One table, played or watched."""

    BINDINGS = [Binding("f2", "sheet", show=False)]  # the score sheet (tui.screens.sheet)

    def __init__(self, table: TableLike) -> None:
        super().__init__()
        self.table = table
        self._unsubscribe: Callable[[], None] | None = None
        self._told_team: tuple | None = None
        self._my_turn = False

    def compose(self) -> ComposeResult:
        app = self.club_app
        social = app.club.social
        yield TableView(puller(self.table, app.player, app.club.is_online, app.club.is_away,
                               partial(label_in, app.club)), app.player,
                        clock=app.clock, hides=lambda speaker: social.hides(app.player, speaker))
        yield CommandLine(id="cmd")

    def forget_chosen(self) -> None:
        self.tview.chosen.clear()

    @property
    def tview(self) -> TableView:
        return self.query_one(TableView)

    @property
    def log_view(self) -> EventLog:
        return self.tview.query_one(EventLog)

    def tell_last_news(self) -> None:
        """He is leaving the table: what his going made it say (Копилка's kitty paid out, R16) is told
        now, and carried with his last words into the hall, where he would not hear it otherwise."""
        before = list(self.log_view.lines)
        self.tview.sync()
        after = list(self.log_view.lines)
        last = before[-1] if before else None
        start = next((i + 1 for i in range(len(after) - 1, -1, -1) if after[i] is last), 0) if last else 0
        said = getattr(self.club_app, "said", None)
        if said is not None:
            said.extend(after[start:])

    def on_mount(self) -> None:
        super().on_mount()
        app = self.club_app
        self._unsubscribe = self.table.subscribe(app.table_callback(self.table.id))
        self.relang()
        self.tell_team()
        if self.tview.seat is None:
            self.say_line(self.t("table.watching", id=self.table.id), style="yellow")

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def relang(self) -> None:
        self.tview.set_lang(self.club_app.lang, self.club_app.ascii)

    def on_table_update(self) -> None:
        app = self.club_app
        seated = app.player in self.table.seats
        starts = seated and any(e.event.kind == "deal_start" and e.event.data.get("deal") == 1
                                for e in self.table.log_since(self.tview.seq))
        self.tview.hint_override = ""
        self.tview.sync()
        self.tell_team()
        turn = seated and bool(self.legal())
        if starts or (turn and not self._my_turn):
            app.ring_bell()  # BEL when his table starts or it becomes his turn, if he asked for it (bell on)
        self._my_turn = turn

    def tell_team(self) -> None:
        """A partnership game: once a deal, say who one's partner is and what the records mean."""
        view = self.tview.view
        deal = (view.deal_no, tuple(self.table.seats))
        if deal == self._told_team or view.seat is None:
            return
        line = team_line(view, self.club_app.lang, self.table.options.get("T"))
        if line:
            self._told_team = deal
            self.say_line(line, style="yellow")

    def hint(self, text: str) -> None:
        self.tview.show_hint(text)

    def action_sheet(self) -> bool:
        """``score`` or F2: the game's score sheet in place of the felt, or the felt again."""
        from tui.widgets.sheet import has_sheet

        if not has_sheet({"game": self.table.game_name}):
            return False
        shown = not self.tview.sheet_shown
        self.tview.show_sheet(shown)
        self.hint(self.t("sheet.keys") if shown else self.tview.hint_text(self.tview.view, self.legal()))
        return True

    def table_here(self) -> TableLike:
        return self.table

    def game_verbs(self) -> list[str]:
        return list(self.table.game_cls.verbs)

    def legal(self) -> list[Action]:
        """Asked of the table itself: what the player may do now, not at the last redraw."""
        player = self.club_app.player
        return self.table.legal_actions(player) if player is not None else []

    # -- commands -------------------------------------------------------------------

    def handle_here(self, command: Command) -> bool:
        return self.table_verbs(command)

    def explain(self, err: IllegalAction) -> str:
        reason = super().explain(err)
        legal = self.legal()
        listed = any(word in reason.lower() for word in ("you may", "можно"))
        if legal and not listed and not err.key.startswith("table."):
            from tui.hints import actions_hint

            return self.t("action.suggest", reason=reason, actions=actions_hint(
                legal, self.club_app.lang, self.club_app.ascii, self.tview.my_hand()))
        return reason

    def describe(self) -> None:
        """``look`` at a table: who sits where, what lies on the felt, the pot, whose turn."""
        from tui.narrate import show

        table, app = self.table, self.club_app
        view = self.tview.view if self.tview.snapshot is not None else table.pull(app.player).view
        names = [n or self.t("table.empty_seat") for n in table.seats]
        seats = ", ".join(f"{i + 1}. {n}" for i, n in enumerate(names))
        self.say_line(self.t("table.look_seats", id=table.id, game=game_title(table, app.lang), seats=seats))
        trick = view.trick.cards
        if trick:
            cards = ", ".join(f"{view.names[s]} {show(c, [], app.lang, app.ascii)}" for s, c in trick)
            self.say_line(self.t("table.look_felt", cards=cards))
        trump = view.trump
        self.say_line(self.t("table.look_pot", pot=money(view.pot, app.lang))
                      + (" " + self.t("table.look_trump", suit=trump.text(app.ascii)) if trump is not None else ""))
        if table.spectators:
            self.say_line(self.t("table.look_watchers", names=", ".join(sorted(table.spectators))))
        self.say_line(self.tview.hint_text(view, self.legal()))

    # -- picking cards --------------------------------------------------------------

    def run_line(self, line: str, echo: bool = True) -> None:
        """A bare number with nothing after it picks that card of the hand (1–12); all else is a command.

        ``10h``, ``8s``, ``9ч`` and ``тк`` are cards (``commands.parse``), never a position.
        """
        text = line.strip()
        first = text.split()[0].lower() if text.split() else ""
        if self.tview.sheet_shown and commands.ALIASES.get(first, first) != "score":
            self.action_sheet()  # any other line: back to the felt, where its answer shows
        if text.isdigit() and len(text) <= 2 and self.tview.my_hand() and not pending.busy(self.club_app):
            if echo:
                self.echo(line)
            self.pick(int(text) - 1)
            return
        super().run_line(line, echo)

    def on_hand_card_chosen(self, message: Hand.CardChosen) -> None:
        """A click picks a card (its action on the line); a second click on the same card does it."""
        hand = self.tview.my_hand()
        line = self.cmdline.value.strip()
        if 0 <= message.index < len(hand) and line and not pending.busy(self.club_app):
            card = hand[message.index]
            buying = commands.ALIASES.get(line.split()[0].lower()) == "buy"
            if not buying and card in self.tview.chosen and line == self.line_for(card):
                self.cmdline.value = ""
                self.cmdline.remember(line)
                self.run_line(line)
                self.cmdline.focus()
                return
        self.pick(message.index)
        self.cmdline.focus()

    def pick(self, index: int) -> None:
        hand = self.tview.my_hand()
        if not 0 <= index < len(hand):
            self.error(self.t("cmd.no_card", n=index + 1, last=len(hand)))
            return
        card = hand[index]
        line = self.line_for(card)
        self.cmdline.value = line
        self.cmdline.cursor_position = len(line)
        self.tview.chosen = {c for c in self._cards_in(line)}
        self.tview.sync()
        self.hint(self.t("cmd.select_card", n=index + 1, card=card.text(self.club_app.ascii)))

    def line_for(self, card: Card) -> str:
        """The line a picked card makes: its one action, or a card added to a ``buy``."""
        app = self.club_app
        current = self.cmdline.value.split()
        legal = self.legal()
        if current and commands.ALIASES.get(current[0].lower()) in ("buy",):
            chosen = self._cards_in(self.cmdline.value)
            chosen = [c for c in chosen if c != card] if card in chosen else chosen + [card]
            return " ".join([current[0]] + [c.text(app.ascii) for c in chosen])
        for action in legal:
            if action.args == (card,):
                return commands.show_action(action, app.lang, app.ascii)
        for action in legal:
            if card in action.args:
                return commands.show_action(Action(action.verb, (card,)), app.lang, app.ascii)
        return commands.show_action(Action("play", (card,)), app.lang, app.ascii)

    @staticmethod
    def _cards_in(line: str) -> list[Card]:
        from engine.cards import CardError, parse_card

        out = []
        for word in line.split()[1:]:
            try:
                out.append(parse_card(word))
            except CardError:
                pass
        return out


# -- buying (the three-hander's widow, Стуколка's buying) ------------------
# Functions of the screen, not methods: the text mode's ``TableVerbs`` call them too, and
# each mode gives them a ``tui.host.TableLines``.


def _my_view(screen: TableLines) -> dict[str, Any]:
    """The player's own view of his table ({} when he is at none)."""
    table = screen.table
    return table.view_for(screen.club_app.player) if table is not None else {}


def my_cards(screen: TableLines) -> list[Card]:
    """The player's hand from his view (the text mode borrows this screen's verbs: no widgets here)."""
    view = _my_view(screen)
    seat, hands = view.get("seat"), view.get("hands") or []
    if seat is None or seat >= len(hands) or hands[seat] is None:
        return []
    return list(hands[seat])


def buy_command(screen: TableLines, command: Command) -> Command | None:
    """``buy 0`` keeps the hand; a bare ``buy`` where cards may be given asks which (None: nothing done)."""
    if command.args in (("0",), ("0", "0")):
        return Command("buy", (), "", command.word)
    if command.args:
        return command
    legal = screen.legal()
    giving = [a for a in legal if a.verb == "buy" and a.args and all(isinstance(c, Card) for c in a.args)]
    if not giving or Action("buy") not in legal:
        return command  # buying blind or standing pat is the only bare buy there is
    app = screen.club_app
    most = max(len(a.args) for a in giving)
    low = sorted(my_cards(screen), key=lambda c: (c.rank, c.suit))[:min(2, most)]
    word = commands.verb_word("buy", app.lang)
    example = " ".join([word] + [c.text(app.ascii) for c in low])
    screen.say_line(screen.t("hint.buy_which", verb=word, most=most, example=example), style="yellow")
    return None


def tell_bought(screen: TableLines, before: list[Card], command: Command) -> None:
    """Only the buyer learns which cards came in."""
    after = my_cards(screen)
    if not before or not after:
        return
    gave = [c for c in before if c not in after]
    got = [c for c in after if c not in before]
    ascii = screen.club_app.ascii
    if gave or got:
        screen.say_line(screen.t("hint.bought", gave=" ".join(c.text(ascii) for c in gave) or "—",
                                 got=" ".join(c.text(ascii) for c in got) or "—"))
    elif not command.args:
        screen.say_line(screen.t("hint.kept"))


def team_line(view: View, lang: str, record: Any) -> str:
    """``Your partner is vera…``: for a view whose sheet has teams (the pairs game's ``RecordSheet``), else ''."""
    from tui.i18n import tr

    sheet, seat, names = view.sheet, view.seat, view.names
    if not isinstance(sheet, RecordSheet) or seat is None or not names:
        return ""
    teams = dict(sheet.teams)
    mine = sheet.team_of(seat)
    if mine is None:
        return ""
    partner = next((names[s] for s in teams[mine] if s != seat and s < len(names)), "?")
    other = next((t for t in teams if t != mine), "?")
    them = " · ".join(names[s] for s in teams.get(other, []) if s < len(names))
    conj = " и " if lang == "ru" else " and "
    return tr(lang, "pairs.partner", partner=partner, team=mine, you=names[seat], other=other,
              them=them.replace(" · ", conj), T=record if isinstance(record, int) else 12)


def tell_own(screen: TableLines, before: list[Card], verb: str) -> None:
    """Копилка: the one who took, drew or discarded learns which card; the log tells the others a count."""
    after = my_cards(screen)
    ascii = screen.club_app.ascii
    if verb in ("take", "draw"):
        came = [c for c in after if c not in before]
        if came:
            screen.say_line(screen.t("own.took" if verb == "take" else "own.drew",
                                     card=" ".join(c.text(ascii) for c in came)))
        return
    gone = [c for c in before if c not in after]
    if not gone:
        return
    view = _my_view(screen)
    seat, owed = view.get("seat"), view.get("owed_discards") or []
    n = owed[seat] if seat is not None and seat < len(owed) else 0
    card = " ".join(c.text(ascii) for c in gone)
    screen.say_line(screen.t("own.discarded_more", card=card, n=n) if n else screen.t("own.discarded", card=card))
