"""The door's limits: connections per address (checked at accept), sessions in all, per address and per account, idle and time.

Kept in one place so each number of the config's limits is found next to the
one check that enforces it.  A refusal is a short phrase (``"4 from 10.0.0.7"``)
that the session puts into its "full" line; nothing here says goodbye itself
except the sweeper, which shows out sessions idle or on too long (their seats
are kept).  A session's own input rate is a ``TokenBucket`` of its own.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections import OrderedDict, deque
from typing import AbstractSet, Protocol

from net.config import Config
from net.modes.texts import text


class _Peer(Protocol):
    peer: str


class Limited(Protocol):
    """A session as its limits see it: whose, from where, since when, and how to show it out (the
    session module names this, not the other way round)."""

    name: str | None
    lang: str
    closed: bool
    started: float
    last_input: float

    @property
    def conn(self) -> _Peer: ...

    async def close(self, message: str | None = None) -> None: ...


def address_key(peer: str) -> str:
    """What the per-address limits count: an IPv4 address, or an IPv6 address's /64.

    One IPv6 host is usually given a whole /64, so counting by /128 would let it open as many
    connections as it has addresses; an IPv4-mapped IPv6 address is its IPv4 address."""
    if ":" not in peer:
        return peer  # IPv4 (or a stand-in name): itself, without parsing, since the door asks per connection
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return peer  # not an address (a test's stand-in, a Unix socket): counted as itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TokenBucket:
    """``rate`` per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self, amount: float) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < amount:
            return False
        self.level -= amount
        return True


ADDRESSES_MAX = 4096
"""Addresses whose connection rate is remembered; the least recently seen is forgotten first."""

DOOR_SLACK = 10
"""Connections over a session cap still let in, so that a person is told "the club is full".

Refused at the door a client shows only "connection closed" (no SSH client prints
the line sent before the version), so the door refuses on the caps only past this
margin; the rate (``connection_burst``, ``connections_per_minute``) is what stops a flood.
"""


class StartQueue:
    """One player's App starts at a time; those waiting are served one address at a time.

    Mounting an App holds the loop 20-60 ms a step: ten at once put all their
    steps in each turn of the loop and everyone else waited.  In turn, each
    costs the others one step at most; and round robin by address means a
    storm from one address waits behind itself, while a stranger from another
    address is next.
    """

    def __init__(self) -> None:
        self._busy = False
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def waiting(self) -> int:
        return sum(len(q) for q in self._waiting.values())

    async def turn(self, peer: str) -> None:
        """Wait until this start may go (then ``release`` must follow)."""
        peer = address_key(peer)
        if not self._busy and not self._waiting:
            self._busy = True
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(peer, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the turn came as we were cancelled: pass it on
            else:
                queue = self._waiting.get(peer)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[peer]
            raise

    def release(self) -> None:
        """The current start is done: the next address in turn goes."""
        while self._waiting:
            peer, queue = next(iter(self._waiting.items()))
            future = queue.popleft()
            if queue:
                self._waiting.move_to_end(peer)  # its next start waits behind the other addresses
            else:
                del self._waiting[peer]
            if not future.done():
                future.set_result(None)
                return
        self._busy = False


class Limits:
    """The caps of the config over the server's live ``sessions`` (the server's own set)."""

    def __init__(self, config: Config, sessions: AbstractSet[Limited]) -> None:
        self.config = config
        self.sessions = sessions
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._live: dict[str, int] = {}  # open TCP connections per address (bounded by the caps)
        self.live_total = 0
        self.refused_at_door = 0
        """Connections closed at accept, before any key exchange (for tests and the bench)."""
        self.refusals: dict[str, int] = {}
        """Refusals by reason (the metrics): address, sessions, rate, account."""

    # -- the door: checked when a TCP connection is accepted, before SSH begins ---------------

    def admit_connection(self, peer: str) -> str | None:
        """None and the connection is counted, or why it is refused (then it is not counted).

        Checked at accept, so a flood costs one ``accept`` and one ``close`` per connection,
        not a key exchange and a login each.
        """
        config = self.config
        peer = address_key(peer)
        bucket = self._buckets.get(peer)
        if bucket is None:
            rate = config.connections_per_minute
            burst = min(max(1, rate), max(1, config.connection_burst))
            bucket = self._buckets[peer] = TokenBucket(rate / 60, burst)
            while len(self._buckets) > ADDRESSES_MAX:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(peer)
        refusal = reason = None
        if self._live.get(peer, 0) >= config.max_sessions_per_address + DOOR_SLACK:
            refusal, reason = f"{config.max_sessions_per_address} from {peer}", "address"
        elif self.live_total >= config.max_sessions + DOOR_SLACK:
            refusal, reason = f"{config.max_sessions} sessions", "sessions"
        elif not bucket.take(1):
            refusal, reason = f"{peer}: too many connections", "rate"
        if refusal is not None and reason is not None:
            self.refused_at_door += 1
            self._refused(reason)
            return refusal
        self._live[peer] = self._live.get(peer, 0) + 1
        self.live_total += 1
        return None

    def connection_closed(self, peer: str) -> None:
        """An admitted connection ended (every admitted one comes here once)."""
        peer = address_key(peer)
        count = self._live.get(peer, 0) - 1
        if count > 0:
            self._live[peer] = count
        else:
            self._live.pop(peer, None)
        self.live_total = max(0, self.live_total - 1)

    def remembered(self) -> int:
        """How many addresses' rates are kept (at most ``ADDRESSES_MAX``)."""
        return len(self._buckets)

    def admit_session(self, session: Limited) -> str | None:
        config = self.config
        if len(self.sessions) > config.max_sessions:
            self._refused("sessions")
            return f"{config.max_sessions} sessions"
        where = address_key(session.conn.peer)
        same = sum(1 for s in self.sessions if address_key(s.conn.peer) == where)
        if same > config.max_sessions_per_address:
            self._refused("address")
            return f"{config.max_sessions_per_address} from {where}"
        return None

    def _refused(self, reason: str) -> None:
        self.refusals[reason] = self.refusals.get(reason, 0) + 1

    def admit_account(self, name: str) -> str | None:
        """None, or why this account may not open one more session."""
        most = self.config.max_sessions_per_account
        if self.count_account(name) <= most:
            return None
        self._refused("account")
        return f"{name} × {most}"

    def count_account(self, name: str) -> int:
        return sum(1 for s in self.sessions if s.name == name and not s.closed)

    async def sweep(self) -> None:
        """Show out sessions idle too long or over the time limit (their seats are kept)."""
        config = self.config
        limits = [t for t in (config.idle_timeout, config.max_session_time) if t]
        period = min([5.0] + [t / 4 for t in limits])
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for session in list(self.sessions):
                if config.idle_timeout and now - session.last_input > config.idle_timeout:
                    await session.close(text(session.lang, "idle"))
                elif config.max_session_time and now - session.started > config.max_session_time:
                    await session.close(text(session.lang, "too_long"))
