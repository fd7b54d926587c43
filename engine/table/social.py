"""The club's social side: ignore lists, mutes, away notes, private words, link codes, who may watch.

``Club.social`` holds one ``Social``; every table holds a ``Seating`` (its
rules about watchers and the rail).  Nothing here draws anything; the TUI
filters what a person sees through ``Social.hides(viewer, speaker)``.

Decisions (why):

- An ignore list is by name and kept in the store for an account (a guest's
  lasts his visit); it hides the ignored person's chat, rail and private
  words from the one who ignores, and nothing else (the game still names him).
- A mute is the house's (``admin mute NAME [--for 1h]``): his chat, rail and
  private words are refused with the reason; kept in the store with its end in
  wall-clock seconds (``wall``, given by the caller; the tables' clock is
  another), so it survives a restart.
- Private words go to one person's ``inbox`` (a feed per name, shared by his
  sessions); an ignored sender's words are dropped without telling him.
- A link code (``key add``) is eight letters, lives ten minutes, works once;
  the store keeps it, hashed (``engine.store.codes``), so it works on every
  node; here is only which codes a bind on this node is spending right now.
- Away while connected is a note beside the name; at a table it is the same
  *away* as a dropped connection (the stand-in plays, ``engine.table.autoplay``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.feed import Feed
from engine.game import Event, IllegalAction

AWAY_MAX = 60
"""Characters of an away note kept."""
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
CODE_LIFE = 600.0
"""Seconds a link code works."""
CODES_PER_ACCOUNT = 3
IGNORE_MAX = 200
"""Names one person may ignore (a bound on what the store keeps)."""
IGNORE_RETRY = 5.0
"""Seconds (wall clock) after a failed read of an ignore list before it is read again (doubled after
each failure in a row, up to ``IGNORE_RETRY_MAX``: a store that stays down is not asked ever faster)."""
IGNORE_RETRY_MAX = 60.0
INBOX_KEEP = 50
RAIL_KEEP = 200
"""Rail lines a deal keeps for the players' summary."""
RAIL_MODES = ("after", "never")
WATCHER_MODES = ("all", "none", "friends")


class SocialError(IllegalAction):
    """A social request refused; ``key``/``params`` name the catalogue text."""

    def __init__(self, key: str, message: str, **params: Any):
        super().__init__(message, key=key, params=params)


def name_key(name: str) -> str:
    return str(name).strip().casefold()


@dataclass
class Mute:
    name: str
    until: float | None  # wall-clock seconds; None: until unmuted
    reason: str
    by: str


@dataclass
class Seating:
    """A table's rules about who may watch and what players hear of the rail (kept in its journal)."""

    rail: str = "after"
    watchers: str = "all"
    private: bool = False
    host: str | None = None  # the first to sit at the empty table: he sets the rules
    invited: set[str] = field(default_factory=set)

    KEYS = ("rail", "watchers", "private")

    @classmethod
    def make(cls, raw: dict[str, Any] | None) -> Seating:
        out = cls()
        for key, value in (raw or {}).items():
            out.set(key, value)
        return out

    def set(self, key: str, value: Any) -> None:
        """One rule from a config word; ``ValueError`` with the reason otherwise."""
        word = str(value).strip().lower() if not isinstance(value, bool) else ("yes" if value else "no")
        if key == "rail":
            if word not in RAIL_MODES:
                raise ValueError(f"rail is after or never, not {value!r}")
            self.rail = word
        elif key == "watchers":
            if word not in WATCHER_MODES:
                raise ValueError(f"watchers is all, none or friends, not {value!r}")
            self.watchers = word
        elif key == "private":
            if word not in ("yes", "no", "true", "false", "on", "off", "1", "0"):
                raise ValueError(f"private is yes or no, not {value!r}")
            self.private = word in ("yes", "true", "on", "1")
        else:
            raise ValueError(f"unknown table rule {key!r}")

    def invited_key(self, name: str) -> bool:
        return name_key(name) in {name_key(n) for n in self.invited}

    def to_json(self) -> dict[str, Any]:
        return {"rail": self.rail, "watchers": self.watchers, "private": self.private, "host": self.host,
                "invited": sorted(self.invited)}

    def load(self, data: dict[str, Any]) -> None:
        self.rail = data.get("rail", self.rail) if data.get("rail") in RAIL_MODES else self.rail
        self.watchers = data.get("watchers", self.watchers) if data.get("watchers") in WATCHER_MODES else self.watchers
        self.private = bool(data.get("private", self.private))
        host = data.get("host")
        self.host = str(host) if host else None
        self.invited = {str(n) for n in data.get("invited", [])}


