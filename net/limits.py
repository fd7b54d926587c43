"""The door's limits: connections per address, sessions in all, per address and per account, idle and time.

Kept in one place so each number of the config's limits is found next to the
one check that enforces it.  A refusal is a short phrase (``"4 from 10.0.0.7"``)
that the session puts into its "full" line; nothing here says goodbye itself
except the sweeper, which shows out sessions idle or on too long (their seats
are kept).  A session's own input rate is a ``TokenBucket`` of its own.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from net.config import Config
from net.texts import text

if TYPE_CHECKING:
    from net.session import Session


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


class Limits:
    """The caps of the config over the server's live ``sessions`` (the server's own set)."""

    def __init__(self, config: Config, sessions: set[Session]) -> None:
        self.config = config
        self.sessions = sessions
        self._buckets: dict[str, TokenBucket] = {}

    def admit_connection(self, peer: str) -> str | None:
        bucket = self._buckets.get(peer)
        if bucket is None:
            if len(self._buckets) > 10000:
                self._buckets.clear()
            rate = self.config.connections_per_minute
            bucket = self._buckets[peer] = TokenBucket(rate / 60, max(1, rate))
        return None if bucket.take(1) else f"{peer}: too many connections"

    def admit_session(self, session: Session) -> str | None:
        config = self.config
        if len(self.sessions) > config.max_sessions:
            return f"{config.max_sessions} sessions"
        same = sum(1 for s in self.sessions if s.conn.peer == session.conn.peer)
        if same > config.max_sessions_per_address:
            return f"{config.max_sessions_per_address} from {session.conn.peer}"
        return None

    def admit_account(self, name: str) -> str | None:
        """None, or why this account may not open one more session."""
        most = self.config.max_sessions_per_account
        return f"{name} × {most}" if self.count_account(name) > most else None

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
