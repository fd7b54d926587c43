"""The few lines the server itself says (refusals, the watcher's command row), ru and en.

Everything else a person reads comes from the TUI's catalogue; these are said
where no App runs: before one starts, after it ends, or in the watcher's row.
"""

from __future__ import annotations

from tui.commands import ALIASES

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "no_pty": "sukno needs a terminal: connect with  ssh -t -p {port} {host}  (or, for plain lines, ssh -p {port} {host} text).",
        "full": "The club is full right now ({what}); please come back in a minute.",
        "books_away": "The club cannot reach its books just now, so it cannot let you in; nothing was changed. "
                      "Please come back in a minute.",
        "closing": "The club is closing for now; your seat is kept. Goodbye!",
        "idle": "You were idle for a long time, so the doorman showed you out; your seat is kept.",
        "too_long": "Your visit reached the club's time limit; your seat is kept.",
        "failed": "Something went wrong on our side; your seat is kept. Please come back.",
        "prompt": "watching · say look sit leave > ",
        "help": "While watching: say <words> (the rail: only watchers hear it during a deal) · tell NAME <words> · ignore/unignore NAME · away/back · look · sit [seat] · watch <table> · leave · quit",
        "store_gone": "The club's book is gone from the disk: nothing more can be played or written until "
                      "the house restarts the club.",
        "slow": "Slow down: at most 5 lines at once, then one a second; that line was not said.",
        "unknown": "Unknown command {cmd!r}. While watching: say, look, sit, watch, leave, quit (help).",
        "guest_sit": "Guests may watch and chat but not sit: make a key with  ssh-keygen -t ed25519  and connect again to get a name.",
        "naming": "The doorman is still writing your name down; a moment.",
        "small": "Your window is {cols}x{rows}; watching needs at least {need}. Enlarge it, or type leave.",
        "look": "Table {table} · {game} · seated: {seated} · {watching} watching · {state}",
        "nobody": "nobody",
        "playing": "a deal is being played",
        "waiting": "waiting for players",
        "no_table": "There is no table {table}.",
        "kicked": "The house has shown you out: {reason}",
        "kicked_plain": "The house has shown you out.",
        "banned": "The house has closed its door to you until {until}: {reason}",
        "banned_ever": "The house has closed its door to you: {reason}",
        "no_reason": "no reason given",
        "announce": "The house",
        "shutting_down": "The club closes in {grace} s: deals in play are finished, no new deal starts; your seat is kept.",
        "key_removed": "This key was removed from its account; connect with another key.",
        "account_disabled": "The house has disabled your account; ask the house why.",
        "account_closed": "Your account is closed; the club keeps its history.",
        "account_renamed": "The house has renamed your account to {name}; connect again.",
    },
    "ru": {
        "no_pty": "sukno нужен терминал: входите так:  ssh -t -p {port} {host}  (или простыми строками: ssh -p {port} {host} text).",
        "full": "Клуб сейчас полон ({what}); загляните через минуту.",
        "books_away": "Клуб сейчас не может открыть свои книги, поэтому не может вас впустить; ничего не "
                      "изменилось. Загляните через минуту.",
        "closing": "Клуб закрывается; ваше место за столом сохранено. До встречи!",
        "idle": "Вы долго молчали, и швейцар проводил вас к выходу; место за вами.",
        "too_long": "Время визита истекло; ваше место за столом сохранено.",
        "failed": "У нас что-то сломалось; ваше место сохранено. Заходите ещё.",
        "prompt": "смотрите · скажи осмотреться сесть уйти > ",
        "help": "Зрителю: скажи <слова> (галёрка: во время сдачи слышат только зрители) · шепнуть ИМЯ <слова> · игнор/простить ИМЯ · отойти/вернуться · осмотреться · сесть [место] · смотреть <стол> · уйти · выход",
        "store_gone": "Книга клуба пропала с диска: пока хозяин не перезапустит клуб, ничего не сыграть и "
                      "не записать.",
        "slow": "Помедленнее: не больше 5 реплик подряд, потом одна в секунду; эта реплика не прозвучала.",
        "unknown": "Не знаю {cmd!r}. Зрителю: скажи, осмотреться, сесть, смотреть, уйти, выход (помощь).",
        "guest_sit": "Гости могут смотреть и говорить, но не играть: создайте ключ командой  ssh-keygen -t ed25519  и зайдите снова, чтобы получить имя.",
        "naming": "Швейцар ещё записывает ваше имя; минуту.",
        "small": "Окно {cols}x{rows}; чтобы смотреть, нужно хотя бы {need}. Растяните его или наберите уйти.",
        "look": "Стол {table} · {game} · за столом: {seated} · зрителей: {watching} · {state}",
        "nobody": "никого",
        "playing": "идёт сдача",
        "waiting": "ждут игроков",
        "no_table": "Стола {table} нет.",
        "kicked": "Хозяин клуба попросил вас выйти: {reason}",
        "kicked_plain": "Хозяин клуба попросил вас выйти.",
        "banned": "Хозяин клуба закрыл для вас дверь до {until}: {reason}",
        "banned_ever": "Хозяин клуба закрыл для вас дверь: {reason}",
        "no_reason": "без объяснений",
        "announce": "Хозяин клуба",
        "shutting_down": "Клуб закрывается через {grace} с: начатые сдачи доиграют, новых не будет; ваше место сохранено.",
        "key_removed": "Этот ключ убран из учётной записи; войдите с другим ключом.",
        "account_disabled": "Хозяин клуба отключил вашу учётную запись; спросите у него почему.",
        "account_closed": "Ваша учётная запись закрыта; клуб хранит её историю.",
        "account_renamed": "Хозяин клуба переименовал вашу учётную запись в {name}; зайдите снова.",
    },
}

WATCHER_VERBS = ("say", "look", "sit", "watch", "leave", "quit", "help")
"""What a watcher's row does itself; every other line goes to the club's social verbs or is unknown."""

SPECTATOR_VERBS: dict[str, str] = {word: verb for word, verb in ALIASES.items() if verb in WATCHER_VERBS}
"""The watcher's words are the club's words (``tui.commands.ALIASES``): ``выйти``/``leave`` go back to the
hall and ``quit``/``выход`` leave the club, as for a player; the row adds a few spellings of its own."""
SPECTATOR_VERBS.update({"'": "say", "смотри": "look", "сесть,": "sit", "hall": "leave", "зал": "leave",
                        "back": "leave"})


def text(lang: str, key: str, **params: object) -> str:
    table = TEXTS.get(lang, TEXTS["en"])
    return table.get(key, TEXTS["en"][key]).format(**params)
