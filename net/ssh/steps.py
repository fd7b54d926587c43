"""A session's steps, one after another: who he is, then the text mode, the hall (a door or his App), his
App at a table, a table's watchers, until one of them says there is no next step.

Each step hands the session's terminal to its mode (``net.ssh.mode``) and takes it back when it ends; the
session itself only carries bytes and the end.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

from engine.store.base import StoreError
from net import textual_compat as tc
from net.modes.texts import text
from net.ssh import account
from net.ssh.driver import attach
from net.ssh.keyring import KeyRing
from net.ssh.mode import AppMode, Between, DoorMode, TextMode, WatchMode

if TYPE_CHECKING:
    from net.ssh.ports import SessionPort

log = logging.getLogger("sukno.server")

START_TURN = 3.0
"""Seconds one App's start may hold the others' turn at most (``Session._run_in_turn``)."""


def locale_of(env: dict[str, str]) -> tuple[str, bool]:
    """(language, ascii) from the client's LANG/LC_*: Russian if asked, ASCII if not UTF-8."""
    def first(*names: str) -> str:
        for name in names:
            value = env.get(name, "")
            if value:
                return value
        return ""

    messages = first("LC_ALL", "LC_MESSAGES", "LANG")
    ctype = first("LC_ALL", "LC_CTYPE", "LANG")
    lang = "ru" if messages.lower().startswith("ru") else "en"
    ascii_only = bool(ctype) and not re.search(r"utf-?8", ctype, re.IGNORECASE)
    return lang, ascii_only


async def serve(session: SessionPort) -> None:
    assert session.chan is not None
    # Not arriving any more: from here to a door's first frame the loop does not turn (a bot, the text
    # mode, a refusal and an App's start do not hold the hall's arrivals back either).
    session.conn.arriving = False
    session.lang, session.ascii = locale_of(dict(session.chan.get_environment()))
    if session.wants_bot:
        from net.modes.bot import serve_bot

        return await serve_bot(session)  # sukno-bot/1: JSON lines (docs/bot-protocol.md)
    if not session.has_pty and not session.command.strip():  # ``ssh -T host``; ``ssh host text`` is the text mode
        session.finish(1, text(session.lang, "no_pty", port=session.server.port, host=session.server.shown_host))
        return
    refusal = session.conn.refused or session.server.limits.admit_session(session)
    if refusal:
        session.finish(1, text(session.lang, "full", what=refusal))
        return
    if session.conn.guest or session.conn.fingerprint is None:
        session.guest = True
        session.name = session.server.guest_name()
    else:
        try:
            session.arrival = await account.arrive(session, session.conn.fingerprint)
        except StoreError as err:  # the store away: said to him, once in the log, nothing half-made
            log.info("%s could not be let in: %s", session.conn.fingerprint, err)
            session.finish(1, text(session.lang, "books_away"))
            return
        if session.closed:  # he left (or sent EOF) while the store was asked: the same end as later on
            session.finish(0, session.farewell)
            return
        session.name = session.arrival.name
        refusal = session.name and session.server.limits.admit_account(session.name)
        if refusal:
            session.finish(1, text(session.lang, "full", what=refusal))
            return
    refusal = session.server.gate(session)
    if refusal:
        session.finish(1, refusal)
        return
    step: tuple[str, Any] | None = first_step(session)
    while step is not None and not session.closed:
        kind, arg = step
        if kind == "text":
            step = await run_text(session, arg)
        elif kind in ("hall", "door"):
            step = await run_hall(session, door=kind == "door")
        elif kind == "app":
            step = await run_app(session, arg)
        else:
            step = await run_watch(session, int(arg))
    session.release_hold()
    session.finish(0, session.farewell)


def first_step(session: SessionPort) -> tuple[str, Any]:
    """The text mode (net.modes.text), the hall, or a table's watchers for ``watch N`` given as the ssh command."""
    from net.modes.text import command_words, wants_text

    session.prefs = account.load_prefs(session)
    _asked, rest = command_words(session.command)
    if wants_text(session, session.prefs.mode):
        return ("text", rest)
    match = re.fullmatch(r"\s*(?:watch|смотреть)\s+(\d{1,6})\s*", rest, re.IGNORECASE)
    if match and session.name is not None and int(match.group(1)) in session.server.club.tables:
        session.server.club.enter(session.name, guest=session.guest)  # _watch's end says he left
        return ("watch", int(match.group(1)))
    if rest.strip() and session.name is not None:
        # ``ssh host watch 99`` or ``ssh host frobnicate``: the hall answers it as if typed there (no
        # table 99, an unknown command), rather than opening as though nothing had been asked
        session.first_line = rest.strip()[:200]
    return ("hall", None)


