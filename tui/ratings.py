"""``top GAME``, ``rating [NAME]`` and ``league [GAME]``: the club's skill ratings and its money league, as lines.

The ratings come from the copy the server keeps off the loop (``club.ratings``); the league is money
won since the league last began (``league_start``), read from the store like a balance.
"""

from __future__ import annotations

import calendar
import time
from typing import Any, Callable

from engine.games import get_game, registry
from engine.ratings import Rating, game_of, table_of
from tui.i18n import money, tr

TOP_LINES = 10
RESETS = ("day", "month", *(d.lower() for d in calendar.day_name))
"""When the league begins again: every day, on the first of each month, or weekly on that weekday (UTC)."""


def league_start(reset: str, now: float) -> float:
    """The moment the current league began (UTC midnight of its day)."""
    day = time.gmtime(now)
    midnight = calendar.timegm((day.tm_year, day.tm_mon, day.tm_mday, 0, 0, 0))
    if reset == "day":
        return float(midnight)
    if reset == "month":
        return float(calendar.timegm((day.tm_year, day.tm_mon, 1, 0, 0, 0)))
    weekday = [d.lower() for d in calendar.day_name].index(reset)
    return float(midnight - ((day.tm_wday - weekday) % 7) * 86400)


def key_title(key: str, lang: str) -> str:
    """``stukolka/v`` as a person reads it: «Стуколка (в)»."""
    game, variant = game_of(key)
    cls = get_game(game)
    title = cls.title.get(lang) or game
    return f"{title} ({cls.variant_labels.get(variant, variant)})" if variant else title


def game_named(word: str, titles: dict[str, str] | None = None) -> str | None:
    """The game (or ``game/variant``) a word names, in either language (``стуколка в``, ``kopilka``)."""
    words = word.casefold().split()
    if not words:
        return None
    names = {name: name for name in registry()}
    for name in registry():
        for title in get_game(name).title.values():
            names[title.casefold()] = name
    game = names.get(words[0]) or names.get(" ".join(words))
    if game is None:
        return None
    variants = get_game(game).variant_labels
    if len(words) > 1:
        wanted = words[-1]
        for variant, label in variants.items():
            if wanted in (variant, label.casefold()):
                return f"{game}/{variant}"
        return None
    return game


def _keys_of(book: dict[str, dict[str, Rating]], game: str) -> list[str]:
    return sorted(k for k in book if k == game or k.startswith(game + "/"))


def top_lines(club: Any, word: str, lang: str) -> list[str]:
    view = getattr(club, "ratings", None)
    book = view.book if view is not None else {}
    if not word:
        keys = sorted(book)
        if not keys:
            return [tr(lang, "rating.none")]
        return [tr(lang, "rating.top_brief", game=key_title(k, lang),
                   best=", ".join(_ranked(n, r) for n, r in table_of(book[k], 3))) for k in keys]
    game = game_named(word)
    if game is None:
        return [tr(lang, "rating.no_game", game=word, games=", ".join(sorted(registry())))]
    keys = _keys_of(book, game) if "/" not in game else [game]
    if not any(book.get(k) for k in keys):
        return [tr(lang, "rating.none_in", game=key_title(game, lang))]
    lines = []
    for key in keys:
        lines.append(tr(lang, "rating.top", game=key_title(key, lang)))
        lines += [tr(lang, "rating.row", rank=n, name=name, rating=r.label(), deals=r.deals)
                  for n, (name, r) in enumerate(table_of(book[key], TOP_LINES), 1)]
    return lines


def _ranked(name: str, rating: Rating) -> str:
    return f"{name} {rating.label()}"


def rating_lines(club: Any, name: str, lang: str) -> list[str]:
    view = getattr(club, "ratings", None)
    mine = view.of(name) if view is not None else {}
    if not mine:
        return [tr(lang, "rating.unrated", name=name)]
    lines = [tr(lang, "rating.of", name=name)]
    for key, rating in sorted(mine.items()):
        place = [n for n, _ in table_of(view.book[key], 10**6)].index(name) + 1 if view is not None else 0
        lines.append(tr(lang, "rating.line", game=key_title(key, lang), rating=rating.label(), deals=rating.deals,
                        place=place, of=len(view.book[key]) if view is not None else 0))
    if any(r.provisional for r in mine.values()):
        lines.append(tr(lang, "rating.provisional"))
    return lines


def short_mark(club: Any, name: str) -> str:
    """A rating to show beside a name: the one of the game he played most, or nothing."""
    view = getattr(club, "ratings", None)
    mine = view.of(name) if view is not None else {}
    if not mine:
        return ""
    return max(mine.values(), key=lambda r: r.deals).label()


def label_in(club: Any, key: str, name: str) -> str:
    """His rating in one game (``key``) as the felt shows it beside his name, or nothing if unrated."""
    view = getattr(club, "ratings", None)
    rating = view.book.get(key, {}).get(name) if view is not None else None
    return rating.label() if rating is not None else ""


def league_lines(store: Any, game: str, since: float, lang: str) -> list[str]:
    """Made in the store's thread: the money league of ``game`` since ``since``."""
    rows = store.league(game, since, TOP_LINES) if store is not None and hasattr(store, "league") else []
    start = time.strftime("%Y-%m-%d", time.gmtime(since))
    if not rows:
        return [tr(lang, "league.empty", game=key_title(game, lang), since=start)]
    return [tr(lang, "league.head", game=key_title(game, lang), since=start)] + [
        tr(lang, "league.row", rank=n, name=name, money=money(won, lang)) for n, (name, won) in enumerate(rows, 1)]


def league(club: Any, word: str, lang: str, now: float,
           read: Callable[[Callable[[Any], Any], str], Any] | None) -> Any:
    """``league [GAME]`` as lines, or a ``Pending`` of them where the session reads its store in a thread."""
    game = game_named(word) if word else None
    if word and game is None:
        return [tr(lang, "rating.no_game", game=word, games=", ".join(sorted(registry())))]
    game = (game or "stukolka").partition("/")[0]
    since = league_start(getattr(club, "league_reset", "monday"), now)
    if read is None or club.store is None:
        return league_lines(club.store, game, since, lang)
    return read(lambda store: league_lines(store, game, since, lang), "league")
