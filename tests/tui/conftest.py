"""Fixtures of the TUI tests: the fake game and a screen reader."""

from __future__ import annotations

from fakegame import fake_game  # noqa: F401  (pytest fixture)