def take_first_line(session: SessionPort) -> str | None:
    """The ssh command the hall answers first (once), if it was not a mode or a table to watch."""
    line, session.first_line = session.first_line, None
    return line


async def run_hall(session: SessionPort, door: bool = False) -> tuple[str, Any] | None:
    """The hall: a light door (``net.modes.hall``) for a known person; his App for a new key, and for one
    who comes back to his seat (the App shows his table), unless ``door`` (he has just left its screen)."""
    server = session.server
    from net.modes.welcome import WelcomeDoor, wants_welcome

    if wants_welcome(session):  # a new key: the doorman asks his name in a door too (no App)
        welcome = WelcomeDoor(session, server.hall_board, keys=KeyRing(session))
        session.hand_over(DoorMode(welcome))
        try:
            step = await welcome.run()
        finally:
            session.hand_over(Between(session))
        if step is None and not session.closed:
            session.leave_screen()
        return None if session.closed else step
    seated = server.club.where(session.name) is not None if session.name is not None else False
    if not server.hall_doors or session.name is None or (seated and not door):
        return await run_app(session, take_first_line(session))
    from net.house.admin import admin_runner
    from net.modes.hall import HallDoor

    session.next_step = None
    hall = HallDoor(session, server.hall_board, admin=admin_runner(session), keys=KeyRing(session))
    session.hand_over(DoorMode(hall))
    try:
        step = await hall.run(take_first_line(session))
    finally:
        session.hand_over(Between(session))
    if session.closed:
        return None
    if step is None:
        session.leave_screen()
    return step


async def run_app(session: SessionPort, first_line: str | None = None) -> tuple[str, Any] | None:
    """Run the player's own App until it ends; what to do next (watch a table, or nothing)."""
    session.next_step = None
    app = session.server.make_player_app(session)
    if first_line and hasattr(app, "first_line"):
        app.first_line = first_line
    if session.server.hall_doors and hasattr(app, "on_hall"):
        app.on_hall = lambda: on_hall(session)
    attach(app, session)
    session.hand_over(AppMode(session, app))
    failure: BaseException | None = None
    try:
        await run_in_turn(session, app)
    except Exception as err:  # raised by the App's own shutdown (a broken unmount)
        failure = err
    finally:
        session.hand_over(Between(session))
        session.driver = None
        session.server.apps_ended += 1
        left_club(session, app)
    failure = tc.app_failure(app) or failure
    if failure is not None:  # the App died of a bug: the session ends like a dropped connection
        log.error("the App of %s failed (%s: %s); the session ends, the seat is kept for a stand-in",
                  session.name or session.conn.peer, type(failure).__name__, str(failure)[:200])
        session.leave_screen()
        session.finish(1, text(session.lang, "failed"))
        session.lost()
        return None
    if session.closed:
        return None
    if session.next_step is None:
        session.leave_screen()
    return session.next_step


async def run_watch(session: SessionPort, table_id: int) -> tuple[str, Any] | None:
    """Among table ``table_id``'s watchers until he leaves; what next."""
    session.hand_over(WatchMode(session, session.watch))
    try:
        return await session.watch.run(table_id)
    finally:
        session.hand_over(Between(session))


async def run_text(session: SessionPort, first: str) -> tuple[str, Any] | None:
    """The text mode until the player quits or asks for the screen; what next."""
    from net.modes.text import TextChannel

    session.next_step = None
    channel = TextChannel(session, first=first, prefs=session.prefs)
    session.hand_over(TextMode(channel))
    try:
        run = asyncio.ensure_future(channel.run())
        await asyncio.sleep(0)  # its club.start counted him: the step before may let go
        session.release_hold()
        early = session.take_early()
        if early:
            channel.feed(early)  # lines a script sent before the text mode was up
        if session.input_ended:
            channel.input_ended()
        await run
    finally:
        session.hand_over(Between(session))
    return None if session.closed else session.next_step


def left_club(session: SessionPort, app: Any) -> None:
    """An App that ended without its unmount (a crash) still leaves the club: away, then a stand-in."""
    leave = getattr(app, "leave_club", None)  # tui.app.ClubApp.leave_club: a no-op once it left
    if leave is None:
        return
    try:
        leave()
    except Exception:
        log.exception("the club could not hear that %s left", getattr(app, "player", None))


