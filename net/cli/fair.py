"""``sukno verify FILE`` and ``sukno shuffle``: checking sealed deals (engine.shuffle, sukno-shuffle/1).

Exit statuses: 0 every sealed deal checks out (or the deck was printed),
1 a deal does not check out (the first such deal is named, and why),
2 a malformed file or bad arguments.
"""

from __future__ import annotations

import argparse
import sys


def cmd_verify(args: argparse.Namespace) -> int:
    from engine.record import RecordError, load_record, verify
    from engine.shuffle import FairError

    try:
        record = load_record(args.file)
        checks = verify(record)
    except (RecordError, FairError, KeyError) as err:
        print(f"sukno verify: {args.file}: {err}", file=sys.stderr)
        return 2
    for check in checks:
        print(check.line())
    if checks and not checks[-1].ok:
        print(f"sukno verify: {args.file}: {checks[-1].line()}", file=sys.stderr)
        return 1
    if not record.deals:
        print("no deals")
    return 0


def cmd_shuffle(args: argparse.Namespace) -> int:
    from engine.cards import format_cards
    from engine.shuffle import FairError, deck_for, parse_seed, seal_of

    try:
        seed = parse_seed(args.seed)
        if args.seal:
            print(seal_of(seed))
            return 0
        if args.deck is None:
            raise FairError("--deck N is needed (32, 36, 48 or 52)")
        if args.deck not in (32, 36, 48, 52):
            raise FairError(f"no {args.deck}-card deck: sukno knows 32, 36, 48 and 52")
        if args.redeal < 0:
            raise FairError(f"--redeal J is a whole number ≥ 0, not {args.redeal}")
        print(format_cards(deck_for(seed, args.deck, args.cut, args.redeal)))
    except FairError as err:
        print(f"sukno shuffle: {err}", file=sys.stderr)
        return 2
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``verify`` and ``shuffle`` with the ``sukno`` command (net/cli/main.py)."""
    verify = sub.add_parser("verify", help="check the sealed deals of a record (sukno-shuffle/1)")
    verify.add_argument("file", help="a sukno-record/1 JSON file (e.g. from sukno export)")
    verify.set_defaults(func=cmd_verify)
    shuffle = sub.add_parser("shuffle", help="print the deck a seed and a cut give (sukno-shuffle/1)")
    shuffle.add_argument("--seed", required=True, metavar="HEX", help="the deal's seed, 64 hex digits")
    shuffle.add_argument("--deck", type=int, metavar="N", help="the deck size: 32, 36, 48 or 52")
    shuffle.add_argument("--cut", default="", metavar="TEXT", help="the cut string (NAME:TEXT lines; default none)")
    shuffle.add_argument("--redeal", type=int, default=0, metavar="J", help="0: the deal's deck, 1, 2…: its redeals")
    shuffle.add_argument("--seal", action="store_true", help="print the seal of the seed instead")
    shuffle.set_defaults(func=cmd_shuffle)
