"""The command language: verbs of the hall and of the games, Russian aliases, completion.

Pure functions (no Textual) so that parsing and completion are tested alone.
A line is ``verb args``; the verb is looked up in ``ALIASES`` (Russian and
English spellings) and becomes a canonical English verb.  Game verbs stay the
engine's verbs, so what is typed is exactly what a record
stores; card arguments are passed through untouched, since the engine parses
every accepted notation (``Q♠ qs дп 10h``).  A line starting with ``'`` or
``"`` is ``say``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from engine.cards import Card, CardError, parse_card
from engine.game import Action

ASK_VERBS = ("hand", "trick", "table", "pot", "score", "time", "last", "log")
"""Questions answered in words (``tui.text.answers``): what the felt shows, asked instead of looked at."""
SETTING_VERBS = ("brief", "bell", "cards", "mode", "colour")
"""A person's own settings (``tui.text.prefs``), kept in the store for an account."""

SOCIAL_VERBS = ("tell", "ignore", "unignore", "away", "back", "invite", "key", "report")
"""The social club's verbs (``tui.social``): valid everywhere."""

HALL_VERBS = ("look", "tables", "who", "sit", "watch", "stand", "leave", "say", "help", "rules", "lang",
              "quit", "start", "balance", "history", "replay", "cut", "verify", "top", "rating", "league", "analyse",
              *SOCIAL_VERBS)
"""Verbs of the club itself (valid everywhere, some only at a table)."""

GAME_VERBS = ("play", "pass", "take", "discard", "draw", "buy", "shlejf", "open", "look", "dark", "knock",
              "golets", "razrez", "reveal", "sell", "bid", "accept", "ready")
"""Every verb a record may hold."""

ALIASES: dict[str, str] = {
    # the club
    "l": "look", "осмотреться": "look", "оглядеться": "look", "осмотр": "look",
    "столы": "tables", "кто": "who", "сесть": "sit", "сяду": "sit", "смотреть": "watch",
    "встать": "stand", "уйти": "leave", "выйти": "leave", "сказать": "say", "скажи": "say",
    "помощь": "help", "справка": "help", "?": "help", "правила": "rules", "язык": "lang",
    "выход": "quit", "exit": "quit", "начать": "start", "старт": "start", "next": "start",
    "дальше": "start", "сдавай": "start",
    "счёт": "balance", "счет": "balance", "баланс": "balance", "история": "history", "повтор": "replay",
    "запись": "replay",
    "снять": "cut", "сниму": "cut", "съём": "cut", "проверить": "verify", "проверка": "verify",
    "лучшие": "top", "рейтинг": "rating", "лига": "league", "анализ": "analyse", "analyze": "analyse",
    "разбор": "analyse",
    # questions and settings (the text mode's, answered in the screen's log too)
    "рука": "hand", "карты": "cards", "взятка": "trick", "стол": "table", "банк": "pot", "кон": "pot",
    "очки": "score", "итог": "score", "время": "time", "последняя": "last", "прошлая": "last",
    "журнал": "log", "лог": "log", "кратко": "brief", "звонок": "bell", "режим": "mode", "цвет": "colour", "color": "colour",
    # the social club
    "шепнуть": "tell", "шепни": "tell", "шепчу": "tell", "игнор": "ignore", "игнорировать": "ignore",
    "простить": "unignore", "неигнор": "unignore", "отойти": "away", "отошёл": "away", "отошел": "away",
    "вернуться": "back", "вернулся": "back", "пригласить": "invite", "позвать": "invite", "ключ": "key",
    "пожаловаться": "report", "жалоба": "report",
    # the games
    "ход": "play", "играть": "play", "хожу": "play", "пас": "pass", "пасую": "pass",
    "взять": "take", "беру": "take", "снести": "discard", "сношу": "discard", "сброс": "discard",
    "тянуть": "draw", "добрать": "draw", "купить": "buy", "прикуп": "buy", "прикупить": "buy",
    "шлейф": "shlejf", "открыть": "open", "посмотреть": "look", "гляжу": "look",
    "втемную": "dark", "втёмную": "dark", "темная": "dark", "тёмная": "dark",
    "стук": "knock", "стучу": "knock", "голец": "golets", "разрез": "razrez",
    "вскрыть": "reveal", "вскрываю": "reveal", "продаю": "sell", "продать": "sell",
    "даю": "bid", "ставлю": "bid", "принять": "accept", "согласен": "accept", "готов": "ready",
    # the log's own verbs (every verb the log uses is a command that works)
    "lead": "play", "кладу": "play", "класть": "play", "положить": "play", "открываю": "open",
    "дать": "bid", "done": "ready", "offer": "sell",
}
for _verb in HALL_VERBS + GAME_VERBS + ASK_VERBS + SETTING_VERBS:
    ALIASES.setdefault(_verb, _verb)

