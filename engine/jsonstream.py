"""A JSON object read from a file a window at a time, its one big list an element at a time.

``json.loads`` needs the whole text as one string: for a file of suits and names that string alone is
about twice the file (two bytes a character), and the parse tree beside it several times more.  Here
the file is read and decoded a window at a time, and the top object's value under ``big`` (a list) is
parsed element by element, each handed to ``object_hook`` as it is read, so what is held at once is
one window, one element and what the hook keeps.  Everything else in the object is parsed as
``json`` parses it.  A syntax error is ``json.JSONDecodeError`` with the line and column in the file.
"""

from __future__ import annotations

import codecs
import io
import json
from typing import Any, Callable, Protocol

WINDOW = 1 << 16
"""Bytes decoded at a time (a window grows while one value needs more, so any value fits)."""
_SPACE = " \t\n\r"


def _comma_before_close_is_named() -> bool:
    """Whether this Python's ``json`` refuses ``[1,]`` at the comma (3.13 on) rather than at the bracket."""
    try:
        json.loads("[1,]")
    except json.JSONDecodeError as err:
        return err.pos == 2
    return False


_COMMA_NAMED = _comma_before_close_is_named()


class Source(Protocol):
    """Where the bytes come from: a binary file, or anything that reads as one."""

    def read(self, size: int, /) -> bytes: ...


class _Text:
    """The file's text from where it was last let go: a decoded window over bytes read as needed."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.done = False
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.buf = ""
        self.lines = 0  # newlines in the text let go
        self.column = 0  # characters after the last newline let go

    def more(self, at_least: int = 0) -> bool:
        """Decode at least ``at_least`` more bytes (and at least a window, or what is left); False at the end."""
        if self.done:
            return False
        chunk = self.source.read(max(at_least, WINDOW))
        self.done = not chunk
        self.buf += self.decoder.decode(chunk, final=self.done)
        return not self.done

    def drop(self, upto: int) -> None:
        """Let go of the text before ``upto`` (its lines counted for later errors)."""
        gone = self.buf[:upto]
        newlines = gone.count("\n")
        self.column = len(gone) - gone.rfind("\n") - 1 if newlines else self.column + len(gone)
        self.lines += newlines
        self.buf = self.buf[upto:]

    def error(self, message: str, at: int) -> json.JSONDecodeError:
        """An error at ``at`` of the window, placed in the whole file."""
        err = json.JSONDecodeError(message, self.buf, at)
        before = self.buf[:at]
        err.lineno = self.lines + before.count("\n") + 1
        err.colno = at - before.rfind("\n") if "\n" in before else self.column + at + 1
        return err


class _Reader:
    def __init__(self, text: _Text, object_hook: Callable[[dict[str, Any]], Any]) -> None:
        self.text = text
        self.at = 0
        self.decoder = json.JSONDecoder(object_hook=object_hook)

    def char(self) -> str:
        """The next character that is not white space ("" at the end), ``at`` on it."""
        text = self.text
        while True:
            while self.at < len(text.buf) and text.buf[self.at] in _SPACE:
                self.at += 1
            if self.at < len(text.buf):
                return text.buf[self.at]
            if not text.more():
                return ""

    def expect(self, wanted: str, what: str) -> None:
        if self.char() != wanted:
            raise self.text.error(f"Expecting {what}", self.at)
        self.at += 1

    def after_comma(self, comma: int, closing: str, what: str) -> None:
        """Refuse a comma right before the closing bracket where and as this Python's ``json`` does."""
        if _COMMA_NAMED and self.char() == closing:
            raise self.text.error(f"Illegal trailing comma before end of {what}", comma)

    def value(self) -> Any:
        """One JSON value from ``at`` (the window grows until it holds it)."""
        self.char()
        while True:
            text = self.text
            try:
                value, end = self.decoder.raw_decode(text.buf, self.at)
            except json.JSONDecodeError as err:
                cut = err.pos >= len(text.buf) - 8 or err.msg.startswith("Unterminated string")
                if text.done or not cut:  # a wrong character, not a value the window's end cut short
                    raise text.error(err.msg, err.pos) from None
                text.more(len(text.buf))  # double the window: a value is never read more than log(n) times
                continue
            if _may_go_on(value, text, end):
                text.more()  # a number at the window's end (``2`` of ``2.5``) may go on in the next bytes
                continue
            self.at = end
            if self.at > WINDOW:
                text.drop(self.at)
                self.at = 0
            return value

    def items(self) -> list[Any]:
        """A list, element by element."""
        self.expect("[", "'['")
        out: list[Any] = []
        if self.char() == "]":
            self.at += 1
            return out
        while True:
            out.append(self.value())
            following = self.char()
            self.at += 1
            if following == "]":
                return out
            if following != ",":
                raise self.text.error("Expecting ',' delimiter", self.at - 1)
            self.after_comma(self.at - 1, "]", "array")


def _may_go_on(value: Any, text: _Text, end: int) -> bool:
    """A number read up to the window's end, or to a character a number may hold: it may be longer."""
    if text.done or isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return end >= len(text.buf) or text.buf[end] in "0123456789.eE+-"


def read_object(source: Source | bytes, big: str, object_hook: Callable[[dict[str, Any]], Any]) -> Any:
    """The JSON value of ``source`` (UTF-8 bytes, or a file read a window at a time); when it is an object,
    its ``big`` list is read element by element.  ``json.JSONDecodeError`` for bad JSON,
    ``UnicodeDecodeError`` for bad UTF-8; what ``source.read`` raises passes through."""
    reader = _Reader(_Text(io.BytesIO(source) if isinstance(source, bytes) else source), object_hook)
    if reader.char() != "{":
        value = reader.value()
    else:
        reader.at += 1
        value = {}
        while True:
            if reader.char() == "}" and not value:
                reader.at += 1
                break
            if reader.char() != '"':
                raise reader.text.error("Expecting property name enclosed in double quotes", reader.at)
            key = reader.value()
            reader.expect(":", "':' delimiter")
            value[key] = reader.items() if key == big and reader.char() == "[" else reader.value()
            following = reader.char()
            reader.at += 1
            if following == "}":
                break
            if following != ",":
                raise reader.text.error("Expecting ',' delimiter", reader.at - 1)
            reader.after_comma(reader.at - 1, "}", "object")
        value = object_hook(value)
    if reader.char():
        raise reader.text.error("Extra data", reader.at)
    return value


__all__ = ["Source", "WINDOW", "read_object"]
