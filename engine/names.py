"""The form in which two names are one: case and look-alike letters folded.

A leaf the store and the SSH door share, so that "Anna" and "Аnna" (a Cyrillic А) are one name in the
store's unique key on every node, not only inside one process.
"""

from __future__ import annotations

LOOKALIKES = str.maketrans("аеорсхукмтнвіјѕԁёї01l_", "aeopcxykmthbijsdeioii-")
"""Cyrillic letters that look like Latin ones, digits and letters that look alike (0/o, 1/l/i), and
"_" and "-", each folded to one."""


def look_key(name: str) -> str:
    """The key two names are compared by: equal keys are names a person could not tell apart."""
    return str(name).strip().casefold().translate(LOOKALIKES)
