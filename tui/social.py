"""The social club's verbs and lines: tell, ignore, away, invite, table rules, keys, report, the bell.

``handle(screen, command)`` is called by ``ClubScreen.handle_club`` first, so
the hall, a table and the text mode (which borrows ``handle_club``) all
understand the same verbs and refuse in the same words.  The screen is a
``tui.host.Lines``: its ``club_app`` is the mode's ``Host`` (``club``, ``player``,
``guest``, ``lang``, ``clock``, ``keys``, ``prefs``), with ``t``, ``say_line``,
``error`` and ``table_here``.

The lines told to a person (``chat_line``, ``rail_line``, ``inbox_line``)
are here too, so the screen, the watchers' shared view and the text mode hide
an ignored person's words the same way and never show the rail to a player
mid-deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.game import Event
from engine.table.social import SocialError, name_key
from engine.table.face import TableLike
from engine.table.owner import TableError
from tui import pending
from tui.i18n import tr
from tui.limits import NAME_MAX, quote

if TYPE_CHECKING:
    from tui.commands import Command
    from tui.host import Host, Lines

CODE_MAX = 16
LINK_LINE_MAX = 32
"""Characters of the welcome screen's line: a name (``NAME_MAX``) or ``ключ привязать ABCD-EFGH``."""
RULE_WORDS = {
    "private": ("private", "yes"), "приватный": ("private", "yes"), "закрытый": ("private", "yes"),
    "public": ("private", "no"), "открытый": ("private", "no"), "общий": ("private", "no"),
}
RULE_KEYS = {"watchers": "watchers", "зрители": "watchers", "rail": "rail", "галёрка": "rail", "галерка": "rail"}
RULE_VALUES = {"все": "all", "никто": "none", "никого": "none", "свои": "friends", "друзья": "friends",
               "после": "after", "никогда": "never"}
KEY_WORDS = {"add": "add", "добавить": "add", "link": "link", "связать": "link", "привязать": "link",
             "list": "list", "список": "list", "remove": "remove", "убрать": "remove", "удалить": "remove"}
LINK_WORDS = ("key", "ключ")


def handle(screen: Lines, command: Command) -> bool:
    """Run a social verb; False if ``command`` is not one."""
    verb = command.verb
    if verb == "tell":
        _tell(screen, command)
    elif verb in ("ignore", "unignore"):
        _ignore(screen, command)
    elif verb == "away":
        app = screen.club_app
        me = named(app)
        app.club.set_away(me, command.rest, now=app.clock())
        note = app.club.social.away_note(me) or ""
        screen.say_line(screen.t("social.away_on_note" if note else "social.away_on", text=note))
    elif verb == "back":
        app = screen.club_app
        screen.say_line(screen.t("social.back" if app.club.set_back(named(app), now=app.clock()) else
                                 "social.not_away"))
    elif verb == "invite":
        _invite(screen, command)
    elif verb == "table" and command.args:
        _rule(screen, command)
    elif verb == "key":
        _key(screen, command)
    elif verb == "report":
        _report(screen, command)
    else:
        return False
    return True


def named(app: Host) -> str:
    """The person's name: a social verb runs for a named person (else a bug, told as a failed command)."""
    if app.player is None:
        raise RuntimeError("a social verb ran before the person had a name")
    return app.player


def _known(app: Host, name: str) -> str | None:
    """The spelling of a person: online now, or an account of the store."""
    name = name[:NAME_MAX]
    online = app.club.online_name(name)
    if online is not None:
        return online
    store = getattr(app.club, "store", None)
    account = store.account(name) if store is not None else None
    return account.name if account is not None else None


def _tell(screen: Lines, command: Command) -> None:
    app = screen.club_app
    name, _, text = command.rest.partition(" ")
    if not name or not text.strip():
        screen.error(screen.t("social.tell_usage"))
        return
    app.club.tell(named(app), name[:NAME_MAX], text)


