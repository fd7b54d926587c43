"""Comments and docstrings say why in the code's own words: no issue numbers, no outside documents.

A reader of the code has the code, not the tracker or the design papers beside it, so a pointer
to those explains nothing; R-numbers stay (they name a rule) and so do the record notation's own
names. Checked over every Python module and the sample configuration of engine/, net/ and tui/.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "net", "tui")
OUTSIDE = re.compile(
    r"\bissues? \d+"                                   # a tracker's number
    r"|\b(?:RULES|NET|DESIGN|UX|SHUFFLE|STYLE)(?:\.md)?\s*§"  # a section of a paper
    r"|\b(?:RULES|NET|DESIGN|UX|SHUFFLE|STYLE)\.md\b"  # a paper by name
    r"|\b20\d\d-\d\d-\d\d\b",                          # a dated measurement
    re.IGNORECASE,
)


def offending_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]


def test_no_module_cites_an_issue_or_an_outside_document() -> None:
    files = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*"))
             if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts]
    assert len(files) > 100
    bad = [f"{p.relative_to(ROOT)}: {line}" for p in files for line in offending_lines(p.read_text(encoding="utf-8"))]
    assert not bad, "cite the reason, not the tracker or a paper:\n" + "\n".join(bad)


def test_the_scan_sees_each_kind_of_citation() -> None:
    for line in ("# a replica (issue 15)", "\"\"\"Issue 14 step 5: …", "as in RULES.md §9.2", "(RULES §9.4 'over')",
                 "(NET.md, \"The driver\")", "measured 2026-11-30"):
        assert offending_lines(line) == [line], line
    for line in ("R41: a new deal", "``sukno-record/1``", "an issue of the wire", "(§6.5)", "RULES_VERSION = 2"):
        assert offending_lines(line) == [], line
