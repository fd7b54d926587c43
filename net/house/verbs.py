"""The admin's verbs as words: their help, the command line taken apart, the reply, and the house they act on.

``House`` is what a group of verbs (``net.house.discipline``) may ask of the commands' owner
(``net.house.commands.AdminCommands``), so each group is a module of its own that imports no circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

from engine.table.admin_ops import AdminError
from net.house.bans import BanList

HELP = """\
tables                                  the tables: game, seats, watchers, pot, state
sessions                                who is connected: name, address, key, where
open GAME [name=value …] [seats=N]      open a table with the game's options (listed below),
                                        e.g. open stukolka variant=v dark=yes razrez=yes seats=5,
                                        open stukolka variant=g; clock=S grace=S bots=fill: the table's own
close TABLE [--after-deal]              close a table (mid-deal: when its deal ends)
seat TABLE SEAT bot|NAME                put an account (or a bot) in a seat
kick NAME [reason …]                    end NAME's sessions, showing the reason
ban NAME|FINGERPRINT|ADDRESS [--for DURATION] [reason …]
                                        refuse on every next connect (e.g. --for 2h)
unban NAME|FINGERPRINT|ADDRESS          lift a ban
bans                                    the bans in force
say TEXT …                              tell every session
mute NAME [--for DURATION] [reason …]   refuse NAME's chat and whispers (e.g. --for 1h)
unmute NAME                             give NAME his words back
mutes                                   the mutes in force
watch TABLE                             every hand at a table and its rail (logged)
grant NAME AMOUNT                       credit NAME with AMOUNT kopecks in the ledger
reports [--all]                         the players' reports (open ones; --all: closed too)
report N close                          close report N once it is dealt with
chatlog NAME|table N [--since ISO-TIME] what NAME said (or was said at table N), from the chat log
motd [TEXT … | --clear]                 the message of the day shown to each arrival, kept in the store
                                        for every node (alone: show it)
metrics                                 the server's figures (Prometheus's text format)
health                                  exit 0 when the club answers and its store takes a write
ratings [GAME] [--recompute]            the skill ratings; --recompute: again from the records
accounts [PATTERN]                      the accounts (a substring or a glob such as 'an*'): created,
                                        last seen, balance, keys, state (active, disabled, closed)
account NAME                            one account and its keys
account NAME rename NEW                 a new name (the registration's rules); records and ledger stay his
account NAME disable|enable             a disabled account is shown out and cannot enter until enabled
account NAME close                      closed for good: shown out, his name freed after [admin]
                                        name_hold_days; the ledger keeps his history
account NAME key-code                   (also: key add NAME) a one-time code for a lost key: he types
                                        key link CODE from his new key; the house never holds a key
shutdown [--grace SECONDS]              no new deals; finish deals in play; save; exit
help                                    this list"""

COMMANDS = ("tables", "sessions", "open", "close", "seat", "kick", "ban", "unban", "bans", "say",
            "mute", "unmute", "mutes", "watch", "grant", "reports", "report", "chatlog", "motd", "metrics", "health",
            "ratings", "accounts", "account", "key", "shutdown", "help")
MAX_GRACE = 86400
"""The longest ``shutdown --grace`` (a day): deals in play finish within it."""
READ_ONLY = frozenset({"tables", "sessions", "bans", "mutes", "help", "metrics", "health", "ratings", "accounts",
                       "reports"})
"""Not in the audit log (``chatlog`` is: reading what someone said, as ``watch``, is an act of the house)."""


class UsageError(AdminError):
    """The command line itself is wrong (exit status 2)."""


@dataclass
class Reply:
    """What a command answers: ``text`` for people, ``data`` for ``--json``."""

    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    status: int = 0
    audit: str | None = None
    """What the audit log keeps in place of ``text`` (a one-time code is said, never kept)."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "status": self.status, "text": self.text, "data": self.data}


def flag(args: list[str], name: str, takes_value: bool = False) -> tuple[list[str], str | bool | None]:
    """Take ``--name`` (and its value) out of ``args``."""
    rest: list[str] = []
    value: str | bool | None = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == name:
            if takes_value:
                if i + 1 >= len(args):
                    raise UsageError(f"{name} needs a value")
                value = args[i + 1]
                i += 2
                continue
            value = True
        elif takes_value and word.startswith(name + "="):
            value = word.split("=", 1)[1]
        else:
            rest.append(word)
        i += 1
    return rest, value


def need(args: list[str], low: int, usage: str, high: int | None = None) -> None:
    if len(args) < low or (high is not None and len(args) > high):
        raise UsageError(f"usage: {usage}")


class House(Protocol):
    """What the verbs act on: the server, its club, the bans, and the shared ways to name and show out."""

    server: Any
    club: Any
    bans: BanList
    store_reads: Any
    shutting_down: bool
    """``net.ssh.offloop.StoreThread`` reading the bans and mutes off the loop, once started; else None."""
    shut: Any
    """``net.house.shut.ShutAccounts``: the disabled and closed accounts, refused at every door."""

    def account_name(self, name: str) -> str: ...

    def known(self, name: str) -> bool: ...

    def off_loop(self, change: Callable[[Callable[[Any], Any]], Any]) -> Awaitable[Any]: ...

    def ask(self, node: str, argv: list[str], who: str) -> Awaitable[Reply]: ...

    def show_out(self, sessions: list[Any], farewell: Callable[[Any], str]) -> Awaitable[None]: ...