def _report(screen: Lines, command: Command) -> None:
    """``report NAME words``: the house gets it with what of his words this person could see."""
    app = screen.club_app
    name, _, words = command.rest.partition(" ")
    if not name or not words.strip():
        screen.error(screen.t("report.usage"))
        return
    app.club.speech.mark(named(app))  # counted as a line: a flood of reports is slowed as chat is
    report = app.club.report(named(app), name[:NAME_MAX], words)
    screen.say_line(screen.t("report.filed", name=report.target))


def _ignore(screen: Lines, command: Command) -> None:
    app = screen.club_app
    social = app.club.social
    if not command.args:
        if command.verb == "unignore":
            screen.error(screen.t("social.unignore_usage"))
            return
        names = social.ignored_names(named(app))
        screen.say_line(screen.t("social.ignore_list", names=", ".join(names)) if names else
                        screen.t("social.ignore_none"))
        return
    typed = command.args[0][:NAME_MAX]
    if command.verb == "unignore":
        social.ignore(named(app), typed, False, keep=not app.guest)
        screen.say_line(screen.t("social.unignored", name=typed))
        return
    name = _known(app, typed)
    if name is None:
        screen.error(screen.t("social.nobody", name=typed))
        return
    social.ignore(named(app), name, True, keep=not app.guest)
    screen.say_line(screen.t("social.ignored", name=name))


def _my_table(screen: Lines) -> TableLike | None:
    app = screen.club_app
    me = named(app)
    table = screen.table_here() or app.club.where(me)
    if table is None or me not in table.seats:
        screen.error(screen.t("social.need_seat"))
        return None
    return table


def _invite(screen: Lines, command: Command) -> None:
    app = screen.club_app
    if not command.args:
        screen.error(screen.t("social.invite_usage"))
        return
    table = _my_table(screen)
    if table is None:
        return
    name = _known(app, command.args[0])
    if name is None:
        screen.error(screen.t("social.nobody", name=command.args[0][:NAME_MAX]))
        return

    def invited(_none: object) -> None:
        app.club.social.notify(name, "invited", {"by": app.player, "table": table.id})
        screen.say_line(screen.t("social.invited", name=name, id=table.id))

    pending.after(screen, table.invite(named(app), name), invited)


def _rule(screen: Lines, command: Command) -> None:
    """``table private|public``, ``table watchers all|none|friends``, ``table rail after|never``."""
    word = command.args[0].lower()
    if word in RULE_WORDS:
        key, value = RULE_WORDS[word]
    elif word in RULE_KEYS and len(command.args) > 1:
        key, value = RULE_KEYS[word], RULE_VALUES.get(command.args[1].lower(), command.args[1].lower())
    else:
        screen.error(screen.t("social.rule_usage"))
        return
    table = _my_table(screen)
    if table is None:
        return
    if table.in_deal():
        raise TableError("table.in_deal_rule", "The table's rules change between deals.")
    pending.after(screen, table.set_rule(named(screen.club_app), key, value[:16]),
                  lambda _none: screen.say_line(rules_line(table, screen.club_app.lang)))


def rules_line(table: TableLike, lang: str) -> str:
    rules = table.seating
    return tr(lang, "social.rules", id=table.id,
              private=tr(lang, "social.word_private" if rules.private else "social.word_public"),
              watchers=tr(lang, f"social.watchers_{rules.watchers}"), rail=tr(lang, f"social.rail_{rules.rail}"))


