"""The ``sukno bot`` command line: its options, and the client or local arena it starts.

Kept apart from ``net.cli.botclient`` so that every other ``sukno`` command (verify, replay, export…)
does not import asyncssh just to build its argument parser (≈ 0.2 s a start, more under load)."""

from __future__ import annotations

import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """``sukno bot``: the project's own protocol client (net/cli/main.py adds it)."""
    bot = sub.add_parser("bot", help="play a table of a running club through the bot protocol (sukno-bot/1)")
    bot.add_argument("--connect", metavar="HOST:PORT", help="the club's SSH address")
    bot.add_argument("--key", metavar="FILE", help="the bot's private key (ssh-keygen -t ed25519)")
    bot.add_argument("--local", metavar="GAME",
                     help="no club: speak the protocol on stdin/stdout to one table of GAME (house bots around)")
    bot.add_argument("--seats", type=int, help="--local: the table's seats (default: the game's fewest)")
    bot.add_argument("--option", action="append", default=[], metavar="K=V",
                     help="--local: one of the game's options, e.g. variant=v (again for another)")
    bot.add_argument("--think", type=float, default=0.0, help="--local: the house bots' pause (0 s)")
    bot.add_argument("--name", help="the bot's name, for a new key (a known key keeps its name)")
    bot.add_argument("--table", type=int, default=1, metavar="N", help="the table to sit at (1)")
    bot.add_argument("--strategy", choices=("random", "rules", "rule", "search"), default="rules",
                     help="how it plays: random, rules (the rules of thumb) or search (default rules)")
    bot.add_argument("--budget", type=float, default=0.5, metavar="S", help="search: seconds per move (0.5)")
    bot.add_argument("--iterations", type=int, metavar="N",
                     help="search: N imagined deals a move instead of a time budget (a run repeats exactly)")
    bot.add_argument("--deals", type=int, metavar="N", help="stop after N deals (default: play on)")
    bot.add_argument("--seed", type=int, help="the strategy's seed (a run repeats)")
    bot.add_argument("--lang", choices=("en", "ru"), default="en", help="the language of the club's texts")
    bot.add_argument("--timeout", type=float, default=600.0, metavar="S",
                     help="give up after S seconds without a message (600)")
    bot.set_defaults(func=_cmd_bot)


def _cmd_bot(args: Any) -> int:
    if args.local:
        from net.cli.botlocal import run_local

        return run_local(args)
    if not args.connect or not args.key:
        print("sukno bot: --connect HOST:PORT and --key FILE are needed (or --local GAME)", file=sys.stderr)
        return 2
    import asyncio

    import asyncssh

    from net.cli.botclient import run

    try:
        return asyncio.run(run(args))
    except (OSError, asyncssh.Error, ValueError) as err:
        print(f"sukno bot: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
