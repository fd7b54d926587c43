"""Textual's strips make no reference cycle when divided (net/textual_compat.strips_without_cycles, issue 16).

Textual cached a strip divided at its own end as ``[self]`` inside the strip: the compositor does
that for every line of every frame, and each became garbage only the cyclic GC frees (most of the
server's CPU per move at 500 watchers).  Patched, such a strip is freed by its last reference, and
every division still gives Textual's own pieces.
"""

from __future__ import annotations

import gc

from rich.segment import Segment
from textual.strip import Strip

from net.textual_compat import strips_without_cycles


def _garbage_of(make) -> int:
    """Objects only the cyclic GC could free, left by ``make()`` (the GC held off meanwhile)."""
    gc.collect()
    gc.disable()
    try:
        make()
        return gc.collect()
    finally:
        gc.enable()


def _divide_and_drop() -> None:
    strip = Strip([Segment("hello "), Segment("world")])
    assert strip.divide([strip.cell_length]) == [strip]


def test_a_strip_divided_at_its_end_is_freed_without_the_gc():
    strips_without_cycles()
    assert not strips_without_cycles()  # once
    assert _garbage_of(_divide_and_drop) == 0


def test_other_divisions_are_textuals_own():
    strips_without_cycles()
    strip = Strip([Segment("hello "), Segment("world")])
    pieces = strip.divide([3, 8, 11])
    assert [p.text for p in pieces] == ["hel", "lo wo", "rld"]
    assert [p.text for p in strip.divide([5, 99])] == ["hello"]  # a cut past the end is left out, as before
    assert strip.divide([3, 8, 11]) is pieces  # still cached by Textual
