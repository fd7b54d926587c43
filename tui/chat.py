"""Chat is throttled per person, whatever number of sessions he has.

The bucket itself lives in the club's speech gate (``engine.table.speech``), which
every path that carries a person's words passes: a player's App, his text mode,
his place among a table's watchers and the bot protocol draw on the same bucket.
A refused line is not said; the player is told to slow down (``chat.slow``).
"""

from __future__ import annotations

from typing import Any

from engine.table.speech import BURST, RATE, ChatLimiter

__all__ = ["BURST", "RATE", "ChatLimiter", "chat_allowed", "limit_chat"]


def limit_chat(club: Any, rate: float = RATE, burst: float = BURST) -> None:
    """Set the club's chat limits (the server does, from its config's ``[limits]``)."""
    club.speech.limit(rate, burst)


def chat_allowed(club: Any, name: str | None, now: float | None = None) -> bool:
    """Whether ``name`` may say one more line in ``club`` now (the line is counted when it may)."""
    return bool(club.speech.allow(name))
