"""Bans (in the store, copied to ``bans.json``) and the audit log (``audit.log``) in the data folder.

Bans live in the club's store (every node of a club refuses the same
people), and ``bans.json`` stays as a copy the operator can read with ``cat``
when the server is down (a ``bans.json`` written before is imported once).
The copy is rewritten atomically (temp file, fsync, rename); bans are pruned
when they expire.  The audit log stays a file of each node, append only, one
JSON object per line: ``{"at", "who", "command", "ok", "text"}``.

A ban names one of three things, told apart by their form:

- a key fingerprint (``SHA256:…``, as ``ssh-keygen -l`` and ``sessions`` show it),
- an address or a network (``203.0.113.7``, ``2001:db8::/32``),
- an account name (every key of that name), compared like names are (case and
  Cyrillic look-alikes folded).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.store.base import BanRow, StoreError
from net.ssh.identity import fold

log = logging.getLogger("sukno.admin")

BANS_NAME = "bans.json"
AUDIT_NAME = "audit.log"


@dataclass
class Ban:
    """One ban: what (kind + target), until when (wall time, None: for ever), why, by whom."""

    kind: str  # "key" | "address" | "name"
    target: str
    until: float | None
    reason: str
    by: str
    at: float

    def left(self, now: float) -> float | None:
        return None if self.until is None else self.until - now


def kind_of(target: str) -> str:
    """``key``, ``address`` or ``name`` for a ban target (by its form)."""
    if target.upper().startswith(("SHA256:", "MD5:")):
        return "key"
    try:
        ipaddress.ip_network(target, strict=False)
        return "address"
    except ValueError:
        return "name"


class BanList:
    """The bans in force; expired ones drop out.

    With a store (``sukno serve``: both backends) the store keeps them, so every node of a club
    refuses the same people; this node reads them again at most every ``REFRESH`` seconds (and
    after its own changes), and ``bans.json`` becomes a readable copy (``"in_store": true``),
    rewritten when the bans change.  A ``bans.json`` from before (no such mark) is imported into
    the store once, at start, then rewritten as that copy.  Without a store (tests, tools) the file
    itself is the list, as before.
    """

    REFRESH = 2.0
    fed = False
    """True once a thread reads the store for this list (``net.house.commands``, ``net.ssh.offloop``): then
    ``refresh`` reads only when forced (after a change made here), never on a connection's way in."""

    def __init__(self, path: Path, clock: Any = time.time, store: Any = None) -> None:
        self.path = path
        self.clock = clock
        self.store = store
        self.bans: list[Ban] = []
        self._read_at = -math.inf
        self.made = 0
        """Counts the changes made here: a read of the store begun before one is stale (``take``)."""
        self.changed = 0
        """Counts every change seen (here or by another node): ``net.house.commands`` ends the
        sessions a new ban hits when it moves."""
        raw: dict[str, Any] = {}
        if path.exists():
            try:
                raw = json.loads(path.read_text("utf-8") or "{}")
                found = [Ban(**b) for b in raw.get("bans", [])]
            except (ValueError, TypeError, AttributeError) as err:
                raise ValueError(f"{path}: not a bans file ({err}); fix or remove it") from None
            if store is None:
                self.bans = found
            elif not raw.get("in_store"):
                self._import(found)
        if store is not None:
            self.refresh(force=True)
        self.prune()

    # -- the store ---------------------------------------------------------------------

    def _import(self, found: list[Ban]) -> None:
        """Put an old ``bans.json``'s bans into the store (its own key each), once."""
        for ban in found:
            self.store.put_ban(_row(ban))
        log.info("imported %d ban(s) from %s into the store; the file is now a copy", len(found), self.path)
        self._read_at = -math.inf
        self.refresh(force=True)
        self._save()  # marked: never imported again

    def refresh(self, force: bool = False) -> bool:
        """Read the store's bans again if ``REFRESH`` has passed (or ``force``); True if they changed.
        A store that cannot be read now keeps the last list (and says so in the log)."""
        if self.store is None or (self.fed and not force):
            return False
        now = time.monotonic()
        if not force and now - self._read_at < self.REFRESH:
            return False
        self._read_at = now
        try:
            rows = self.store.bans()
        except StoreError as err:
            log.warning("cannot read the bans from the store just now (the last list holds): %s", err)
            return False
        return self.take(rows)

    def take(self, rows: list[BanRow], made: int | None = None) -> bool:
        """The bans as the store gave them (``Store.bans`` rows); True if they changed.  ``made``: the
        count ``made`` had when the read began (a thread's read): one made here since is newer, and the
        read is dropped."""
        if made is not None and made != self.made:
            return False
        fresh = [Ban(r.kind, r.target, r.until, r.reason, r.by, r.at) for r in rows]
        if fresh == self.bans:
            return False
        self.bans = fresh
        self.changed += 1
        try:
            self._save()
        except OSError as err:
            log.warning("cannot write the copy %s: %s", self.path, err)
        return True

    # -- changes -----------------------------------------------------------------------

    def prune(self) -> None:
        """Drop the expired bans.  Fed by a thread (``fed``), only from the list in memory: the thread
        deletes them from the store at its next read (``read_pruned``), never the loop."""
        now = self.clock()
        kept = [b for b in self.bans if b.until is None or b.until > now]
        if len(kept) != len(self.bans):
            if self.fed:
                self.bans = kept
                return
            if self.store is not None:
                self.store.prune_bans(now)
                self.made += 1  # after the write: a read begun before it is stale
                self.refresh(force=True)
                return
            self.bans = kept
            self._save()

    def read_pruned(self, store: Any) -> tuple[int, list[BanRow]]:
        """In a thread, on its own connection: the expired bans deleted, then the bans read (with
        ``made`` as it was when the read began, for ``take``)."""
        made = self.made
        rows = store.bans()
        now = self.clock()
        if any(r.until is not None and r.until <= now for r in rows):
            store.prune_bans(now)
            rows = [r for r in rows if r.until is None or r.until > now]
        return made, rows

    def make(self, target: str, seconds: float | None, reason: str, by: str) -> Ban:
        """The ban ``add`` would keep (its target in its normal form), not kept yet."""
        kind = kind_of(target)
        if kind == "address":
            target = str(ipaddress.ip_network(target, strict=False))
            if target.endswith(("/32", "/128")):
                target = target.rsplit("/", 1)[0]
        now = self.clock()
        return Ban(kind, target, None if seconds is None else now + seconds, reason, by, now)

    async def add_off_loop(self, run: Any, target: str, seconds: float | None, reason: str, by: str) -> Ban:
        """``add`` with the store's write made by ``run`` (``net.ssh.offloop.StoreThread.run``): the loop
        awaits it, never waits for it.  ``StoreError``: refused, nothing changed."""
        ban = self.make(target, seconds, reason, by)
        row = _row(ban)
        _made, rows = await run(lambda own: (own.put_ban(row), self.read_pruned(own))[1])
        self.made += 1  # after the write: a read begun before it is stale
        self.take(rows)
        return ban

    async def remove_off_loop(self, run: Any, target: str) -> list[Ban]:
        """``remove`` with the store's write made by ``run``, as ``add_off_loop``."""
        kind, target = self._normal(target)
        key = _key(kind, target)
        gone, (_made, rows) = await run(lambda own: (own.drop_bans(kind, key), self.read_pruned(own)))
        self.made += 1
        self.take(rows)
        return [Ban(r.kind, r.target, r.until, r.reason, r.by, r.at) for r in gone]

    @staticmethod
    def _normal(target: str) -> tuple[str, str]:
        kind = kind_of(target)
        if kind == "address":
            target = str(ipaddress.ip_network(target, strict=False)).removesuffix("/32").removesuffix("/128")
        return kind, target

    def add(self, target: str, seconds: float | None, reason: str, by: str) -> Ban:
        ban = self.make(target, seconds, reason, by)
        kind, target = ban.kind, ban.target
        if self.store is not None:
            self.store.put_ban(_row(ban))  # StoreError: refused, nothing changed
            self.made += 1
            self.refresh(force=True)
            return ban
        self.bans = [b for b in self.bans if not self._same(b, kind, target)] + [ban]
        self.changed += 1
        self._save()
        return ban

    def remove(self, target: str) -> list[Ban]:
        kind, target = self._normal(target)
        if self.store is not None:
            gone = [Ban(r.kind, r.target, r.until, r.reason, r.by, r.at)
                    for r in self.store.drop_bans(kind, _key(kind, target))]
            self.made += 1
            self.refresh(force=True)
            return gone
        gone = [b for b in self.bans if self._same(b, kind, target)]
        if gone:
            self.bans = [b for b in self.bans if b not in gone]
            self.changed += 1
            self._save()
        return gone

    @staticmethod
    def _same(ban: Ban, kind: str, target: str) -> bool:
        if ban.kind != kind:
            return False
        return fold(ban.target) == fold(target) if kind == "name" else ban.target == target

    def matching(self, *, name: str | None, key: str | None, address: str | None) -> Ban | None:
        """The ban (if any) that shuts out this name, key or address now."""
        self.refresh()
        self.prune()
        for ban in self.bans:
            if shuts_out(ban, name=name, key=key, address=address):
                return ban
        return None

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body: dict[str, Any] = {"bans": [asdict(b) for b in self.bans]}
        if self.store is not None:
            body = {"in_store": True, "note": "a copy: the club's store keeps the bans (sukno admin bans)", **body}
        data = json.dumps(body, ensure_ascii=False, indent=1)
        fd, tmp = tempfile.mkstemp(prefix=".bans.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def _key(kind: str, target: str) -> str:
    """A ban's target as compared: a name folded (case, look-alikes), the rest as written."""
    return fold(target) if kind == "name" else target


def _row(ban: Ban) -> BanRow:
    return BanRow(ban.kind, _key(ban.kind, ban.target), ban.target, ban.until, ban.reason, ban.by, ban.at)


def shuts_out(ban: Ban, *, name: str | None, key: str | None, address: str | None) -> bool:
    """Whether ``ban`` names this name, key or address (expiry aside)."""
    if ban.kind == "name":
        return bool(name) and fold(ban.target) == fold(name or "")
    if ban.kind == "key":
        return bool(key) and ban.target == key
    return bool(address) and _in(address or "", ban.target)


def _in(address: str, network: str) -> bool:
    try:
        return ipaddress.ip_address(address) in ipaddress.ip_network(network, strict=False)
    except ValueError:
        return False


REFUSED_EVERY = 60.0
"""Seconds between two audit lines of one person's refused ``admin`` attempts (the rest are counted)."""
REFUSED_KEEP = 1000


class AuditLog:
    """Who did what, when: one JSON line per admin action, appended and flushed.

    Refused attempts of non-admins are the one thing a stranger can make it
    write, so they are aggregated: one line per person per ``REFUSED_EVERY``
    seconds, saying how many were refused since the last line.
    """

    def __init__(self, path: Path, clock: Any = time.time) -> None:
        self.path = path
        self.clock = clock
        self._refused: dict[str, tuple[float, int]] = {}  # who → (when his last line was written, refused since)

    def refused(self, who: str, argv: list[str], text: str) -> bool:
        """A refused attempt: written if ``who`` had no line in the last minute; True when written."""
        now = self.clock()
        last, since = self._refused.pop(who, (None, 0))
        if last is not None and now - last < REFUSED_EVERY:
            self._refused[who] = (last, since + 1)
            return False
        if len(self._refused) >= REFUSED_KEEP:  # bounded: the oldest entry goes (dicts keep insertion order)
            self._refused.pop(next(iter(self._refused)))
        self._refused[who] = (now, 0)
        more = f" ({since} more refused since the last line)" if since else ""
        self.write(who, argv, False, text + more)
        return True

    def write(self, who: str, argv: list[str], ok: bool, text: str) -> None:
        entry = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.clock())),
            "who": who, "command": argv, "ok": ok, "text": text[:500],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def entries(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text("utf-8").splitlines() if line.strip()]
