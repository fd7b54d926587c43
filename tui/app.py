"""``ClubApp``: one Textual app per player session (small on purpose).

Interface used by ``net/``::

    ClubApp(club, name, *, lang="en", ascii=False, guest=False,
            register=None, on_watch=None, clock=time.monotonic)

- ``name`` None: the welcome screen asks for a name and calls
  ``register(name) -> None | error text``; then the hall.
- The app calls ``club.enter(name, guest, now)`` when the player is in and
  ``club.leave(name, now)`` when the app ends; leaving makes him *away* (a
  stand-in bot, then the table's grace: ``engine.table.autoplay``).  A player
  who sits at a table finds himself at it when he comes back.
- ``watch N`` calls ``on_watch(N)`` when given (net moves the session to the
  shared spectator view, which calls ``club.watch(name, table_id)`` and
  ``club.unwatch(name, table_id)`` for that session: each session counts once);
  otherwise it watches and shows the table read-only inside this app.
- ``prefs`` (``tui.text.prefs.Prefs``: bell, mode…, kept in the store by net),
  ``ring()`` (BEL through the session's link, when it becomes the player's
  turn and he typed ``bell on``) and ``on_mode("text")`` (``mode text``: net
  moves the session to the text mode, ``net.modes.text``).
- ``clock`` gives the ``now`` passed to ``Table.act``/``start`` (the same time
  base as net's runtime ``club.tick(now)``: ``time.monotonic``).

Other sessions reach this app only through ``post_message``: table
and hall callbacks post ``TableChanged``/``HallChanged``, which coalesce.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.text import Text
from textual import events
from textual.app import App
from textual.message import Message

from engine.game import Event
from engine.table.club import Club
from tui.admin_verb import AdminRunner
from tui.framegate import gate
from tui.i18n import LANGS, tr
from tui.screens.hall import HallScreen
from tui.screens.table import TableScreen
from tui.screens.welcome import WelcomeScreen
from tui.sharedcss import share_stylesheet
from tui.text.prefs import Prefs

SAID_KEEP = 40
FELT_SIZE = (80, 24)
"""The smallest window the felt is drawn whole in; below it the person is told the text mode exists."""
"""Lines of the App's last words kept for net's hall door (``ClubApp.said``)."""


log = logging.getLogger("sukno.tui")


@dataclass
class TableChanged(Message):
    """Something happened at table ``table_id``; a burst of them becomes one redraw."""

    table_id: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TableChanged) and message.table_id == self.table_id


class InboxChanged(Message):
    """Private words (or an invitation) came for this person."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, InboxChanged)