def _key(screen: Lines, command: Command) -> None:
    app = screen.club_app
    keys = getattr(app, "keys", None)
    what = KEY_WORDS.get(command.args[0].lower()) if command.args else None
    if what is None:
        screen.error(screen.t("social.key_usage"))
        return
    if keys is None or app.guest:
        screen.error(screen.t("social.key_none"))
        return
    if what == "add":  # answered once the store's thread has kept the code
        def added(got: str) -> None:
            if "." in got:  # a catalogue key, why not (a code is letters and a dash)
                screen.error(screen.t(got))
            else:
                screen.say_line(screen.t("social.key_code", code=got, minutes=10))

        pending.after(screen, keys.add(), added)
    elif what == "link":
        screen.error(screen.t("social.key_linked_already"))
    elif what == "list":  # answered once the store's thread has read them
        def listed(rows: Any) -> None:
            if isinstance(rows, str):
                screen.error(screen.t(rows))
                return
            for fingerprint, current in rows:
                screen.say_line(screen.t("social.key_row_current" if current else "social.key_row", fp=fingerprint))

        pending.after(screen, keys.list(), listed)
    else:
        if len(command.args) < 2:
            screen.error(screen.t("social.key_usage"))
            return
        typed = command.args[1][:100]

        def removed(problem: str | None) -> None:
            if problem:
                screen.error(screen.t(problem))
            else:
                screen.say_line(screen.t("social.key_removed", fp=quote(typed)))

        pending.after(screen, keys.remove(typed), removed)


def link_words(line: str) -> str | None:
    """``key link CODE`` typed where a name is asked: the code, else None."""
    words = line.split()
    if len(words) == 3 and words[0].lower() in LINK_WORDS and KEY_WORDS.get(words[1].lower()) == "link":
        return words[2][:CODE_MAX]
    return None


def link_refusal(linked: str | None) -> str | None:
    """The key ring's answer to ``key link`` (``KeyRing.link``): None if it is the account's name,
    else the catalogue key of why not (a name never holds a dot: ``net.ssh.identity.NAME_RE``)."""
    if not linked or "." in linked:
        return linked or "social.key_none"
    return None


# -- lines told to a person ---------------------------------------------------------------


def chat_line(event: Event, names: Sequence[str], lang: str, viewer: str | None, seated: bool,
              hides: Callable[[str], bool] | None) -> str | None:
    """A table's chat as the viewer may read it: "" for not chat, None for hidden, else the line."""
    if event.kind == "say":
        if hides is not None and hides(str(event.data.get("name", ""))):
            return None
        return ""
    if event.kind == "rail_summary":
        if not seated:
            return None  # the watchers heard the rail as it was said
        lines = [(n, t) for n, t in event.data.get("lines", []) if hides is None or not hides(str(n))]
        if not lines:
            return None
        return tr(lang, "social.rail_summary", lines=" · ".join(f"{n}: {t}" for n, t in lines))
    return ""


def rail_line(event: Event, lang: str, hides: Callable[[str], bool] | None) -> str | None:
    name = str(event.data.get("name", ""))
    if not name or (hides is not None and hides(name)):
        return None
    return tr(lang, "social.rail", name=name, text=event.data.get("text", ""))


def inbox_line(event: Event, me: str, lang: str) -> str:
    data = event.data
    if event.kind == "tell":
        if name_key(str(data.get("from", ""))) == name_key(me):
            return tr(lang, "social.told", name=data.get("to", ""), text=data.get("text", ""))
        return tr(lang, "social.tell", name=data.get("from", ""), text=data.get("text", ""))
    if event.kind == "invited":
        return tr(lang, "social.invite_note", name=data.get("by", ""), id=data.get("table", ""))
    if event.kind == "note":  # the club's word to him (a setting not kept): a catalogue key, said in his language
        params = dict(data.get("params") or {})
        if "verb" in params:  # a command's word, in his language (``bell`` / ``звонок``)
            from tui.commands import verb_word

            params["verb"] = verb_word(str(params["verb"]), lang)
        return tr(lang, str(data.get("key", "")), **params)
    return ""


def who_note(club: Any, name: str, lang: str) -> str:
    """``Anna (away: lunch)`` beside a name."""
    social = getattr(club, "social", None)
    note = social.away_note(name) if social is not None else None
    if note is None:
        return name
    return tr(lang, "social.away_mark_note" if note else "social.away_mark", name=name, text=note)


__all__ = ["SocialError", "chat_line", "handle", "inbox_line", "link_words", "rail_line", "rules_line", "who_note"]
