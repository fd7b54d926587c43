"""``net.modes.hallview.render_row`` draws any text inert (issue 16 item 5): it does not rely on its callers.

A row goes to other people's terminals as it is; a Text holding ESC, BEL, a
CR or a bidi override must show as cells, never act (clear a screen, move a
cursor, ring, reverse a line), and keep its styles where they were.
"""

from __future__ import annotations

import re

import pyte
from rich.text import Text

from net.modes.hallview import inert, render_row, wrap_rows

SGR = re.compile(r"\x1b\[[0-9;]*m")


def painted(rows: list[str], width: int) -> pyte.Screen:
    """The rows on a screen with something on it already (a clear would show as lost cells)."""
    screen = pyte.Screen(width, len(rows) + 2)
    stream = pyte.ByteStream(screen)
    stream.feed(("\x1b[H" + "\r\n".join("#" * width for _ in range(len(rows) + 2))).encode())
    stream.feed("".join(f"\x1b[{y + 2};1H{row}" for y, row in enumerate(rows)).encode())
    return screen


def test_a_text_holding_esc_is_drawn_inert():
    evil = Text("hi \x1b[2J\x1b[H\x07 there\r\x1b]0;owned\x07 \u202eevil")
    evil.stylize("bold", 0, 2)  # "hi" bold: the styles stay on their characters
    row = render_row(evil, 60)
    controls = [c for c in SGR.sub("", row) if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c == "\u202e"]
    assert controls == [], f"controls left in the row: {controls!r}"
    screen = painted([row], 60)
    assert screen.display[0] == "#" * 60 and screen.display[2] == "#" * 60, "the row acted on the screen"
    shown = screen.display[1]
    assert shown.startswith("hi ?[2J?[H there?]0;owned ?evil"), shown  # (Rich drops BEL and CR itself)
    assert screen.buffer[1][0].bold and screen.buffer[1][1].bold and not screen.buffer[1][3].bold


def test_wrapped_rows_and_plain_text_are_unchanged_by_the_net():
    plain = Text("Anna says: добрый вечер ● ○")
    assert inert(plain) is plain, "text without controls is not copied"
    assert render_row(plain, 40) == render_row(Text("Anna says: добрый вечер ● ○"), 40)
    rows = wrap_rows(Text("say \x1b[31mred\x1b[0m " + "x" * 50), 30)
    assert len(rows) == 3  # measured as drawn: 17 cells, then 50 x folded at 30
    screen = painted(rows, 30)
    assert screen.display[1].startswith("say ?[31mred?[0m"), screen.display[1]
    assert all(screen.display[y] == "#" * 30 for y in (0, 4))
