"""One gate for everything a person says to others: say, tell, the rail, away notes, cut text, a bot's say.

Every path that puts a person's words before other people passes the club's
``Speech`` (the club's own verbs and each of its tables call it), so the
house's mute and the chat limit hold whichever verb, mode or protocol carried
the words.  A muted person keeps what is not speech: his ``away`` mark (no
note) and his cut (its text replaced by a digest, so the deal stays sealed,
verifiable and his contribution still counts, while nobody reads his words).
"""

from __future__ import annotations

import hashlib
import time
from typing import Callable

from engine.table.chatlog import ChatLog
from engine.table.social import Social, SocialError

RATE = 1.0
"""Lines a second a person may say, on average."""
BURST = 5
"""Lines a person may say at once."""
KEEP = 10_000
"""Names remembered (the least recently heard go first): the memory is bounded."""


class ChatLimiter:
    """One token bucket per name: ``burst`` lines at once, then ``rate`` a second."""

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


def muted_cut(text: str) -> str:
    """What a muted person's cut puts in the deal: a digest of his text (printable, within a cut's length)."""
    return "#" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Speech:
    """The gate: ``words`` before any line is said, ``note``/``mark`` for away and back, ``cut`` for a cut."""

    def __init__(self, social: Social, clock: Callable[[], float] = time.monotonic,
                 limiter: ChatLimiter | None = None) -> None:
        self.social = social
        self.clock = clock
        self.limiter = limiter
        """None: no chat limit (a club on its own, as tests and local play use it; the server sets one)."""
        self.log = ChatLog(social, social.wall)
        """What passed the gate: the last minutes for reports, the chat log for the house."""

    def limit(self, rate: float = RATE, burst: float = BURST) -> None:
        """Set the chat limit (the server does, from its config's ``[limits]``)."""
        self.limiter = ChatLimiter(rate, burst)

    def allow(self, name: str | None) -> bool:
        """Count one line of ``name``'s against the limit; False (nothing counted) past it."""
        return self.limiter is None or self.limiter.allow(name or "", self.clock())

    def _count(self, name: str) -> None:
        if not self.allow(name):
            raise SocialError("chat.slow", "Slow down: at most 5 lines at once, then one a second; "
                              "that line was not said.")

    def words(self, name: str) -> None:
        """Before ``name``'s words reach anyone (say, tell, the rail, a bot's say): refused when muted
        or past the chat limit (``SocialError``)."""
        self.social.check_chat(name)
        self._count(name)

    def note(self, name: str, note: str) -> str:
        """``away NOTE``: counted as a line; a muted person keeps the mark, never the note."""
        self._count(name)
        if self.social.muted(name) is not None:
            return ""
        if note:
            self.log.heard(name, "away", note)
        return note

    def mark(self, name: str) -> None:
        """``back``: no words, but a line others see, so it is counted."""
        self._count(name)

    def cut(self, name: str, text: str) -> str:
        """A cut's text as the deal keeps it: counted as a line; a muted person's text becomes a digest."""
        self._count(name)
        return muted_cut(text) if self.social.muted(name) is not None else text
