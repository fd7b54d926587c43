"""``sukno admin`` with no command: a Textual console on the running server's socket.

Above, the tables and the sessions, refreshed every second from the same
``tables``/``sessions`` commands a script would run (``--json``); below, what
each command answered; at the bottom a command line with history (Up/Down)
and Tab completion of commands, table numbers, games and names.  It speaks
the socket's line protocol like the one-shot mode, so the two cannot drift
apart.  When the server goes away (``shutdown``), the console says so and
stays open for reading until it is closed (Ctrl+C, Ctrl+D, ``quit``).
"""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path
from typing import Any, Iterable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, RichLog, Static

from engine.games import registry
from net.house.admin import COMMANDS
from tui.widgets.cmdline import CommandLine


class ServerGone(Exception):
    """The socket closed or never answered."""


class Link:
    """One connection to the admin socket; requests go one at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def request(self, argv: list[str]) -> dict[str, Any]:
        async with self._lock:
            try:
                if self._writer is None:
                    self._reader, self._writer = await asyncio.open_unix_connection(str(self.path), limit=1 << 22)
                assert self._reader is not None
                self._writer.write(json.dumps({"argv": argv}, ensure_ascii=False).encode("utf-8") + b"\n")
                await self._writer.drain()
                line = await self._reader.readline()
            except (OSError, asyncio.IncompleteReadError, ValueError) as err:
                self.close()
                raise ServerGone(str(err)) from None
            if not line:
                self.close()
                raise ServerGone("the server closed the connection")
            return json.loads(line)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


def complete(line: str, *, tables: Iterable[int] = (), games: Iterable[str] = (),
             names: Iterable[str] = ()) -> tuple[str, list[str]]:
    """Tab: the first word from the commands, then what that command takes next."""
    words = line.split(" ")
    if len(words) == 1:
        options = [c for c in COMMANDS if c.startswith(words[0].lower())]
        return _finish("", words[0], options, space=True)
    verb, typed = words[0].lower(), words[-1]
    head = " ".join(words[:-1]) + " "
    position = len(words) - 1
    if verb in ("close", "seat", "watch") and position == 1:
        pool = [str(t) for t in tables]
    elif verb == "open" and position == 1:
        pool = list(games)
    elif verb in ("kick", "ban", "unban", "grant", "mute", "unmute", "account") and position == 1 or verb == "seat" and position == 3:
        pool = list(names) + (["bot"] if verb == "seat" else [])
    elif verb == "chatlog" and position == 1:
        pool = ["table", *names]
    elif verb == "chatlog" and position == 2 and words[1].lower() == "table":
        pool = [str(t) for t in tables]
    elif verb == "report" and position == 2:
        pool = ["close"]
    elif verb in ("reports", "chatlog", "motd"):
        pool = {"reports": ["--all"], "chatlog": ["--since"], "motd": ["--clear"]}[verb]
    elif verb == "account" and position == 2:
        pool = ["rename", "disable", "enable", "close", "key-code"]
    elif verb == "key" and position == 1:
        pool = ["add"]
    elif verb == "close":
        pool = ["--after-deal"]
    elif verb == "shutdown":
        pool = ["--grace"]
    elif verb in ("ban", "mute"):
        pool = ["--for"]
    else:
        pool = []
    return _finish(head, typed, [p for p in pool if p.lower().startswith(typed.lower())], space=True)


def _finish(head: str, typed: str, options: list[str], space: bool) -> tuple[str, list[str]]:
    if not options:
        return head + typed, []
    if len(options) == 1:
        return head + options[0] + (" " if space else ""), []
    prefix = options[0]
    for option in options[1:]:
        while not option.lower().startswith(prefix.lower()):
            prefix = prefix[:-1]
    return head + (prefix if len(prefix) > len(typed) else typed), sorted(options)


PANEL = 54
"""The tables panel's width at 100 columns: the window less the sessions panel (44) and padding."""


def table_rows(tables: list[dict[str, Any]], width: int = PANEL) -> list[str]:
    """The tables, one line each that fits ``width`` (at 100 columns no row is cut).

    The seats column takes what the number, game, watchers, pot and state leave: ``3/4 Anna Boris…``.
    """
    if not tables:
        return ["no tables are open"]
    width = max(40, width)
    rows = [_fit(f"{'#':>3} {'game':<10} {'seats':<{max(5, width - 38)}} {'watch':>5} {'pot':>6} state", width)]
    for t in tables:
        state = f"deal {t['deal_no']}" if t["in_deal"] else "waiting"
        if t.get("closing"):
            state += ", closing"
        head = f"{t['id']:>3} {t['game'][:10]:<10} "
        tail = f" {t['spectators']:>5} {t['pot']:>6} {state}"
        names = [n for n in t["seats"] if n]
        seats = f"{len(names)}/{len(t['seats'])} " + " ".join(n or "·" for n in t["seats"])
        room = max(5, width - len(head) - len(tail))
        rows.append(head + _fit(seats, room).ljust(room) + tail)
        pots = t.get("pots") or []
        if len(pots) > 1:  # the pot over the session: ▁▂▅█ under the row
            from tui.widgets.spark import sparkline

            rows.append(_fit(f"{'':>3} pot over {len(pots) - 1} deal(s) {sparkline(pots)} "
                             f"{min(pots)}…{max(pots)}, now {pots[-1]}", width))
    return rows


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


