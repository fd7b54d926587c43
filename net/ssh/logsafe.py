"""What a client sends, made fit for the server's log: one line, no terminal controls, a bounded length.

A client chooses its TERM, its user name, its version string and the words it
types; logged raw, a newline in TERM writes a fake log line, ESC/BEL reach
the operator's terminal, and a 30 KB TERM makes a 30 KB line.  ``clean`` is
the one helper every log call that carries client data passes it through;
``SafeFormatter`` is the net under it, for messages (asyncssh's own among
them) that did not.
"""

from __future__ import annotations

import logging
import unicodedata

FIELD_MAX = 80
"""Characters of one client field kept in a log line; the rest is counted, not written."""

LINE_MAX = 4000
"""Characters of one log message at most (a traceback below it is the server's own)."""


def _escape(ch: str) -> str:
    if ch == "\\":
        return "\\\\"
    if ch.isprintable() and unicodedata.category(ch) not in ("Cf", "Zl", "Zp"):
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def clean(value: object, limit: int = FIELD_MAX) -> str:
    """``value`` as one printable line: controls escaped (``\\n``→``\\x0a``), cut to ``limit`` characters."""
    text = "" if value is None else str(value)
    head = text[:limit]
    out = "".join(map(_escape, head))
    if len(out) > limit:  # escapes lengthen it: cut again, never in the middle of an escape
        kept, size = [], 0
        for ch in head:
            piece = _escape(ch)
            if size + len(piece) > limit:
                break
            kept.append(piece)
            size += len(piece)
        out = "".join(kept)
        shown = len(kept)
    else:
        shown = len(head)
    if shown < len(text):
        out += f"…(+{len(text) - shown})"
    return out


class SafeFormatter(logging.Formatter):
    """Formats as usual, then escapes controls in the message part and bounds its length."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        message = record.message
        record.message = clean(message, LINE_MAX)
        try:
            return super().formatMessage(record)
        finally:
            record.message = message


__all__ = ["FIELD_MAX", "LINE_MAX", "SafeFormatter", "clean"]
