"""The command line: history with Up/Down, Tab completion.

Completion itself is ``tui.commands.complete``; the screen supplies what may
be completed (``completer``) and hears the outcome through messages.  Digits
are typed like any other key: ``10h`` and ``8s`` are cards, and only a line
that is a bare number when Enter is pressed picks a card of the hand (the
table screen decides that, issue 13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from textual.binding import Binding
from textual.geometry import Offset
from textual.message import Message
from textual.widgets import Input

HISTORY = 100


class CommandLine(Input):
    """One line of input; no blinking cursor (NET.md)."""

    DEFAULT_CSS = """
    CommandLine { height: 1; border: none; padding: 0 1; background: $surface; }
    CommandLine:focus { border: none; }
    """

    BINDINGS = [
        Binding("tab", "complete", show=False),  # not priority: it must wait for the keys before it
        Binding("up", "history(-1)", show=False),
        Binding("down", "history(1)", show=False),
    ]

    @dataclass
    class Completed(Message):
        """Tab left several options: the screen shows them."""

        options: list[str]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.cursor_blink = False
        self.history: list[str] = []
        self._index = 0
        self.completer: Callable[[str], tuple[str, list[str]]] | None = None

    @property
    def cursor_screen_offset(self) -> Offset:
        """The caret on the screen, where the terminal's own cursor is put after each frame (issue 17).

        Textual counts one cell more at the end of the text (room for its block cursor), so the
        real cursor, which screen readers and braille displays follow, sat one cell past the caret.
        """
        offset = super().cursor_screen_offset
        return offset - Offset(1, 0) if self.cursor_at_end else offset

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
            del self.history[:-HISTORY]
        self._index = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._index = max(0, min(len(self.history), self._index + step))
        self.value = self.history[self._index] if self._index < len(self.history) else ""
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        if self.completer is None:
            return
        line, options = self.completer(self.value)
        self.value = line
        self.cursor_position = len(line)
        if options:
            self.post_message(self.Completed(options))
