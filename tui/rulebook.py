"""The games' rules as the repository writes them (docs/rules/GAME.md, in Russian docs/rules/ru/GAME.md): one
text for the people's ``rules GAME`` and the bot protocol's ``rules``, read from the files, never a second copy.

A checkout keeps them at its root's docs/rules; the wheel installs them beside the code (sukno/_app/docs/rules).
People read them as plain lines (``plain_lines``): no Markdown marks, a table's row as one sentence.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.games import registry

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "rules"
LANGS = ("en", "ru")


def rules_path(game: str, lang: str = "en") -> Path | None:
    """The file of ``game`` (a name the club knows; anything else is None, never a path) in ``lang``."""
    if game not in registry():
        return None
    path = (FOLDER if lang != "ru" else FOLDER / "ru") / f"{game}.md"
    return path if path.is_file() else None


def rules_text(game: str, lang: str = "en") -> str | None:
    """The Markdown text of ``game``'s rules in ``lang``, or None."""
    path = rules_path(game, lang)
    return path.read_text(encoding="utf-8") if path is not None else None


def brief(game: str, lang: str) -> str | None:
    """The rules in brief: the quotation of the file's last section (what ``rules GAME`` says first)."""
    text = rules_text(game, lang)
    if text is None:
        return None
    quoted = [line[2:].strip() for line in text.splitlines() if line.startswith("> ")]
    return _inline(quoted[-1]) if quoted else None


def plain_lines(game: str, lang: str) -> list[str] | None:
    """The whole rules as lines a person reads or hears: headings, paragraphs and list items joined, each
    table row one line (``D — default: 20; range: 0–1000000000; what: …``)."""
    text = rules_text(game, lang)
    if text is None:
        return None
    lines: list[str] = []
    paragraph: list[str] = []
    header: list[str] = []

    def flush() -> None:
        if paragraph:
            lines.append(_inline(" ".join(paragraph)))
            paragraph.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("```"):
            flush()
            header = [] if not line.startswith("|") else header
            continue
        if line.startswith("#"):
            flush()
            title = _inline(line.lstrip("#").strip())
            lines.append(title if raw.startswith("# ") else title.rstrip(":") + ":")
        elif line.startswith("|"):
            flush()
            cells = [_inline(c.strip()) for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue
            if not header:
                header = cells
                continue
            rest = "; ".join(f"{h}: {c}" for h, c in zip(header[1:], cells[1:]) if c)
            lines.append(f"{cells[0]} — {rest}" if rest else cells[0])
        elif line.startswith(("- ", "* ")) or re.match(r"\d+\. ", line):
            flush()
            paragraph.append("• " + re.sub(r"^(?:[-*]|\d+\.) ", "", line))
        elif line.startswith("> "):
            flush()
            paragraph.append(line[2:])
        else:
            paragraph.append(line)
    flush()
    return lines


def _inline(text: str) -> str:
    """Markdown's inline marks away: code quotes, bold and italics, links (their words kept)."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").replace("**", "")
    return re.sub(r"(?<![\w*])\*(?!\s)([^*]+)(?<!\s)\*(?![\w*])", r"\1", text)
