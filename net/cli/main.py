"""The ``sukno`` command: ``serve``, ``replay``, ``play`` and the rest.

Subcommands import what they need lazily, so ``sukno replay`` works without
loading the SSH server or Textual.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from engine.record import Record


def _cmd_replay(args: argparse.Namespace) -> int:
    from engine.record import RecordError, load_record, replay

    try:
        record = load_record(args.file)
    except RecordError as err:
        print(json.dumps({"ok": False, "error": f"{args.file}: {err}"}, ensure_ascii=False))
        print(f"sukno replay: {args.file}: {_line(str(err))}", file=sys.stderr)
        return 2
    if args.screen:
        return _replay_screen(args, record)
    try:
        status, out = replay(record)
        if args.brief:
            out.pop("deals", None)
        shown = json.dumps(out, ensure_ascii=False, indent=1 if args.pretty else None)
    except (ValueError, OverflowError, RecursionError, MemoryError) as err:  # numbers past what Python prints
        reason = (str(err).splitlines() or [type(err).__name__])[0][:200]
        print(json.dumps({"ok": False, "error": f"{args.file}: {reason}"}, ensure_ascii=False))
        print(f"sukno replay: {args.file}: cannot be replayed: {reason}", file=sys.stderr)
        return 2
    print(shown)
    if status:
        where = f" (deal {out.get('deal')}, action {out.get('action')})" if "deal" in out else ""
        print(f"sukno replay: {_line(str(out.get('error')))}{where}", file=sys.stderr)
    return status


def _replay_screen(args: argparse.Namespace, record: Record) -> int:
    """``--screen``: step through the record on the felt (tui.replay_app); 2 if it does not replay."""
    from pathlib import Path

    from engine.game import IllegalAction
    from tui.replay import frames
    from tui.replay_app import ReplayApp

    try:
        frames(record, None)  # a record the rules refuse is told here, not as a traceback inside the screen
    except (IllegalAction, ValueError, KeyError) as err:
        print(f"sukno replay: {args.file}: cannot be replayed: {_line(str(getattr(err, 'message', err)))}",
              file=sys.stderr)
        return 2
    analysis = None
    if args.analyse:
        from engine.analysis import analyse

        print("sukno replay: the search bot is judging every decision…", file=sys.stderr, flush=True)
        analysis = analyse(record, budget=args.budget).to_json()
    ReplayApp(record, Path(args.file).name[:40], lang=args.lang, ascii=args.ascii, analysis=analysis).run()
    return 0


def _line(text: str, limit: int = 300) -> str:
    """One line of at most ``limit`` characters (a reason may quote a hostile file's value)."""
    first = " ".join(text.split())
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _cmd_export(args: argparse.Namespace) -> int:
    """Write a finished record kept by the club's store as a ``sukno-record/1`` file (or to stdout)."""
    from engine.store.base import StoreError
    from engine.store.opening import open_store

    try:
        store = open_store(args.data, url=args.store)  # shared: a running server keeps writing meanwhile
        try:
            record = store.get_record(args.id)
        finally:
            store.close()
    except StoreError as err:
        print(f"sukno export: {err}", file=sys.stderr)
        return err.exit_status
    text = json.dumps(record.to_json(), ensure_ascii=False, indent=1) + "\n"
    if not args.out:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        print(f"sukno export: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 73
    print(f"sukno export: record {args.id} written to {args.out}", file=sys.stderr)
    return 0


def _cmd_db_upgrade(args: argparse.Namespace) -> int:
    """Make or migrate the store's schema (what ``sukno serve`` does at start), and say its version."""
    from engine.store.base import StoreError, make_data_folder
    from engine.store.opening import open_store
    from net.config import ConfigError, load

    try:
        config = load(args.config)
    except ConfigError as err:
        print(f"sukno db upgrade: {err}", file=sys.stderr)
        return 78
    url = args.store if args.store is not None else config.store_url
    data = args.data or config.data
    try:
        if not url:
            make_data_folder(data)
        store = open_store(data, url=url or None)
        try:
            version = store.schema_version()
            where = getattr(store, "path", data)
            clashes = store.name_clashes()
        finally:
            store.close()
    except OSError as err:
        print(f"sukno db upgrade: cannot use the data folder {data}: {err.strerror or err}", file=sys.stderr)
        return 74
    except StoreError as err:
        print(f"sukno db upgrade: {err}", file=sys.stderr)
        return err.exit_status
    print(f"sukno db upgrade: {where} is at schema version {version}, this sukno's latest")
    for name, older in clashes:  # kept apart, never merged: the house decides (rename one)
        print(f"sukno db upgrade: the account {name!r} looks like the older {older!r}; both still enter, "
              "and no new name like them can be taken; rename one if they are not the same person")
    return 0


def _cmd_config(args: argparse.Namespace) -> int:
    from net.config import ConfigError, load, sample_text

    if args.example:
        sys.stdout.write(sample_text())
        return 0
    try:
        load(args.check)
    except ConfigError as err:
        print(f"sukno config: {err}", file=sys.stderr)
        return 78
    print(f"sukno config: {args.check or 'the defaults'}: usable")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from net.cli.serve import serve

    return serve(args)


def _cmd_admin(args: argparse.Namespace) -> int:
    from net.cli.admin import run_admin

    return run_admin(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from net.cli.play import main

    return main(args)


def _games_and_variants() -> tuple[str, str]:
    """The games and each game's variants, as the engine knows them (so ``--help`` never lists too few)."""
    from engine.games import get_game, registry

    names = sorted(registry())
    variants = [f"{name}: {', '.join(get_game(name).variant_labels)}" for name in names
                if get_game(name).variant_labels]
    return ", ".join(names), "; ".join(variants) or "none"


def _version() -> str:
    """The installed distribution's version; a checkout run without installing says so."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sukno")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sukno", description="sukno — a club of old Russian card games entered with ssh"
    )
    parser.add_argument("--version", action="version", version=f"sukno {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay = sub.add_parser(
        "replay", help="check a game record against the rules and print the result as JSON"
    )
    replay.add_argument("file", help="a sukno-record/1 JSON file")
    replay.add_argument("--pretty", action="store_true", help="indent the JSON output")
    replay.add_argument("--brief", action="store_true", help="leave out the per-deal events")
    replay.add_argument("--screen", action="store_true",
                        help="step through the record on the felt (arrows, Home/End, a deal's number; q quits)")
    replay.add_argument("--lang", choices=("en", "ru"), default="en", help="the screen's language (with --screen)")
    replay.add_argument("--ascii", action="store_true", help="ASCII cards and marks (with --screen)")
    replay.add_argument("--analyse", "--analyze", action="store_true",
                        help="with --screen: judge every decision first (sukno analyse) and mark each action")
    replay.add_argument("--budget", type=int, default=24, help="with --analyse: imagined deals per decision")
    replay.set_defaults(func=_cmd_replay)
    export = sub.add_parser("export", help="write a finished record of the club as a sukno-record/1 file")
    export.add_argument("id", type=int, help="the record's number (history in the club lists them)")
    export.add_argument("--out", metavar="FILE", help="the file to write (default: standard output)")
    export.add_argument("--data", metavar="DIR", default="data", help="the club's data folder (default ./data)")
    export.add_argument("--store", metavar="URL", help="the club's PostgreSQL database (postgresql://…) "
                        "instead of the data folder's sukno.db")
    export.set_defaults(func=_cmd_export)
    db = sub.add_parser("db", help="the club's store: db upgrade makes or migrates its schema")
    db_sub = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    upgrade = db_sub.add_parser("upgrade", help="make or migrate the store's schema (sukno serve does it at start)")
    upgrade.add_argument("--config", metavar="FILE", help="the server's config (its [store] url, its data folder)")
    upgrade.add_argument("--store", metavar="URL", help="a PostgreSQL database (postgresql://…); default: "
                         "the config's [store] url, else the data folder's sukno.db")
    upgrade.add_argument("--data", metavar="DIR", help="the data folder (default as for serve: ./data)")
    upgrade.set_defaults(func=_cmd_db_upgrade)
    from net.cli.backup import add_parsers as add_backup

    add_backup(db_sub)  # db backup, db restore
    config = sub.add_parser("config", help="the configuration: --example prints the commented defaults")
    config.add_argument("--example", action="store_true", help="print the commented sample (every default)")
    config.add_argument("--check", metavar="FILE", help="read FILE (and the SUKNO_… variables) and say if it is usable")
    config.set_defaults(func=_cmd_config)
    from net.cli.analyse import add_parser as add_analyse

    add_analyse(sub)  # analyse FILE
    from net.cli.fair import add_parsers as add_fair

    add_fair(sub)  # verify, shuffle
    from net.cli.bot import add_parser as add_bot

    add_bot(sub)  # sukno bot: the bot protocol's client
    serve = sub.add_parser("serve", help="open the club: an SSH server (then: ssh -p 2222 localhost)")
    serve.add_argument("--config", metavar="FILE", help="a TOML file like `sukno config --example` prints (default: built-in)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 2222; 0: any free port)")
    serve.add_argument("--data", metavar="DIR", help="data folder: host key, accounts (default ./data)")
    serve.add_argument("--store", metavar="URL",
                       help="keep the club in this PostgreSQL database (postgresql://…) instead of the data "
                       "folder's sukno.db; the data folder keeps the host key")
    serve.add_argument("--host-key", metavar="FILE",
                       help="present this OpenSSH private key (every node the same); default: the key kept in "
                       "the PostgreSQL store, else the data folder's")
    serve.add_argument("--node", metavar="NAME",
                       help="one node of several serving one club on one PostgreSQL store (--store); each node "
                            "its own name, port and --data folder (default: [node] name; none: the only server)")
    serve.add_argument("--workers", type=int, metavar="N",
                       help="N processes sharing the port (SO_REUSEPORT), nodes NAME-1..N of one club on the "
                       "PostgreSQL --store; the parent restarts a crashed one, SIGTERM stops all")
    serve.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # a worker's own flag
    serve.add_argument("--new", action="store_true",
                       help="start a new club even over an empty (0-byte) sukno.db (refused otherwise)")
    serve.add_argument("--log-level", choices=("debug", "info", "warning", "error"), default="info",
                       help="the least a log line must matter to be written (default info)")
    serve.add_argument("--log-format", choices=("text", "json"), default="text",
                       help="plain lines, or one JSON object a line (default text); both name the node")
    serve.set_defaults(func=_cmd_serve)
    admin = sub.add_parser(
        "admin", help="administer the running club: a console, or one command (sukno admin help)"
    )
    admin.add_argument("--config", metavar="FILE", help="the config the server was started with (for its data folder)")
    admin.add_argument("--data", metavar="DIR", help="the server's data folder (default as for serve: ./data)")
    admin.add_argument("--json", action="store_true", help="print the reply as JSON (for scripts)")
    admin.add_argument("--node", metavar="NAME",
                       help="with serve --workers: the worker to speak to (its folder DATA/NAME; each sees the club)")
    admin.add_argument("words", nargs=argparse.REMAINDER, metavar="COMMAND …",
                       help="one command to run (none: the interactive console)")
    admin.set_defaults(func=_cmd_admin)
    play = sub.add_parser("play", help="play a game in this terminal against bots (no SSH, no server)")
    games, variants = _games_and_variants()
    play.add_argument("game", help=f"the game: {games}")
    play.add_argument("--variant", help=f"the game's variant ({variants})")
    play.add_argument("--bots", type=int, help="how many bots (default: the fewest the game needs)")
    play.add_argument("--name", help="your name at the table (default: your login name)")
    play.add_argument("--clock", type=float, default=0.0, help="seconds per action, 0: none (default)")
    play.add_argument("--think", type=float, default=0.6, help="the bots' pause before a move (default 0.6 s)")
    play.add_argument("--lang", choices=("en", "ru"), help="language (default: from LANG)")
    play.add_argument("--ascii", action="store_true", help="cards and bars in plain ASCII")
    play.add_argument("--text", action="store_true",
                      help="the text mode: one line per event, commands typed as lines (also when TERM is dumb)")
    play.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help, or a usage error: argparse has printed it
            sys.stdout.flush()
            return int(done.code or 0) if not isinstance(done.code, str) else 2
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        status = args.func(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``sukno admin tables | head``: the reader left; say nothing more
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit must not fail again
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
