"""A person's own settings: ``mode text|screen``, ``bell on|off``, ``brief on|off``, ``cards words|symbols``,
``colour on|off``, ``cards short`` (the text mode has no colour unless asked: red suits in red).

An account's settings are kept in the store (``Store.settings``/``set_setting``);
a guest's last until he leaves.  The words are typed in either language
(``режим текст``, ``звонок выкл``, ``карты слова``); the answer is one sentence.
The bell's default depends on the mode: on in the text mode (nothing else
tells a blind player that the table waits for him), off on the screen.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from tui.i18n import tr

log = logging.getLogger("sukno.tui")

ON = {"on": True, "вкл": True, "да": True, "yes": True, "off": False, "выкл": False, "нет": False, "no": False}
MODES = {"text": "text", "текст": "text", "screen": "screen", "экран": "screen"}
CARDS = {"words": "words", "слова": "words", "symbols": "symbols", "значки": "symbols", "символы": "symbols",
         "short": "short", "коротко": "short", "буквы": "short"}
KEYS = ("mode", "bell", "brief", "cards", "colour")

Saver = Callable[[str, str], None]


@dataclass
class Prefs:
    """The settings of one person (``bell`` "" means the mode's default)."""

    mode: str = ""
    bell: str = ""
    brief: bool = False
    cards: str = "symbols"
    colour: bool = False
    save: Saver | None = field(default=None, repr=False, compare=False)

    @classmethod
    def load(cls, stored: Mapping[str, str], save: Saver | None = None) -> Prefs:
        """From the store's words; a word the club no longer knows is ignored."""
        return cls(
            mode=stored.get("mode", "") if stored.get("mode") in ("text", "screen") else "",
            bell=stored.get("bell", "") if stored.get("bell") in ("on", "off") else "",
            brief=stored.get("brief") == "on",
            cards=stored.get("cards", "") if stored.get("cards") in ("words", "short") else "symbols",
            colour=stored.get("colour") == "on",
            save=save,
        )

    def bell_on(self, text_mode: bool) -> bool:
        return self.bell == "on" if self.bell else text_mode

    @property
    def words(self) -> bool:
        return self.cards == "words"

    @property
    def short(self) -> bool:
        """``cards short``: ``QS``/``ДП``, for a braille line."""
        return self.cards == "short"

    def _keep(self, key: str, value: str) -> None:
        if self.save is None:
            return
        try:
            self.save(key, value)
        except Exception:  # a setting not written is still set for this visit
            log.exception("could not keep the setting %s=%s", key, value)

    def apply(self, verb: str, args: Sequence[str], lang: str, text_mode: bool) -> tuple[bool, str]:
        """Set (or, with no word, tell) one setting: (changed, the sentence to say)."""
        word = args[0].lower() if args else ""
        if verb == "mode":
            mode = MODES.get(word)
            if mode is None:
                current = "text" if text_mode else "screen"
                return False, tr(lang, "pref.mode_ask", value=tr(lang, f"pref.word_{current}"))
            self.mode = mode
            self._keep("mode", mode)
            return True, tr(lang, f"pref.mode_{mode}")
        if verb in ("bell", "brief", "colour"):
            value = ON.get(word)
            if value is None:
                now = self.bell_on(text_mode) if verb == "bell" else self.brief if verb == "brief" else self.colour
                return False, tr(lang, f"pref.{verb}_ask", value=tr(lang, "pref.word_on" if now else "pref.word_off"))
            if verb == "bell":
                self.bell = "on" if value else "off"
                self._keep("bell", self.bell)
            elif verb == "colour":
                self.colour = value
                self._keep("colour", "on" if value else "off")
            else:
                self.brief = value
                self._keep("brief", "on" if value else "off")
            return True, tr(lang, f"pref.{verb}_{'on' if value else 'off'}")
        if verb == "cards":
            cards = CARDS.get(word)
            if cards is None:
                return False, tr(lang, "pref.cards_ask", value=tr(lang, f"pref.word_{self.cards}"))
            self.cards = cards
            self._keep("cards", cards)
            return True, tr(lang, f"pref.cards_{cards}")
        return False, tr(lang, "cmd.failed")
