"""``sukno play GAME [--variant X] [--bots N]``: the club's TUI in this terminal, against bots.

No SSH and no server: a private in-memory ``Club`` (no store, so nothing is
written and no account is needed) with one table, the player in seat 1 and
N bots in the others, shown by the same ``ClubApp`` through Textual's own
driver.  It lives in ``net`` because it owns the asyncio side: the
``Runtime`` that wakes the table when a bot should move.

``--text`` (and a ``TERM`` of ``dumb`` or unknown, or an output that is no
terminal) plays in the text mode instead (``tui.text``): every event a line on
stdout, every command a line on stdin, for screen readers and scripts.

Decisions (why): the turn clock is off by default here (``--clock`` turns it
on): alone against bots nobody is kept waiting; the bots pause ``--think``
seconds so their play can be followed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
from dataclasses import dataclass

from engine.table.club import Club
from engine.game import IllegalAction, OptionError
from engine.games import get_game, registry
from engine.table.owner import Table


class PlayError(Exception):
    """A ``sukno play`` request that cannot be set up; ``str(err)`` says why."""


@dataclass
class Setup:
    club: Club
    table: Table
    name: str


def player_name(wanted: str | None = None) -> str:
    """The player's name at the table: ``--name``, else the login name tidied, else ``player``."""
    raw = wanted if wanted is not None else os.environ.get("USER") or os.environ.get("LOGNAME") or "player"
    name = re.sub(r"[^\w\-]", "", raw)[:16]
    if wanted is not None and (name != wanted or len(name) < 2):
        raise PlayError(f"a name is 2–16 letters, digits, _ or -, not {wanted!r}")
    if len(name) < 2 or name.lower().startswith("bot-"):
        name = "player"
    return name


def setup(game: str, *, variant: str | None = None, bots: int | None = None, name: str | None = None,
          clock: float = 0.0, think: float = 0.6, seed: int | None = None) -> Setup:
    """The private club: one table of ``game``, the player seated with ``bots`` bots."""
    games = registry()
    if game not in games:
        raise PlayError(f"there is no game {game!r}; games: {', '.join(sorted(games))}")
    cls = get_game(game)
    options: dict[str, object] = {}
    if variant is not None:
        if not cls.variant_labels:
            raise PlayError(f"{game} has no variants")
        options["variant"] = variant
    try:
        low, high = cls.player_range(cls.make_options(options))
    except OptionError as err:
        raise PlayError(str(getattr(err, "message", None) or err)) from None
    count = low - 1 if bots is None else bots
    if not low <= count + 1 <= high:
        raise PlayError(f"{game} is played by {low}–{high} players: choose --bots {low - 1}–{high - 1}")
    club = Club([], seed=seed)
    try:
        table = club.open_table(game, options, count + 1, settings={"clock": clock, "think": think})
    except (OptionError, IllegalAction, ValueError) as err:
        raise PlayError(str(getattr(err, "message", None) or err)) from None
    who = player_name(name)
    club.sit(who, table.id, 0)
    for _ in range(count):
        club.sit_bot(table.id)
    return Setup(club, table, who)


async def run(game_setup: Setup, *, lang: str = "en", ascii: bool = False) -> None:
    """Run the app in this terminal with the club's clock beside it, until the player quits."""
    from net.ssh.runtime import Runtime
    from tui.app import ClubApp

    runtime = Runtime(game_setup.club)
    runtime.start()
    try:
        await ClubApp(game_setup.club, game_setup.name, lang=lang, ascii=ascii).run_async()
    finally:
        await runtime.stop()


async def run_text(game_setup: Setup, *, lang: str = "en", ascii: bool = False) -> None:
    """The text mode in this terminal: lines in on stdin, sentences out on stdout, until quit or end of input."""
    import sys

    from net.ssh.runtime import Runtime
    from tui.limits import COMMAND_MAX
    from tui.text.club import TextClub

    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def ring() -> None:
        sys.stdout.write("\a")
        sys.stdout.flush()

    def finish() -> None:
        if not done.done():
            done.set_result(None)

    person = TextClub(game_setup.club, game_setup.name, write=write, lang=lang, ascii=ascii, bell=ring,
                      on_quit=finish)
    pending: list[asyncio.Handle] = []

    def news() -> None:
        pending.clear()
        person.news()

    def wake() -> None:  # a burst of table events is told once
        if not pending:
            pending.append(loop.call_soon(news))

    person.wake = wake
    runtime = Runtime(game_setup.club)
    runtime.start()

    async def read() -> None:
        while not done.done():
            raw = await loop.run_in_executor(None, sys.stdin.readline)  # a tty, a pipe or a file alike
            if not raw:
                break
            person.line(raw.rstrip("\r\n")[:COMMAND_MAX])
        finish()

    reader = loop.create_task(read())
    try:
        person.start()
        await done
    finally:
        reader.cancel()
        person.stop()
        await runtime.stop()


def wants_text(args: argparse.Namespace) -> bool:
    """``--text``, or a terminal that cannot be drawn on (TERM dumb or unknown, or no terminal at all)."""
    import sys

    from net.modes.text import term_is_plain

    if getattr(args, "text", False):
        return True
    return not sys.stdout.isatty() or term_is_plain(os.environ.get("TERM", ""))


def lang_of_environment() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith(("ru", "uk", "be")) else "en"
    return "en"


def main(args: argparse.Namespace) -> int:
    try:
        game_setup = setup(args.game, variant=args.variant, bots=args.bots, name=args.name,
                           clock=args.clock, think=args.think)
    except PlayError as err:
        print(f"sukno play: {err}", file=__import__("sys").stderr)
        return 2
    play = run_text if wants_text(args) else run
    asyncio.run(play(game_setup, lang=args.lang or lang_of_environment(), ascii=args.ascii))
    return 0
