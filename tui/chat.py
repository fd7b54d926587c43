"""Chat is throttled per person, whatever number of sessions he has.

A token bucket per name: ``BURST`` lines at once, then ``RATE`` a second.  It
lives with the club (one per ``Club``), so a player's App, his text mode and
his place among a table's watchers (``net.modes.watch``) draw on the same bucket.
A refused line is not said; the player is told to slow down (``chat.slow``).
Time comes in as an argument (the club's monotonic clock).
"""

from __future__ import annotations

import weakref
from typing import Any

RATE = 1.0
"""Lines a second a person may say, on average."""
BURST = 5
"""Lines a person may say at once."""
KEEP = 10_000
"""Names remembered (the least recently heard go first): the memory is bounded."""


class ChatLimiter:
    """One token bucket per name."""

    def __init__(self, rate: float = RATE, burst: float = BURST, keep: int = KEEP) -> None:
        self.rate, self.burst, self.keep = rate, burst, keep
        self._buckets: dict[str, tuple[float, float]] = {}  # name → (tokens, when)

    def allow(self, name: str, now: float) -> bool:
        """Take one line from ``name``'s bucket; False (and nothing taken) when it is empty."""
        tokens, at = self._buckets.pop(name, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        allowed = tokens >= 1
        if allowed:
            tokens -= 1
        if len(self._buckets) >= self.keep:
            self._buckets.pop(next(iter(self._buckets)))
        self._buckets[name] = (tokens, now)
        return allowed


_LIMITERS: "weakref.WeakKeyDictionary[Any, ChatLimiter]" = weakref.WeakKeyDictionary()


def limit_chat(club: Any, rate: float = RATE, burst: float = BURST) -> None:
    """Set the club's chat limits (the server does, from its config's ``[limits]``)."""
    _LIMITERS[club] = ChatLimiter(rate, burst)


def chat_allowed(club: Any, name: str | None, now: float) -> bool:
    """Whether ``name`` may say one more line in ``club`` now (the line is counted when it may)."""
    limiter = _LIMITERS.get(club)
    if limiter is None:
        limiter = _LIMITERS[club] = ChatLimiter()
    return limiter.allow(name or "", now)