RU_VERB: dict[str, str] = {
    "look": "осмотреться", "tables": "столы", "who": "кто", "sit": "сесть", "watch": "смотреть",
    "stand": "встать", "leave": "уйти", "say": "сказать", "help": "помощь", "rules": "правила",
    "lang": "язык", "quit": "выход", "start": "начать", "balance": "счёт", "history": "история",
    "replay": "повтор", "cut": "снять", "verify": "проверить", "play": "ход", "pass": "пас", "take": "взять",
    "discard": "снести", "draw": "тянуть", "buy": "купить", "shlejf": "шлейф", "open": "открыть",
    "dark": "втёмную", "knock": "стук", "golets": "голец", "razrez": "разрез", "reveal": "вскрыть",
    "sell": "продаю", "bid": "даю", "accept": "принять", "ready": "готов",
    "hand": "рука", "trick": "взятка", "table": "стол", "pot": "банк", "score": "очки", "time": "время",
    "last": "последняя", "log": "журнал", "brief": "кратко", "bell": "звонок", "cards": "карты", "mode": "режим", "colour": "цвет",
    "tell": "шепнуть", "ignore": "игнор", "unignore": "простить", "away": "отойти", "back": "вернуться",
    "invite": "пригласить", "key": "ключ", "report": "пожаловаться", "top": "лучшие", "rating": "рейтинг", "league": "лига", "analyse": "анализ",
}
"""The Russian spelling shown for a verb (hints, completion)."""

# The house's verb: parsed for everyone (a non-admin is told it is not his), listed
# nowhere, so completion does not offer it to players (tui.admin_verb).
ALIASES.update({"admin": "admin", "админ": "admin"})
RU_VERB["admin"] = "админ"

SAME_SENSE = {"open": "reveal", "reveal": "open", "buy": "bid"}
"""One word, two games: ``открыть``/``open`` turns up a card in Спекулянт, where the log says «открывает 10♥»;
``buy 30`` there is a bid, as the log says «X buys 10♥ from Y»."""


def for_game(command: "Command", verbs: Iterable[str]) -> "Command":
    """The command as this game's verb when the typed one is another game's word for the same deed."""
    verbs = set(verbs)
    other = SAME_SENSE.get(command.verb)
    if command.verb not in verbs and other in verbs:
        return Command(other, command.args, command.rest, command.word, command.card)
    return command


ARG_WORDS = {"шлейф": "shlejf"}
BOT_WORDS = ("bot", "бот", "робот")
"""``sit bot [seat]`` / ``сесть бот``: seat a bot (``engine.table.autoplay``)."""
HELP_TOPICS = ("hall", "table", "social", "cards", "russian", "fair", "kitty")
HELP_ALIASES = {"зал": "hall", "стол": "table", "карты": "cards", "русский": "russian", "честно": "fair",
                "копилка": "kitty", "kopilka": "kitty",
                "печать": "fair", "съём": "fair", "seal": "fair", "cut": "fair", "снять": "fair", "verify": "fair",
                "проверить": "fair", "люди": "social", "people": "social", "общение": "social"}


@dataclass(frozen=True)
class Command:
    """One parsed line: a canonical verb, its words, and the raw rest (for ``say``)."""

    verb: str
    args: tuple[str, ...] = ()
    rest: str = ""
    word: str = ""  # the verb as typed
    card: Card | None = field(default=None)  # a bare card typed alone


