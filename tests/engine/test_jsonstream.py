"""engine.jsonstream reads what json.loads reads, and refuses what it refuses at the same line and column,
whatever the window (down to one byte, so every value and every character is cut somewhere)."""

from __future__ import annotations

import json
import random

import pytest

import engine.jsonstream as jsonstream
from engine.jsonstream import read_object

GOOD = [
    '{"format": "sukno-record/1", "deals": [{"decks": [["Q♠", "10♥"]], "actions": ["Анна: play Q♠"]}, {"a": 1}]}',
    '{"deals": [], "pot": 12345678901234567890, "x": -1.5e-3, "y": [true, false, null], "z": {"deals": [1]}}',
    '  {\n "deals" :\n [ 1 , 2.5 , "три" , [ ] , { } ] ,\n "deals": [3]\n}\n',
    '{}',
    '{"deals": {"not": "a list"}, "n": 0}',
    '[1, 2, {"deals": []}]',
    '"just text ♣"',
    '123456',
    '{"s": "escapes \\u2660 \\" \\\\ \\n", "deals": ["\\ud83c\\udca1"]}',
]
BAD = [
    '{"deals": [1, 2,, 3]}',
    '{"deals": [1, 2}',
    '{"deals": [1 2]}',
    '{"a": 1,}',
    '{"a": 1,\n  }',
    '{"deals": [1, 2, ]}',
    '{"deals": [1, 2,\n]}',
    '{"deals": [[1, 2,]]}',
    '{"a" 1}',
    '{a: 1}',
    '{"a": tru}',
    '{"a": "unterminated}',
    '{"deals": [{"decks": [}]}',
    '{"a": 1}\n\n  extra',
    '',
    '   ',
    '{"deals": [1]\n,\n"b": [1,\n2,\n}',
    '{"a": "bad \\x escape"}',
    '{"a": "tab\tinside"}',
]


def hooked(seen: list[dict]):
    def hook(obj: dict) -> dict:
        seen.append(dict(obj))
        return obj
    return hook


@pytest.mark.parametrize("window", [1, 2, 3, 7, 64, 1 << 16])
def test_it_reads_what_json_reads_and_refuses_where_json_refuses(monkeypatch, window: int) -> None:
    monkeypatch.setattr(jsonstream, "WINDOW", window)
    for text in GOOD:
        ours: list[dict] = []
        theirs: list[dict] = []
        assert read_object(text.encode("utf-8"), "deals", hooked(ours)) == json.loads(text, object_hook=hooked(theirs))
        assert sorted(map(repr, ours)) == sorted(map(repr, theirs))  # every object went through the hook
    for text in BAD:
        with pytest.raises(json.JSONDecodeError) as expected:
            json.loads(text)
        with pytest.raises(json.JSONDecodeError) as got:
            read_object(text.encode("utf-8"), "deals", lambda obj: obj)
        assert (got.value.lineno, got.value.colno) == (expected.value.lineno, expected.value.colno), text


def test_a_big_list_is_handed_over_one_element_at_a_time(monkeypatch) -> None:
    monkeypatch.setattr(jsonstream, "WINDOW", 256)
    rng = random.Random(3)
    deals = [{"decks": [[rng.choice(["Q♠", "10♥", "A♦"]) for _ in range(36)]], "actions": [f"Анна: {i}"]}
             for i in range(300)]
    text = json.dumps({"format": "x", "deals": deals}, ensure_ascii=False)
    largest = []

    class Hook:
        def __call__(self, obj: dict) -> dict:
            largest.append(len(reader_text()))
            return obj

    def reader_text() -> str:
        import inspect

        for frame in inspect.stack():
            text = frame.frame.f_locals.get("text")
            if isinstance(text, jsonstream._Text):
                return text.buf
        return ""

    assert read_object(text.encode("utf-8"), "deals", Hook()) == json.loads(text)
    assert max(largest) < 4 * 256 and len(text) > 100 * 256  # the window held a deal or two, never the whole text


def test_bad_utf8_is_refused() -> None:
    with pytest.raises(UnicodeDecodeError):
        read_object(b'{"a": "\xff"}', "deals", lambda obj: obj)


@pytest.mark.parametrize("window", [1, 3, 7])
def test_damaged_texts_are_read_or_refused_as_json_reads_or_refuses_them(monkeypatch, window: int) -> None:
    monkeypatch.setattr(jsonstream, "WINDOW", window)
    rng = random.Random(window)
    for _ in range(300):
        text = list(rng.choice(GOOD))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and text:
                del text[min(at, len(text) - 1)]
            else:
                text.insert(at, rng.choice('{}[],:"0123456789.eE-+ \n\\tfnul♠'))
        damaged = "".join(text)
        try:
            expected: object = json.loads(damaged)
        except json.JSONDecodeError as err:
            expected = (err.lineno, err.colno)
        try:
            got: object = read_object(damaged.encode("utf-8"), "deals", lambda obj: obj)
        except json.JSONDecodeError as err:
            got = (err.lineno, err.colno)
        assert got == expected, damaged
