"""The hall door's command line (net.modes.lineedit): the screen's keys, bounded, never stalled by odd input."""

from __future__ import annotations

from net.modes.lineedit import LineEditor
from tui.limits import COMMAND_MAX


def test_lines_history_and_editing_keys():
    e = LineEditor()
    keys = e.feed(b"say one\r\nsay two\r")
    assert keys.lines == ["say one", "say two"]  # CR LF is one Enter
    e.feed(b"\x1b[A")
    assert e.text == "say two"
    e.feed(b"\x1b[A\x1b[A")
    assert e.text == "say one"
    e.feed(b"\x1b[B\x1b[B")
    assert e.text == ""
    e.feed(b"abc\x1b[D\x1b[DX\x1b[F!\x1b[HY\x1b[3~")  # left, left, X, End, !, Home, Y, Delete
    assert e.text == "YXbc!"
    e.feed(b"\x05 word\x17")  # Ctrl+E, " word", Ctrl+W deletes the word before the caret
    assert e.text == "YXbc! "
    e.feed(b"\x01\x0b")  # Ctrl+A, Ctrl+K
    assert e.text == ""


def test_special_keys_are_wishes_not_text():
    e = LineEditor()
    keys = e.feed(b"wh\t\x03\x1bOP\x11")
    assert (keys.complete, keys.ctrl_c, keys.help, keys.quit) == (True, True, True, True)
    assert e.text == "wh"


def test_the_bound_is_told_once_per_line_and_a_paste_keeps_its_first_line():
    e = LineEditor()
    keys = e.feed(b"a" * (COMMAND_MAX + 50))
    assert len(e.text) == COMMAND_MAX and keys.too_long
    assert not e.feed(b"b").too_long  # told once
    e.feed(b"\r")
    e.feed(b"\x1b[200~first line\r\nsecond\x1b[201~")
    assert e.text == "first line"
    e.feed(b"\x15\x1b[200~" + b"x" * 100000 + b"\x1b[201~")  # a huge paste: bounded, refused whole
    assert e.text == ""


def test_unknown_escapes_and_broken_utf8_are_skipped():
    e = LineEditor()
    e.feed(b"\x1b[999;999;999X\x1b]0;title\x07ok\xff\xfe")
    assert e.text == "0;titleok\ufffd\ufffd"  # an unknown sequence's start is dropped, no control kept
    assert all(ch.isprintable() for ch in e.text)


class _Bytes:
    """A watcher's way out, kept: what his row sends."""

    def __init__(self) -> None:
        self.sent = bytearray()

    def send(self, data: bytes) -> None:
        self.sent += data

    def buffered(self) -> int:
        return 0


def test_the_watchers_row_edits_with_the_same_editor_as_the_hall_door() -> None:
    """Caret, history and Ctrl+U in the watchers' row as at a door; Ctrl+D leaves only on an empty line."""
    from net.modes.spectate import Member

    lines: list[str] = []
    left: list[bool] = []
    member = Member(_Bytes(), 80, 24, prompt="> ", on_line=lines.append, on_eof=lambda: left.append(True))
    member.feed(b"lok\x1b[Do\r")  # a letter put back before the caret
    assert lines == ["look"]
    member.feed(b"\x1b[A")  # Up: the line he ran
    assert member.text == "look"
    member.feed(b"\x04")
    assert not left  # the line is not empty: Ctrl+D does nothing
    member.feed(b"\x15\x04")  # Ctrl+U empties it, then Ctrl+D leaves
    assert member.text == "" and left == [True]


def test_the_watchers_caret_is_where_the_terminal_cursor_goes() -> None:
    from net.modes.spectate import Member

    member = Member(_Bytes(), 40, 10, prompt="> ")
    member.feed(b"say hi\x1b[D\x1b[D")
    row = member.command_line()
    assert "> say hi" in row
    assert member.caret == b"\x1b[10;7H"  # on the h of "hi": the prompt (2) and "say " (4), then the caret