class UnknownCommand(ValueError):
    """A first word that is no verb; ``suggest`` holds the closest verbs."""

    def __init__(self, word: str, suggest: list[str]):
        super().__init__(word)
        self.word = word
        self.suggest = suggest


def parse(line: str) -> Command | None:
    """Parse a typed line; None for an empty line, ``UnknownCommand`` for an unknown verb."""
    text = line.strip()
    if not text:
        return None
    if text[0] in "'\"":
        return Command("say", (), text[1:].strip(), text[0])
    word, _, rest = text.partition(" ")
    verb = ALIASES.get(word.lower())
    if verb is None:
        if not rest:
            try:
                return Command("play", (word,), word, word, card=parse_card(word))
            except CardError:
                pass
        raise UnknownCommand(word, suggestions(word))
    args = tuple(ARG_WORDS.get(a.lower(), a) for a in rest.split())
    return Command(verb, args, rest.strip(), word)


def suggestions(word: str, limit: int = 2) -> list[str]:
    return difflib.get_close_matches(word.lower(), list(ALIASES), n=limit, cutoff=0.5)


def action_text(command: Command) -> str:
    """The engine/record text of a game command: ``ход дп`` → ``play дп``."""
    return " ".join((command.verb,) + command.args)


def verb_word(verb: str, lang: str) -> str:
    return RU_VERB.get(verb, verb) if lang == "ru" else verb


def show_action(action: Action, lang: str, ascii: bool) -> str:
    """An action as a player types it in his language: ``ход Q♠`` / ``play Q♠``."""
    parts = [verb_word(action.verb, lang)]
    parts += [a.text(ascii) if isinstance(a, Card) else str(a) for a in action.args]
    return " ".join(parts)


def _common_prefix(options: Sequence[str]) -> str:
    prefix = options[0]
    for option in options[1:]:
        while not option.lower().startswith(prefix.lower()):
            prefix = prefix[:-1]
    return prefix


def complete(
    line: str,
    *,
    lang: str = "en",
    ascii: bool = False,
    legal: Iterable[Action] = (),
    tables: Iterable[int] = (),
    games: Iterable[str] = (),
    game_verbs: Iterable[str] = (),
) -> tuple[str, list[str]]:
    """Tab completion: the new line and the options left (more than one: show them)."""
    word, space, rest = line.lstrip().partition(" ")
    if not space:
        vocabulary = set(HALL_VERBS) | set(game_verbs) | {verb_word(v, "ru") for v in set(HALL_VERBS) | set(game_verbs)}
        options = sorted(v for v in vocabulary if v.lower().startswith(word.lower()))
        return _finish("", word, options, add_space=True)
    verb = ALIASES.get(word.lower(), "")
    head = word + " "
    if verb in ("sit", "watch"):
        return _finish(head, rest, [str(t) for t in tables if str(t).startswith(rest)])
    if verb == "rules":
        return _finish(head, rest, sorted(g for g in games if g.startswith(rest.lower())))
    if verb == "lang":
        return _finish(head, rest, [x for x in ("ru", "en") if x.startswith(rest.lower())])
    if verb == "help":  # a topic, or one of this game's words (help golets)
        topics = list(HELP_TOPICS) + [v for v in game_verbs if v not in HELP_TOPICS]
        return _finish(head, rest, [t for t in topics if t.startswith(rest.lower())])
    args: dict[str, str] = {}
    for action in legal:
        if action.verb != verb or not action.args:
            continue
        shown = " ".join(a.text(ascii) if isinstance(a, Card) else str(a) for a in action.args)
        plain = " ".join(a.text(True) if isinstance(a, Card) else str(a) for a in action.args)
        if shown.lower().startswith(rest.lower()) or plain.lower().startswith(rest.lower()):
            args[shown] = plain
    return _finish(head, rest, sorted(args))


def _finish(head: str, typed: str, options: list[str], add_space: bool = False) -> tuple[str, list[str]]:
    if not options:
        return head + typed, []
    if len(options) == 1:
        return head + options[0] + (" " if add_space else ""), []
    prefix = _common_prefix(options)
    return head + (prefix if len(prefix) >= len(typed) else typed), options
