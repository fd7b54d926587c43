"""The error catalogue of docs/bot-protocol.md is complete: every key the club's code can refuse with,
and every key the protocol itself sends, has a row in its Errors section."""

from __future__ import annotations

import re
from pathlib import Path

from net.modes.botwire import TEXTS

ROOT = Path(__file__).parent.parent.parent
DOC = ROOT / "docs" / "bot-protocol.md"
TEXT_ONLY = {"bot.bye", "bot.too_slow", "bot.stale_ask_none", "bot.store", "bot.no_seat", "bot.seat_taken",
             "bot.no_records_at"}
"""Texts of the protocol that are not keys of their own (a ``bye``'s words, another key's wording)."""


def documented() -> set[str]:
    section = DOC.read_text(encoding="utf-8").split("\n## Errors", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9_.]+)` \|", section, flags=re.M))


def engine_keys() -> set[str]:
    """Every refusal key written in the engine and the tables (``refuse("…"``, ``TableError("…"``…)."""
    found = set()
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\b(?:[A-Z][A-Za-z]*Error|refuse|IllegalAction)\(\s*f?"([a-z0-9_]+\.[a-z0-9_]+)"',
                                text))
    return found


def protocol_keys() -> set[str]:
    """The keys the bot's side sends by name (``error("…"``) and the wire's catalogue."""
    found = {k for k in TEXTS["en"] if k not in TEXT_ONLY}
    for name in sorted(p.name for p in (ROOT / "net" / "modes").glob("bot*.py")):
        text = (ROOT / "net" / "modes" / name).read_text(encoding="utf-8")
        found |= set(re.findall(r'error\(\s*"([a-z0-9_.]+)"', text))
        found |= set(re.findall(r'WireError\(\s*"([a-z0-9_.]+)"', text))
    return found


def test_every_key_the_server_can_send_is_in_the_catalogue():
    missing = (engine_keys() | protocol_keys()) - documented()
    assert not missing, f"not in the Errors section of docs/bot-protocol.md: {sorted(missing)}"
    assert len(engine_keys()) > 80  # the scan finds the engine's refusals at all


def test_every_protocol_text_exists_in_both_languages():
    assert set(TEXTS["en"]) == set(TEXTS["ru"])
