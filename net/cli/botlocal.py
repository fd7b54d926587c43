"""``sukno bot --local GAME``: the club's side of ``sukno-bot/1`` over stdin/stdout, for local arenas.

The same ``BotSession`` as over SSH (net/modes/botsession.py), the same lines
(net/modes/botwire.py), but one bot speaking on this process's stdin and stdout
to a club of its own: one table of ``GAME`` whose other seats the house's bots
take (``bots = fill``), a throw-away store in a temporary folder, play on credit.  A program
under test can be run as ``sukno bot --local stukolka`` piped both ways, with
no server and no key.  No asyncio: a ``selectors`` loop waits for a line or the
table's next deadline, whichever comes first.
"""

from __future__ import annotations

import os
import selectors
import sys
import tempfile
import time
from typing import Any

from net.modes.botsession import BotSession
from net.modes.botwire import LineBuffer, encode


def local_options(game: str, words: list[str]) -> dict[str, Any]:
    """``--option K=V`` words as the game's checked options; ``ValueError`` says what is wrong."""
    from engine.game import validate_options
    from engine.games import registry

    games = registry()
    if game not in games:
        raise ValueError(f"there is no game {game!r}; games: {', '.join(sorted(games))}")
    options: dict[str, Any] = {}
    for word in words:
        key, equals, value = word.partition("=")
        if not equals or not key:
            raise ValueError(f"--option takes K=V (e.g. variant=v), not {word!r}")
        options[key] = value
    validate_options(games[game].options_spec, options)  # OptionError is a ValueError
    return options


def check_seats(game: str, options: dict[str, Any], seats: int | None) -> None:
    """``--seats`` within what the game (with these options) is played by; ``ValueError`` if not."""
    from engine.games import registry

    cls = registry()[game]
    low, high = cls.player_range(cls.make_options(options))
    if seats is not None and not low <= seats <= high:
        raise ValueError(f"{game} with these options is played by {low}–{high} players, not {seats}")


def run_local(args: Any) -> int:
    from engine.table.club import Club
    from engine.store.opening import open_store
    from net.ssh.identity import StoreAccounts

    try:
        options = local_options(args.local, list(getattr(args, "option", None) or []))
        check_seats(args.local, options, args.seats)
    except ValueError as err:
        print(f"sukno bot: {err}", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    stdin = sys.stdin.buffer.fileno()
    stopped: list[bool] = []

    def send(message: dict[str, Any]) -> None:
        out.write(encode(message))
        out.flush()

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(folder, new=True)
        # Practice money: a program under test plays as many deals as it asks for, so a losing run
        # plays on credit (R5's table option) instead of being refused its next deal.
        table: dict[str, Any] = {"game": args.local, "bots": "fill", "think": args.think, "clock": 0,
                                 "at_zero": "debt", "options": options}
        if args.seats:
            table["seats"] = args.seats
        club = Club([table], store=store, now=time.monotonic())
        session = BotSession(club, StoreAccounts(store, 10_000), fingerprint="SHA256:local-bot", lang=args.lang,
                             send=send, now=time.monotonic, close=lambda: stopped.append(True))
        session.hello()
        lines = LineBuffer()
        selector = selectors.DefaultSelector()
        selector.register(stdin, selectors.EVENT_READ)
        try:
            while not stopped:
                deadline = club.next_deadline()
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                if selector.select(wait):
                    data = os.read(stdin, 65536)
                    if not data:
                        break
                    for line in lines.feed(data):
                        session.line(line)
                        if stopped:
                            break
                club.tick(time.monotonic())
        finally:
            session.end()
            store.close()
    return 0