async def run_in_turn(session: SessionPort, app: Any) -> None:
    """Run the App; its start waits its turn: one App mounts at a time, server-wide.

    Mounting a ``ClubApp`` holds the loop 20-60 ms a step for ~0.15 s; ten
    sessions starting at once (a storm's admitted ones, ten guests) put all
    their steps in each turn of the loop, and everyone else waited 1.6 s for
    an answer.  In turn (``net.ssh.limits.StartQueue``: addresses round robin),
    the others wait behind one App's step at most.
    """
    starts = session.server.app_starts
    await starts.turn(session.conn.peer)
    try:
        if session.closed:  # gone while waiting: no App to start
            return
        run = asyncio.ensure_future(app.run_async(size=session.app_size()))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TURN
        try:
            while not run.done() and not app_ready(app, session.holds > 0) and loop.time() < deadline:
                await asyncio.sleep(0.005)
        except asyncio.CancelledError:
            run.cancel()
            raise
        session.release_hold()  # the App counts him now
    finally:
        starts.release()
    await run


def exit_app(session: SessionPort, since: float | None = None) -> None:
    """End the App once its first screen is mounted (3 s at most).

    Textual's ``exit`` while a screen is still mounting removes its children
    under its ``on_mount`` (NoMatches, a traceback on the server's terminal):
    ``ssh -tt host </dev/null`` sends EOF before the first screen is up.
    """
    app = session.app
    if app is None:
        return
    loop = asyncio.get_running_loop()
    since = loop.time() if since is None else since
    if app_ready(app) or loop.time() - since > 3:
        app.exit()
    else:
        loop.call_later(0.02, exit_app, session, since)


def app_ready(app: Any, entered: bool = False) -> bool:
    """The App has mounted its first screen (Textual's exit is safe; the next App may start);
    with ``entered``, it has also counted him in the club (a hold may be let go)."""
    try:
        mounted = tc.app_mounted(app) and app.screen.is_mounted
        return bool(mounted) and (not entered or getattr(app, "entered", True))  # tui.app.ClubApp.entered
    except Exception:  # no screen at all: nothing to wait for
        return True


def club_app(session: SessionPort) -> Any:
    """The player's own App: the club's ``ClubApp`` wired to this session (the default)."""
    from net.house.admin import admin_runner
    from tui.app import ClubApp

    return ClubApp(
        session.server.club,
        session.name,
        lang=session.lang,
        ascii=session.ascii,
        guest=session.guest,
        register=session.register,
        on_watch=session.on_watch,
        admin=admin_runner(session),
        prefs=session.prefs,
        ring=lambda: session.send(b"\x07"),
        on_mode=session.switch_mode,
        keys=KeyRing(session),
        store_read=session.read_off_loop,
    )


def on_hall(session: SessionPort) -> None:
    """His App is back in the hall (or a new key just chose his name): a door from now on."""
    app = session.app
    if session.closed or app is None or not session.server.hall_doors:
        return
    if getattr(app, "entered", False):  # tui.app.ClubApp.entered
        session.hold()
    session.carried.extend(getattr(app, "said", ()))  # "You stand up…": told in the door's log too
    session.next_step = ("door", None)
    app.exit()


def switch_mode(session: SessionPort, mode: str) -> bool:
    """``mode screen`` typed in the text mode, ``mode text`` on the screen: change now if this terminal can."""
    from net.modes.text import term_is_plain

    if mode == "screen" and session.text is not None:
        if not session.has_pty or term_is_plain(session.term):
            return False
        session.next_step = ("hall", None)
        session.text.finish()
        return True
    if mode == "text" and session.app is not None:
        session.next_step = ("text", "")
        session.app.exit()
        return True
    if mode == "text" and session.door is not None:
        session.door.finish(("text", ""))
        return True
    return False


def on_watch(session: SessionPort, table_id: int) -> None:
    """``watch N`` typed in the App: end it and join the table's shared view."""
    if session.closed or session.name is None or table_id not in session.server.club.tables:
        return
    # Count this session in the club before the App's unmount says we left.
    session.server.club.enter(session.name, guest=session.guest)
    session.next_step = ("watch", table_id)
    if session.app is not None:
        session.app.exit()
    if session.door is not None:
        session.door.finish(("watch", table_id))