class AdminConsole(App[int]):
    """The house's console: live tables and sessions, a log of answers, a command line."""

    CSS = """
    #header { height: 1; background: $primary-background; }
    #top { height: auto; max-height: 50%; }
    #tables { width: 1fr; height: auto; padding: 0 1; }
    #sessions { width: 44; height: auto; padding: 0 1; border-left: solid $primary; }
    #out { height: 1fr; border-top: solid $primary; }
    #hint { height: 1; color: $text-muted; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+c", "quit", show=False, priority=True),
                Binding("ctrl+d", "quit", show=False, priority=True)]

    def __init__(self, link: Link, *, every: float = 1.0) -> None:
        super().__init__()
        self.link = link
        self.every = every
        self.online = True
        self.tables: list[dict[str, Any]] = []
        self.sessions: list[dict[str, Any]] = []
        self._polling = False

    def compose(self) -> ComposeResult:
        yield Static("", id="header")
        with Horizontal(id="top"):
            yield Static("", id="tables")
            yield Static("", id="sessions")
        yield RichLog(id="out", wrap=True, markup=False)
        yield Static("help · tables · sessions · open · close · kick · ban · mute · say · watch · shutdown · quit",
                     id="hint")
        yield CommandLine(id="cmd")

    def on_mount(self) -> None:
        line = self.query_one(CommandLine)
        line.completer = self.complete_line
        line.focus()
        self._header()
        self.set_interval(self.every, self.poll)
        self.poll()

    # -- the live view --------------------------------------------------------------

    def poll(self) -> None:
        if self.online and not self._polling:
            self._polling = True
            self.run_worker(self._poll(), group="poll")

    async def _poll(self) -> None:
        try:
            tables = await self.link.request(["tables"])
            sessions = await self.link.request(["sessions"])
        except ServerGone:
            self.gone()
            return
        finally:
            self._polling = False
        if not self.is_running or not self.screen_stack or not self.screen.query("#tables"):
            return  # the console closed while the answer was on its way
        self.tables = tables.get("data", {}).get("tables", [])
        self.sessions = sessions.get("data", {}).get("sessions", [])
        shutting = tables.get("data", {}).get("shutting_down", False)
        self._header("shutting down: deals in play finish, then the server exits" if shutting else "")
        panel = self.query_one("#tables", Static)
        width = panel.content_size.width or PANEL
        panel.update(Text("\n".join(table_rows(self.tables, width))))
        rows = [f"{(s['name'] or '-') + (' (guest)' if s['guest'] else '') + (' (muted)' if s.get('muted') else '') + (' (away)' if s.get('away') else ''):<18} {s['where']:<18} {s['address']}"
                for s in self.sessions]
        head = f"{len(rows)} session(s)"
        self.query_one("#sessions", Static).update(Text("\n".join([head] + rows)))

    def _header(self, note: str = "") -> None:
        where = str(self.link.path.parent)
        state = "online" if self.online else "the server has stopped"
        self.query_one("#header", Static).update(
            Text(f" sukno admin · {where} · {state}" + (f" · {note}" if note else ""), style="bold"))

    def gone(self) -> None:
        if self.online:
            self.online = False
            self._header()
            self.say("the server has stopped (no answer on its socket); Ctrl+C closes this console", "red")

    # -- the command line -----------------------------------------------------------

    def complete_line(self, line: str) -> tuple[str, list[str]]:
        names = [s["name"] for s in self.sessions if s.get("name") and not s.get("guest")]
        return complete(line, tables=[t["id"] for t in self.tables], games=sorted(registry()), names=names)

    def on_command_line_completed(self, message: CommandLine.Completed) -> None:
        self.query_one("#hint", Static).update(Text("  ".join(message.options[:16])))

    def on_command_line_too_long(self, message: CommandLine.TooLong) -> None:
        self.say(f"the line is full: at most {message.limit} characters", "red")

    def say(self, text: str, style: str = "") -> None:
        self.query_one("#out", RichLog).write(Text(text, style=style))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        cmdline = self.query_one(CommandLine)
        cmdline.value = ""
        cmdline.remember(line)
        if not line:
            return
        self.say("> " + line, "dim")
        if line in ("quit", "exit", "q"):
            self.exit(0)
            return
        try:
            argv = shlex.split(line)
        except ValueError as err:
            self.say(f"cannot read that line: {err}", "red")
            return
        self.run_worker(self._run(argv), group="command")

    async def _run(self, argv: list[str]) -> None:
        if not self.online:
            self.say("the server has stopped; nothing was sent", "red")
            return
        try:
            reply = await self.link.request(argv)
        except ServerGone:
            self.gone()
            return
        self.say(reply.get("text", ""), "" if reply.get("ok") else "red")
        self.poll()


def run_console(path: Path) -> int:
    """Run the console until it is closed; 2 when nobody answers at ``path``."""
    import sys

    link = Link(path)

    async def check() -> str | None:
        """Why the console cannot work (nobody answers, or the server refuses this user), or None."""
        try:
            reply = await link.request(["help"])
        except ServerGone:
            return f"no sukno server answers at {path}"
        finally:
            link.close()
        return None if reply.get("ok") else str(reply.get("text", "refused"))

    problem = asyncio.run(check())
    if problem:
        print(f"sukno admin: {problem}", file=sys.stderr)
        return 2
    return AdminConsole(Link(path)).run() or 0  # a fresh link: the check's belonged to its own loop
