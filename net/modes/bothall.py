"""What a bot may ask of the club outside a table: ``rules``, ``wait`` and ``export``.

A part of ``net.modes.botsession.BotSession`` kept in its own module (a mixin): none of these touches a
table's turns, and each reads the club or the store only.  Store reads run off the event loop, as the
hello's do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.games import registry
from net.modes.botexport import HISTORY, TooBig, choose, deal_range, parts
from net.modes.botwire import say
from net.rulebook import rules_text

if TYPE_CHECKING:
    from engine.table.club import Club
    from net.modes.botwait import HallWait


class HallMessages:
    """``_on_rules``, ``_on_wait`` and ``_on_export`` of a ``BotSession``."""

    if TYPE_CHECKING:
        club: Club
        name: str | None
        lang: str
        hall: HallWait | None

        def send(self, message: dict[str, Any]) -> None: ...
        def error(self, key: str, text: str, **extra: Any) -> None: ...
        def _ask(self, work: Callable[[Any], Any]) -> Any: ...
        def _after(self, message: dict[str, Any], result: Any, done: Callable[[Any], None]) -> None: ...

    def _no_game(self, key: str, message: dict[str, Any]) -> None:
        self.error(key, say(self.lang, key, game=message["game"], games=", ".join(sorted(registry()))),
                   reply=message["type"])

    def _on_rules(self, message: dict[str, Any]) -> None:
        """The game's rules as docs/rules writes them, in the bot's language: the text a person's
        ``rules GAME all`` reads."""
        text = rules_text(message["game"], self.lang)
        if text is None:
            self._no_game("bot.no_rules", message)
            return
        self.send({"type": "rules", "game": message["game"], "text": text})

    def _on_wait(self, message: dict[str, Any]) -> None:
        """Wait in the hall for a game to gather (``net.modes.botwait``)."""
        game = message.get("game") or None
        if game is not None and game not in registry():
            self._no_game("bot.no_game", message)
            return
        assert self.hall is not None
        self.hall.wait(game)

    def _on_export(self, message: dict[str, Any]) -> None:
        """One of the bot's finished games as ``sukno-record/1``, in ``export`` lines (``net.modes.botexport``)."""
        name, record, table = self.name, message.get("record"), message.get("table")
        assert name is not None

        def found(got: Any) -> None:
            if isinstance(got, str):  # bot.no_record or bot.no_records
                wording = got + "_at" if got == "bot.no_records" and table is not None else got
                self.error(got, say(self.lang, wording, record=record, table=table, history=HISTORY),
                           reply="export")
                return
            if not hasattr(got, "body"):  # the store failed or did not answer in time
                self.error("failed", say(self.lang, "bot.store"), reply="export")
                return
            wanted = deal_range(len(got.body["deals"]), message.get("from"), message.get("to"))
            if wanted is None:
                self.error("bot.export_range", say(self.lang, "bot.export_range", record=got.record,
                                                   of=len(got.body["deals"])), reply="export")
                return
            try:
                lines = parts(got, *wanted)
            except TooBig as big:
                self.error("bot.export_too_big", say(self.lang, "bot.export_too_big", record=got.record,
                                                     deal=big.deal), reply="export")
                return
            for line in lines:
                self.send(line)

        self._after(message, self._ask(lambda store: choose(store, name, record, table)), found)