def _keep_ignore(store: Any, who: str, other: str, on: bool) -> None:
    try:
        store.set_ignore(who, other, on)
    except Exception:  # a guest has no account (or the store fails): kept for this visit only, as always
        pass


class Social:
    """Ignore lists, mutes, away notes, inboxes and link codes of one club."""

    def __init__(self, store: Any = None, wall: Callable[[], float] = time.time):
        self.store = store if store is not None and hasattr(store, "ignores") else None
        self.wall = wall
        self.away: dict[str, str] = {}
        self._ignores: dict[str, set[str]] = {}  # name_key of who → names he ignores (his spelling of them)
        self._mutes: dict[str, Mute] = {}
        self.mutes_made = 0
        """Counts the mutes and unmutes made here: a read of the store begun before one is stale."""
        self.later: Callable[[Callable[[Any], Any]], None] | None = None
        """Set by the net layer (``net.ssh.offloop``): a mute's store write handed to a thread with its own
        connection, so an expired mute cleared at a chat line never waits for the store."""
        self.fetch: Callable[[Callable[[Any], Any], Callable[[Any], None]], None] | None = None
        """Set by the net layer: ``fetch(work, then)`` runs ``work(store)`` in a store thread and ``then(its
        result or its error)`` back on the loop, so a first ignore-list read never waits on the loop."""
        self._reading: dict[str, list[tuple[str, bool]]] = {}  # name_key → ignores changed while it is read
        self._retry: dict[str, float] = {}  # name_key → when his list, whose read failed, is read again (wall)
        self._told_unread: dict[str, int] = {}  # name_key → failed reads in a row (he is told once, and once read)
        self._inboxes: dict[str, Feed] = {}
        self._held: set[str] = set()  # codes a ``key link`` on this node is binding now (``hold``)
        if self.store is not None:
            for name, until, reason, by in self.store.mutes():
                self._mutes[name_key(name)] = Mute(name, until, reason, by)

    # -- ignore ------------------------------------------------------------------------

    def ignored(self, who: str | None) -> frozenset[str]:
        """The names ``who`` ignores (name keys)."""
        if not who:
            return frozenset()
        return frozenset(name_key(n) for n in self._ignore_set(who))

    def ignored_names(self, who: str) -> list[str]:
        return sorted(self._ignore_set(who), key=str.casefold)

    def _ignore_set(self, who: str) -> set[str]:
        key = name_key(who)
        if key not in self._ignores:
            self._ignores[key] = set()  # empty until the store has read it; his changes go on top
            if self.store is not None:
                self._reading[key] = []
                self._read(who, key)
        elif key in self._retry and self._retry[key] <= self.wall():
            del self._retry[key]  # the read failed a while ago: once more (what he changed since is kept)
            self._read(who, key)
        return self._ignores[key]

    def _read(self, who: str, key: str) -> None:
        """His list read (by the store's thread when ``fetch`` is set); ``_read_done`` takes the answer."""
        if self.fetch is not None:
            self.fetch(lambda store: list(store.ignores(who)), lambda got: self._read_done(who, key, got))
            return
        assert self.store is not None
        try:
            got: Any = list(self.store.ignores(who))
        except Exception as err:  # the store failing (a guest's list is ``[]``, not an error)
            got = err
        self._read_done(who, key, got)

    def _read_done(self, who: str, key: str, got: Any) -> None:
        """His list as read, with what he changed meanwhile made again on it.  A failed read is never taken
        for "he ignores nobody": he is told, and it is read again after ``IGNORE_RETRY`` s."""
        changed = self._reading.get(key)
        if changed is None:
            return  # answered meanwhile (``preload``)
        if not isinstance(got, list):
            fails = self._told_unread.get(key, 0)
            self._retry[key] = self.wall() + min(IGNORE_RETRY * 2 ** fails, IGNORE_RETRY_MAX)
            self._told_unread[key] = fails + 1
            if not fails:
                self.notify(who, "note", {"key": "social.ignores_unread"})
            return
        del self._reading[key]
        self._retry.pop(key, None)
        names = {str(n) for n in got}
        for other, on in changed:
            names = {n for n in names if name_key(n) != name_key(other)} | ({other} if on else set())
        self._ignores[key] = names
        if self._told_unread.pop(key, None):
            self.notify(who, "note", {"key": "social.ignores_read"})

    def preload(self, who: str, names: list[str]) -> None:
        """His ignore list as read off the loop on arrival (``net.ssh.arrival``); kept only if not read yet
        (a list read or changed meanwhile is newer)."""
        key = name_key(who)
        if key not in self._ignores or (key in self._reading and not self._reading[key]):
            self._reading.pop(key, None)  # a read asked before: this one answers it
            self._retry.pop(key, None)
            self._ignores[key] = set(names)
            if self._told_unread.pop(key, None):
                self.notify(who, "note", {"key": "social.ignores_read"})

    def hides(self, viewer: str | None, speaker: str | None) -> bool:
        """Whether ``viewer`` ignores ``speaker`` (his words are not shown to him)."""
        return bool(viewer and speaker) and name_key(speaker or "") in self.ignored(viewer)

    def ignore(self, who: str, other: str, on: bool = True, *, keep: bool = True) -> None:
        if name_key(who) == name_key(other):
            raise SocialError("social.ignore_self", "You cannot ignore yourself.")
        names = self._ignore_set(who)
        present = {name_key(n): n for n in names}
        if on:
            if name_key(other) in present:
                return
            if len(names) >= IGNORE_MAX:
                raise SocialError("social.ignore_full", f"You ignore {IGNORE_MAX} people already.", max=IGNORE_MAX)
            names.add(other)
        else:
            if name_key(other) not in present:
                raise SocialError("social.not_ignored", f"You do not ignore {other}.", name=other)
            names.discard(present[name_key(other)])
        reading = self._reading.get(name_key(who))
        if reading is not None:
            reading.append((other, on))
        if keep and self.store is not None:
            if self.later is not None:  # the store's thread writes it
                self.later(lambda store: _keep_ignore(store, who, other, on))
            else:
                _keep_ignore(self.store, who, other, on)

    def renamed(self, old: str, new: str | None) -> None:
        """The house renamed an account (the store moved its rows): his own list, every list in memory
        that ignores him and his mute follow the new name; ``None``: his name was freed, they are dropped."""
        for names in self._ignores.values():
            hit = {n for n in names if name_key(n) == name_key(old)}
            if hit:
                names.difference_update(hit)
                names.update([new] if new else [])
        own = self._ignores.pop(name_key(old), None)
        mute = self._mutes.pop(name_key(old), None)
        if new is not None and own is not None:
            self._ignores[name_key(new)] = own
        if new is not None and mute is not None:
            mute.name = new
            self._mutes[name_key(new)] = mute

    # -- mutes -------------------------------------------------------------------------

    def mute(self, name: str, seconds: float | None, reason: str, by: str, *, keep: bool = True) -> Mute:
        """``keep``: written to the store here (False: the caller wrote ``mute_of``'s row already)."""
        mute = self.mute_of(name, seconds, reason, by)
        if keep and self.store is not None:
            self.store.set_mute(name, mute.until, reason, by)
        self._mutes[name_key(name)] = mute
        self.mutes_made += 1
        return mute

    def mute_of(self, name: str, seconds: float | None, reason: str, by: str) -> Mute:
        """The mute ``mute`` would make, not made yet (its ``until`` from now)."""
        return Mute(name, None if seconds is None else self.wall() + seconds, reason, by)

    def reload_mutes(self) -> None:
        """Read the mutes from the store again: on a club of several nodes another node's admin may have
        muted or unmuted someone (``net.house.commands`` calls this every few seconds there)."""
        if self.store is not None:
            self.set_mutes(self.store.mutes())

    def set_mutes(self, rows: list[tuple[str, float | None, str, str]], made: int | None = None) -> bool:
        """The mutes as the store gave them (``Store.mutes`` rows, read by a thread off the loop).
        ``made``: ``mutes_made`` when the read began; a mute or unmute made here since then is newer
        than the read, which is dropped (False)."""
        if made is not None and made != self.mutes_made:
            return False
        self._mutes = {name_key(name): Mute(name, until, reason, by) for name, until, reason, by in rows}
        return True

    def unmute(self, name: str, *, keep: bool = True) -> bool:
        """``keep``: cleared in the store too (by ``later`` when set, else here)."""
        gone = self._mutes.pop(name_key(name), None)
        if keep and gone is not None and self.store is not None:
            if self.later is not None:
                self.later(lambda store: store.clear_mute(name))
            else:
                self.store.clear_mute(name)
        self.mutes_made += 1
        return gone is not None

    def muted(self, name: str) -> Mute | None:
        mute = self._mutes.get(name_key(name))
        if mute is not None and mute.until is not None and mute.until <= self.wall():
            self.unmute(name)
            return None
        return mute

    def mutes(self) -> list[Mute]:
        return [m for m in list(self._mutes.values()) if self.muted(m.name) is not None]

    def check_chat(self, name: str) -> None:
        """Refuse a muted person's words, saying why and for how long."""
        mute = self.muted(name)
        if mute is None:
            return
        reason = mute.reason or "-"
        if mute.until is None:
            raise SocialError("social.muted", f"The house has muted you: {reason}.", reason=reason)
        minutes = max(1, int((mute.until - self.wall() + 59) // 60))
        raise SocialError("social.muted_for", f"The house has muted you for {minutes} min more: {reason}.",
                          reason=reason, minutes=minutes)

    # -- away --------------------------------------------------------------------------

    def away_note(self, name: str) -> str | None:
        return self.away.get(name)

    # -- private words -----------------------------------------------------------------

    def inbox(self, name: str) -> Feed:
        key = name_key(name)
        feed = self._inboxes.get(key)
        if feed is None:
            feed = self._inboxes[key] = Feed(keep=INBOX_KEEP)
        return feed

    def drop_inbox(self, name: str) -> None:
        self._inboxes.pop(name_key(name), None)

    def deliver(self, sender: str, target: str, text: str) -> bool:
        """The tell to the target's inbox (unless he ignores the sender) and its echo to the sender's."""
        event = Event("tell", None, {"from": sender, "to": target, "text": text})
        delivered = not self.hides(target, sender)
        if delivered:
            self.inbox(target).publish([event])
        if name_key(sender) != name_key(target):
            self.inbox(sender).publish([event])
        return delivered

    def notify(self, target: str, kind: str, data: dict[str, Any]) -> None:
        """A line from the club to one person (an invitation)."""
        self.inbox(target).publish([Event(kind, None, dict(data))])

    # -- link codes --------------------------------------------------------------------

    def hold(self, code: str) -> bool:
        """A bind of ``code`` begins on this node (``key link``: the store spends it in its thread); False
        while another connection here binds the same code (it is told the code is in use, not wrong)."""
        word = code_word(code)
        if word in self._held:
            return False
        self._held.add(word)
        return True

    def held(self, code: str) -> bool:
        return code_word(code) in self._held

    def unhold(self, code: str) -> None:
        """The bind is over (the store linked the key, refused, or failed)."""
        self._held.discard(code_word(code))


def new_code() -> str:
    """A fresh code: ``CODE_LENGTH`` letters no one confuses (no I, O, 0 or 1)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """A code as a person reads it: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


def code_word(code: str) -> str:
    """A code as typed (any case, spaces, the dash shown) in its kept form."""
    return "".join(str(code).split()).replace("-", "").upper()[:32]
