"""The one command line of the modes that edit a line themselves (the hall door, a watcher's row, the text
mode on a dumb terminal): the keys of the screen's ``CommandLine`` without a Textual App.

History on Up/Down, Tab completion (``tui.commands.complete``, through the
door), Left/Right/Home/End, Backspace/Delete, Ctrl+A/E/K/U/W, bracketed paste
(its first line), F1 for help.  The line holds ``COMMAND_MAX`` characters: a
key that would make it longer changes nothing and is told once per line.
Escape sequences it does not know are skipped whole; nothing typed is ever
interpreted as markup or control.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from tui.limits import COMMAND_MAX

HISTORY = 100
PASTE_MAX = 4096  # characters of one bracketed paste kept while it arrives


@dataclass
class Keys:
    """What the editor made of some input: lines to run, and the door's other wishes."""

    lines: list[str] = field(default_factory=list)
    complete: bool = False
    help: bool = False
    ctrl_c: bool = False
    quit: bool = False
    eof: bool = False
    too_long: bool = False
    changed: bool = False


class LineEditor:
    """One command line: the text, the caret, the history."""

    def __init__(self, limit: int = COMMAND_MAX) -> None:
        self.limit = limit
        self.text = ""
        self.caret = 0
        self.history: list[str] = []
        self._index = 0
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._esc = ""
        self._paste: list[str] | None = None
        self._told_full = False
        self._after_cr = False

    def feed(self, data: bytes) -> Keys:
        keys = Keys()
        for ch in self._decode(data):
            self._key(ch, keys)
        return keys

    # -- one character -----------------------------------------------------------------

    def _key(self, ch: str, keys: Keys) -> None:
        if self._paste is not None:
            self._paste.append(ch)
            tail = "".join(self._paste[-6:])
            if tail.endswith("\x1b[201~"):
                pasted = "".join(self._paste)[:-6]
                self._paste = None
                first = pasted.replace("\r\n", "\n").replace("\r", "\n").split("\n")[0]
                self._insert("".join(c for c in first if c.isprintable()), keys)
            elif len(self._paste) > PASTE_MAX:
                del self._paste[PASTE_MAX // 2:-8]
            return
        if self._esc:
            self._esc += ch
            if self._escape_done(ch):
                seq, self._esc = self._esc, ""
                self._sequence(seq, keys)
            return
        after_cr, self._after_cr = self._after_cr, ch == "\r"
        if ch == "\x1b":
            self._esc = ch
        elif ch in "\r\n":
            if ch == "\n" and after_cr:
                return
            line, self.text, self.caret = self.text, "", 0
            self._told_full = False
            self.remember(line.strip())
            keys.lines.append(line)
            keys.changed = True
        elif ch in "\x7f\x08":
            if self.caret:
                self.text = self.text[:self.caret - 1] + self.text[self.caret:]
                self.caret -= 1
                keys.changed = True
        elif ch == "\t":
            keys.complete = True
        elif ch == "\x03":
            keys.ctrl_c = True
        elif ch == "\x11":  # Ctrl+Q, the screen's quit key
            keys.quit = True
        elif ch == "\x04":  # Ctrl+D: the watchers' row leaves on it when the line is empty
            keys.eof = True
        elif ch == "\x01":
            self.caret, keys.changed = 0, True
        elif ch == "\x05":
            self.caret, keys.changed = len(self.text), True
        elif ch == "\x0b":
            self.text, keys.changed = self.text[:self.caret], True
        elif ch == "\x15":
            self.text, self.caret, keys.changed = self.text[self.caret:], 0, True
        elif ch == "\x17":
            head = self.text[:self.caret].rstrip()
            cut = head.rfind(" ") + 1
            self.text, self.caret, keys.changed = self.text[:cut] + self.text[self.caret:], cut, True
        elif ch.isprintable():
            self._insert(ch, keys)

    def _escape_done(self, ch: str) -> bool:
        seq = self._esc
        if len(seq) == 2:
            return ch not in "[O"
        if seq[1] == "O":
            return True
        return "@" <= ch <= "~" or len(seq) > 32

    def _sequence(self, seq: str, keys: Keys) -> None:
        body = seq[2:] if len(seq) > 2 else ""
        if seq == "\x1b[200~":
            self._paste = []
            return
        move = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end", "P": "f1",
                "1~": "home", "7~": "home", "4~": "end", "8~": "end", "3~": "delete", "11~": "f1"}
        what = move.get(body) or move.get(body[-1:] if body[:-1].replace(";", "").isdigit() and body[-1:] in "ABCDHF"
                                          else "")
        if what == "up":
            self.step_history(-1, keys)
        elif what == "down":
            self.step_history(1, keys)
        elif what == "left" and self.caret:
            self.caret, keys.changed = self.caret - 1, True
        elif what == "right" and self.caret < len(self.text):
            self.caret, keys.changed = self.caret + 1, True
        elif what == "home":
            self.caret, keys.changed = 0, True
        elif what == "end":
            self.caret, keys.changed = len(self.text), True
        elif what == "delete" and self.caret < len(self.text):
            self.text, keys.changed = self.text[:self.caret] + self.text[self.caret + 1:], True
        elif what == "f1":
            keys.help = True

    def _insert(self, chars: str, keys: Keys) -> None:
        if not chars:
            return
        room = self.limit - len(self.text)
        if len(chars) > room:
            if not self._told_full:
                self._told_full = True
                keys.too_long = True
            return  # as the screen's line: a key or a paste that does not fit changes nothing
        self.text = self.text[:self.caret] + chars + self.text[self.caret:]
        self.caret += len(chars)
        keys.changed = True
        if len(self.text) < self.limit:
            self._told_full = False

    # -- history and completion --------------------------------------------------------

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
            del self.history[:-HISTORY]
        self._index = len(self.history)

    def step_history(self, step: int, keys: Keys) -> None:
        if not self.history:
            return
        self._index = max(0, min(len(self.history), self._index + step))
        self.text = self.history[self._index] if self._index < len(self.history) else ""
        self.caret = len(self.text)
        keys.changed = True

    def set(self, text: str) -> None:
        self.text = text[:self.limit]
        self.caret = len(self.text)
