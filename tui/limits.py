"""How much a person may type: every bound on typed text in one place.

A line with no bound was the club's slowest road: Textual's ``Input`` measures
its whole value on every key (the cursor's cell offset, tabs expanded over the
text before it), so typing a line of n letters cost n² and 16,000 letters
froze every session for 25 s.  With the line bounded a key costs at most the
work of ``COMMAND_MAX`` characters: a constant.  No engine, Textual or asyncssh
import here, so the engine's callers, the TUI and the server share the numbers.
"""

from __future__ import annotations

COMMAND_MAX = 200
"""Characters on a command line (the club's screens, the watcher's row, the admin console)."""

NAME_MAX = 16
"""Characters of a name in the book of names (at least 2)."""

SAY_MAX = COMMAND_MAX
"""Characters of one chat line: what the command line holds (the engine keeps at most 300)."""

CUT_MAX = 64
"""Characters of a player's cut of the deck (``engine.shuffle.MAX_CUT``; a test keeps them equal)."""

QUOTE_MAX = 64
"""Characters of a person's own words quoted back to him in a refusal; the rest is cut with "…"."""


def quote(text: str, limit: int = QUOTE_MAX) -> str:
    """``text`` as it is if short enough, else its first ``limit - 1`` characters and "…"."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


__all__ = ["COMMAND_MAX", "CUT_MAX", "NAME_MAX", "QUOTE_MAX", "SAY_MAX", "quote"]
