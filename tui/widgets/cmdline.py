"""The command line: history with Up/Down, Tab completion.

Completion itself is ``tui.commands.complete``; the screen supplies what may
be completed (``completer``) and hears the outcome through messages.  Digits
are typed like any other key: ``10h`` and ``8s`` are cards, and only a line
that is a bare number when Enter is pressed picks a card of the hand (the
table screen decides that).

The line holds at most ``tui.limits.COMMAND_MAX`` characters: a key or a paste
that would make it longer changes nothing, and the screen hears it once
(``TooLong``) to say why.  The bound is what makes a key's cost constant:
Textual's ``Input`` measures its whole value on every key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from textual.binding import Binding
from textual.geometry import Size
from textual.geometry import Offset
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from tui.limits import COMMAND_MAX

HISTORY = 100


class CommandLine(Input):
    """One line of input; no blinking cursor."""

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

    @dataclass
    class TooLong(Message):
        """A key or a paste did not fit: the line holds at most ``limit`` characters."""

        limit: int

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("max_length", COMMAND_MAX)
        super().__init__(**kwargs)
        self._told_full = False
        self.cursor_blink = False
        self.history: list[str] = []
        self._index = 0
        self.completer: Callable[[str], tuple[str, list[str]]] | None = None

    @property
    def cursor_screen_offset(self) -> Offset:
        """The caret on the screen, where the terminal's own cursor is put after each frame.

        Textual counts one cell more at the end of the text (room for its block cursor), so the
        real cursor, which screen readers and braille displays follow, sat one cell past the caret.
        """
        offset = super().cursor_screen_offset
        return offset - Offset(1, 0) if self.cursor_at_end else offset

    def restricted(self) -> None:
        """Over the bound: no bell per key (a flood would ring thousands of times), one message."""
        if not self._told_full:
            self._told_full = True
            self.post_message(self.TooLong(self.max_length or COMMAND_MAX))

    def _watch_value(self, value: str) -> None:
        # Textual's Input sets its virtual size on every key, a reactive with layout=True:
        # each key laid out the whole screen again (~5 ms a key). The line's scroll extent
        # is all that size means here (no scrollbars), so it is set without a layout.
        size = Size(self.content_width, 1)
        if size != self.virtual_size:
            self.set_reactive(Widget.virtual_size, size)
        super()._watch_value(value)  # assigns the same size again: no change, no layout
        if self._told_full and len(value) < (self.max_length or COMMAND_MAX):
            self._told_full = False  # room again: the next refusal is told again

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