class HallChanged(Message):
    """Something happened in the hall (arrivals, chat, tables)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, HallChanged)


class ClubApp(App):
    """One player's session in the club."""

    CSS_PATH = str(Path(__file__).with_name("sukno.tcss"))
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        club: Club,
        name: str | None,
        *,
        lang: str = "en",
        ascii: bool = False,
        guest: bool = False,
        register: Callable[[str], Any] | None = None,
        on_watch: Callable[[int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        admin: AdminRunner | None = None,
        prefs: Prefs | None = None,
        ring: Callable[[], None] | None = None,
        on_mode: Callable[[str], bool] | None = None,
        keys: Any = None,
        store_read: Callable[[Callable[[Any], Any], str], Any] | None = None,
    ):
        super().__init__()
        share_stylesheet(self)  # the CSS parsed once for every App (tui.sharedcss)
        self.club = club
        self.player = name
        self.lang = lang if lang in LANGS else "en"
        self.ascii = ascii
        self.guest = guest
        self.register = register
        self.on_watch = on_watch
        self.clock = clock
        self.admin = admin  # the house's commands (tui.admin_verb); net refuses non-admins
        self.prefs = prefs or Prefs()  # bell, mode… (tui.text.prefs), kept in the store by net
        self.ring = ring  # sends BEL through the session's link (not behind the next frame)
        self.on_mode = on_mode  # ``mode text``: net moves this session to the text mode
        self._entered = False  # counted in the club by this App (``entered``)
        self._unsubscribe: Callable[[], None] | None = None
        self._inbox_off: Callable[[], None] | None = None
        self._inbox_seq = 0
        self.keys = keys  # ``key add|link|list|remove`` (net.ssh.keyring); None: no keys here
        self.store_read = store_read  # ``(work, op)``: work(store) in net's store thread, a Pending (None: now)
        self.on_hall: Callable[[], None] | None = None
        """Set by net: he is in the hall again (or has just chosen his name); net's hall door takes over."""
        self.first_line: str | None = None
        """A line the hall screen runs once it is up (net: a command the hall door gave to this App)."""
        self._told_small = False  # the small-window hint, once until the window is large enough again
        self.said: deque[Text] = deque(maxlen=SAID_KEEP)
        """The lines the screens said since the last typed line: net's hall door shows them when he is
        handed back to it ("You stand up from table 1"), as the App's last words."""

    @property
    def entered(self) -> bool:
        """This App has counted its player in the club (``club.enter``) and not yet out again.

        net asks it: a hold carrying him from the step before may be let go once it is
        True, and a session whose App died before its unmount still leaves the club."""
        return self._entered

    def leave_club(self) -> bool:
        """Count the player out of the club if this App counted him in (once); whether it did.

        The unmount's own half; net calls it too when the App ended without its unmount (a crash)."""
        if not self._entered or self.player is None:
            return False
        self._entered = False
        self.club.leave(self.player, now=self.clock())
        return True

    def on_mount(self) -> None:
        if self.player is None:
            self.push_screen(WelcomeScreen())
        else:
            self.enter_club()
        self.call_after_refresh(self.hint_small_window)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.hint_small_window)

    def hint_small_window(self, tries: int = 100) -> None:
        """A window too small for the felt cuts names and cards without a word; say so once, with the way
        out that works at any size: the line-by-line text mode (``mode text`` here, ``ssh host text``)."""
        width, height = self.size
        small = width < FELT_SIZE[0] or height < FELT_SIZE[1]
        if small and not self._told_small:
            if not getattr(self.screen, "is_mounted", False) or getattr(self.screen, "say_line", None) is None:
                if tries > 0:  # the hall's log is not up yet: said into it once it is, not as a passing toast
                    self.call_after_refresh(self.hint_small_window, tries - 1)
                    return
            self.announce(tr(self.lang, "app.small_window", width=width, height=height))
        self._told_small = small

    def enter_club(self) -> None:
        assert self.player is not None
        if self.on_hall is not None and self.first_line is None and self.club.where(self.player) is None:
            self.said.clear()  # the welcome's questions are not carried into the hall
            self.on_hall()  # a new name, not seated: the hall door (net.modes.hall) counts him in
            return
        self.club.enter(self.player, self.guest, now=self.clock())
        self._entered = True
        self._unsubscribe = self.club.subscribe(self._hall_changed)
        inbox = self.club.social.inbox(self.player)
        self._inbox_seq = inbox.last_seq
        self._inbox_off = inbox.subscribe(self._inbox_changed)
        seated = self.club.where(self.player)
        if seated is not None and self.on_hall is not None and self.first_line is None:
            # net's hall door is his hall: no hall screen kept under the table (a seated
            # player's App held a whole hall's widgets, a third of its memory, for nothing).
            self.push_screen(TableScreen(seated))
            return
        if isinstance(self.screen, WelcomeScreen):
            self.switch_screen(HallScreen())
        else:
            self.push_screen(HallScreen())
        if seated is not None:
            self.push_screen(TableScreen(seated))

    def on_unmount(self) -> None:
        gate().forget(self)
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._inbox_off is not None:
            self._inbox_off()
            self._inbox_off = None
        self.leave_club()

    # -- moving around ----------------------------------------------------------------

    def table_callback(self, table_id: int) -> Callable[[list], None]:
        """A table subscriber that only posts a message to this app (safe from any session)."""
        app = self
        frames = gate()

        def told(events: list) -> None:
            if app.post_message(TableChanged(table_id)):
                frames.owe(table_id, app)  # the watchers' hubs draw it after this App has (tui.framegate)

        return told

    def show_table(self, table_id: int) -> None:
        self.show_hall()
        screen = TableScreen(self.club.table(table_id))
        if self.on_hall is not None and isinstance(self.screen, HallScreen):
            self.switch_screen(screen)  # net's hall door is the hall (above): the hall screen goes
        else:
            self.push_screen(screen)

    def show_hall(self) -> None:
        while isinstance(self.screen, TableScreen):
            table = self.screen.table
            if self.player in table.spectators:
                self.club.unwatch(self.player, table.id)
            self.pop_screen()

    def _hall_changed(self, events: list[Event]) -> None:
        self.post_message(HallChanged())  # from any thread: drawn on the App's own loop

    def _inbox_changed(self, events: list[Event]) -> None:
        self.post_message(InboxChanged())

    def back_to_hall(self) -> None:
        """``leave``/``stand`` at a table: the hall screen, or net's hall door when net gave one."""
        self.show_hall()
        if self.on_hall is not None:
            self.on_hall()

    def watch_table(self, table_id: int) -> None:
        table = self.club.table(table_id)  # no such table: the club's refusal
        if self.player not in table.spectators:
            table.check_watch(self.player or "")  # a private table, or none watch
        if self.on_watch is not None:
            self.on_watch(table_id)  # net's shared view watches (and unwatches) for this session
        else:
            self.club.watch(self.player or "", table_id)
            self.show_table(table_id)

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        for screen in self.screen_stack:
            relang = getattr(screen, "relang", None)
            if relang is not None:
                relang()

    def ring_bell(self) -> None:
        """It became the player's turn: BEL, if he turned the bell on (off by default on the screen)."""
        if self.prefs.bell_on(False):
            (self.ring or self.bell)()

    # -- messages from other sessions -----------------------------------------------------

    def action_help_quit(self) -> None:
        """Ctrl+C: how to leave, in the player's language (instead of Textual's English toast)."""
        key = next((k for k, b in self.active_bindings.items() if b.binding.action in ("quit", "app.quit")), "")
        line = tr(self.lang, "app.ctrl_c", keys="+".join(p.capitalize() for p in key.split("+"))) if key \
            else tr(self.lang, "app.ctrl_c_type")
        say = getattr(self.screen, "say_line", None)
        if say is not None and getattr(self.screen, "is_mounted", False):
            say(Text(line, style="yellow"))
        else:
            self.notify(line, markup=False)

    def announce(self, line: str) -> None:
        """The house's words (admin ``say``, a shutdown): a line in the log, not a toast over it."""
        say = getattr(self.screen, "say_line", None)
        if say is not None and getattr(self.screen, "is_mounted", False):
            try:
                say(Text(line, style="bold yellow"))
                return
            except Exception:  # no log on this screen yet
                log.exception("announcement not shown in the log")
        self.notify(line, timeout=15, markup=False)  # the welcome screen has no log

    def on_inbox_changed(self, message: InboxChanged) -> None:
        """Tell the new private words on whatever screen he is at; ring for a tell from someone else."""
        from tui.social import inbox_line

        if self.player is None:
            return
        rung = False
        for entry in self.club.social.inbox(self.player).since(self._inbox_seq):
            self._inbox_seq = entry.seq
            line = inbox_line(entry.event, self.player, self.lang)
            if not line:
                continue
            say = getattr(self.screen, "say_line", None)
            try:
                if say is not None and self.screen.is_mounted:
                    say(line, style="bold magenta")
                else:
                    self.notify(line, markup=False)
            except Exception:
                log.exception("a private line could not be shown")
            if not rung and entry.event.data.get("from") != self.player:
                rung = True
                self.ring_bell()

    def on_table_changed(self, message: TableChanged) -> None:
        screen = self.screen
        frames = gate()
        if isinstance(screen, TableScreen) and screen.is_mounted and screen.table.id == message.table_id:
            try:
                screen.on_table_update()
            except Exception:  # a drawing bug must not end the session
                log.exception("redraw of table %s failed", message.table_id)
            if self.call_after_refresh(frames.drawn, message.table_id, self):
                return  # paid once this change is on his screen
        frames.paid(message.table_id, self)

    def on_hall_changed(self, message: HallChanged) -> None:
        """The hall's news; at a table it may mean a player came or went (shown as away)."""
        screen = self.screen
        if isinstance(screen, (HallScreen, TableScreen)) and screen.is_mounted:
            try:
                screen.on_club_update() if isinstance(screen, HallScreen) else screen.on_table_update()
            except Exception:
                log.exception("redraw of the hall failed")
