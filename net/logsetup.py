"""How the server logs: the level, plain lines or JSON lines, and the node's name on every line.

A line says which node (and so which worker) wrote it, so the lines of several nodes in one
journal or one file can be told apart; client words in a message are escaped either way
(``SafeFormatter``), so nobody can forge a line by his name or his terminal's name.
"""

from __future__ import annotations

import json
import logging
import sys
import time

from net.ssh.logsafe import LINE_MAX, SafeFormatter, clean

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")


class NodeFilter(logging.Filter):
    """Puts this process's node name on every record (``-`` for the one server of its store)."""

    def __init__(self, node: str = "") -> None:
        super().__init__()
        self.node = node or "-"

    def filter(self, record: logging.LogRecord) -> bool:
        record.node = self.node
        return True


REPEAT_QUIET = 30.0
"""Seconds within which a warning said again in the same words (its template) is counted, not written."""


class RepeatFilter(logging.Filter):
    """Writes a warning (or worse) once, then only counts the ones said again in the same words within
    ``REPEAT_QUIET`` s; the next one written after that says how many were left out.  An outage makes
    every table and thread fail each of its writes: thousands of one line a second otherwise."""

    def __init__(self, quiet: float = REPEAT_QUIET) -> None:
        super().__init__()
        self.quiet = quiet
        self._shown: dict[tuple[str, int, str], list[float]] = {}  # template → [when written, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        if record.exc_info and _store_trouble(record.exc_info[1]):
            record.msg = f"{record.msg}: " + str(record.exc_info[1]).replace("%", "%%")  # a store that cannot be reached is no bug:
            record.exc_info, record.exc_text = None, None  # its one line, not a traceback
        key = (record.name, record.levelno, str(record.msg)[:200])
        now = record.created
        seen = self._shown.get(key)
        if seen is not None and now - seen[0] < self.quiet:
            seen[1] += 1
            return False
        if seen is not None and seen[1]:
            record.msg = f"{record.msg} [and {int(seen[1])} more like it in the {self.quiet:g} s before]"
        if len(self._shown) > 1000:
            self._shown.clear()
        self._shown[key] = [now, 0]
        return True


def _store_trouble(error: BaseException | None) -> bool:
    """A store error that is the database's state (unreachable, refused: 75), not a fault of the code."""
    from engine.store.base import StoreError

    return isinstance(error, StoreError) and error.exit_status == 75


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, node, message (and a traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "node": getattr(record, "node", "-"),
            "message": clean(record.getMessage(), LINE_MAX),
        }
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: str = "info", fmt: str = "text", node: str = "") -> logging.Handler:
    """Send the server's log to standard error as asked; asyncssh's own chatter from warnings up."""
    handler = logging.StreamHandler(sys.__stderr__)
    handler.addFilter(NodeFilter(node))
    handler.addFilter(RepeatFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(SafeFormatter("%(asctime)s %(node)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))
    logging.getLogger("asyncssh").setLevel(max(logging.WARNING, root.level))
    return handler
